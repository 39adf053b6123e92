/**
 * Corrections and requests: the vocabulary of a plan. A correction is one change for people (its
 * message) together with its part of a request (dnscontrol's `Correction{Msg, F}`); a request is
 * nothing but the corrections it carries, and its body is made of exactly their items. What an
 * answer means for the records a resource holds is `fold.ts`'s.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import type { DelItem, PatchRecordsBody, UpdateItem, WireRecord } from "../client/wire";
import {
  canonicalOrder,
  describeRecord,
  describeRecordWith,
  NUMBER_FIELDS,
  type RecordSpec,
  type StateRecord,
  toUpdateItem,
  toWireRecord,
} from "../dns/model";

/** A declared record with the key it has in the state (see `state.ts`: keys for readable previews). */
export interface KeyedRecord extends RecordSpec {
  key: string;
}

/** A record the resource holds: its values, the id the service gave it, and its key. */
export interface HeldRecord extends StateRecord {
  key: string;
  /**
   * A URL forward whose add was answered with several ids (its own, and those of the A and AAAA
   * records the service made for it, in an order not shown): the ids besides `recordId` (the
   * smallest). Which one is the forward's own is not known, so the forward is never updated in
   * place or re-stated; it is deleted with all of them.
   */
  madeIds?: string[];
}

/** Every id a held record owns: its own, and for a URL forward those of the records made for it. */
export function idsOf(r: HeldRecord): string[] {
  return [r.recordId, ...(r.madeIds ?? [])];
}

/**
 * One change, with its message for people and its part of a request. `verify` is the unchanged
 * record a request re-states to prove it still exists; it is never shown as a change, so it has no
 * message (an update re-states every unchanged record: 90,000 unread strings in a large template).
 */
export type Correction =
  | { kind: "create"; record: KeyedRecord; message: string; add: WireRecord }
  | { kind: "update"; from: HeldRecord; to: KeyedRecord; message: string; update: UpdateItem }
  | { kind: "delete"; record: HeldRecord; message: string; del: DelItem[] }
  | { kind: "verify"; from: HeldRecord; to: KeyedRecord; update: UpdateItem };

/** A correction people see in a plan: every kind but `verify`. */
export type ShownCorrection = Exclude<Correction, { kind: "verify" }>;

/** A correction that names a held record by its id (everything but a create). */
export type NamingCorrection = Exclude<Correction, { kind: "create" }>;

/**
 * One request of a plan: a PATCH of the corrections it carries (its body made of exactly their
 * items), or the PUT that replaces every record of the template with `records`.
 */
export type PlannedRequest =
  | { method: "PATCH"; corrections: Correction[]; body: PatchRecordsBody }
  | { method: "PUT"; records: KeyedRecord[]; body: WireRecord[] };

/** A PATCH of a plan. */
export type PlannedPatch = Extract<PlannedRequest, { method: "PATCH" }>;

/** How a correction writes each value of a record (records/masking.ts: a secret as `[secret]`). */
export type ShowValue = (value: string | number) => string;

/** `~ MODIFY @ MX mx1.example.net priority 10 -> 20`: what changes, and what identifies the record. */
function modifyMessage(from: RecordSpec, to: RecordSpec, show: ShowValue): string {
  const changes: string[] = [];
  if (from.name !== to.name) changes.push(`name ${show(from.name)} -> ${show(to.name)}`);
  if (from.content !== to.content) changes.push(`content ${show(from.content)} -> ${show(to.content)}`);
  for (const field of NUMBER_FIELDS) {
    const [was, is] = [from[field], to[field]];
    if (was !== is)
      changes.push(
        `${field} ${was === undefined ? "(none)" : show(was)} -> ${is === undefined ? "(none)" : show(is)}`,
      );
  }
  const identity =
    from.content === to.content ? [from.name, from.type, from.content] : [from.name, from.type];
  return `~ MODIFY ${identity.map((v, i) => (i === 1 ? v : show(v))).join(" ")} ${changes.join(", ")}`;
}

/**
 * A correction's message for people, each value written by `show`. Its `message` is this with
 * every value as it is; the provider's own announcements pass a `show` that masks secrets.
 *
 * @example
 * correctionMessage(c, (v) => (v === "s3cret" ? "[secret]" : String(v))); // "+ CREATE _k TXT [secret]"
 */
export function correctionMessage(c: ShownCorrection, show: ShowValue = String): string {
  switch (c.kind) {
    case "create":
      return `+ CREATE ${describeRecordWith(c.record, show)}`;
    case "update":
      return modifyMessage(c.from, c.to, show);
    case "delete":
      return `- DELETE ${describeRecordWith(c.record, show)}`;
  }
}

/** A correction that creates `record`: `+ CREATE www CNAME {domainname}.` */
export function createCorrection(record: KeyedRecord): ShownCorrection {
  return { kind: "create", record, message: `+ CREATE ${describeRecord(record)}`, add: toWireRecord(record) };
}

/** A correction that changes held record `from` into `to` in place: its id is kept. */
export function updateCorrection(from: HeldRecord, to: KeyedRecord): ShownCorrection {
  return {
    kind: "update",
    from,
    to,
    message: modifyMessage(from, to, String),
    update: toUpdateItem(from.recordId, to),
  };
}

/** A correction that removes held record `record` (a URL forward with every id it owns). */
export function deleteCorrection(record: HeldRecord): ShownCorrection {
  return {
    kind: "delete",
    record,
    message: `- DELETE ${describeRecord(record)}`,
    del: idsOf(record).map((id) => ({ record_id: id })),
  };
}

/** A correction that re-states held record `from` with the values it has, to prove it exists. */
export function verifyCorrection(from: HeldRecord, to: KeyedRecord): Correction {
  return {
    kind: "verify",
    from,
    to,
    update: toUpdateItem(from.recordId, from),
  };
}

/** The held record a correction names, or `undefined` for a create. */
export function namedRecord(c: Correction): HeldRecord | undefined {
  return c.kind === "create" ? undefined : c.kind === "delete" ? c.record : c.from;
}

/**
 * The PATCH that carries exactly `corrections`: their `add`, `update` (changes and
 * verifications) and `del` items; empty arrays are left out.
 *
 * @example
 * requestOf([createCorrection(www)]).body; // { add: [{ name: "www", type: "CNAME", ... }] }
 */
export function requestOf(corrections: readonly Correction[]): PlannedPatch {
  const add: WireRecord[] = [];
  const update: UpdateItem[] = [];
  const del: DelItem[] = [];
  for (const c of corrections) {
    if (c.kind === "create") add.push(c.add);
    else if (c.kind === "delete") del.push(...c.del);
    else update.push(c.update);
  }
  const body: PatchRecordsBody = {};
  if (add.length > 0) body.add = add;
  if (update.length > 0) body.update = update;
  if (del.length > 0) body.del = del;
  return { method: "PATCH", corrections: [...corrections], body };
}

/** The PUT that replaces every record of the template with `records` (in canonical order). */
export function putOf(records: readonly KeyedRecord[]): PlannedRequest {
  const ordered = canonicalOrder(records);
  return { method: "PUT", records: ordered, body: ordered.map(toWireRecord) };
}

/**
 * Whether a 404 to this request can mean that a held record vanished (it names record ids) rather
 * than that the template is gone.
 */
export function namesRecordIds(request: PlannedRequest): boolean {
  return request.method === "PATCH" && request.corrections.some((c) => c.kind !== "create");
}
