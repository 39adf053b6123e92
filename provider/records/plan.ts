/**
 * The planner: from the records a template holds (with their ids) and the records the program
 * declares, the corrections to make and the requests that carry them, as dnscontrol's diff engine
 * turns desired vs existing into a short list of corrections (`Correction{Msg, F}`): here each
 * correction carries its message and its part of a request together, and a request is nothing but
 * the corrections it carries.
 *
 * Records without changes keep their ids. The service's PATCH does not say in which order it
 * returns the ids of added records, so each request carries at most ONE add (DECISIONS.md, "Record
 * ids"). The first request of an update also verifies every held record it leaves unchanged
 * (DECISIONS.md, "Verified updates"): an `update` item with the values the record already has, so
 * that its 2xx proves every held id still exists. Without `purge`, a request that can be answered
 * 404 (it carries `del`, `update` or verification items) carries no add, so that an API that
 * applies part of a refused request can never make us add a record twice.
 *
 * After a 404, {@link findVanished} plans the probes that find which held records vanished.
 *
 * Everything is deterministic and linear apart from sorting (Maps, never nested scans).
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
  type StateRecord,
  toUpdateItem,
  toWireRecord,
} from "./model";

/** A declared record with the key it has in the state (see `state.ts`: keys for readable previews). */
export interface KeyedRecord extends RecordSpec {
  key: string;
}

/** A record the resource holds: its values, the id the service gave it, and its key. */
export interface HeldRecord extends StateRecord {
  key: string;
}

/**
 * One change, with its message for people and its part of a request. `verify` is the unchanged
 * record a request re-states to prove it still exists; it is never shown as a change.
 */
export type Correction =
  | { kind: "create"; record: KeyedRecord; message: string; add: WireRecord }
  | { kind: "update"; from: HeldRecord; to: KeyedRecord; message: string; update: UpdateItem }
  | { kind: "delete"; record: HeldRecord; message: string; del: DelItem }
  | { kind: "verify"; from: HeldRecord; to: KeyedRecord; message: string; update: UpdateItem };

/** One PATCH: the corrections it carries, and the body made of exactly their items. */
export interface PlannedRequest {
  corrections: Correction[];
  body: PatchRecordsBody;
}

/** How many records a plan creates, updates, deletes and leaves alone, and how many requests it sends. */
export interface PlanSummary {
  creates: number;
  updates: number;
  deletes: number;
  unchanged: number;
  requests: number;
}

/** What to change, for people and for the API. */
export interface Plan {
  /** Every change for people: deletes, then modifications, then creates, each in canonical order. */
  corrections: Correction[];
  /** The PATCH requests, in the order they must be sent. */
  requests: PlannedRequest[];
  summary: PlanSummary;
  /** The held records that stay as they are, each with the declared record it stands for. */
  unchanged: Array<{ from: HeldRecord; to: KeyedRecord }>;
}

/** How held and declared records correspond. */
export interface Pairing<H extends StateRecord, D extends RecordSpec> {
  unchanged: Array<{ from: H; to: D }>;
  updates: Array<{ from: H; to: D }>;
  dels: H[];
  adds: D[];
}

/** Canonical order, then id: a total order of held records. */
function compareHeld(a: StateRecord, b: StateRecord): number {
  return compareRecords(a, b) || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0);
}

/**
 * Pairs held with declared records: exact matches first (they stay), then records of one type and
 * name (updated in place), then records of one type whatever their names (updated, renamed). What
 * is left is deleted (held) or added (declared). Deterministic: the same sets in any order give the
 * same pairing. Also what keeps a record's preview key across updates (`state.ts`).
 *
 * @example
 * pairRecords(held, declared).updates; // [{ from: <www A 192.0.2.1>, to: <www A 192.0.2.2> }]
 */
export function pairRecords<H extends StateRecord, D extends RecordSpec>(
  held: readonly H[],
  desired: readonly D[],
): Pairing<H, D> {
  const current = canonicalOrder(held);
  const wanted = canonicalOrder(desired);
  const unchanged: Array<{ from: H; to: D }> = [];
  const exact = Map.groupBy(current, identityOf);
  const used = new Map<string, number>();
  const freshDesired: D[] = [];
  for (const want of wanted) {
    const identity = identityOf(want);
    const next = used.get(identity) ?? 0;
    const match = exact.get(identity)?.[next];
    if (match) {
      used.set(identity, next + 1);
      unchanged.push({ from: match, to: want });
    } else freshDesired.push(want);
  }
  const taken = new Set<H>(unchanged.map((u) => u.from));
  const staleCurrent = current.filter((r) => !taken.has(r));

  const updates: Array<{ from: H; to: D }> = [];
  const paired = new Set<H | D>();
  const zip = (from: readonly H[], to: readonly D[]): void => {
    for (let i = 0; i < Math.min(from.length, to.length); i++) {
      updates.push({ from: from[i]!, to: to[i]! });
      paired.add(from[i]!).add(to[i]!);
    }
  };
  const byTypeAndName = (r: RecordSpec) => `${r.type}\u0000${r.name}`;
  const desiredByTypeAndName = Map.groupBy(freshDesired, byTypeAndName);
  for (const [key, from] of Map.groupBy(staleCurrent, byTypeAndName)) {
    zip(from, desiredByTypeAndName.get(key) ?? []);
  }
  const desiredByType = Map.groupBy(
    freshDesired.filter((r) => !paired.has(r)),
    (r) => r.type,
  );
  for (const [type, from] of Map.groupBy(
    staleCurrent.filter((r) => !paired.has(r)),
    (r) => r.type,
  )) {
    zip(from, desiredByType.get(type) ?? []);
  }
  return {
    unchanged,
    updates: updates.sort((a, b) => compareHeld(a.from, b.from)),
    dels: staleCurrent.filter((r) => !paired.has(r)),
    adds: freshDesired.filter((r) => !paired.has(r)),
  };
}

/** `~ MODIFY @ MX mx1.example.net priority 10 -> 20`: what changes, and what identifies the record. */
function modifyMessage(from: RecordSpec, to: RecordSpec): string {
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

/** A correction that creates `record`: `+ CREATE www CNAME {domainname}.` */
export function createCorrection(record: KeyedRecord): Correction {
  return { kind: "create", record, message: `+ CREATE ${describeRecord(record)}`, add: toWireRecord(record) };
}

function updateCorrection(from: HeldRecord, to: KeyedRecord): Correction {
  return {
    kind: "update",
    from,
    to,
    message: modifyMessage(from, to),
    update: toUpdateItem(from.recordId, to),
  };
}

function deleteCorrection(record: HeldRecord): Correction {
  return {
    kind: "delete",
    record,
    message: `- DELETE ${describeRecord(record)}`,
    del: { record_id: record.recordId },
  };
}

function verifyCorrection(from: HeldRecord, to: KeyedRecord): Correction {
  return {
    kind: "verify",
    from,
    to,
    message: `= VERIFY ${describeRecord(from)}`,
    update: toUpdateItem(from.recordId, from),
  };
}

/**
 * The request that carries exactly `corrections`: their `add`, `update` (changes and
 * verifications) and `del` items; empty arrays are left out.
 *
 * @example
 * requestOf([createCorrection(www)]).body; // { add: [{ name: "www", type: "CNAME", ... }] }
 */
export function requestOf(corrections: Correction[]): PlannedRequest {
  const add: WireRecord[] = [];
  const update: UpdateItem[] = [];
  const del: DelItem[] = [];
  for (const c of corrections) {
    if (c.kind === "create") add.push(c.add);
    else if (c.kind === "delete") del.push(c.del);
    else update.push(c.update);
  }
  const body: PatchRecordsBody = {};
  if (add.length > 0) body.add = add;
  if (update.length > 0) body.update = update;
  if (del.length > 0) body.del = del;
  return { corrections, body };
}

/**
 * Whether a 404 to this request can mean that a held record vanished (it names record ids) rather
 * than that the template is gone.
 */
export function namesRecordIds(request: PlannedRequest): boolean {
  return request.corrections.some((c) => c.kind !== "create");
}

/** Options of {@link planUpdate}. */
export interface PlanOptions {
  /**
   * The resource owns the template. Then the first request may carry an add beside the records it
   * names, because a 404 is followed by one PUT that erases whatever a partly applied request did.
   */
  purge: boolean;
}

/**
 * Plans the PATCH requests that turn the records a template holds into the declared ones.
 *
 * Exact matches stay and keep their ids; within each type, records of the same name are updated
 * in place, then the rest regardless of name (renamed); what is left is deleted or added, so a type
 * change is a `del` plus an `add`. When anything changes, the first request carries every `del`
 * and `update` and verifies every unchanged record; each add goes in a request of its own, except
 * that with `purge` the first add rides with the first request. No requests when nothing changes.
 *
 * @param held the records the template holds, with their ids and keys (any order)
 * @param desired the declared records, normalized and keyed (any order)
 * @example
 * const plan = planUpdate(held, [{ key: "www/A", name: "www", type: "A", content: "192.0.2.2" }], { purge: true });
 * plan.corrections.map((c) => c.message); // ["~ MODIFY www A content 192.0.2.1 -> 192.0.2.2"]
 */
export function planUpdate(
  held: readonly HeldRecord[],
  desired: readonly KeyedRecord[],
  options: PlanOptions,
): Plan {
  const p = pairRecords(held, desired);
  const corrections = [
    ...p.dels.map(deleteCorrection),
    ...p.updates.map(({ from, to }) => updateCorrection(from, to)),
    ...p.adds.map(createCorrection),
  ];
  const requests: PlannedRequest[] = [];
  if (corrections.length > 0) {
    const named = [
      ...corrections.filter((c) => c.kind !== "create"),
      ...p.unchanged.map(({ from, to }) => verifyCorrection(from, to)),
    ];
    const creates = corrections.filter((c) => c.kind === "create");
    // Without ids to name, a request can only be refused because the template is gone.
    const firstAdd = options.purge || named.length === 0 ? creates.shift() : undefined;
    const first = firstAdd ? [...named, firstAdd] : named;
    if (first.length > 0) requests.push(requestOf(first));
    for (const create of creates) requests.push(requestOf([create]));
  }
  return {
    corrections,
    requests,
    unchanged: p.unchanged,
    summary: {
      creates: p.adds.length,
      updates: p.updates.length,
      deletes: p.dels.length,
      unchanged: p.unchanged.length,
      requests: requests.length,
    },
  };
}

/**
 * Plans the removal of every held record: one request with all `del` items, or none.
 *
 * @example
 * planDelete(held).requests[0]?.body; // { del: [{ record_id: "r1" }, ...] }
 */
export function planDelete(held: readonly HeldRecord[]): Plan {
  const corrections = canonicalOrder(held).map(deleteCorrection);
  const requests = corrections.length > 0 ? [requestOf(corrections)] : [];
  return {
    corrections,
    requests,
    unchanged: [],
    summary: { creates: 0, updates: 0, deletes: held.length, unchanged: 0, requests: requests.length },
  };
}

/**
 * Plans the verification of every held record (what `pulumi refresh` sends when verification is
 * on): one request that re-states each record with the values it has, or none.
 *
 * @example
 * planVerify(held).requests[0]?.body; // { update: [{ record_id: "r1", name: "www", content: "..." }] }
 */
export function planVerify(held: readonly HeldRecord[]): Plan {
  const ordered = canonicalOrder(held);
  const requests = ordered.length > 0 ? [requestOf(ordered.map((r) => verifyCorrection(r, r)))] : [];
  return {
    corrections: [],
    requests,
    unchanged: ordered.map((r) => ({ from: r, to: r })),
    summary: { creates: 0, updates: 0, deletes: 0, unchanged: held.length, requests: requests.length },
  };
}

/** The first half (rounded up) and the rest. */
function halves<T>(items: readonly T[]): [T[], T[]] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}

/** What {@link findVanished} found. */
export interface VanishedSearch {
  /** Corrections whose record id the API no longer knows. */
  vanished: Correction[];
  /** Corrections of probes the API accepted: applied, their records exist. */
  applied: Correction[];
}

/**
 * Plans the probes that find which corrections of a request answered 404 name a record that no
 * longer exists (the API validates a PATCH as a whole, so a 404 does not say which). A generator:
 * each `yield` is the corrections of the next probe to send (a PATCH of just those, see
 * {@link requestOf}); the caller resumes it with `true` when the probe was accepted, `false` when
 * it was answered 404. Groups are halved, so `k` vanished records among `n` cost about
 * `2k log2(n/k)` probes rather than `n`; when the first half of a refused group is accepted, the
 * second is known to be refused without asking. Only corrections that name an id may be searched.
 *
 * @param refused the corrections of the refused request that name a record id
 * @example
 * const search = findVanished(refused);
 * for (let step = search.next(); !step.done; ) step = search.next(await accepted(requestOf(step.value)));
 */
export function* findVanished(
  refused: readonly Correction[],
): Generator<Correction[], VanishedSearch, boolean> {
  const found: VanishedSearch = { vanished: [], applied: [] };
  // `group` is known to be refused: it holds at least one vanished record.
  function* within(group: Correction[]): Generator<Correction[], void, boolean> {
    if (group.length === 1) {
      found.vanished.push(group[0]!);
      return;
    }
    const [first, second] = halves(group);
    if (yield first) {
      found.applied.push(...first);
      yield* within(second);
      return;
    }
    yield* within(first);
    if (yield second) found.applied.push(...second);
    else yield* within(second);
  }
  if (refused.some((c) => c.kind === "create")) {
    throw new Error("findVanished: an add names no record id; search only del, update and verify items");
  }
  if (refused.length > 0) yield* within([...refused]);
  return found;
}

function withKey(r: RecordSpec, recordId: string, key: string): HeldRecord {
  return { ...r, recordId, key };
}

/**
 * The held records after the API accepted a request carrying `corrections`: deletes removed,
 * updates applied in place (ids kept), verified records keyed as declared, the create (if any)
 * added under `newIds[0]`. Returns a new array in canonical order; `held` is not changed. A
 * correction whose record is already gone is fine (a `del` of a record that vanished is done).
 *
 * @param newIds the ids the service returned: one if the request adds a record, else none
 * @throws Error if `newIds` does not hold one id per add, or a new id is empty or already in use
 * @example
 * let held = before;
 * for (const request of plan.requests) held = applyAccepted(held, request.corrections, await send(request.body));
 */
export function applyAccepted(
  held: readonly HeldRecord[],
  corrections: readonly Correction[],
  newIds: readonly string[],
): HeldRecord[] {
  const creates = corrections.filter((c) => c.kind === "create");
  if (newIds.length !== creates.length) {
    throw new Error(
      `the request added ${creates.length} record(s) but ${newIds.length} record id(s) came back (${JSON.stringify(newIds)}); ` +
        "the new records cannot be attributed, so the state is not updated",
    );
  }
  const byId = new Map(held.map((r) => [r.recordId, r]));
  for (const c of corrections) {
    if (c.kind === "delete") byId.delete(c.record.recordId);
    else if (c.kind === "update") {
      if (byId.has(c.from.recordId)) byId.set(c.from.recordId, withKey(c.to, c.from.recordId, c.to.key));
    } else if (c.kind === "verify") {
      const r = byId.get(c.from.recordId);
      if (r) byId.set(r.recordId, { ...r, key: c.to.key });
    }
  }
  creates.forEach((c, i) => {
    const id = newIds[i]!;
    if (id === "" || byId.has(id)) {
      throw new Error(
        `the service returned the record id "${id}" for a new record, but it is empty or already in use`,
      );
    }
    byId.set(id, withKey(c.record, id, c.record.key));
  });
  return canonicalOrder([...byId.values()]);
}

/**
 * The held records without those of `vanished` corrections: what exists once a search found them.
 *
 * @example
 * held = withoutVanished(held, search.vanished);
 */
export function withoutVanished(held: readonly HeldRecord[], vanished: readonly Correction[]): HeldRecord[] {
  const gone = new Set(
    vanished.map((c) =>
      c.kind === "delete" ? c.record.recordId : c.kind === "create" ? "" : c.from.recordId,
    ),
  );
  return held.filter((r) => !gone.has(r.recordId));
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
