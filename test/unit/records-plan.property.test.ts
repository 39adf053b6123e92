import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PatchRecordsBodySchema } from "../../provider/client/wire";
import { applyStep, type Plan, planDelete, planUpdate } from "../../provider/records/plan";
import { identityOf, type RecordSpec, type StateRecord } from "../../provider/records/rules";
import { multiset, recordsArb, stateArb } from "./records-arbitraries";

/** Sends every step to an imaginary service that hands out fresh ids; returns the final state. */
function execute(current: StateRecord[], plan: Plan): StateRecord[] {
  let state = current;
  let next = 0;
  for (const step of plan.steps) state = applyStep(state, step, step.add ? [`new-${next++}`] : []);
  return state;
}

/** Size of the multiset intersection of two record lists, ids ignored. */
function commonCount(a: readonly RecordSpec[], b: readonly RecordSpec[]): number {
  const counts = new Map<string, number>();
  for (const r of a) counts.set(identityOf(r), (counts.get(identityOf(r)) ?? 0) + 1);
  let common = 0;
  for (const r of b) {
    const left = counts.get(identityOf(r)) ?? 0;
    if (left > 0) {
      common++;
      counts.set(identityOf(r), left - 1);
    }
  }
  return common;
}

const shuffled = <T>(items: T[]) =>
  fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

describe("planUpdate: properties", () => {
  it("reaches exactly the desired multiset when every step is applied", () => {
    fc.assert(
      fc.property(stateArb, recordsArb, (current, desired) => {
        expect(multiset(execute(current, planUpdate(current, desired)))).toEqual(multiset(desired));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves exact matches alone, with their ids", () => {
    fc.assert(
      fc.property(stateArb, recordsArb, (current, desired) => {
        const plan = planUpdate(current, desired);
        const common = commonCount(current, desired);
        expect(plan.unchanged).toHaveLength(common);
        expect(plan.summary.unchanged).toBe(common);
        const final = new Map(execute(current, plan).map((r) => [r.recordId, r]));
        const before = new Map(current.map((r) => [r.recordId, r]));
        for (const kept of plan.unchanged) {
          expect(before.get(kept.recordId)).toBe(kept);
          expect(final.get(kept.recordId)).toEqual(kept);
        }
        const touched = new Set([
          ...plan.steps.flatMap((s) => s.dels.map((r) => r.recordId)),
          ...plan.steps.flatMap((s) => s.updates.map((u) => u.from.recordId)),
        ]);
        for (const kept of plan.unchanged) expect(touched.has(kept.recordId)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("sends max(1, adds) requests when anything changes, none otherwise", () => {
    fc.assert(
      fc.property(stateArb, recordsArb, (current, desired) => {
        const { steps, summary } = planUpdate(current, desired);
        const changes = summary.creates + summary.updates + summary.deletes;
        expect(steps).toHaveLength(changes === 0 ? 0 : Math.max(1, summary.creates));
        expect(summary.requests).toBe(steps.length);
        expect(summary.deletes + summary.updates + summary.unchanged).toBe(current.length);
        expect(summary.creates + summary.updates + summary.unchanged).toBe(desired.length);
      }),
      { numRuns: 300 },
    );
  });

  it("carries every del and update in the first request and at most one add per request", () => {
    fc.assert(
      fc.property(stateArb, recordsArb, (current, desired) => {
        const { steps, summary } = planUpdate(current, desired);
        const [first, ...rest] = steps;
        if (!first) return;
        expect(first.dels).toHaveLength(summary.deletes);
        expect(first.updates).toHaveLength(summary.updates);
        for (const step of rest) {
          expect(step.dels).toEqual([]);
          expect(step.updates).toEqual([]);
          expect(step.add).toBeDefined();
        }
        for (const step of steps) {
          expect(step.body.add?.length ?? 0).toBe(step.add ? 1 : 0);
          expect(step.body.del ?? []).toEqual(step.dels.map((r) => ({ record_id: r.recordId })));
          expect((step.body.update ?? []).map((u) => u.record_id)).toEqual(
            step.updates.map((u) => u.from.recordId),
          );
          for (const array of [step.body.add, step.body.update, step.body.del]) {
            if (array) expect(array.length).toBeGreaterThan(0);
          }
          expect(PatchRecordsBodySchema.strict().parse(step.body)).toEqual(step.body);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("updates only within a type, and renames only when no same-name partner was left", () => {
    fc.assert(
      fc.property(stateArb, recordsArb, (current, desired) => {
        const plan = planUpdate(current, desired);
        const first = plan.steps[0];
        const dels = first?.dels ?? [];
        const adds = plan.steps.flatMap((s) => (s.add ? [s.add] : []));
        for (const { from, to } of first?.updates ?? []) {
          expect(to.type).toBe(from.type);
          expect(identityOf(to)).not.toBe(identityOf(from));
          if (from.name !== to.name) {
            expect(dels.some((d) => d.type === to.type && d.name === to.name)).toBe(false);
            expect(adds.some((a) => a.type === from.type && a.name === from.name)).toBe(false);
          }
        }
        // Leftovers of one type never exist on both sides: they would have been paired.
        for (const d of dels) expect(adds.some((a) => a.type === d.type)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic and does not depend on the input order", () => {
    fc.assert(
      fc.property(
        stateArb.chain((c) => fc.tuple(fc.constant(c), shuffled(c))),
        recordsArb.chain((d) => fc.tuple(fc.constant(d), shuffled(d))),
        ([current, currentShuffled], [desired, desiredShuffled]) => {
          const plan = planUpdate(current, desired);
          expect(planUpdate(current, desired)).toEqual(plan);
          expect(planUpdate(currentShuffled, desiredShuffled)).toEqual(plan);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("plans nothing for a state planned against itself", () => {
    fc.assert(
      fc.property(stateArb, (current) => {
        expect(planUpdate(current, current).steps).toEqual([]);
      }),
    );
  });
});

describe("planDelete: properties", () => {
  it("removes everything in at most one request", () => {
    fc.assert(
      fc.property(stateArb, (current) => {
        const plan = planDelete(current);
        expect(plan.steps).toHaveLength(current.length === 0 ? 0 : 1);
        expect(execute(current, plan)).toEqual([]);
      }),
    );
  });
});

describe("planUpdate: scale", () => {
  it("plans 100k records with 10% changes without quadratic work", { timeout: 60_000 }, () => {
    const n = 100_000;
    const current: StateRecord[] = Array.from({ length: n }, (_, i) => ({
      name: `host${i % 50_000}`,
      type: i % 2 === 0 ? "A" : "TXT",
      content: i % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `text ${i}`,
      recordId: `r${i}`,
    }));
    // 10% changed: 4% new content, 3% gone, 3% new records.
    const desired: RecordSpec[] = [];
    for (const [i, r] of current.entries()) {
      const slot = i % 100;
      if (slot < 4) desired.push({ name: r.name, type: r.type, content: `${r.content}.changed` });
      else if (slot >= 7) desired.push({ name: r.name, type: r.type, content: r.content });
    }
    for (let i = 0; i < n * 0.03; i++)
      desired.push({ name: `extra${i}`, type: "CNAME", content: `t${i}.example.net.` });

    const started = performance.now();
    const plan = planUpdate(current, desired);
    const elapsed = performance.now() - started;
    expect(plan.summary).toEqual({
      creates: 3000,
      updates: 4000,
      deletes: 3000,
      unchanged: 93_000,
      requests: 3000,
    });
    console.info(`planUpdate of ${n} records with 10% changes: ${elapsed.toFixed(0)} ms`);
  });
});
