/**
 * What the API's answers mean for the records a resource holds: the run loop (`run.ts`) folds each
 * outcome of a planned request into the held records with these, so that after every accepted
 * request they are exactly what the template holds, and a failure part-way leaves a state that
 * says what exists.
 *
 * Pure: no HTTP, no Pulumi.
 */

import { canonicalOrder, describeRecord, RECORD_MODEL, type RecordSpec } from "../dns/model";
import {
  type Correction,
  type HeldRecord,
  idsOf,
  type KeyedRecord,
  namedRecord,
  type PlannedRequest,
} from "./corrections";
import { UnattributableAnswerError } from "./errors";

function withKey(r: RecordSpec, recordId: string, key: string): HeldRecord {
  return { ...r, recordId, key };
}

/**
 * The held records after the API accepted a request carrying `corrections`: deletes removed,
 * updates applied in place (ids kept), verified records keyed as declared, the create (if any)
 * added under `newIds[0]`. Returns a new array in canonical order; `held` is not changed. A
 * correction whose record is already gone is fine (a `del` of a record that vanished is done).
 *
 * @param newIds the ids the service returned: one per add, else none; a URL forward added alone
 *   may be answered with the ids of the A and AAAA records the service made for it too, which it
 *   then owns
 * @throws UnattributableAnswerError if `newIds` does not hold one id per add, or a new id is empty
 *   or already in use
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
  const [only] = creates;
  const forwardAlone =
    creates.length === 1 && only !== undefined && RECORD_MODEL[only.record.type].urlForward;
  if (forwardAlone && newIds.length >= 1 && newIds.length <= 3) {
    return applyForward(
      applyAccepted(
        held,
        corrections.filter((c) => c.kind !== "create"),
        [],
      ),
      only,
      newIds,
    );
  }
  if (newIds.length !== creates.length) {
    throw new UnattributableAnswerError(
      `the request added ${creates.length} record(s) but ${newIds.length} record id(s) came back (${JSON.stringify(newIds)})`,
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
  // An id a URL forward owns for the records made for it is in use too.
  const inUse = new Set([...byId.values()].flatMap(idsOf));
  creates.forEach((c, i) => {
    const id = newIds[i]!;
    if (id === "" || inUse.has(id)) {
      throw new UnattributableAnswerError(
        `the record id "${id}" came back for a new record, but it is empty or already in use`,
      );
    }
    inUse.add(id);
    byId.set(id, withKey(c.record, id, c.record.key));
  });
  return canonicalOrder([...byId.values()]);
}

/** The held records with a URL forward added: it owns every id its add was answered with. */
function applyForward(
  held: HeldRecord[],
  add: Extract<Correction, { kind: "create" }>,
  newIds: readonly string[],
): HeldRecord[] {
  const inUse = new Set(held.flatMap(idsOf));
  const ids = [...newIds].sort();
  if (ids.some((id) => id === "" || inUse.has(id)) || new Set(ids).size !== ids.length) {
    throw new UnattributableAnswerError(
      `the ids ${JSON.stringify(newIds)} came back for a URL forward, but one is empty, repeated or already in use`,
    );
  }
  const [recordId, ...madeIds] = ids as [string, ...string[]];
  const forward: HeldRecord = { ...withKey(add.record, recordId, add.record.key) };
  if (madeIds.length > 0) forward.madeIds = madeIds;
  return canonicalOrder([...held, forward]);
}

/**
 * The held records after the API accepted a PUT of `records`: ids by position, as the spec
 * promises one id per submitted record.
 *
 * @throws UnattributableAnswerError when the answer holds another count of ids
 */
export function applyPut(records: readonly KeyedRecord[], ids: readonly string[]): HeldRecord[] {
  if (ids.length !== records.length || new Set(ids).size !== ids.length || ids.includes("")) {
    throw new UnattributableAnswerError(
      `the PUT of ${records.length} record(s) was answered with ${ids.length} record id(s) (${JSON.stringify(ids)})`,
    );
  }
  return canonicalOrder(records.map((r, i) => ({ ...r, recordId: ids[i]! })));
}

/**
 * The held records without those named by `vanished` corrections: what exists once a search found them.
 *
 * @example
 * held = withoutVanished(held, search.vanished);
 */
export function withoutVanished(held: readonly HeldRecord[], vanished: readonly Correction[]): HeldRecord[] {
  // A URL forward's delete is searched id by id: any of its ids found gone takes it (all of them go).
  const gone = new Set(
    vanished.flatMap((c) =>
      c.kind === "delete" ? c.del.map((d) => d.record_id) : (namedRecord(c)?.recordId ?? []),
    ),
  );
  return held.filter((r) => !idsOf(r).some((id) => gone.has(id)));
}

/**
 * How one planned request came out, as far as its answer tells (`apply.ts` says which):
 * - `accepted`: applied; `ids` are the ids of the records it added (none for a PATCH without add).
 * - `refused`: a PATCH that names record ids was answered 404: at least one of them is gone (the
 *   API validates a PATCH as a whole, so nothing of it applied).
 * - `template-gone`: a 404 that can only be about the template (a PUT, or a PATCH naming no id).
 * - `unknown`: the request may have applied without its answer coming back.
 * - `failed`: it did not apply (refused for another reason, or never sent).
 */
export type Outcome =
  | { kind: "accepted"; ids: string[] }
  | { kind: "refused"; error: unknown }
  | { kind: "template-gone"; error: unknown }
  | { kind: "unknown"; error: unknown }
  | { kind: "failed"; error: unknown };

/** What a run knows of a template: the records it holds for the resource, and its adds of unknown outcome. */
export interface Tracked {
  held: HeldRecord[];
  /** Adds of unknown outcome, as they read in messages: the record may exist without us knowing its id. */
  untracked: string[];
}

/** What the template holds after a PUT that may have applied: none of the old ids, and no new one known. */
function putOfUnknownOutcome(records: readonly KeyedRecord[]): Tracked {
  return { held: [], untracked: records.map(describeRecord) };
}

/**
 * What is known after `request` came out as `outcome`: an accepted request applied (ids attributed
 * as the plan laid out, or `failure` when they cannot be, and its adds of unknown outcome); an add
 * that may have applied is tracked as of unknown outcome, never forgotten; a PUT that may have
 * applied left none of the old ids; a template gone holds nothing after a PUT. A refusal, a
 * failure that did not apply and a 404 to a PATCH change nothing.
 *
 * @returns the new state (`state` is not changed) and, for an accepted answer that cannot be
 *   attributed, the error that says so
 * @example
 * const { state: next, failure } = foldOutcome(state, request, await send(api, templateId, request));
 */
export function foldOutcome(
  state: Tracked,
  request: PlannedRequest,
  outcome: Outcome,
): { state: Tracked; failure?: UnattributableAnswerError } {
  if (request.method === "PUT") {
    if (outcome.kind === "accepted") {
      try {
        return { state: { held: applyPut(request.records, outcome.ids), untracked: [] } };
      } catch (err) {
        if (!(err instanceof UnattributableAnswerError)) throw err;
        return { state: putOfUnknownOutcome(request.records), failure: err };
      }
    }
    if (outcome.kind === "template-gone") return { state: { held: [], untracked: [] } };
    if (outcome.kind === "unknown") return { state: putOfUnknownOutcome(request.records) };
    return { state };
  }
  const adds = request.corrections.flatMap((c) => (c.kind === "create" ? [describeRecord(c.record)] : []));
  if (outcome.kind === "accepted") {
    try {
      return { state: { ...state, held: applyAccepted(state.held, request.corrections, outcome.ids) } };
    } catch (err) {
      if (!(err instanceof UnattributableAnswerError)) throw err;
      // The request applied, but its new ids cannot be told apart: its adds are of unknown outcome.
      const others = request.corrections.filter((c) => c.kind !== "create");
      return {
        state: { held: applyAccepted(state.held, others, []), untracked: [...state.untracked, ...adds] },
        failure: err,
      };
    }
  }
  // An add that may have reached the API without its id coming back: never resent blindly.
  if (outcome.kind === "unknown") return { state: { ...state, untracked: [...state.untracked, ...adds] } };
  return { state };
}
