/**
 * The planner's rewrites (one PUT of every declared record) and recoveries, as the user reads and
 * the API receives them: the summary line of each reason, the URL forwards that follow a PUT each
 * in a PATCH of its own (docs/design.md, "Record ids"), the PUT of no records that removes what an
 * add of unknown outcome may have made, and the plan after a 404 (`planRecovery`).
 */
import { describe, expect, it } from "vitest";
import type { NamingCorrection } from "../../../provider/records/corrections";
import {
  type HeldRecord,
  type Holding,
  type Interruption,
  interruptedHolding,
  type KeyedRecord,
  type Plan,
  planRecovery,
  planResource,
  type Settings,
} from "../../../provider/records/plan";

const settings = (purge: boolean): Settings => ({ templateId: "web", purge, safetyThreshold: false });
const PURGE = settings(true);
const NO_PURGE = settings(false);

const rec = (name: string, content: string): KeyedRecord => ({ name, type: "A", content, key: `${name}/A` });
const held = (r: KeyedRecord, recordId: string): HeldRecord => ({ ...r, recordId });
const fwd = (name: string): KeyedRecord => ({
  name,
  type: "URLFWD",
  content: `https://example.com/${name}`,
  key: `${name}/URLFWD`,
});

const apex = rec("@", "192.0.2.1");
const www = rec("www", "192.0.2.2");
const api = rec("api", "192.0.2.3");

const journal = (over: Partial<Interruption> = {}): Interruption => ({
  source: "journal",
  request: "a PATCH adding api A 192.0.2.3 (update, 2026-01-01T00:00:00Z)",
  unknownAdds: [],
  ...over,
});
const requested: Interruption = { source: "requested", request: "DOMAINAPI_REWRITE=web", unknownAdds: [] };

/** Each request as `METHOD n` (records of a PUT, corrections of a PATCH, by kind). */
function sent(plan: Plan): string[] {
  return plan.requests.map((r) =>
    r.method === "PUT"
      ? `PUT ${r.records.map((x) => x.name).join(",")}`
      : `PATCH ${r.corrections.map((c) => `${c.kind}:${c.kind === "create" ? c.record.name : c.kind === "delete" ? c.record.recordId : c.from.recordId}`).join(",")}`,
  );
}

describe("the text of a rewrite, by reason", () => {
  it("a create with purge: one PUT, whatever the template holds", () => {
    const plan = planResource(undefined, { settings: PURGE, declared: [apex, www] });
    expect(plan.rewrite).toBe("create");
    expect(plan.text).toBe(
      "2 to create (1 request: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown)",
    );
    expect(plan.summary).toEqual({ creates: 2, updates: 0, deletes: 0, unchanged: 0, requests: 1 });
    expect(plan.corrections.map((c) => c.kind)).toEqual(["create", "create"]);
  });

  it("a create with purge and URL forwards: each forward follows the PUT in a PATCH of its own, and the text says so", () => {
    const plan = planResource(undefined, { settings: PURGE, declared: [apex, fwd("go"), fwd("shop")] });
    expect(sent(plan)).toEqual(["PUT @", "PATCH create:go", "PATCH create:shop"]);
    expect(plan.text).toBe(
      "3 to create (3 requests: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown, then 2 PATCHes adding each URL forward)",
    );
    expect(plan.summary.requests).toBe(3);
    const one = planResource(undefined, { settings: PURGE, declared: [apex, fwd("go")] });
    expect(one.text).toMatch(/^2 to create \(2 requests: .*, then 1 PATCH adding each URL forward\)$/);
  });

  it("after an add of unknown outcome, with purge: every held record goes, every declared one comes with a new id", () => {
    const holding: Holding = {
      settings: PURGE,
      held: [held(apex, "r1"), held(www, "r2")],
      untracked: ["api A 192.0.2.3"],
    };
    const plan = planResource(holding, { settings: PURGE, declared: [apex, api] });
    expect(plan.rewrite).toBe("unknown-add");
    expect(plan.text).toBe(
      "2 to create, 2 to delete (1 request: a PUT of every record after an earlier add of unknown outcome; every id is new)",
    );
    expect(plan.corrections.map((c) => c.kind)).toEqual(["delete", "delete", "create", "create"]);
    expect(plan.untracked).toEqual([]);
    const withForward = planResource(holding, { settings: PURGE, declared: [apex, fwd("go")] });
    expect(withForward.text).toBe(
      "2 to create, 2 to delete (2 requests: a PUT of every record after an earlier add of unknown outcome, then 1 PATCH adding each URL forward; every id is new)",
    );
  });

  it("after an interrupted run, with purge", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: [] };
    const plan = planResource(holding, { settings: PURGE, declared: [apex, fwd("go")] }, journal());
    expect(plan.text).toBe(
      "all 2 records rewritten with one PUT, then 1 PATCH adding each URL forward after an interrupted run whose last request's outcome is unknown (every record id is new: the PUT replaces whatever that request left)",
    );
    expect(plan.interrupted).toBe(journal().request);
    expect(plan.onRefusal).toEqual({ vanished: "recover", templateGone: "fail" });
  });

  it("as DOMAINAPI_REWRITE asks, with purge", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: [] };
    const plan = planResource(holding, { settings: PURGE, declared: [apex, www] }, requested);
    expect(plan.text).toBe(
      "all 2 records rewritten with one PUT, as DOMAINAPI_REWRITE asks (every record id is new: the PUT replaces whatever the template held)",
    );
    expect(plan.corrections.map((c) => c.kind)).toEqual(["delete", "create", "create"]);
    expect(plan.interrupted).toBe("DOMAINAPI_REWRITE=web");
    // A create asked to be rewritten has nothing held to delete.
    const create = planResource(undefined, { settings: PURGE, declared: [apex] }, requested);
    expect(create.corrections.map((c) => c.kind)).toEqual(["create"]);
    expect(create.rewrite).toBe("requested");
  });

  it("an imported template with URL forwards", () => {
    const holding: Holding = { settings: PURGE, held: [], untracked: [], unlisted: true };
    const plan = planResource(holding, { settings: PURGE, declared: [apex, fwd("go")] });
    expect(plan.text).toBe(
      "2 to create (2 requests: a PUT, which replaces whatever records the template held when it was imported: the API cannot list them, then 1 PATCH adding each URL forward)",
    );
  });
});

describe("a removal", () => {
  it("with purge, after an add of unknown outcome: one PUT of no records, which also removes what that add may have made", () => {
    const holding: Holding = {
      settings: PURGE,
      held: [held(apex, "r1"), held(www, "r2")],
      untracked: ["api A 192.0.2.3"],
    };
    const plan = planResource(holding, undefined);
    expect(sent(plan)).toEqual(["PUT "]);
    expect(plan.text).toBe(
      "2 to delete (1 request: a PUT of no records, which also removes what an add of unknown outcome may have made)",
    );
    expect(plan.onRefusal).toEqual({ vanished: "drop", templateGone: "done" });
    expect(plan).toMatchObject({ setAside: [], forgotten: [], untracked: [] });
  });

  it("without purge, after an add of unknown outcome: a PATCH of the held records, and the add forgotten with a last word", () => {
    const holding: Holding = {
      settings: NO_PURGE,
      held: [held(www, "r2"), held(apex, "r1")],
      untracked: ["api A 192.0.2.3"],
    };
    const plan = planResource(holding, undefined);
    expect(sent(plan)).toEqual(["PATCH delete:r1,delete:r2"]);
    expect(plan.mode).toBe("patch");
    expect(plan.text).toBe("0 to create, 0 to update, 2 to delete, 0 unchanged (1 request)");
    expect(plan.forgotten).toEqual(["api A 192.0.2.3"]);
    expect(plan.untracked).toEqual([]);
  });

  it("of nothing held sends nothing", () => {
    const plan = planResource({ settings: NO_PURGE, held: [], untracked: [] }, undefined);
    expect(plan.mode).toBe("none");
    expect(plan.requests).toEqual([]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 0, unchanged: 0, requests: 0 });
  });

  it("of a resource neither held nor declared is a programming error", () => {
    expect(() => planResource(undefined, undefined)).toThrow(
      new RangeError("planResource: a resource neither held nor declared"),
    );
  });
});

describe("an update without purge", () => {
  it("sets aside a declared record whose add is of unknown outcome, and forgets one no longer declared", () => {
    const holding: Holding = {
      settings: NO_PURGE,
      held: [held(apex, "r1")],
      untracked: ["api A 192.0.2.3", "old A 192.0.2.9"],
    };
    const plan = planResource(holding, { settings: NO_PURGE, declared: [apex, api, www] });
    expect(plan.setAside).toEqual(["api A 192.0.2.3"]);
    expect(plan.forgotten).toEqual(["old A 192.0.2.9"]);
    expect(plan.untracked).toEqual(["api A 192.0.2.3"]);
    // The first request verifies what it keeps; the add goes alone.
    expect(sent(plan)).toEqual(["PATCH verify:r1", "PATCH create:www"]);
  });

  it("with purge, the first add rides with the first request", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: [] };
    const plan = planResource(holding, { settings: PURGE, declared: [apex, api, www] });
    expect(sent(plan)).toEqual(["PATCH verify:r1,create:api", "PATCH create:www"]);
  });

  it("with nothing held, the first add rides alone: a request naming no id can only be refused for the template", () => {
    const plan = planResource(undefined, { settings: NO_PURGE, declared: [api, www] });
    expect(sent(plan)).toEqual(["PATCH create:api", "PATCH create:www"]);
    expect(plan.mode).toBe("patch");
  });
});

describe("interruptedHolding", () => {
  const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: ["x A 192.0.2.8"] };

  it("is the state itself without a journal's fact, or for DOMAINAPI_REWRITE", () => {
    expect(interruptedHolding(holding, NO_PURGE, undefined)).toBe(holding);
    expect(interruptedHolding(holding, NO_PURGE, requested)).toBe(holding);
    expect(interruptedHolding(undefined, NO_PURGE, undefined)).toEqual({
      settings: NO_PURGE,
      held: [],
      untracked: [],
    });
  });

  it("takes what the interrupted run proved, and its adds of unknown outcome besides the state's, once each", () => {
    const proven = [held(apex, "r1"), held(www, "r2")];
    const fact = journal({ held: proven, unknownAdds: ["api A 192.0.2.3", "x A 192.0.2.8"] });
    expect(interruptedHolding(holding, NO_PURGE, fact)).toEqual({
      settings: PURGE,
      held: proven,
      untracked: ["x A 192.0.2.8", "api A 192.0.2.3"],
    });
    // Without proof newer than the state, the state's records.
    expect(interruptedHolding(holding, NO_PURGE, journal()).held).toEqual(holding.held);
  });
});

describe("planInterrupted without purge", () => {
  it("a create's records were proven by its own answers moments ago: not verified again unless the request named held records", () => {
    const proven = [held(apex, "r1")];
    const plain = planResource(
      undefined,
      { settings: NO_PURGE, declared: [apex, www] },
      journal({ held: proven }),
    );
    expect(sent(plain)).toEqual(["PATCH create:www"]);
    const named = planResource(
      undefined,
      { settings: NO_PURGE, declared: [apex, www] },
      journal({ held: proven, namedHeld: true }),
    );
    expect(sent(named)).toEqual(["PATCH verify:r1", "PATCH create:www"]);
  });

  it("an update verifies the held records with its first change, and only when something changes unless the request named them", () => {
    const holding: Holding = { settings: NO_PURGE, held: [held(apex, "r1")], untracked: [] };
    expect(sent(planResource(holding, { settings: NO_PURGE, declared: [apex, www] }, journal()))).toEqual([
      "PATCH verify:r1",
      "PATCH create:www",
    ]);
    expect(planResource(holding, { settings: NO_PURGE, declared: [apex] }, journal()).requests).toEqual([]);
    const named = planResource(
      holding,
      { settings: NO_PURGE, declared: [apex] },
      journal({ namedHeld: true }),
    );
    expect(sent(named)).toEqual(["PATCH verify:r1"]);
    expect(named.mode).toBe("patch");
    expect(named.interrupted).toBe(journal().request);
  });

  it("a removal after an interrupted run removes what the run proved held", () => {
    const holding: Holding = { settings: NO_PURGE, held: [held(apex, "r1")], untracked: [] };
    const plan = planResource(holding, undefined, journal({ held: [held(apex, "r1"), held(api, "r3")] }));
    expect(sent(plan)).toEqual(["PATCH delete:r1,delete:r3"]);
    expect(plan.interrupted).toBe(journal().request);
  });

  it("DOMAINAPI_REWRITE on a removal plans the removal, as without it", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: [] };
    const plan = planResource(holding, undefined, requested);
    expect(sent(plan)).toEqual(["PATCH delete:r1"]);
    expect(plan.interrupted).toBeUndefined();
  });
});

describe("planRecovery: the plan after a 404", () => {
  const declare = (s: Settings, declared: KeyedRecord[]) => ({ settings: s, declared });
  const verifyOf = (r: HeldRecord): NamingCorrection => ({
    kind: "verify",
    from: r,
    to: r,
    update: { record_id: r.recordId, name: r.name, content: r.content },
  });
  const deleteOf = (r: HeldRecord): NamingCorrection => ({
    kind: "delete",
    record: r,
    message: `- DELETE ${r.name}`,
    del: [{ record_id: r.recordId }],
  });

  it("with purge, a record to keep gone: one PUT of every declared record, keeping what was forgotten", () => {
    const first = planResource(
      { settings: PURGE, held: [held(apex, "r1"), held(www, "r2")], untracked: [] },
      declare(PURGE, [apex, www, api]),
    );
    const plan = planRecovery(
      [held(apex, "r1")],
      { ...first, forgotten: ["old A 192.0.2.9"] },
      declare(PURGE, [apex, www, api]),
      {
        vanished: [verifyOf(held(www, "r2"))],
        rewrite: false,
      },
    );
    expect(plan.rewrite).toBe("vanished");
    expect(sent(plan)).toEqual(["PUT @,api,www"]);
    expect(plan.text).toBe(
      "all 3 records rewritten with one PUT to restore what was removed outside Pulumi (every record id is new)",
    );
    expect(plan.forgotten).toEqual(["old A 192.0.2.9"]);
    expect(plan.onRefusal).toEqual({ vanished: "recover", templateGone: "fail" });
  });

  it("with purge, a search that stopped for a rewrite: one PUT even when nothing was named vanished", () => {
    const first = planResource(
      { settings: PURGE, held: [held(apex, "r1")], untracked: [] },
      declare(PURGE, [apex, api]),
    );
    const plan = planRecovery([held(apex, "r1")], first, declare(PURGE, [apex, api]), {
      vanished: [],
      rewrite: true,
    });
    expect(sent(plan)).toEqual(["PUT @,api"]);
  });

  it("with purge, only deletions vanished: a PATCH of what is left, without verifying again", () => {
    const gone = held(www, "r2");
    const first = planResource(
      { settings: PURGE, held: [held(apex, "r1"), gone], untracked: [] },
      declare(PURGE, [apex, api]),
    );
    const plan = planRecovery([held(apex, "r1")], first, declare(PURGE, [apex, api]), {
      vanished: [deleteOf(gone)],
      rewrite: false,
    });
    expect(plan.mode).toBe("patch");
    expect(sent(plan)).toEqual(["PATCH create:api"]);
  });

  it("without purge: the vanished record is added again; what was set aside stays aside and tracked", () => {
    const holding: Holding = {
      settings: NO_PURGE,
      held: [held(apex, "r1"), held(www, "r2")],
      untracked: ["api A 192.0.2.3"],
    };
    const first = planResource(holding, declare(NO_PURGE, [apex, www, api]));
    expect(first.setAside).toEqual(["api A 192.0.2.3"]);
    const plan = planRecovery([held(apex, "r1")], first, declare(NO_PURGE, [apex, www, api]), {
      vanished: [verifyOf(held(www, "r2"))],
      rewrite: false,
    });
    expect(sent(plan)).toEqual(["PATCH create:www"]);
    expect(plan.setAside).toEqual(["api A 192.0.2.3"]);
    expect(plan.untracked).toEqual(["api A 192.0.2.3"]);
    expect(plan.onRefusal).toEqual({ vanished: "recover", templateGone: "fail" });
    expect(plan.text).toBe("1 to create, 0 to update, 0 to delete, 1 unchanged (1 request)");
  });
});
