/**
 * The one decoder of what the engine hands DnsTemplateRecords' provider methods (stored inputs and
 * outputs of every shape ever written) and the one encoder back; and the keys that make previews
 * readable.
 *
 * Records are stored keyed (`{"www/CNAME": {...}}`), not as an array: the engine diffs arrays index
 * by index, so one record inserted near the top would show every later record as changed in
 * `pulumi preview --diff`. Record ids sit in a parallel keyed map (`ids`), so the records of the
 * outputs and of the checked inputs have the same shape and an unchanged record shows no
 * difference at all. Which key a record gets is the planner's (`planCheck`, with `keys.ts`): this
 * module only reads and writes them.
 *
 * Pure: no HTTP, no Pulumi.
 */

import { canonicalOrder, normalizeRecord, RECORD_MODEL, type RecordSpec } from "../dns/model";
import { isPlainObject } from "../values";
import { type HeldRecord, idsOf, type KeyedRecord } from "./corrections";
import { keyRecords } from "./keys";
import type { Declaration, Holding, Settings } from "./plan";
import { DEFAULT_SAFETY_THRESHOLD, type SafetyThreshold } from "./safety";

export type { Settings } from "./plan";

/** What `check()` returns and the engine stores as the resource's inputs. */
export type CheckedInputs = Settings & {
  records: Record<string, RecordSpec>;
};

/** What the resource's outputs hold (besides the engine's `__provider`). */
export type RecordsOutputs = CheckedInputs & {
  /**
   * Record id per record key; for a URL forward whose add was answered with the ids of the A and
   * AAAA records the service made for it, all of them (sorted: which is its own is not known).
   */
  ids: Record<string, string | string[]>;
  /** Readable summary of the last create or update. */
  lastPlan: string;
  /**
   * Set when an add may have reached the API without us learning its id (the connection broke
   * after the request was sent, or its answer could not be matched to it). With `purge`, the next
   * update rewrites the template with one PUT, which removes any such untracked record.
   */
  untrackedAdds?: true;
  /** The records whose adds are of unknown outcome, as they read in messages. */
  untrackedRecords?: string[];
  /** The API the records were made on (provider/host/account.ts); absent in outputs written before. */
  baseUrl?: string;
  /** The witness domain a refresh reads the published records of (records/refreshByDns.ts). */
  verifyDomain?: string;
  /**
   * Set by `pulumi import`: the template may hold records this resource never saw (the API cannot
   * list them), so with purge the first update that declares records rewrites it with one PUT.
   */
  unlisted?: true;
};

/** The engine's properties decoded: both views, for the decoders below. */
interface Decoded extends Holding, Declaration {}

type Props = Record<string, unknown>;

function settingsOf(props: Props): Settings {
  return {
    templateId: String(props.templateId ?? ""),
    purge: props.purge !== false,
    safetyThreshold: (props.safetyThreshold ?? DEFAULT_SAFETY_THRESHOLD) as SafetyThreshold | false,
  };
}

/** A stored record, normalized: stored values are our own, written by an earlier version maybe. */
function specOf(raw: unknown): RecordSpec {
  const r = raw as RecordSpec;
  // The common case, without a copy first: a state holds every record of the template.
  if (typeof r.name === "string" && Object.hasOwn(RECORD_MODEL, r.type)) return normalizeRecord(r);
  return normalizeRecord({
    name: String(r.name),
    type: String(r.type).toUpperCase() as RecordSpec["type"],
    content: r.content,
    priority: r.priority,
    weight: r.weight,
    port: r.port,
  });
}

/** `record` (normalized, keyed) as held under `recordId`; a URL forward also owns `madeIds`. */
function heldOf(record: KeyedRecord, recordId: string, madeIds: readonly string[]): HeldRecord {
  const held = record as HeldRecord;
  held.recordId = recordId;
  if (madeIds.length > 0) held.madeIds = [...madeIds];
  return held;
}

function untrackedOf(props: Props): string[] {
  if (Array.isArray(props.untrackedRecords)) return props.untrackedRecords.map(String);
  return props.untrackedAdds === true ? ["an add whose answer was lost"] : [];
}

/**
 * Decodes what a resource declares from its checked inputs (keyed records, or the array of a
 * program that `check()` has not keyed yet). Records come back normalized and in canonical order.
 *
 * @example
 * const wanted = decodeInputs(news);
 */
export function decodeInputs(props: Props): Declaration;
/**
 * As above, or `undefined` when a record holds a value that `unknown` says is not known yet (the
 * engine's placeholder during a preview): one pass over the records for both, where a template of
 * 100,000 records makes each pass count. The caller knows the placeholder; this module knows no Pulumi.
 *
 * @example
 * const wanted = decodeInputs(news, containsUnknown);
 * if (wanted === undefined) return { changes: true };
 */
export function decodeInputs(props: Props, unknown: (record: unknown) => boolean): Declaration | undefined;
export function decodeInputs(props: Props, unknown?: (record: unknown) => boolean): Declaration | undefined {
  const decoded = decode(props, "declared", unknown);
  return decoded && { settings: decoded.settings, declared: decoded.declared };
}

/**
 * Decodes what a resource holds from its stored outputs (keyed records with a parallel `ids`
 * map), or from a state written before records were keyed (`records: [{ ..., recordId }]`).
 *
 * @example
 * const holding = decodeOutputs(olds);
 */
export function decodeOutputs(props: Props): Holding {
  const { settings, held, untracked } = decode(props, "held") as Decoded;
  return props.unlisted === true
    ? { settings, held, untracked, unlisted: true }
    : { settings, held, untracked };
}

/**
 * Decodes both views, or (for the keyed shape, where each costs a pass over every record) one;
 * `undefined` when `unknown` holds for a record.
 */
function decode(
  props: Props,
  only?: "held" | "declared",
  unknown: (record: unknown) => boolean = () => false,
): Decoded | undefined {
  const settings = settingsOf(props);
  const untracked = untrackedOf(props);
  const raw = props.records;
  if (Array.isArray(raw)) {
    if (raw.some(unknown)) return undefined;
    // The earlier array shape: records with their ids, keyed now as they were then.
    const keyed = keyRecords(
      raw.map((r) => ({ ...specOf(r), recordId: (r as { recordId?: unknown }).recordId })),
    );
    const declared = Object.entries(keyed).map(([key, { recordId: _id, ...r }]) => ({ ...r, key }));
    const held = Object.entries(keyed)
      .filter(([, r]) => typeof r.recordId === "string")
      .map(([key, r]) => ({ ...r, recordId: r.recordId as string, key }));
    return { settings, declared: canonicalOrder(declared), held: canonicalOrder(held), untracked };
  }
  if (!isPlainObject(raw) && unknown(raw)) return undefined;
  const records = isPlainObject(raw) ? raw : {};
  const ids = isPlainObject(props.ids) ? props.ids : {};
  const declared: KeyedRecord[] = [];
  const held: HeldRecord[] = [];
  for (const key of Object.keys(records)) {
    if (unknown(records[key])) return undefined;
    // Stryker disable next-line ConditionalExpression: a shortcut; decodeInputs returns the declared records alone, whatever else is decoded
    if (only !== "declared") {
      const stored = ids[key];
      if (typeof stored === "string") held.push(heldOf(keyedOf(records[key], key), stored, []));
      else if (Array.isArray(stored) && stored.length > 0 && stored.every((id) => typeof id === "string")) {
        const [recordId, ...madeIds] = stored as [string, ...string[]];
        held.push(heldOf(keyedOf(records[key], key), recordId, madeIds));
      }
    }
    // Stryker disable next-line ConditionalExpression: a shortcut; decodeOutputs and recordsOfOutputs return the held records alone
    if (only !== "held") declared.push(keyedOf(records[key], key));
  }
  return { settings, declared: canonicalOrder(declared), held: canonicalOrder(held), untracked };
}

/** A stored record, normalized, under its key. */
function keyedOf(raw: unknown, key: string): KeyedRecord {
  const record = specOf(raw) as KeyedRecord;
  record.key = key;
  return record;
}

function keyedMap<T extends RecordSpec & { key: string }>(records: readonly T[]): Record<string, T> {
  const map: Record<string, T> = {};
  for (const r of canonicalOrder(records)) {
    let key = r.key;
    // Two records can only share a key in a state that was partly applied; keep both.
    for (let n = 2; key in map; n++) key = `${r.key}#${n}`;
    map[key] = r;
  }
  return map;
}

/**
 * The checked inputs `check()` returns: settings with defaults, records keyed.
 *
 * @example
 * encodeInputs(settings, planCheck(decodeInputs(olds), records, settings).declared);
 */
export function encodeInputs(settings: Settings, declared: readonly KeyedRecord[]): CheckedInputs {
  const records: Record<string, RecordSpec> = {};
  for (const [key, r] of Object.entries(keyedMap(declared))) records[key] = normalizeRecord(r);
  return { ...settings, records };
}

/**
 * The outputs of a create or update: settings, the held records keyed with their ids beside them,
 * the summary, and the adds of unknown outcome, if any.
 *
 * @example
 * return { outs: encodeOutputs(settings, held, "1 to create, ... (1 request)") };
 */
export function encodeOutputs(
  settings: Settings,
  held: readonly HeldRecord[],
  lastPlan: string,
  untracked: readonly string[] = [],
): RecordsOutputs {
  const records: Record<string, RecordSpec> = {};
  const ids: Record<string, string | string[]> = {};
  for (const [key, r] of Object.entries(keyedMap(held))) {
    records[key] = normalizeRecord(r);
    ids[key] = r.madeIds && r.madeIds.length > 0 ? idsOf(r) : r.recordId;
  }
  const outputs: RecordsOutputs = { ...settings, records, ids, lastPlan };
  if (untracked.length > 0) {
    outputs.untrackedAdds = true;
    outputs.untrackedRecords = [...untracked];
  }
  return outputs;
}

/**
 * The records of outputs joined with their ids, in canonical order: what the resource class
 * exposes to programs. A URL forward that owns the records the service made for it lists every
 * id it owns in `recordIds`.
 *
 * @example
 * recordsOfOutputs({ "www/A": { name: "www", type: "A", content: "192.0.2.1" } }, { "www/A": "r1" });
 * // [{ name: "www", type: "A", content: "192.0.2.1", recordId: "r1", recordIds: ["r1"] }]
 */
export function recordsOfOutputs(
  records: unknown,
  ids: unknown,
): Array<RecordSpec & { recordId: string; recordIds: string[] }> {
  return (decode({ records, ids }, "held") as Decoded).held.map((held) => {
    const { key: _key, madeIds: _made, ...r } = held;
    return { ...r, recordIds: idsOf(held) };
  });
}
