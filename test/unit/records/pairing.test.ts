/**
 * The pairing's classes, in order, and its tie-break (docs/design.md, "Previews and plans"): which
 * held record keeps its id for which declared one. Random properties check that the pairing is
 * deterministic and minimal; these examples pin the order itself, through the planner's own plan
 * (the ids its updates name), so a swap of two classes or of the tie-break shows.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import type { HeldRecord, KeyedRecord, Plan, Settings } from "../../../provider/records/plan";
import { planResource } from "../../../provider/records/plan";

type R = RecordSpec;

const settings: Settings = { templateId: "web", purge: true, safetyThreshold: false };

function plan(held: Array<[id: string, record: R]>, declared: R[]): Plan {
  const holding = held.map(([recordId, r]): HeldRecord => ({ ...r, recordId, key: `k-${recordId}` }));
  const wanted = declared.map((r, i): KeyedRecord => ({ ...r, key: `d${i}` }));
  return planResource({ settings, held: holding, untracked: [] }, { settings, declared: wanted });
}

/** What each changed record becomes, as `id -> name content [priority]`; then what is created and deleted. */
function story(p: Plan) {
  const show = (r: R) => [r.name, r.content, ...(r.priority === undefined ? [] : [r.priority])].join(" ");
  return {
    updated: p.corrections.flatMap((c) =>
      c.kind === "update" ? [`${c.from.recordId} -> ${show(c.to)}`] : [],
    ),
    created: p.corrections.flatMap((c) => (c.kind === "create" ? [show(c.add as R)] : [])),
    deleted: p.corrections.flatMap((c) => (c.kind === "delete" ? [c.record.recordId] : [])),
  };
}

const a = (name: string, content: string): R => ({ name, type: "A", content });
const mx = (content: string, priority: number): R => ({ name: "@", type: "MX", content, priority });

describe("the classes, in order", () => {
  it("1 before 2: a record whose values are declared stays, and its sibling takes the change", () => {
    const p = plan(
      [
        ["r1", a("www", "192.0.2.1")],
        ["r2", a("www", "192.0.2.2")],
      ],
      [a("www", "192.0.2.2"), a("www", "192.0.2.3")],
    );
    expect(story(p)).toEqual({ updated: ["r1 -> www 192.0.2.3"], created: [], deleted: [] });
    expect(p.summary).toMatchObject({ unchanged: 1, updates: 1 });
  });

  it("2 before 3: the same type and name (content changed) wins over the same type and content (renamed)", () => {
    const p = plan([["r1", a("www", "192.0.2.1")]], [a("www", "192.0.2.2"), a("api", "192.0.2.1")]);
    expect(story(p)).toEqual({ updated: ["r1 -> www 192.0.2.2"], created: ["api 192.0.2.1"], deleted: [] });
  });

  it("3 before 4: a rename keeps its id, whatever the canonical order of the other candidates", () => {
    const p = plan([["r1", a("www", "192.0.2.1")]], [a("aaa", "192.0.2.9"), a("zzz", "192.0.2.1")]);
    expect(story(p)).toEqual({ updated: ["r1 -> zzz 192.0.2.1"], created: ["aaa 192.0.2.9"], deleted: [] });
  });

  it("4: the same type alone pairs what is left, name and content changed in place", () => {
    const p = plan([["r1", a("www", "192.0.2.1")]], [a("api", "192.0.2.9")]);
    expect(story(p)).toEqual({ updated: ["r1 -> api 192.0.2.9"], created: [], deleted: [] });
  });

  it("no class pairs across types: a type change is a delete and a create", () => {
    const p = plan([["r1", a("www", "192.0.2.1")]], [{ name: "www", type: "AAAA", content: "2001:db8::1" }]);
    expect(story(p)).toEqual({ updated: [], created: ["www 2001:db8::1"], deleted: ["r1"] });
  });

  it("within 2, the closest partner first: the same numbers, then the same content", () => {
    const p = plan(
      [
        ["r1", mx("mx1.example.net", 10)],
        ["r2", mx("mx2.example.net", 20)],
      ],
      [mx("mx0.example.net", 20), mx("mx1.example.net", 30)],
    );
    expect(story(p).updated).toEqual(["r1 -> @ mx1.example.net 30", "r2 -> @ mx0.example.net 20"]);
    // The same numbers come before the same content: each keeps its priority, its host changed.
    const q = plan(
      [
        ["r1", mx("mx1.example.net", 10)],
        ["r2", mx("mx2.example.net", 20)],
      ],
      [mx("mx1.example.net", 20), mx("mx3.example.net", 10)],
    );
    expect(story(q).updated).toEqual(["r1 -> @ mx3.example.net 10", "r2 -> @ mx1.example.net 20"]);
  });
});

describe("ties go in canonical order", () => {
  it("the first held record in canonical order (by values, not by id) takes the first declared one", () => {
    const p = plan(
      [
        ["r9", a("www", "192.0.2.5")],
        ["r1", a("www", "192.0.2.6")],
      ],
      [a("www", "192.0.2.2"), a("www", "192.0.2.1")],
    );
    // r9 holds 192.0.2.5, which comes before r1's 192.0.2.6: it takes 192.0.2.1, the first.
    expect(story(p).updated).toEqual(["r9 -> www 192.0.2.1", "r1 -> www 192.0.2.2"]);
  });

  it("held records of equal values (a partly applied state) tie by id: the lower id pairs first, whatever the state's order", () => {
    const declared = [a("www", "192.0.2.2"), a("www", "192.0.2.1")];
    for (const order of [
      ["r2", "r1"],
      ["r1", "r2"],
    ]) {
      const p = plan(
        order.map((id): [string, R] => [id, a("www", "192.0.2.5")]),
        declared,
      );
      expect(story(p).updated).toEqual(["r1 -> www 192.0.2.1", "r2 -> www 192.0.2.2"]);
    }
  });

  it("the same sets in any order give the same pairing", () => {
    const held: Array<[string, R]> = [
      ["r3", a("www", "192.0.2.7")],
      ["r4", a("api", "192.0.2.8")],
      ["r5", a("www", "192.0.2.9")],
    ];
    const declared = [a("www", "192.0.2.1"), a("api", "192.0.2.7"), a("mail", "192.0.2.3")];
    const once = story(plan(held, declared));
    expect(story(plan([...held].reverse(), [...declared].reverse()))).toEqual(once);
  });
});
