/**
 * Properties of the search for vanished records after a 404 (`findVanished`): driven by an oracle
 * that stands for the API, it finds exactly the corrections whose records are gone, applies each
 * of the others exactly once, and asks few questions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PatchRecordsBody } from "../../provider/client/wire";
import { toUpdateItem } from "../../provider/records/model";
import {
  applyAccepted,
  type Correction,
  findVanished,
  type HeldRecord,
  requestOf,
  type VanishedSearch,
  withoutVanished,
} from "../../provider/records/plan";

const KINDS = ["delete", "update", "verify"] as const;
type Kind = (typeof KINDS)[number];

function heldRecord(i: number): HeldRecord {
  return { name: `h${i}`, type: "TXT", content: `c${i}`, recordId: `r${i}`, key: `h${i}/TXT` };
}

function correctionOf(kind: Kind, r: HeldRecord): Correction {
  if (kind === "delete")
    return { kind, record: r, message: `- DELETE ${r.name}`, del: { record_id: r.recordId } };
  if (kind === "verify")
    return { kind, from: r, to: r, message: `= VERIFY ${r.name}`, update: toUpdateItem(r.recordId, r) };
  const to = { ...r, content: `${r.content}-new` };
  return { kind, from: r, to, message: `~ MODIFY ${r.name}`, update: toUpdateItem(r.recordId, to) };
}

function idOf(c: Correction): string {
  if (c.kind === "create") throw new Error("a create names no id");
  return c.kind === "delete" ? c.record.recordId : c.from.recordId;
}

/** A refused request's corrections that name ids (1 to 40 of them, each kind) and a non-empty vanished subset. */
const searchArb = fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 40 }).chain((kinds) => {
  const held = kinds.map((_, i) => heldRecord(i));
  const refused = kinds.map((kind, i) => correctionOf(kind, held[i]!));
  const ids = held.map((r) => r.recordId);
  return fc.record({
    held: fc.constant(held),
    refused: fc.constant(refused),
    vanished: fc.subarray(ids, { minLength: 1 }).map((v) => new Set(v)),
  });
});

/** Runs the search, answering each probe with `accepted`; returns what it found and the probes asked. */
function drive(
  refused: readonly Correction[],
  accepted: (probe: Correction[]) => boolean,
): { found: VanishedSearch; probes: Correction[][] } {
  const search = findVanished(refused);
  const probes: Correction[][] = [];
  let step = search.next();
  while (!step.done) {
    probes.push(step.value);
    step = search.next(accepted(step.value));
  }
  return { found: step.value, probes };
}

/** At most 2 probes per vanished record and level of halving, plus one; never more than 2n - 1. */
function probeBound(n: number, k: number): number {
  return Math.min(2 * k * Math.ceil(Math.log2(n)) + 1, 2 * n - 1);
}

/**
 * A service that holds records by id and judges each item of a probe's wire body on its own: a
 * probe is refused (404) when one item names an id it does not hold, else every item is applied.
 */
class ItemwiseService {
  readonly records = new Map<string, { name: string; content: string }>();

  constructor(held: readonly HeldRecord[], vanished: ReadonlySet<string>) {
    for (const r of held)
      if (!vanished.has(r.recordId)) this.records.set(r.recordId, { name: r.name, content: r.content });
  }

  patch(body: PatchRecordsBody): boolean {
    const named = [...(body.update ?? []), ...(body.del ?? [])].map((item) => item.record_id);
    if (!named.every((id) => this.records.has(id))) return false;
    for (const item of body.update ?? [])
      this.records.set(item.record_id, { name: item.name, content: item.content });
    for (const item of body.del ?? []) this.records.delete(item.record_id);
    return true;
  }
}

describe("findVanished: properties", () => {
  it("finds exactly the vanished records and applies every other correction once, in few probes", () => {
    fc.assert(
      fc.property(searchArb, ({ refused, vanished }) => {
        const { found, probes } = drive(refused, (probe) => !probe.some((c) => vanished.has(idOf(c))));
        expect(new Set(found.vanished.map(idOf))).toEqual(vanished);
        expect(found.vanished).toHaveLength(vanished.size);
        const applied = found.applied.map(idOf);
        expect(applied).toHaveLength(refused.length - vanished.size);
        expect(new Set(applied)).toEqual(new Set(refused.map(idOf).filter((id) => !vanished.has(id))));
        expect(probes.length).toBeLessThanOrEqual(probeBound(refused.length, vanished.size));
        for (const probe of probes) {
          expect(probe.length).toBeGreaterThan(0);
          for (const c of probe) expect(refused).toContain(c);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("finds every record vanished when all are, with at most 2n - 1 probes and nothing applied", () => {
    fc.assert(
      fc.property(searchArb, ({ refused }) => {
        const { found, probes } = drive(refused, () => false);
        expect(found.vanished).toEqual(refused);
        expect(found.applied).toEqual([]);
        expect(probes.length).toBeLessThanOrEqual(2 * refused.length - 1);
      }),
    );
  });

  it("against a service judging each item, leaves it holding what the held records say after the search", () => {
    fc.assert(
      fc.property(searchArb, ({ held, refused, vanished }) => {
        const service = new ItemwiseService(held, vanished);
        const { found, probes } = drive(refused, (probe) => service.patch(requestOf(probe).body));
        expect(new Set(found.vanished.map(idOf))).toEqual(vanished);
        expect(probes.length).toBeLessThanOrEqual(probeBound(refused.length, vanished.size));
        const after = withoutVanished(applyAccepted(held, found.applied, []), found.vanished);
        expect(new Map(after.map((r) => [r.recordId, { name: r.name, content: r.content }]))).toEqual(
          service.records,
        );
      }),
      { numRuns: 300 },
    );
  });
});
