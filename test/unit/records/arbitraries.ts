/**
 * fast-check generators of records for the planner, key and state tests. Records are drawn from
 * small pools of names, types, contents and numbers so that exact matches, same-name pairs and
 * duplicates all happen often. They need not pass the input rules: the planner must work on any
 * multiset of records.
 */
import fc from "fast-check";
import type { RecordType } from "../../../provider/client/wire";
import { canonicalOrder, numberFieldsOf, type RecordSpec } from "../../../provider/dns/model";
import type { HeldRecord, KeyedRecord } from "../../../provider/records/corrections";
import { keyRecords } from "../../../provider/records/keys";

const NAMES = ["@", "www", "mail", "_sip._tcp"];
const TYPES: RecordType[] = ["A", "TXT", "MX", "SRV", "CNAME"];
const CONTENTS = ["192.0.2.1", "192.0.2.2", "mx.example.net", "x"];
const NUMBERS = [0, 10, 20];

/** One record from the pools, with exactly the numbers its type takes. */
export const recordArb: fc.Arbitrary<RecordSpec> = fc
  .record({
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom(...TYPES),
    content: fc.constantFrom(...CONTENTS),
    priority: fc.constantFrom(...NUMBERS),
    weight: fc.constantFrom(...NUMBERS),
    port: fc.constantFrom(...NUMBERS),
  })
  .map((r) => {
    const spec: RecordSpec = { name: r.name, type: r.type, content: r.content };
    for (const field of numberFieldsOf(r.type)) spec[field] = r[field];
    return spec;
  });

/** A multiset of records (duplicates allowed). */
export const recordsArb: fc.Arbitrary<RecordSpec[]> = fc.array(recordArb, { maxLength: 14 });

/** A set of records (no two equal): what validation lets through as a declaration. */
export const distinctRecordsArb: fc.Arbitrary<RecordSpec[]> = fc.uniqueArray(recordArb, {
  maxLength: 14,
  selector: (r) => JSON.stringify([r.name, r.type, r.content, r.priority, r.weight, r.port]),
});

/** Records keyed as a first declaration keys them ({@link keyRecords}). */
export function keyed(records: readonly RecordSpec[]): KeyedRecord[] {
  return Object.entries(keyRecords(records)).map(([key, r]) => ({ ...r, key }));
}

/**
 * Records held by a resource: unique ids (`cur-0`, `cur-1`...) and unique keys, duplicates allowed
 * (a state partly applied can hold two equal records).
 */
export function held(records: readonly RecordSpec[], idPrefix = "cur-"): HeldRecord[] {
  const withIds = records.map((r, i) => ({ ...r, recordId: `${idPrefix}${i}` }));
  return Object.entries(keyRecords(withIds)).map(([key, r]) => ({ ...r, key }));
}

/** A multiset of held records, as a template's state. */
export const heldArb: fc.Arbitrary<HeldRecord[]> = recordsArb.map((records) => held(records));

/** A multiset of declared records, keyed. */
export const keyedArb: fc.Arbitrary<KeyedRecord[]> = recordsArb.map(keyed);

/** A set of declared records, keyed: what a validated declaration holds (no two equal). */
export const distinctKeyedArb: fc.Arbitrary<KeyedRecord[]> = distinctRecordsArb.map(keyed);

/** The record without its id or key, in a fresh object holding only the fields a RecordSpec has. */
export function withoutId(r: RecordSpec): RecordSpec {
  const spec: RecordSpec = { name: r.name, type: r.type, content: r.content };
  for (const field of ["priority", "weight", "port"] as const) {
    const value = r[field];
    if (value !== undefined) spec[field] = value;
  }
  return spec;
}

/** The multiset of records, ids and keys dropped, in canonical order: equal multisets give equal arrays. */
export function multiset(records: readonly RecordSpec[]): RecordSpec[] {
  return canonicalOrder(records.map(withoutId));
}
