/**
 * Properties of the search for vanished records after a 404 (`searchVanished`): driven by an oracle
 * that stands for the API, it finds exactly the corrections whose records are gone, applies each
 * of the others exactly once, and asks few questions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PatchRecordsBody } from "../../../provider/client/wire";
import { toUpdateItem } from "../../../provider/dns/model";
import { type Correction, type HeldRecord, requestOf } from "../../../provider/records/corrections";
import { applyAccepted, withoutVanished } from "../../../provider/records/fold";
import { searchVanished, type VanishedSearch } from "../../../provider/records/vanished";

const KINDS = ["delete", "update", "verify"] as const;
type Kind = (typeof KINDS)[number];

function heldRecord(i: number): HeldRecord {
  return { name: `h${i}`, type: "TXT", content: `c${i}`, recordId: `r${i}`, key: `h${i}/TXT` };
}

function correctionOf(kind: Kind, r: HeldRecord): Correction {
  if (kind === "delete")
    return { kind, record: r, message: `- DELETE ${r.name}`, del: [{ record_id: r.recordId }] };
  if (kind === "verify") return { kind, from: r, to: r, update: toUpdateItem(r.recordId, r) };
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

/** What a driven search found, and what the test saw: every probe, and the corrections of the accepted ones. */
interface Driven {
  found: VanishedSearch;
  probes: Correction[][];
  applied: Correction[];
}

/** Runs the search, answering each probe with `accepted`. */
function drive(
  refused: readonly Correction[],
  accepted: (probe: Correction[]) => boolean,
  options = { purge: false },
): Driven {
  const search = searchVanished(refused, options);
  const probes: Correction[][] = [];
  const applied: Correction[] = [];
  let step = search.next();
  while (!step.done) {
    probes.push(step.value);
    const ok = accepted(step.value);
    if (ok) applied.push(...step.value);
    step = search.next(ok);
  }
  return { found: step.value, probes, applied };
}

/**
 * Galloping and halving cost at most 2 probes per vanished record and level, and a probe is made
 * smaller when it could take the search past n + log2(n) probes in all.
 */
function probeBound(n: number, k: number): number {
  const levels = Math.ceil(Math.log2(Math.max(n, 2)));
  return Math.min(2 * k * levels, n + levels);
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

describe("searchVanished without purge: properties", () => {
  it("finds exactly the vanished records and has every other correction accepted once, in few probes", () => {
    fc.assert(
      fc.property(searchArb, ({ refused, vanished }) => {
        const { found, probes, applied } = drive(
          refused,
          (probe) => !probe.some((c) => vanished.has(idOf(c))),
        );
        expect(new Set(found.vanished.map(idOf))).toEqual(vanished);
        expect(found.vanished).toHaveLength(vanished.size);
        expect(found.rewrite).toBe(false);
        expect(applied.map(idOf).sort()).toEqual(
          refused
            .map(idOf)
            .filter((id) => !vanished.has(id))
            .sort(),
        );
        expect(probes.length).toBeLessThanOrEqual(probeBound(refused.length, vanished.size));
        for (const probe of probes) {
          expect(probe.length).toBeGreaterThan(0);
          for (const c of probe) expect(refused.map(idOf)).toContain(idOf(c));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("finds every record vanished when all are (a wiped template) with one probe per record, nothing accepted", () => {
    fc.assert(
      fc.property(searchArb, ({ refused }) => {
        const { found, probes, applied } = drive(refused, () => false);
        expect(found.vanished).toEqual(refused);
        expect(applied).toEqual([]);
        expect(probes.length).toBeLessThanOrEqual(refused.length);
      }),
    );
  });

  it("finds one vanished record among 256 in at most 2 log2(256) = 16 probes, wherever it is", () => {
    const held = Array.from({ length: 256 }, (_, i) => heldRecord(i));
    const refused = held.map((r) => correctionOf("verify", r));
    for (const gone of [0, 1, 127, 128, 200, 255]) {
      const { found, probes } = drive(refused, (probe) => !probe.some((c) => idOf(c) === `r${gone}`));
      expect(found.vanished.map(idOf)).toEqual([`r${gone}`]);
      expect(probes.length).toBeLessThanOrEqual(16);
    }
  });

  it("against a service judging each item, leaves it holding what the held records say after the search", () => {
    fc.assert(
      fc.property(searchArb, ({ held, refused, vanished }) => {
        const service = new ItemwiseService(held, vanished);
        const { found, probes, applied } = drive(refused, (probe) => service.patch(requestOf(probe).body));
        expect(new Set(found.vanished.map(idOf))).toEqual(vanished);
        expect(probes.length).toBeLessThanOrEqual(probeBound(refused.length, vanished.size));
        const after = withoutVanished(applyAccepted(held, applied, []), found.vanished);
        expect(new Map(after.map((r) => [r.recordId, { name: r.name, content: r.content }]))).toEqual(
          service.records,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("searchVanished with purge: stops once a rewrite is certain", () => {
  it("asks nothing when the refused request deleted nothing: a record to keep is gone, so one PUT follows", () => {
    fc.assert(
      fc.property(searchArb, ({ refused, vanished }) => {
        const kept = refused.filter((c) => c.kind !== "delete");
        fc.pre(kept.length === refused.length);
        const { found, probes } = drive(refused, (probe) => !probe.some((c) => vanished.has(idOf(c))), {
          purge: true,
        });
        expect(probes).toEqual([]);
        expect(found.rewrite).toBe(true);
      }),
    );
  });

  it("asks nothing when the refused request carried an add: the PUT erases whatever it may have done", () => {
    const held = [heldRecord(1), heldRecord(2)];
    const refused: Correction[] = [
      correctionOf("delete", held[0]!),
      correctionOf("update", held[1]!),
      {
        kind: "create",
        record: { name: "n", type: "TXT", content: "x", key: "n/TXT" },
        message: "+",
        add: { name: "n", type: "TXT", content: "x" },
      },
    ];
    const { found, probes } = drive(refused, () => false, { purge: true });
    expect(probes).toEqual([]);
    expect(found.rewrite).toBe(true);
  });

  it("asks about the records to keep as one probe, then searches only the deletions (a vanished deletion is done)", () => {
    fc.assert(
      fc.property(searchArb, ({ refused, vanished }) => {
        const answer = (probe: Correction[]) => !probe.some((c) => vanished.has(idOf(c)));
        const { found, probes } = drive(refused, answer, { purge: true });
        const kept = refused.filter((c) => c.kind !== "delete");
        const deletions = refused.filter((c) => c.kind === "delete");
        const keptVanished = kept.some((c) => vanished.has(idOf(c)));
        if (deletions.length === 0 || keptVanished) {
          expect(found.rewrite).toBe(true);
          expect(probes.length).toBeLessThanOrEqual(deletions.length === 0 ? 0 : 1);
        } else {
          expect(found.rewrite).toBe(false);
          expect(new Set(found.vanished.map(idOf))).toEqual(vanished);
          expect(found.vanished.every((c) => c.kind === "delete")).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
