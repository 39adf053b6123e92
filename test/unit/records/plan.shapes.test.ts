/**
 * The planner's plans as the run loop and the preview read them: how many requests an update with
 * purge sends (its add rides in the PATCH that names the changed records), and that a plan which
 * writes or removes every record sets nothing aside (no declared record is held back as an add of
 * unknown outcome).
 */
import { describe, expect, it } from "vitest";
import {
  type HeldRecord,
  type KeyedRecord,
  type PlannedRequest,
  planResource,
  type Settings,
} from "../../../provider/records/plan";

/** A record as declared, before the planner keys it. */
type RecordSpec = Omit<KeyedRecord, "key">;

const held = (recordId: string, r: RecordSpec): HeldRecord => ({
  ...r,
  recordId,
  key: `${r.name}/${r.type}`,
});
const want = (r: RecordSpec): KeyedRecord => ({ ...r, key: `${r.name}/${r.type}` });
/** What a request carries: the kinds of its corrections, or "PUT" for a rewrite. */
const kinds = (r: PlannedRequest): string[] =>
  r.method === "PATCH" ? r.corrections.map((c) => c.kind).sort() : ["PUT"];
const settingsOf = (purge: boolean): Settings => ({
  templateId: "tpl-shapes",
  purge,
  safetyThreshold: false,
});

const www: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
const api: RecordSpec = { name: "api", type: "A", content: "192.0.2.2" };
const mail: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };

describe("an update with purge that changes, removes and adds", () => {
  it("sends the add in the same PATCH as the records it names: one request", () => {
    const settings = settingsOf(true);
    const plan = planResource(
      { settings, held: [held("r1", www), held("r2", api)], untracked: [] },
      { settings, declared: [want({ ...www, content: "192.0.2.9" }), want(mail)] },
    );
    expect(plan.text).toBe("1 to create, 1 to update, 1 to delete, 0 unchanged (1 request)");
    expect(plan.requests).toHaveLength(1);
    expect(kinds(plan.requests[0]!)).toEqual(["create", "delete", "update"]);
  });

  it("without purge sends the add alone, after the PATCH that names ids (a refusal there is about them)", () => {
    const settings = settingsOf(false);
    const plan = planResource(
      { settings, held: [held("r1", www), held("r2", api)], untracked: [] },
      { settings, declared: [want({ ...www, content: "192.0.2.9" }), want(mail)] },
    );
    expect(plan.text).toBe("1 to create, 1 to update, 1 to delete, 0 unchanged (2 requests)");
    expect(plan.requests.map(kinds)).toEqual([["delete", "update"], ["create"]]);
  });
});

describe("a plan that writes or removes every record sets nothing aside", () => {
  it("a create with purge: one PUT of every declared record, none held back", () => {
    const settings = settingsOf(true);
    const plan = planResource(undefined, { settings, declared: [want(www), want(mail)] });
    expect(plan.mode).toBe("rewrite");
    expect(plan.setAside).toEqual([]);
    expect(plan.forgotten).toEqual([]);
    expect(plan.untracked).toEqual([]);
  });

  it("an update with purge after an add of unknown outcome: the PUT writes that record too", () => {
    const settings = settingsOf(true);
    const plan = planResource(
      { settings, held: [held("r1", www)], untracked: ["api A 192.0.2.2"] },
      { settings, declared: [want(www), want(api)] },
    );
    expect(plan.mode).toBe("rewrite");
    expect(plan.setAside).toEqual([]);
    expect(plan.untracked).toEqual([]);
  });

  it("a delete without purge: its adds of unknown outcome are forgotten, not set aside", () => {
    const settings = settingsOf(false);
    const plan = planResource(
      { settings, held: [held("r1", www)], untracked: ["api A 192.0.2.2"] },
      undefined,
    );
    expect(plan.text).toBe("0 to create, 0 to update, 1 to delete, 0 unchanged (1 request)");
    expect(plan.setAside).toEqual([]);
    expect(plan.forgotten).toEqual(["api A 192.0.2.2"]);
    expect(plan.untracked).toEqual([]);
  });
});
