import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalOrder, identityOf, type RecordSpec, type StateRecord } from "../../../provider/dns/model";
import type { KeyedRecord } from "../../../provider/records/corrections";
import { keyRecords } from "../../../provider/records/keys";
import { planCheck, type Settings } from "../../../provider/records/plan";
import { distinctRecordsArb, keyed, recordArb, recordsArb } from "./arbitraries";
import { planUpdate } from "./planning";

const www1: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
const www2: RecordSpec = { name: "www", type: "A", content: "192.0.2.2" };
const mx1: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const mx2: RecordSpec = { name: "@", type: "MX", content: "mx2.example.net", priority: 20 };

/** The coarse key of a record, `name/type`: what a record sole of its name and type is keyed by. */
const recordKey = (r: RecordSpec): string => `${r.name}/${r.type}`;
/** The records of a keyed map, in canonical order. */
const unkeyRecords = <T extends RecordSpec>(map: Record<string, T>): T[] =>
  canonicalOrder(Object.values(map));

const SETTINGS: Settings = { templateId: "tpl-test", purge: true, safetyThreshold: false };

/**
 * What `check()` does with the declared records: plans them against the previous inputs once, and
 * keys them as that plan pairs them; the counts are that plan's (what the safety check reads).
 */
function keyDeclared(
  records: readonly RecordSpec[],
  previous: readonly KeyedRecord[],
): { declared: KeyedRecord[]; changes: { updates: number; deletes: number } } {
  const before = previous.length > 0 ? { settings: SETTINGS, declared: [...previous] } : undefined;
  const { declared, plan } = planCheck(before, records, SETTINGS);
  return { declared, changes: { updates: plan?.summary.updates ?? 0, deletes: plan?.summary.deletes ?? 0 } };
}

/** A state with unique ids, as a template holds it. */
const stateArb = recordsArb.map((records) =>
  records.map((r, i): StateRecord => ({ ...r, recordId: `cur-${i}` })),
);

describe("keyRecords", () => {
  it("keys a record by name/type", () => {
    expect(Object.keys(keyRecords([www1]))).toEqual(["www/A"]);
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
    expect(unkeyRecords(keyRecords([]))).toEqual([]);
  });
});

describe("keyRecords: properties", () => {
  it("gives every record a unique key and round-trips", () => {
    fc.assert(
      fc.property(stateArb, (records) => {
        const map = keyRecords(records);
        expect(Object.keys(map)).toHaveLength(records.length);
        expect(unkeyRecords(map)).toEqual(canonicalOrder(records));
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

/** Declared records keyed as an earlier check left them: a first declaration, or one more check after it. */
const previousArb: fc.Arbitrary<KeyedRecord[]> = fc
  .tuple(distinctRecordsArb, distinctRecordsArb, fc.boolean())
  .map(([first, second, again]) => {
    const previous = keyDeclared(first, []).declared;
    return again ? keyDeclared(second, previous).declared : previous;
  });

/** The previous declaration as the planner sees held records: each key stands for an id. */
const asHeld = (records: readonly KeyedRecord[]) => records.map((r) => ({ ...r, recordId: `key:${r.key}` }));

/** The keyed map a preview shows: values without keys, compared by identity. */
const mapOf = (records: readonly KeyedRecord[]): Map<string, string> =>
  new Map(records.map((r) => [r.key, identityOf(r)]));

describe("planCheck: preview keys", () => {
  it("keeps the key of a record updated in place and gives a new record a key no previous record had", () => {
    const previous = keyDeclared([www1, mx1], []).declared;
    expect(previous.map((r) => r.key)).toEqual(["@/MX", "www/A"]);
    // www A changes content (updated in place, key kept); a second MX joins (a key of its own).
    const { declared, changes } = keyDeclared([{ ...www1, content: "192.0.2.9" }, mx1, mx2], previous);
    expect(declared.map((r) => [r.key, r.content])).toEqual([
      ["@/MX", "mx1.example.net"],
      ["@/MX/mx2.example.net", "mx2.example.net"],
      ["www/A", "192.0.2.9"],
    ]);
    expect(changes).toEqual({ updates: 1, deletes: 0 });
    // A record that replaces a deleted one of another type never takes its key.
    const replaced = keyDeclared([{ name: "www", type: "CNAME", content: "x.example.net." }], [previous[1]!]);
    expect(replaced.declared.map((r) => r.key)).toEqual(["www/CNAME"]);
    expect(replaced.changes).toEqual({ updates: 0, deletes: 1 });
  });
});

describe("planCheck: preview keys, properties", () => {
  it("gives unique keys; with no previous records, exactly the keys of keyRecords", () => {
    fc.assert(
      fc.property(distinctRecordsArb, previousArb, (records, previous) => {
        const { declared } = keyDeclared(records, previous);
        expect(new Set(declared.map((r) => r.key)).size).toBe(records.length);
        expect(declared.map(({ key: _key, ...r }) => r)).toEqual(canonicalOrder(records));
        const first = keyDeclared(records, []).declared;
        expect(first).toEqual(canonicalOrder(keyed(records)));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the key of a record kept or updated in place; a new record never takes a previous key", () => {
    fc.assert(
      fc.property(distinctRecordsArb, previousArb, (records, previous) => {
        const { declared, changes } = keyDeclared(records, previous);
        const plan = planUpdate(asHeld(previous), declared, { purge: true });
        for (const { from, to } of plan.unchanged) expect(to.key).toBe(from.key);
        const previousKeys = new Set(previous.map((r) => r.key));
        for (const c of plan.corrections) {
          if (c.kind === "update") expect(c.to.key).toBe(c.from.key);
          if (c.kind === "create") expect(previousKeys.has(c.record.key)).toBe(false);
        }
        expect(changes).toEqual({ updates: plan.summary.updates, deletes: plan.summary.deletes });
      }),
      { numRuns: 300 },
    );
  });

  it("makes each correction of the plan exactly one entry of the preview, of the same kind", () => {
    fc.assert(
      fc.property(distinctRecordsArb, previousArb, (records, previous) => {
        const { declared } = keyDeclared(records, previous);
        const before = mapOf(previous);
        const after = mapOf(declared);
        const added = [...after.keys()].filter((k) => !before.has(k)).sort();
        const removed = [...before.keys()].filter((k) => !after.has(k)).sort();
        const changed = [...after.keys()]
          .filter((k) => before.has(k) && before.get(k) !== after.get(k))
          .sort();
        const plan = planUpdate(asHeld(previous), declared, { purge: true });
        expect(added.length + removed.length + changed.length).toBe(plan.corrections.length);
        const keysOf = (kind: string) =>
          plan.corrections
            .flatMap((c) =>
              c.kind !== kind
                ? []
                : c.kind === "create" || c.kind === "delete"
                  ? [c.record.key]
                  : c.kind === "update"
                    ? [c.to.key]
                    : [],
            )
            .sort();
        expect(keysOf("create")).toEqual(added);
        expect(keysOf("delete")).toEqual(removed);
        expect(keysOf("update")).toEqual(changed);
      }),
      { numRuns: 300 },
    );
  });

  it("shows no difference for a reordered declaration", () => {
    fc.assert(
      fc.property(
        previousArb.chain((previous) =>
          fc.tuple(fc.constant(previous), fc.shuffledSubarray(previous, { minLength: previous.length })),
        ),
        ([previous, reordered]) => {
          const records = reordered.map(({ key: _key, ...r }) => r);
          const { declared, changes } = keyDeclared(records, previous);
          expect(declared).toEqual(canonicalOrder(previous));
          expect(changes).toEqual({ updates: 0, deletes: 0 });
        },
      ),
    );
  });
});
