/**
 * The planner's recovery from an interrupted run (docs/behaviour.md, "Interrupted runs"): the
 * journal's entry is one more fact it plans from, and each recovery sends the fewest requests that
 * make the state true.
 */
import { describe, expect, it } from "vitest";
import type { HeldRecord, KeyedRecord } from "../../../provider/records/corrections";
import { type Interruption, planResource, type Settings } from "../../../provider/records/plan";

const settings = (purge: boolean): Settings => ({ templateId: "web", purge, safetyThreshold: false });
const rec = (name: string, content: string): KeyedRecord => ({ name, type: "A", content, key: `${name}/A` });
const held = (r: KeyedRecord, recordId: string): HeldRecord => ({ ...r, recordId });

const apex = rec("@", "192.0.2.1");
const www = rec("www", "192.0.2.2");
const api = rec("api", "192.0.2.3");
const state = [held(apex, "r1"), held(www, "r2")];

const journal = (over: Partial<Interruption> = {}): Interruption => ({
  source: "journal",
  request: "a PATCH adding api A 192.0.2.3 (update, 2026-01-01T00:00:00Z)",
  unknownAdds: [],
  ...over,
});

function plan(purge: boolean, declared: KeyedRecord[] | undefined, interruption: Interruption) {
  const holding = { settings: settings(purge), held: state, untracked: [] };
  return planResource(holding, declared && { settings: settings(purge), declared }, interruption);
}

describe("purge: true", () => {
  it("an add of unknown outcome: one PUT of the declared records, every id new, whatever else changed", () => {
    const p = plan(true, [apex, www, api], journal({ unknownAdds: ["api A 192.0.2.3"] }));
    expect(p.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(p.rewrite).toBe("interrupted");
    expect(p.text).toMatch(
      /all 3 records rewritten with one PUT after an interrupted run .*every record id is new/,
    );
    expect(p.untracked).toEqual([]);
    expect(p.interrupted).toMatch(/a PATCH adding api/);
  });

  it("a destroy interrupted, then up with the same records: the template is written again (one PUT)", () => {
    const p = plan(true, [apex, www], journal({ request: "a PATCH deleting 2 record(s)", namedHeld: true }));
    expect(p.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(p.summary.creates).toBe(2);
  });

  it("a destroy again: a PUT of no records when an add of unknown outcome may have made a record", () => {
    const p = plan(true, undefined, journal({ unknownAdds: ["api A 192.0.2.3"] }));
    expect(p.requests).toMatchObject([{ method: "PUT", records: [] }]);
  });

  it("DOMAINAPI_REWRITE with no journal: one PUT of the declared records", () => {
    const p = plan(true, [apex, www], {
      source: "requested",
      request: "DOMAINAPI_REWRITE=web",
      unknownAdds: [],
    });
    expect(p.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(p.rewrite).toBe("requested");
  });
});

describe("purge: false", () => {
  it("an add of unknown outcome still declared: set aside (named, never sent again), tracked as unknown", () => {
    const p = plan(false, [apex, www, api], journal({ unknownAdds: ["api A 192.0.2.3"] }));
    expect(p.requests).toEqual([]);
    expect(p.setAside).toEqual(["api A 192.0.2.3"]);
    expect(p.untracked).toEqual(["api A 192.0.2.3"]);
  });

  it("a request that named held records: the first PATCH verifies every held record, even with nothing to change", () => {
    const p = plan(false, [apex, www], journal({ request: "a PATCH deleting 2 record(s)", namedHeld: true }));
    expect(p.requests).toHaveLength(1);
    const [first] = p.requests;
    expect(first?.method === "PATCH" && first.corrections.map((c) => c.kind)).toEqual(["verify", "verify"]);
    expect(p.onRefusal.vanished).toBe("recover");
  });

  it("what the interrupted run proved replaces the state it started from", () => {
    const proven = [...state, held(api, "r3")];
    const p = plan(false, [apex, www, api], journal({ held: proven }));
    expect(p.requests).toEqual([]);
  });

  it("a destroy again after an add of unknown outcome: the held records go, the unknown one is named as forgotten", () => {
    const p = plan(false, undefined, journal({ unknownAdds: ["api A 192.0.2.3"] }));
    expect(p.requests.map((r) => r.method)).toEqual(["PATCH"]);
    expect(p.forgotten).toEqual(["api A 192.0.2.3"]);
  });

  it("DOMAINAPI_REWRITE does not rewrite a template the resource does not own", () => {
    const p = plan(false, [apex, www], {
      source: "requested",
      request: "DOMAINAPI_REWRITE=all",
      unknownAdds: [],
    });
    expect(p.requests).toEqual([]);
    expect(p.rewrite).toBeUndefined();
  });
});
