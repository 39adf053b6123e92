import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PatchRecordsBodySchema } from "../../../provider/client/wire";
import { identityOf, type RecordSpec } from "../../../provider/dns/model";
import type { HeldRecord, KeyedRecord } from "../../../provider/records/corrections";
import { applyAccepted } from "../../../provider/records/fold";
import {
  distinctKeyedArb,
  distinctRecordsArb,
  held,
  heldArb,
  keyedArb,
  multiset,
  withoutId,
} from "./arbitraries";
import { type PatchPlan as Plan, planDelete, planUpdate } from "./planning";

/** Sends every request to an imaginary service that hands out fresh ids; returns the final held records. */
function execute(current: readonly HeldRecord[], plan: Plan): HeldRecord[] {
  let held = [...current];
  let next = 0;
  for (const request of plan.requests) {
    const ids = request.corrections.filter((c) => c.kind === "create").map(() => `new-${next++}`);
    held = applyAccepted(held, request.corrections, ids);
  }
  return held;
}

/** The numbers each type takes on the wire (docs/design.md, "Wire format"); every other type takes none. */
const WIRE_NUMBERS: Record<string, readonly ("priority" | "weight" | "port")[]> = {
  MX: ["priority"],
  SRV: ["priority", "weight", "port"],
};

function wireNumbers(type: string, item: Record<string, unknown>): Partial<RecordSpec> {
  const numbers: Partial<RecordSpec> = {};
  for (const field of WIRE_NUMBERS[type] ?? []) {
    expect(typeof item[field], `${type} ${field} sent`).toBe("number");
    numbers[field] = item[field] as number;
  }
  for (const field of ["priority", "weight", "port"]) {
    if (!(WIRE_NUMBERS[type] ?? []).includes(field as "priority")) expect(item[field]).toBeUndefined();
  }
  return numbers;
}

/**
 * The template a service holds after every request's wire body, applied as the sandbox does (the
 * request checked whole, then del, update, add; fresh ids): an oracle that reads only what is sent,
 * never the planner's own corrections or how the provider folds the answers.
 */
function serve(current: readonly HeldRecord[], plan: Plan): Array<RecordSpec & { recordId: string }> {
  const template = new Map(current.map((r) => [r.recordId, withoutId(r)]));
  let next = 0;
  for (const { body } of plan.requests) {
    const named = [...(body.del ?? []), ...(body.update ?? [])].map((item) => item.record_id);
    for (const id of named) expect(template.has(id), `request names unknown id ${id}`).toBe(true);
    for (const { record_id } of body.del ?? []) template.delete(record_id);
    for (const item of body.update ?? []) {
      expect(item).not.toHaveProperty("type");
      const { type } = template.get(item.record_id)!;
      template.set(item.record_id, {
        name: item.name,
        type,
        content: item.content,
        ...wireNumbers(type, item),
      });
    }
    for (const item of body.add ?? []) {
      const { name, type, content } = item;
      template.set(`new-${next++}`, { name, type, content, ...wireNumbers(type, item) });
    }
  }
  return [...template].map(([recordId, r]) => ({ ...r, recordId }));
}

/** Size of the multiset intersection of two record lists, ids and keys ignored. */
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

const purgeArb = fc.boolean();

describe("planUpdate: properties", () => {
  it("reaches exactly the desired multiset when every request is applied, purge or not", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, purgeArb, (current, desired, purge) => {
        const plan = planUpdate(current, desired, { purge });
        // What the service holds, from the bodies sent, is exactly the declaration...
        const template = serve(current, plan);
        expect(multiset(template)).toEqual(multiset(desired));
        // ...and the state the provider folds from the answers says the same, id for id.
        const final = execute(current, plan);
        expect(new Set(final.map((r) => r.recordId)).size).toBe(final.length);
        const byId = (rs: ReadonlyArray<RecordSpec & { recordId: string }>) =>
          Object.fromEntries(rs.map((r) => [r.recordId, withoutId(r)]));
        expect(byId(final)).toEqual(byId(template));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves exact matches alone, with their ids and values, keyed as declared", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, purgeArb, (current, desired, purge) => {
        const plan = planUpdate(current, desired, { purge });
        const common = commonCount(current, desired);
        expect(plan.unchanged).toHaveLength(common);
        expect(plan.summary.unchanged).toBe(common);
        const final = new Map(execute(current, plan).map((r) => [r.recordId, r]));
        for (const { from, to } of plan.unchanged) {
          expect(current).toContain(from);
          expect(identityOf(to)).toBe(identityOf(from));
          expect(final.get(from.recordId)).toEqual({ ...from, key: to.key });
        }
        const touched = new Set(
          plan.corrections.flatMap((c) =>
            c.kind === "delete" ? [c.record.recordId] : c.kind === "update" ? [c.from.recordId] : [],
          ),
        );
        for (const { from } of plan.unchanged) expect(touched.has(from.recordId)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("sends max(1, creates) requests with purge when anything changes, none otherwise", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, (current, desired) => {
        const { requests, summary } = planUpdate(current, desired, { purge: true });
        const changes = summary.creates + summary.updates + summary.deletes;
        expect(requests).toHaveLength(changes === 0 ? 0 : Math.max(1, summary.creates));
        expect(summary.requests).toBe(requests.length);
        expect(summary.deletes + summary.updates + summary.unchanged).toBe(current.length);
        expect(summary.creates + summary.updates + summary.unchanged).toBe(desired.length);
      }),
      { numRuns: 300 },
    );
  });

  it("without purge, sends one request for the named items (if any) plus one per create, and never an add beside a record id", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, (current, desired) => {
        const { requests, summary } = planUpdate(current, desired, { purge: false });
        const changes = summary.creates + summary.updates + summary.deletes;
        const named = summary.deletes + summary.updates + summary.unchanged;
        expect(requests).toHaveLength(changes === 0 ? 0 : (named > 0 ? 1 : 0) + summary.creates);
        expect(summary.requests).toBe(requests.length);
        // Judged on the wire body itself: a body that names ids (update or del) carries no add.
        for (const { body } of requests) {
          if ((body.update?.length ?? 0) + (body.del?.length ?? 0) > 0) expect(body.add).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("carries every del, update and verification in the first request and at most one add per request", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, purgeArb, (current, desired, purge) => {
        const { requests, summary, corrections } = planUpdate(current, desired, { purge });
        const [first, ...rest] = requests;
        if (!first) return;
        const kinds = (kind: string) => first.corrections.filter((c) => c.kind === kind);
        expect(kinds("delete")).toHaveLength(summary.deletes);
        expect(kinds("update")).toHaveLength(summary.updates);
        expect(kinds("verify")).toHaveLength(summary.unchanged);
        for (const request of rest) {
          expect(request.corrections).toHaveLength(1);
          expect(request.corrections[0]?.kind).toBe("create");
        }
        expect(requests.flatMap((r) => r.corrections.filter((c) => c.kind !== "verify"))).toEqual(
          expect.arrayContaining(corrections),
        );
        expect(requests.flatMap((r) => r.corrections).filter((c) => c.kind !== "verify")).toHaveLength(
          corrections.length,
        );
        for (const request of requests) {
          const cs = request.corrections;
          expect(request.body.add ?? []).toEqual(cs.flatMap((c) => (c.kind === "create" ? [c.add] : [])));
          expect(request.body.add?.length ?? 0).toBeLessThanOrEqual(1);
          expect(request.body.del ?? []).toEqual(cs.flatMap((c) => (c.kind === "delete" ? c.del : [])));
          expect(request.body.update ?? []).toEqual(
            cs.flatMap((c) => (c.kind === "update" || c.kind === "verify" ? [c.update] : [])),
          );
          for (const array of [request.body.add, request.body.update, request.body.del]) {
            if (array) expect(array.length).toBeGreaterThan(0);
          }
          expect(PatchRecordsBodySchema.strict().parse(request.body)).toEqual(request.body);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("verifies every unchanged held record in the first request with exactly its own values", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, purgeArb, (current, desired, purge) => {
        const plan = planUpdate(current, desired, { purge });
        const first = plan.requests[0];
        if (!first) {
          expect(plan.corrections).toEqual([]);
          return;
        }
        const items = first.body.update ?? [];
        // Built here from the held record and the wire table, not by the provider's toUpdateItem.
        for (const { from } of plan.unchanged) {
          const numbers: Record<string, number | undefined> = {};
          for (const field of WIRE_NUMBERS[from.type] ?? []) numbers[field] = from[field];
          expect(items).toContainEqual({
            record_id: from.recordId,
            name: from.name,
            content: from.content,
            ...numbers,
          });
        }
        const verified = first.corrections.filter((c) => c.kind === "verify");
        expect(verified.map((c) => c.from)).toEqual(plan.unchanged.map((u) => u.from));
        for (const request of plan.requests.slice(1)) {
          expect(request.corrections.some((c) => c.kind === "verify")).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("updates only within a type, and renames only when no same-name partner was left", () => {
    fc.assert(
      fc.property(heldArb, keyedArb, (current, desired) => {
        const plan = planUpdate(current, desired, { purge: true });
        const dels = plan.corrections.flatMap((c) => (c.kind === "delete" ? [c.record] : []));
        const adds = plan.corrections.flatMap((c) => (c.kind === "create" ? [c.record] : []));
        for (const c of plan.corrections) {
          if (c.kind !== "update") continue;
          const { from, to } = c;
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

  /**
   * Random edits of a held set of distinct records: some kept, some with new content, some renamed to
   * a name no other record of the type has, some deleted, some added. The oracle is the edit itself.
   */
  const editArb = distinctRecordsArb
    .filter((rs) => rs.length > 0)
    .chain((records) =>
      fc.tuple(
        fc.constant(records),
        fc.array(fc.constantFrom("keep", "content", "rename", "delete"), {
          minLength: records.length,
          maxLength: records.length,
        }),
      ),
    );

  it("keeps the id of every record whose values are unchanged and of every pure rename, and says so", () => {
    fc.assert(
      fc.property(editArb, ([records, edits]) => {
        const current = held(records);
        const desired: KeyedRecord[] = [];
        const expectKept = new Map<string, string>(); // recordId -> identity it must have after
        const renamed = new Set<string>();
        current.forEach((r, i) => {
          const edit = edits[i]!;
          if (edit === "delete") return;
          // A fresh name per record: a rename collides with nothing, so the pairing cannot be ambiguous.
          const next =
            edit === "keep"
              ? { ...r }
              : edit === "rename"
                ? { ...r, name: `renamed-${i}` }
                : { ...r, content: `${r.content}-edited-${i}` };
          desired.push({ ...withoutId(next), key: r.key });
          if (edit === "keep" || edit === "rename") expectKept.set(r.recordId, identityOf(next));
          if (edit === "rename") renamed.add(r.recordId);
        });
        // Where the edit itself is ambiguous, no pairing can know which id was meant: two renamed
        // records of one type and content; a deleted or content-changed record of the same type and
        // content as a renamed one; a deleted record of the same type and name as a content-changed one.
        const of = (edit: string) => current.filter((_, i) => edits[i] === edit);
        const typeContent = (r: RecordSpec) => `${r.type} ${r.content}`;
        const typeName = (r: RecordSpec) => `${r.type} ${r.name}`;
        const renamedKeys = of("rename").map(typeContent);
        fc.pre(new Set(renamedKeys).size === renamedKeys.length);
        fc.pre(!of("delete").some((d) => renamedKeys.includes(typeContent(d))));
        fc.pre(!of("delete").some((d) => of("content").some((c) => typeName(c) === typeName(d))));
        fc.pre(new Set(of("content").map(typeName)).size === of("content").length);
        fc.pre(!of("content").some((c) => renamedKeys.includes(typeContent(c))));
        const plan = planUpdate(current, desired, { purge: true });
        const after = execute(current, plan);
        for (const [id, identity] of expectKept) {
          const record = after.find((r) => r.recordId === id);
          expect(record && identityOf(record)).toBe(identity);
        }
        // The story matches the edit: a pure rename is one MODIFY of its name only, kept records are no line.
        for (const c of plan.corrections) {
          if (c.kind === "update" && renamed.has(c.from.recordId)) {
            expect(c.message).toMatch(/^~ MODIFY \S+ \S+ .* name \S+ -> renamed-\d+$/);
            expect(c.message).not.toMatch(/content/);
          }
          if (c.kind === "delete") expect(expectKept.has(c.record.recordId)).toBe(false);
        }
        expect(plan.summary.deletes).toBe(edits.filter((e) => e === "delete").length);
        expect(plan.summary.creates).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  // Declared records are a set (validation refuses duplicates); held ones may repeat, told apart by id.
  it("is deterministic and does not depend on the input order", () => {
    fc.assert(
      fc.property(
        heldArb.chain((c) => fc.tuple(fc.constant(c), shuffled(c))),
        distinctKeyedArb.chain((d) => fc.tuple(fc.constant(d), shuffled(d))),
        purgeArb,
        ([current, currentShuffled], [desired, desiredShuffled], purge) => {
          const plan = planUpdate(current, desired, { purge });
          expect(planUpdate(current, desired, { purge })).toEqual(plan);
          expect(planUpdate(currentShuffled, desiredShuffled, { purge })).toEqual(plan);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("plans nothing for a state planned against itself", () => {
    fc.assert(
      fc.property(heldArb, purgeArb, (current, purge) => {
        const desired: KeyedRecord[] = current.map(({ recordId: _id, ...r }) => r);
        expect(planUpdate(current, desired, { purge }).requests).toEqual([]);
      }),
    );
  });
});

describe("planDelete: properties", () => {
  it("removes everything in at most one request", () => {
    fc.assert(
      fc.property(heldArb, (current) => {
        const plan = planDelete(current);
        expect(plan.requests).toHaveLength(current.length === 0 ? 0 : 1);
        expect(execute(current, plan)).toEqual([]);
      }),
    );
  });
});

describe("planUpdate: scale", () => {
  it("summarises a plan of 100k records with 10% changes (4% updated, 3% deleted, 3% created)", {
    timeout: 120_000,
  }, () => {
    const n = 100_000;
    const current: HeldRecord[] = Array.from({ length: n }, (_, i) => ({
      name: `host${i % 50_000}`,
      type: i % 2 === 0 ? "A" : "TXT",
      content: i % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `text ${i}`,
      recordId: `r${i}`,
      key: `k${i}`,
    }));
    const desired: KeyedRecord[] = [];
    for (const [i, r] of current.entries()) {
      const slot = i % 100;
      if (slot < 4) desired.push({ name: r.name, type: r.type, content: `${r.content}.changed`, key: r.key });
      else if (slot >= 7) desired.push({ name: r.name, type: r.type, content: r.content, key: r.key });
    }
    for (let i = 0; i < n * 0.03; i++)
      desired.push({
        name: `extra${i}`,
        type: "CNAME",
        content: `t${i}.example.net.`,
        key: `extra${i}/CNAME`,
      });

    const plan = planUpdate(current, desired, { purge: true });
    expect(plan.summary).toEqual({
      creates: 3000,
      updates: 4000,
      deletes: 3000,
      unchanged: 93_000,
      requests: 3000,
    });
    // The first request names 3000 deletes, 4000 updates and verifies the 93,000 records it keeps.
    expect(plan.requests[0]?.body.del).toHaveLength(3000);
    expect(plan.requests[0]?.body.update).toHaveLength(97_000);
  });
});
