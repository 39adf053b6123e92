import { describe, expect, it } from "vitest";
import {
  applyStep,
  checkSafety,
  DEFAULT_SAFETY_THRESHOLD,
  formatSummary,
  type PlanSummary,
  planDelete,
  planUpdate,
} from "../../provider/records/plan";
import type { RecordSpec, StateRecord } from "../../provider/records/rules";

const state = (recordId: string, r: RecordSpec): StateRecord => ({ ...r, recordId });

const wwwA: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
const mx10: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const txt: RecordSpec = { name: "@", type: "TXT", content: "v=spf1 -all" };

function messages(current: StateRecord[], desired: RecordSpec[]): string[] {
  return planUpdate(current, desired).corrections.map((c) => c.message);
}

describe("planUpdate", () => {
  it("plans nothing when nothing changes, in any order", () => {
    const current = [state("r1", wwwA), state("r2", mx10), state("r3", txt)];
    const plan = planUpdate(current, [txt, wwwA, mx10]);
    expect(plan.steps).toEqual([]);
    expect(plan.corrections).toEqual([]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 0, unchanged: 3, requests: 0 });
    expect(plan.unchanged.map((r) => r.recordId)).toEqual(["r2", "r3", "r1"]);
  });

  it("updates a changed priority in place, like dnscontrol says it", () => {
    const plan = planUpdate([state("r1", mx10), state("r2", txt)], [{ ...mx10, priority: 20 }, txt]);
    expect(plan.steps).toEqual([
      {
        body: { update: [{ record_id: "r1", name: "@", content: "mx1.example.net", priority: 20 }] },
        updates: [{ from: state("r1", mx10), to: { ...mx10, priority: 20 } }],
        dels: [],
      },
    ]);
    expect(plan.corrections).toEqual([
      { kind: "update", message: "~ MODIFY @ MX mx1.example.net priority 10 -> 20" },
    ]);
    expect(plan.summary).toEqual({ creates: 0, updates: 1, deletes: 0, unchanged: 1, requests: 1 });
  });

  it("describes content and name changes", () => {
    expect(messages([state("r1", wwwA)], [{ ...wwwA, content: "192.0.2.2" }])).toEqual([
      "~ MODIFY www A content 192.0.2.1 -> 192.0.2.2",
    ]);
    expect(messages([state("r1", wwwA)], [{ ...wwwA, name: "web" }])).toEqual([
      "~ MODIFY www A 192.0.2.1 name www -> web",
    ]);
    expect(
      messages([state("r1", mx10)], [{ ...mx10, name: "mail", content: "mx9.example.net", priority: 5 }]),
    ).toEqual(["~ MODIFY @ MX name @ -> mail, content mx1.example.net -> mx9.example.net, priority 10 -> 5"]);
  });

  it("creates and deletes with dnscontrol-like messages", () => {
    const cname: RecordSpec = { name: "www", type: "CNAME", content: "{domainname}." };
    const old: RecordSpec = { name: "old", type: "TXT", content: "bye" };
    const plan = planUpdate([state("r1", old)], [cname, mx10]);
    // TXT is replaced by nothing of its type: a delete; CNAME and MX are new.
    expect(plan.corrections).toEqual([
      { kind: "delete", message: "- DELETE old TXT bye" },
      { kind: "create", message: "+ CREATE @ MX 10 mx1.example.net" },
      { kind: "create", message: "+ CREATE www CNAME {domainname}." },
    ]);
    expect(plan.steps.map((s) => s.body)).toEqual([
      {
        add: [{ name: "@", type: "MX", content: "mx1.example.net", priority: 10 }],
        del: [{ record_id: "r1" }],
      },
      { add: [{ name: "www", type: "CNAME", content: "{domainname}." }] },
    ]);
    expect(plan.steps[1]).toEqual({ body: plan.steps[1]?.body, add: cname, updates: [], dels: [] });
    expect(plan.summary).toEqual({ creates: 2, updates: 0, deletes: 1, unchanged: 0, requests: 2 });
  });

  it("makes a type change a delete plus an add", () => {
    const plan = planUpdate([state("r1", wwwA)], [{ name: "www", type: "AAAA", content: "2001:db8::1" }]);
    expect(plan.corrections.map((c) => c.message)).toEqual([
      "- DELETE www A 192.0.2.1",
      "+ CREATE www AAAA 2001:db8::1",
    ]);
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]?.body).toEqual({
      add: [{ name: "www", type: "AAAA", content: "2001:db8::1" }],
      del: [{ record_id: "r1" }],
    });
  });

  it("pairs records of the same name before renaming others", () => {
    const current = [
      state("a", { name: "alpha", type: "A", content: "192.0.2.1" }),
      state("z", { name: "zulu", type: "A", content: "192.0.2.2" }),
    ];
    // zulu changes content and alpha is replaced by "zz": pairing by position alone would rename
    // alpha to zulu and zulu to zz; pairing by name first updates zulu in place and renames alpha.
    const desired: RecordSpec[] = [
      { name: "zulu", type: "A", content: "192.0.2.3" },
      { name: "zz", type: "A", content: "192.0.2.4" },
    ];
    expect(planUpdate(current, desired).steps[0]?.body.update).toEqual([
      { record_id: "a", name: "zz", content: "192.0.2.4" },
      { record_id: "z", name: "zulu", content: "192.0.2.3" },
    ]);
  });

  it("keeps the ids of exact matches among duplicates, choosing by id", () => {
    const current = [state("r2", wwwA), state("r1", wwwA)];
    const plan = planUpdate(current, [wwwA]);
    expect(plan.unchanged).toEqual([state("r1", wwwA)]);
    expect(plan.steps[0]?.body).toEqual({ del: [{ record_id: "r2" }] });
  });

  it("puts every del and update in the first request, then one add per request", () => {
    const current = [state("d1", { name: "gone", type: "NS", content: "ns.example.net" }), state("u1", mx10)];
    const adds: RecordSpec[] = ["a", "b", "c"].map((name) => ({ name, type: "TXT", content: name }));
    const plan = planUpdate(current, [{ ...mx10, priority: 1 }, ...adds]);
    expect(plan.steps.map((s) => s.body)).toEqual([
      {
        add: [{ name: "a", type: "TXT", content: "a" }],
        update: [{ record_id: "u1", name: "@", content: "mx1.example.net", priority: 1 }],
        del: [{ record_id: "d1" }],
      },
      { add: [{ name: "b", type: "TXT", content: "b" }] },
      { add: [{ name: "c", type: "TXT", content: "c" }] },
    ]);
    expect(formatSummary(plan.summary)).toBe(
      "3 to create, 1 to update, 1 to delete, 0 unchanged (3 requests)",
    );
  });

  it("sends SRV updates with all three numbers and no type", () => {
    const srv: RecordSpec = {
      name: "_sip._tcp",
      type: "SRV",
      content: "sip.example.net",
      priority: 1,
      weight: 2,
      port: 3,
    };
    const plan = planUpdate([state("s", srv)], [{ ...srv, port: 5061 }]);
    expect(plan.steps[0]?.body).toEqual({
      update: [
        { record_id: "s", name: "_sip._tcp", content: "sip.example.net", priority: 1, weight: 2, port: 5061 },
      ],
    });
    expect(plan.corrections[0]?.message).toBe("~ MODIFY _sip._tcp SRV sip.example.net port 3 -> 5061");
  });
});

describe("planDelete", () => {
  it("deletes everything in one request", () => {
    const plan = planDelete([state("r2", wwwA), state("r1", mx10)]);
    expect(plan.steps).toEqual([
      {
        body: { del: [{ record_id: "r1" }, { record_id: "r2" }] },
        updates: [],
        dels: [state("r1", mx10), state("r2", wwwA)],
      },
    ]);
    expect(plan.corrections.map((c) => c.message)).toEqual([
      "- DELETE @ MX 10 mx1.example.net",
      "- DELETE www A 192.0.2.1",
    ]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 2, unchanged: 0, requests: 1 });
  });

  it("sends nothing when there is nothing", () => {
    expect(planDelete([])).toEqual({
      steps: [],
      corrections: [],
      summary: { creates: 0, updates: 0, deletes: 0, unchanged: 0, requests: 0 },
      unchanged: [],
    });
  });
});

describe("applyStep", () => {
  const current = [state("d", txt), state("u", mx10), state("k", wwwA)];
  const newRecord: RecordSpec = { name: "new", type: "A", content: "192.0.2.7" };
  const plan = planUpdate(current, [wwwA, { ...mx10, priority: 30 }, newRecord]);
  const step = plan.steps[0]!;

  it("removes dels, updates in place, appends the add under its new id, in canonical order", () => {
    expect(applyStep(current, step, ["n1"])).toEqual([
      state("u", { ...mx10, priority: 30 }),
      state("n1", newRecord),
      state("k", wwwA),
    ]);
  });

  it("does not change its input", () => {
    const copy = structuredClone(current);
    applyStep(current, step, ["n1"]);
    expect(current).toEqual(copy);
  });

  it("refuses a wrong number of new ids", () => {
    expect(() => applyStep(current, step, [])).toThrow(
      "the request added 1 record(s) but 0 record id(s) came back ([]); the new records cannot be attributed, so the state is not updated",
    );
    expect(() => applyStep(current, step, ["n1", "n2"])).toThrow(/added 1 record\(s\) but 2 record id\(s\)/);
    const noAdd = planUpdate(current, [wwwA]).steps[0]!;
    expect(() => applyStep(current, noAdd, ["x"])).toThrow(/added 0 record\(s\) but 1 record id\(s\)/);
  });

  it("refuses a new id that is empty or already used", () => {
    expect(() => applyStep(current, step, ["k"])).toThrow(
      'the service returned the record id "k" for a new record',
    );
    expect(() => applyStep(current, step, [""])).toThrow(/empty or already in use/);
  });

  it("treats a del of a record already gone as done, but refuses an update of one", () => {
    const withoutDeleted = current.filter((r) => r.recordId !== "d");
    expect(applyStep(withoutDeleted, step, ["n1"])).toHaveLength(3);
    const withoutUpdated = current.filter((r) => r.recordId !== "u");
    expect(() => applyStep(withoutUpdated, step, ["n1"])).toThrow(
      "cannot apply updates of records u: they are not in the state",
    );
  });

  it("keeps only the fields a record has", () => {
    const next = applyStep(
      [],
      { body: { add: [toWire(newRecord)] }, add: newRecord, updates: [], dels: [] },
      ["n"],
    );
    expect(Object.keys(next[0]!)).toEqual(["name", "type", "content", "recordId"]);
  });
});

function toWire(r: RecordSpec) {
  return { name: r.name, type: r.type, content: r.content };
}

describe("formatSummary", () => {
  it("reads as a sentence", () => {
    const s: PlanSummary = { creates: 2, updates: 1, deletes: 1, unchanged: 7, requests: 3 };
    expect(formatSummary(s)).toBe("2 to create, 1 to update, 1 to delete, 7 unchanged (3 requests)");
    expect(formatSummary({ ...s, requests: 1 })).toBe(
      "2 to create, 1 to update, 1 to delete, 7 unchanged (1 request)",
    );
  });
});

describe("checkSafety", () => {
  const summary = (updates: number, deletes: number, creates = 0): PlanSummary => ({
    creates,
    updates,
    deletes,
    unchanged: 0,
    requests: 1,
  });

  it("allows small templates anything", () => {
    expect(checkSafety(9, summary(0, 9), DEFAULT_SAFETY_THRESHOLD)).toBeUndefined();
  });

  it("allows exactly the maximum share, refuses more", () => {
    expect(checkSafety(10, summary(1, 2), DEFAULT_SAFETY_THRESHOLD)).toBeUndefined();
    expect(checkSafety(10, summary(1, 3, 50), DEFAULT_SAFETY_THRESHOLD)).toBe(
      "refusing to update or delete 4 of 10 existing records (1 update, 3 deletes: 40%), more than the safety " +
        "threshold of 30% (checked when a template holds at least 10 records); if this is intended, set " +
        "safetyThreshold.maxChangePercent to at least 40, or safetyThreshold: false",
    );
  });

  it("rounds the share for people and the needed percentage up", () => {
    const message = checkSafety(12, summary(0, 5), DEFAULT_SAFETY_THRESHOLD);
    expect(message).toContain("5 of 12 existing records (0 updates, 5 deletes: 41.7%)");
    expect(message).toContain("set safetyThreshold.maxChangePercent to at least 42,");
    expect(checkSafety(12, summary(0, 5), { minExistingRecords: 10, maxChangePercent: 42 })).toBeUndefined();
  });

  it("ignores creates and can be turned off", () => {
    expect(checkSafety(10, summary(0, 0, 1000), DEFAULT_SAFETY_THRESHOLD)).toBeUndefined();
    expect(checkSafety(10, summary(10, 0), false)).toBeUndefined();
    expect(checkSafety(0, summary(0, 0), { minExistingRecords: 0, maxChangePercent: 0 })).toBeUndefined();
  });

  it("suggests only turning it off when no percentage would do", () => {
    expect(checkSafety(10, summary(20, 0), DEFAULT_SAFETY_THRESHOLD)).toMatch(
      /if this is intended, set safetyThreshold: false$/,
    );
  });
});
