/**
 * The planner: from the records a template holds (with their ids) and the records the program
 * wants, the exact PATCH requests to send, in order, with human-readable corrections and a summary.
 *
 * Records without changes keep their ids. The service's PATCH does not say in which order it
 * returns the ids of added records, so each request carries at most ONE add (DECISIONS.md, "Record
 * ids"): the first request carries every `del` and `update` plus the first add, each further
 * request one more add. Everything is deterministic: the same sets of records, in any order, give
 * the same plan.
 *
 * The planner is linear apart from sorting (Maps, never nested scans), so templates of 100k records
 * plan in well under a second.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import type { DelItem, PatchRecordsBody, UpdateItem, WireRecord } from "../client/wire";
import {
  canonicalOrder,
  compareRecords,
  describeRecord,
  identityOf,
  NUMBER_FIELDS,
  type RecordSpec,
  type SafetyThreshold,
  type StateRecord,
  toUpdateItem,
  toWireRecord,
} from "./rules";

// The threshold is an input rule (rules.ts); re-exported because checkSafety takes it.
export { DEFAULT_SAFETY_THRESHOLD, type SafetyThreshold } from "./rules";

/**
 * One PATCH request and what it does. `body` is exactly what is sent; `add`, `updates` and `dels`
 * say which records it concerns, so the caller can apply the outcome to its state with
 * {@link applyStep}.
 */
export interface PatchStep {
  body: PatchRecordsBody;
  /** The one record this request adds, if any (its id comes back in the response). */
  add?: RecordSpec;
  /** Records changed in place: they keep their ids. */
  updates: Array<{ from: StateRecord; to: RecordSpec }>;
  /** Records removed. */
  dels: StateRecord[];
}

/**
 * One change, as a person reads it, in the manner of dnscontrol:
 * `+ CREATE www CNAME {domainname}.`, `~ MODIFY @ MX mx1.example.net priority 10 -> 20`,
 * `- DELETE old A 192.0.2.9`.
 */
export interface Correction {
  kind: "create" | "update" | "delete";
  message: string;
}

/** How many records a plan creates, updates, deletes and leaves alone, and how many requests it sends. */
export interface PlanSummary {
  creates: number;
  updates: number;
  deletes: number;
  unchanged: number;
  requests: number;
}

/** What to send, in order, and what it means. */
export interface Plan {
  /** The PATCH requests, in the order they must be sent. */
  steps: PatchStep[];
  /** Every change for people: deletes, then modifications, then creates, each in canonical order. */
  corrections: Correction[];
  summary: PlanSummary;
  /** The state records that stay as they are (with their ids), in canonical order. */
  unchanged: StateRecord[];
}

interface Pairing {
  unchanged: StateRecord[];
  updates: Array<{ from: StateRecord; to: RecordSpec }>;
  dels: StateRecord[];
  adds: RecordSpec[];
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Pairs current with desired records: exact matches first (they stay), then records of one type
 * and name (updated in place), then records of one type whatever their names (updated, renamed).
 * Both inputs are in canonical order and every list derived from them stays so, which makes the
 * pairing deterministic.
 */
function pair(current: StateRecord[], desired: RecordSpec[]): Pairing {
  const unchanged: StateRecord[] = [];
  const exact = groupBy(current, identityOf);
  const taken = new Set<StateRecord>();
  const freshDesired: RecordSpec[] = [];
  const nextOfIdentity = new Map<string, number>();
  for (const want of desired) {
    const identity = identityOf(want);
    const candidates = exact.get(identity);
    const next = nextOfIdentity.get(identity) ?? 0;
    const match = candidates?.[next];
    if (match) {
      nextOfIdentity.set(identity, next + 1);
      taken.add(match);
      unchanged.push(match);
    } else {
      freshDesired.push(want);
    }
  }
  const staleCurrent = current.filter((r) => !taken.has(r));

  const updates: Array<{ from: StateRecord; to: RecordSpec }> = [];
  const pairedCurrent = new Set<StateRecord>();
  const pairedDesired = new Set<RecordSpec>();
  const zip = (from: readonly StateRecord[], to: readonly RecordSpec[]): void => {
    const n = Math.min(from.length, to.length);
    for (let i = 0; i < n; i++) {
      const f = from[i]!;
      const t = to[i]!;
      updates.push({ from: f, to: t });
      pairedCurrent.add(f);
      pairedDesired.add(t);
    }
  };

  const byTypeAndName = (r: RecordSpec) => `${r.type}\u0000${r.name}`;
  const desiredByTypeAndName = groupBy(freshDesired, byTypeAndName);
  for (const [key, from] of groupBy(staleCurrent, byTypeAndName)) {
    zip(from, desiredByTypeAndName.get(key) ?? []);
  }
  const desiredByType = groupBy(
    freshDesired.filter((r) => !pairedDesired.has(r)),
    (r) => r.type,
  );
  for (const [type, from] of groupBy(
    staleCurrent.filter((r) => !pairedCurrent.has(r)),
    (r) => r.type,
  )) {
    zip(from, desiredByType.get(type) ?? []);
  }

  return {
    unchanged,
    updates: updates.sort((a, b) => compareState(a.from, b.from)),
    dels: staleCurrent.filter((r) => !pairedCurrent.has(r)),
    adds: freshDesired.filter((r) => !pairedDesired.has(r)),
  };
}

/** Canonical order, then id: a total order of state records. */
function compareState(a: StateRecord, b: StateRecord): number {
  return compareRecords(a, b) || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0);
}

/** `~ MODIFY @ MX mx1.example.net priority 10 -> 20`: what changes, and what identifies the record. */
function modifyMessage(from: StateRecord, to: RecordSpec): string {
  const changes: string[] = [];
  if (from.name !== to.name) changes.push(`name ${from.name} -> ${to.name}`);
  if (from.content !== to.content) changes.push(`content ${from.content} -> ${to.content}`);
  for (const field of NUMBER_FIELDS) {
    if (from[field] !== to[field])
      changes.push(`${field} ${from[field] ?? "(none)"} -> ${to[field] ?? "(none)"}`);
  }
  const identity =
    from.content === to.content ? [from.name, from.type, from.content] : [from.name, from.type];
  return `~ MODIFY ${identity.join(" ")} ${changes.join(", ")}`;
}

function corrections(p: Pairing): Correction[] {
  return [
    ...p.dels.map((r): Correction => ({ kind: "delete", message: `- DELETE ${describeRecord(r)}` })),
    ...p.updates.map(({ from, to }): Correction => ({ kind: "update", message: modifyMessage(from, to) })),
    ...p.adds.map((r): Correction => ({ kind: "create", message: `+ CREATE ${describeRecord(r)}` })),
  ];
}

function patchBody(add: WireRecord[], update: UpdateItem[], del: DelItem[]): PatchRecordsBody {
  const body: PatchRecordsBody = {};
  if (add.length > 0) body.add = add;
  if (update.length > 0) body.update = update;
  if (del.length > 0) body.del = del;
  return body;
}

function steps(p: Pairing): PatchStep[] {
  if (p.adds.length === 0 && p.updates.length === 0 && p.dels.length === 0) return [];
  const [firstAdd, ...laterAdds] = p.adds;
  const first: PatchStep = {
    body: patchBody(
      firstAdd ? [toWireRecord(firstAdd)] : [],
      p.updates.map(({ from, to }) => toUpdateItem(from.recordId, to)),
      p.dels.map((r) => ({ record_id: r.recordId })),
    ),
    updates: p.updates,
    dels: p.dels,
  };
  if (firstAdd) first.add = firstAdd;
  const rest = laterAdds.map(
    (add): PatchStep => ({ body: { add: [toWireRecord(add)] }, add, updates: [], dels: [] }),
  );
  return [first, ...rest];
}

function planOf(p: Pairing): Plan {
  const planned = steps(p);
  return {
    steps: planned,
    corrections: corrections(p),
    summary: {
      creates: p.adds.length,
      updates: p.updates.length,
      deletes: p.dels.length,
      unchanged: p.unchanged.length,
      requests: planned.length,
    },
    unchanged: p.unchanged,
  };
}

/**
 * Plans the PATCH requests that turn the `current` records of a template into the `desired` ones.
 *
 * Exact matches stay as they are and keep their ids. Among the other records, within each type,
 * records of the same name are paired first (an `update` of content or numbers), then the rest
 * regardless of name (an `update` that renames); what is left over is deleted (current) or added
 * (desired). A type change is therefore a `del` plus an `add`. There are no steps when nothing
 * changes, else `max(1, adds)` steps: the first carries every `del` and `update` and the first add.
 *
 * @param current the records the template holds, with their ids (any order)
 * @param desired the records wanted, normalized by `validateRecords` (any order)
 * @example
 * const plan = planUpdate(state, [{ name: "www", type: "A", content: "192.0.2.2" }]);
 * plan.corrections.map((c) => c.message); // ["~ MODIFY www A content 192.0.2.1 -> 192.0.2.2"]
 */
export function planUpdate(current: readonly StateRecord[], desired: readonly RecordSpec[]): Plan {
  return planOf(pair(canonicalOrder(current), canonicalOrder(desired)));
}

/**
 * Plans the removal of every record in `current`: one request with all `del` items, or none when
 * there is nothing to remove.
 *
 * @example
 * planDelete(state).steps[0]?.body; // { del: [{ record_id: "r1" }, ...] }
 */
export function planDelete(current: readonly StateRecord[]): Plan {
  return planOf({ unchanged: [], updates: [], dels: canonicalOrder(current), adds: [] });
}

function withId(r: RecordSpec, recordId: string): StateRecord {
  const state: StateRecord = { name: r.name, type: r.type, content: r.content, recordId };
  for (const field of NUMBER_FIELDS) {
    const value = r[field];
    if (value !== undefined) state[field] = value;
  }
  return state;
}

/**
 * The state after `step` succeeded: its `dels` removed (an id already gone is fine: the record is
 * gone either way), its updates applied in place (ids kept), its add appended under `newIds[0]`.
 * Returns a new array in canonical order; `state` is not changed.
 *
 * @param newIds the ids the service returned for the step: one if the step adds a record, else none
 * @throws Error if `newIds` does not hold exactly one id per add, if a new id is already in use, or
 *   if an update names a record that is not in `state` (the caller must make that an add first)
 * @example
 * let state = current;
 * for (const step of plan.steps) state = applyStep(state, step, await send(step.body));
 */
export function applyStep(
  state: readonly StateRecord[],
  step: PatchStep,
  newIds: readonly string[],
): StateRecord[] {
  const adds = step.add ? 1 : 0;
  if (newIds.length !== adds) {
    throw new Error(
      `the request added ${adds} record(s) but ${newIds.length} record id(s) came back (${JSON.stringify(newIds)}); ` +
        "the new records cannot be attributed, so the state is not updated",
    );
  }
  const deleted = new Set(step.dels.map((r) => r.recordId));
  const updated = new Map(step.updates.map(({ from, to }) => [from.recordId, to]));
  const found = new Set<string>();
  const next: StateRecord[] = [];
  for (const r of state) {
    if (deleted.has(r.recordId)) continue;
    const to = updated.get(r.recordId);
    if (to) found.add(r.recordId);
    next.push(to ? withId(to, r.recordId) : r);
  }
  const missing = [...updated.keys()].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new Error(`cannot apply updates of records ${missing.join(", ")}: they are not in the state`);
  }
  const [newId] = newIds;
  if (step.add && newId !== undefined) {
    if (newId === "" || next.some((r) => r.recordId === newId)) {
      throw new Error(
        `the service returned the record id "${newId}" for a new record, but it is empty or already in use`,
      );
    }
    next.push(withId(step.add, newId));
  }
  return canonicalOrder(next);
}

/**
 * One line for people, e.g. `2 to create, 1 to update, 1 to delete, 7 unchanged (3 requests)`.
 *
 * @example
 * formatSummary({ creates: 0, updates: 1, deletes: 0, unchanged: 4, requests: 1 });
 * // "0 to create, 1 to update, 0 to delete, 4 unchanged (1 request)"
 */
export function formatSummary(s: PlanSummary): string {
  const requests = `${s.requests} ${s.requests === 1 ? "request" : "requests"}`;
  return `${s.creates} to create, ${s.updates} to update, ${s.deletes} to delete, ${s.unchanged} unchanged (${requests})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The safety check, like octoDNS's: when the template holds at least `minExistingRecords` records
 * and the plan would update or delete more than `maxChangePercent` percent of them, returns a
 * message that gives the counts, the share and how to allow it; else `undefined`. Creates never
 * count: they destroy nothing. `false` turns the check off.
 *
 * @param existing how many records the template holds now
 * @example
 * checkSafety(10, { creates: 0, updates: 1, deletes: 3, unchanged: 6, requests: 1 }, DEFAULT_SAFETY_THRESHOLD);
 * // "refusing to update or delete 4 of 10 existing records (1 update, 3 deletes: 40%) ..."
 */
export function checkSafety(
  existing: number,
  summary: PlanSummary,
  threshold: SafetyThreshold | false,
): string | undefined {
  if (threshold === false || existing <= 0 || existing < threshold.minExistingRecords) return undefined;
  const changed = summary.updates + summary.deletes;
  // Compared without dividing, so that exactly 30 % of 10 records is not refused by a rounding error.
  if (changed * 100 <= threshold.maxChangePercent * existing) return undefined;
  const share = Math.round((changed * 1000) / existing) / 10;
  const needed = Math.ceil((changed * 100) / existing);
  const allow =
    needed <= 100
      ? `set safetyThreshold.maxChangePercent to at least ${needed}, or safetyThreshold: false`
      : "set safetyThreshold: false";
  return (
    `refusing to update or delete ${changed} of ${existing} existing records ` +
    `(${plural(summary.updates, "update")}, ${plural(summary.deletes, "delete")}: ${share}%), ` +
    `more than the safety threshold of ${threshold.maxChangePercent}% ` +
    `(checked when a template holds at least ${threshold.minExistingRecords} records); ` +
    `if this is intended, ${allow}`
  );
}
