/**
 * What each plan leaves tracked (docs/design.md, "Record ids"): the declared records it sets aside,
 * the adds of unknown outcome it forgets with a last warning, and those the resource still tracks
 * once it is carried out; and what `check()` plans against the previous inputs (the preview keys,
 * the summary the safety check reads).
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import type { NamingCorrection } from "../../../provider/records/corrections";
import {
  type HeldRecord,
  type Holding,
  type KeyedRecord,
  type Plan,
  planCheck,
  planRecovery,
  planRefresh,
  planResource,
  type Settings,
} from "../../../provider/records/plan";

const settings = (purge: boolean): Settings => ({ templateId: "web", purge, safetyThreshold: false });
const PURGE = settings(true);
const NO_PURGE = settings(false);

const rec = (name: string, content: string): KeyedRecord => ({ name, type: "A", content, key: `${name}/A` });
const held = (r: KeyedRecord, recordId: string): HeldRecord => ({ ...r, recordId });

const apex = rec("@", "192.0.2.1");
const www = rec("www", "192.0.2.2");
const api = rec("api", "192.0.2.3");

/** What a plan leaves tracked. */
const tracking = (plan: Plan) => ({
  setAside: plan.setAside,
  forgotten: plan.forgotten,
  untracked: plan.untracked,
});
const NOTHING = { setAside: [], forgotten: [], untracked: [] };

describe("what a plan leaves tracked", () => {
  it("a create without purge tracks nothing and forgets nothing", () => {
    const plan = planResource(undefined, { settings: NO_PURGE, declared: [apex, www] });
    expect(plan.summary).toEqual({ creates: 2, updates: 0, deletes: 0, unchanged: 0, requests: 2 });
    expect(tracking(plan)).toEqual(NOTHING);
  });

  it("a removal by a PUT of no records leaves nothing of unknown outcome to track", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: ["api A 192.0.2.3"] };
    expect(tracking(planResource(holding, undefined))).toEqual(NOTHING);
  });

  it("a rewrite after an interrupted run, with purge, sets nothing aside: the PUT makes every record", () => {
    const holding: Holding = { settings: PURGE, held: [held(apex, "r1")], untracked: ["api A 192.0.2.3"] };
    const plan = planResource(
      holding,
      { settings: PURGE, declared: [apex, api] },
      { source: "journal", request: "a PATCH adding api A 192.0.2.3", unknownAdds: ["api A 192.0.2.3"] },
    );
    expect(plan.rewrite).toBe("interrupted");
    expect(tracking(plan)).toEqual(NOTHING);
  });

  it("a refresh that verifies nothing keeps tracking every add of unknown outcome", () => {
    const holding: Holding = { settings: NO_PURGE, held: [held(apex, "r1")], untracked: ["api A 192.0.2.3"] };
    const plan = planRefresh(holding, false);
    expect(plan.requests).toEqual([]);
    expect(plan.text).toBe("0 to create, 0 to update, 0 to delete, 1 unchanged (0 requests)");
    expect(tracking(plan)).toEqual({ setAside: [], forgotten: [], untracked: ["api A 192.0.2.3"] });
  });
});

describe("planRecovery with purge", () => {
  const verifyOf = (r: HeldRecord): NamingCorrection => ({
    kind: "verify",
    from: r,
    to: r,
    update: { record_id: r.recordId, name: r.name, content: r.content },
  });
  const deleteOf = (r: HeldRecord): NamingCorrection => ({
    kind: "delete",
    record: r,
    message: `- DELETE ${r.name} A ${r.content}`,
    del: [{ record_id: r.recordId }],
  });

  it("rewrites when a record to keep vanished beside a deletion, and tracks nothing after the PUT", () => {
    const gone = held(api, "r3");
    const declared = { settings: PURGE, declared: [apex, www] };
    const first = planResource(
      { settings: PURGE, held: [held(apex, "r1"), held(www, "r2"), gone], untracked: [] },
      declared,
    );
    const plan = planRecovery([held(apex, "r1")], first, declared, {
      vanished: [deleteOf(gone), verifyOf(held(www, "r2"))],
      rewrite: false,
    });
    expect(plan.rewrite).toBe("vanished");
    expect(plan.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(tracking(plan)).toEqual(NOTHING);
  });
});

describe("planCheck: the plan against the previous inputs", () => {
  const a1: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
  const a2: RecordSpec = { name: "www", type: "A", content: "192.0.2.2" };
  const txt: RecordSpec = { name: "@", type: "TXT", content: "v=spf1 -all" };
  const keyedAs = (r: RecordSpec, key: string): KeyedRecord => ({ ...r, key });

  it("is none when the previous inputs declared no records: a first declaration", () => {
    const { declared, plan } = planCheck({ settings: PURGE, declared: [] }, [a1], PURGE);
    expect(plan).toBeUndefined();
    expect(declared.map((r) => r.key)).toEqual(["www/A"]);
  });

  it("names each previous record by its key, as the inputs hold no ids", () => {
    const previous = { settings: PURGE, declared: [keyedAs(txt, "@/TXT"), keyedAs(a1, "www/A")] };
    const { plan } = planCheck(previous, [txt], PURGE);
    expect(plan?.corrections.map((c) => c.message)).toEqual(["- DELETE www A 192.0.2.1"]);
    expect(plan?.requests[0]).toMatchObject({ body: { del: [{ record_id: "key:www/A" }] } });
    expect(tracking(plan!)).toEqual(NOTHING);
  });

  it("keys new records that share a name and type by their content, as a first declaration would", () => {
    const previous = { settings: PURGE, declared: [keyedAs(txt, "@/TXT")] };
    const { declared } = planCheck(previous, [a2, a1], PURGE);
    expect(declared.map((r) => r.key)).toEqual(["www/A/192.0.2.1", "www/A/192.0.2.2"]);
    expect(planCheck(undefined, [a2, a1], PURGE).declared.map((r) => r.key)).toEqual([
      "www/A/192.0.2.1",
      "www/A/192.0.2.2",
    ]);
  });

  it("counts the requests an update would send: without purge, the verification of what stays, then the add", () => {
    const previous = { settings: NO_PURGE, declared: [keyedAs(txt, "@/TXT")] };
    const { plan } = planCheck(previous, [txt, a1], NO_PURGE);
    expect(plan?.text).toBe("1 to create, 0 to update, 0 to delete, 1 unchanged (2 requests)");
    expect(plan?.requests.map((r) => (r.method === "PATCH" ? r.corrections.map((c) => c.kind) : []))).toEqual(
      [["verify"], ["create"]],
    );
  });
});
