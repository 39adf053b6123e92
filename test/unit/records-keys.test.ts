import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyRecords, recordKey, unkeyRecords } from "../../provider/records/keys";
import { canonicalOrder, identityOf, type RecordSpec, type StateRecord } from "../../provider/records/rules";
import { recordArb, recordsArb, stateArb } from "./records-arbitraries";

const www1: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
const www2: RecordSpec = { name: "www", type: "A", content: "192.0.2.2" };
const mx1: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const mx2: RecordSpec = { name: "@", type: "MX", content: "mx2.example.net", priority: 20 };

describe("recordKey / keyRecords", () => {
  it("keys a record by name/type", () => {
    expect(recordKey(www1)).toBe("www/A");
  });

  it("uses name/type alone when the pair is unique, so a content change is one changed entry", () => {
    const before = keyRecords([www1, mx1]);
    const after = keyRecords([{ ...www1, content: "192.0.2.9" }, mx1]);
    expect(Object.keys(before)).toEqual(["@/MX", "www/A"]);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after["www/A"]?.content).toBe("192.0.2.9");
  });

  it("adds the content when several records share name and type, and the numbers when content is shared too", () => {
    expect(Object.keys(keyRecords([mx2, www1, mx1, www2]))).toEqual([
      "@/MX/mx1.example.net",
      "@/MX/mx2.example.net",
      "www/A/192.0.2.1",
      "www/A/192.0.2.2",
    ]);
    const srv: RecordSpec = {
      name: "_sip._tcp",
      type: "SRV",
      content: "sip.example.net",
      priority: 1,
      weight: 2,
      port: 3,
    };
    expect(Object.keys(keyRecords([srv, { ...srv, port: 4 }]))).toEqual([
      "_sip._tcp/SRV/1 2 3 sip.example.net",
      "_sip._tcp/SRV/1 2 4 sip.example.net",
    ]);
  });

  it("keeps the keys of untouched records when a third record of the same name and type comes", () => {
    const before = keyRecords([www1, www2]);
    const after = keyRecords([www1, www2, { name: "www", type: "A", content: "192.0.2.0" }]);
    for (const [key, record] of Object.entries(before)) expect(after[key]).toEqual(record);
  });

  it("numbers exact duplicates (state only) in id order", () => {
    const a: StateRecord = { ...www1, recordId: "r2" };
    const b: StateRecord = { ...www1, recordId: "r1" };
    expect(keyRecords([a, b])).toEqual({ "www/A/192.0.2.1": b, "www/A/192.0.2.1#2": a });
  });

  it("maps back to the records in canonical order", () => {
    expect(unkeyRecords(keyRecords([www2, mx1, www1]))).toEqual([mx1, www1, www2]);
    expect(unkeyRecords({})).toEqual([]);
  });
});

describe("keys: properties", () => {
  it("gives every record a unique key and round-trips", () => {
    fc.assert(
      fc.property(stateArb, (records) => {
        const keyed = keyRecords(records);
        expect(Object.keys(keyed)).toHaveLength(records.length);
        expect(unkeyRecords(keyed)).toEqual(canonicalOrder(records));
      }),
    );
  });

  it("does not depend on the input order", () => {
    fc.assert(
      fc.property(
        stateArb.chain((records) =>
          fc.tuple(fc.constant(records), fc.shuffledSubarray(records, { minLength: records.length })),
        ),
        ([records, shuffled]) => {
          expect(keyRecords(shuffled)).toEqual(keyRecords(records));
        },
      ),
    );
  });

  it("keys a record by name/type exactly when no other record shares them", () => {
    fc.assert(
      fc.property(recordsArb, (records) => {
        for (const [key, record] of Object.entries(keyRecords(records))) {
          const shared = records.filter((r) => recordKey(r) === recordKey(record)).length > 1;
          if (shared) expect(key.startsWith(`${recordKey(record)}/`)).toBe(true);
          else expect(key).toBe(recordKey(record));
        }
      }),
    );
  });

  it("keeps the keys of other records when a record joins a name/type that already had two or more", () => {
    fc.assert(
      fc.property(recordsArb, recordArb, (records, extra) => {
        const distinct = [...new Map(records.map((r) => [identityOf(r), r])).values()];
        fc.pre(!distinct.some((r) => identityOf(r) === identityOf(extra)));
        const groupSize = distinct.filter((r) => recordKey(r) === recordKey(extra)).length;
        const before = keyRecords(distinct);
        const after = keyRecords([...distinct, extra]);
        for (const [key, record] of Object.entries(before)) {
          // Only the sole record of extra's name/type moves from `name/type` to `name/type/...`,
          // and a record whose content extra shares moves from `name/type/content` to one with numbers.
          if (groupSize === 1 && recordKey(record) === recordKey(extra)) continue;
          if (recordKey(record) === recordKey(extra) && record.content === extra.content) continue;
          expect(after[key]).toEqual(record);
        }
      }),
    );
  });
});
