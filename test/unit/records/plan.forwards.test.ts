/**
 * URL forwards in the planner (docs/design.md, "Record ids"): a forward whose add was answered
 * with several ids owns all of them, so removing it deletes every one, and changing its URL
 * deletes them and adds it anew: which id is the forward's own is not known, so it is never
 * updated in place, even when the answer named just one id besides its own. Pinned on the plan
 * itself (the requests `up` sends), not on a sandbox that would clean up after it.
 */
import { describe, expect, it } from "vitest";
import type { HeldRecord, KeyedRecord, Plan, Settings } from "../../../provider/records/plan";
import { planResource } from "../../../provider/records/plan";

const settings = (purge: boolean): Settings => ({ templateId: "web", purge, safetyThreshold: false });

const forward = { name: "go", type: "URLFWD", content: "https://example.com/old" } as const;
const moved = { ...forward, content: "https://example.com/new" } as const;
const apex = { name: "@", type: "A", content: "192.0.2.1" } as const;

function held(recordId: string, record: typeof forward | typeof apex, madeIds?: string[]): HeldRecord {
  return { ...record, key: `${record.name}/${record.type}`, recordId, ...(madeIds ? { madeIds } : {}) };
}

function declared(record: typeof forward | typeof moved | typeof apex): KeyedRecord {
  return { ...record, key: `${record.name}/${record.type}` };
}

function plan(before: HeldRecord[], after: KeyedRecord[] | undefined, purge: boolean): Plan {
  return planResource(
    { settings: settings(purge), held: before, untracked: [] },
    after === undefined ? undefined : { settings: settings(purge), declared: after },
  );
}

/** Every body the plan sends, in order. */
function bodies(p: Plan) {
  return p.requests.map((r) => {
    if (r.method !== "PATCH") throw new Error(`expected PATCH requests, got a ${r.method}`);
    return r.body;
  });
}

describe.each([true, false])("with purge %s", (purge) => {
  it("a URL forward no longer declared deletes every id it owns, r1, r2 and r3", () => {
    const p = plan([held("r0", apex), held("r1", forward, ["r2", "r3"])], [declared(apex)], purge);
    const sent = bodies(p);
    expect(sent[0]?.del).toEqual([{ record_id: "r1" }, { record_id: "r2" }, { record_id: "r3" }]);
    expect(sent.flatMap((b) => b.del ?? []).map((d) => d.record_id)).toEqual(["r1", "r2", "r3"]);
    expect(sent.flatMap((b) => b.add ?? [])).toEqual([]);
    expect(p.summary).toMatchObject({ deletes: 1, creates: 0, updates: 0 });
  });

  it("deleting the resource deletes every id the forward owns", () => {
    const p = plan([held("r1", forward, ["r2", "r3"])], undefined, purge);
    expect(
      bodies(p)
        .flatMap((b) => b.del ?? [])
        .map((d) => d.record_id),
    ).toEqual(["r1", "r2", "r3"]);
  });

  it("a forward answered with one made id whose URL changes is deleted and added anew, never updated", () => {
    const p = plan([held("r0", apex), held("r1", forward, ["r2"])], [declared(apex), declared(moved)], purge);
    const sent = bodies(p);
    const updatedIds = sent.flatMap((b) => b.update ?? []).map((u) => u.record_id);
    // r0 is verified (re-stated as it is); the forward's ids are never in an update.
    expect(updatedIds).not.toContain("r1");
    expect(updatedIds).not.toContain("r2");
    expect(sent.flatMap((b) => b.del ?? []).map((d) => d.record_id)).toEqual(["r1", "r2"]);
    expect(sent.flatMap((b) => b.add ?? [])).toEqual([
      { name: "go", type: "URLFWD", content: moved.content },
    ]);
    // An add of a forward travels alone (its answer's ids all belong to it).
    const withAdd = sent.filter((b) => b.add !== undefined);
    expect(withAdd).toHaveLength(1);
    expect(withAdd[0]?.add).toHaveLength(1);
    expect(p.summary).toMatchObject({ creates: 1, deletes: 1, updates: 0 });
    expect(p.corrections.map((c) => c.message)).toEqual([
      `- DELETE go URLFWD ${forward.content}`,
      `+ CREATE go URLFWD ${moved.content}`,
    ]);
  });

  it("a forward answered with its own id alone is updated in place like any record", () => {
    const p = plan([held("r1", forward)], [declared(moved)], purge);
    const sent = bodies(p);
    expect(sent).toEqual([{ update: [{ record_id: "r1", name: "go", content: moved.content }] }]);
  });
});
