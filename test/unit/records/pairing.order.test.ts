/**
 * The pairing does not depend on the order in which the state or the program lists its records
 * (records/pairing.ts): the same sets give the same ids kept, the same updates in the same order,
 * the same deletes and creates. A state partly applied may hold the same values twice under two
 * ids; then the lower id is the one paired first.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalOrder, type RecordSpec } from "../../../provider/dns/model";
import type { HeldRecord, KeyedRecord } from "../../../provider/records/corrections";
import { pairRecords } from "../../../provider/records/pairing";
import { distinctKeyedArb, heldArb } from "./arbitraries";

const shuffled = <T>(items: T[]) =>
  fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

/** The pairing as a reviewer reads it: ids kept or changed into which declared record, ids deleted, keys created. */
function story(held: readonly HeldRecord[], declared: readonly KeyedRecord[]) {
  const p = pairRecords(held, declared);
  return {
    unchanged: p.unchanged.map(({ from, to }) => `${from.recordId} = ${to.key}`),
    updates: p.updates.map(({ from, to }) => `${from.recordId} -> ${to.key}`),
    dels: p.dels.map((r) => r.recordId),
    adds: p.adds.map((r) => r.key),
  };
}

const www = (content: string): RecordSpec => ({ name: "www", type: "A", content });

describe("pairRecords and the order of records", () => {
  it("gives the same pairing for the same sets in any order, copies held under several ids included", () => {
    fc.assert(
      fc.property(
        heldArb.chain((h) => fc.tuple(fc.constant(h), shuffled(h))),
        distinctKeyedArb.chain((d) => fc.tuple(fc.constant(d), shuffled(d))),
        ([held, heldReordered], [declared, declaredReordered]) => {
          expect(story(heldReordered, declaredReordered)).toEqual(story(held, declared));
        },
      ),
    );
  });

  it("lists updates in the canonical order of the held records, copies by id", () => {
    fc.assert(
      fc.property(heldArb.chain(shuffled), distinctKeyedArb.chain(shuffled), (held, declared) => {
        const from = pairRecords(held, declared).updates.map((u) => u.from);
        expect(from).toEqual(canonicalOrder(from));
      }),
    );
  });

  it("changes three copies of one record held under three ids in id order, whatever the state's order", () => {
    const declared: KeyedRecord[] = ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map((c) => ({
      ...www(c),
      key: c,
    }));
    for (const ids of [
      ["r1", "r2", "r3"],
      ["r3", "r2", "r1"],
      ["r2", "r3", "r1"],
    ]) {
      const held = ids.map((recordId): HeldRecord => ({ ...www("192.0.2.9"), recordId, key: recordId }));
      expect(story(held, declared)).toEqual({
        unchanged: [],
        updates: ["r1 -> 192.0.2.1", "r2 -> 192.0.2.2", "r3 -> 192.0.2.3"],
        dels: [],
        adds: [],
      });
    }
  });
});
