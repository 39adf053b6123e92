/**
 * fast-check generators of records for the planner and key tests. Records are drawn from small
 * pools of names, types, contents and numbers so that exact matches, same-name pairs and
 * duplicates all happen often. They need not pass the input rules: the planner must work on any
 * multiset of records.
 */
import fc from "fast-check";
import type { RecordType } from "../../provider/client/wire";
import {
  canonicalOrder,
  numberFieldsOf,
  type RecordSpec,
  type StateRecord,
} from "../../provider/records/rules";

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

/** A multiset of records with unique ids, as a template's state. */
export const stateArb: fc.Arbitrary<StateRecord[]> = recordsArb.map((records) =>
  records.map((r, i) => ({ ...r, recordId: `cur-${i}` })),
);

/** The record without its id, in a fresh object holding only the fields a RecordSpec has. */
export function withoutId(r: RecordSpec): RecordSpec {
  const spec: RecordSpec = { name: r.name, type: r.type, content: r.content };
  for (const field of ["priority", "weight", "port"] as const) {
    const value = r[field];
    if (value !== undefined) spec[field] = value;
  }
  return spec;
}

/** The multiset of records, ids dropped, in canonical order: equal multisets give equal arrays. */
export function multiset(records: readonly RecordSpec[]): RecordSpec[] {
  return canonicalOrder(records.map(withoutId));
}
