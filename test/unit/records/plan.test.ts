import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import {
  type Correction,
  createCorrection,
  type HeldRecord,
  type KeyedRecord,
  namesRecordIds,
  requestOf,
} from "../../../provider/records/corrections";
import { applyAccepted, withoutVanished } from "../../../provider/records/fold";
import { pairRecords } from "../../../provider/records/pairing";
import { formatSummary, type PlanSummary, planRefresh, planResource } from "../../../provider/records/plan";
import { searchVanished } from "../../../provider/records/vanished";
import { planDelete, planUpdate, verifyPlan } from "./planning";

/** A held record; its key is its id unless given (keys only travel through the planner). */
const state = (recordId: string, r: RecordSpec, key = `k-${recordId}`): HeldRecord => ({
  ...r,
  recordId,
  key,
});
/** A declared record, keyed by name and type unless given. */
const want = (r: RecordSpec, key = `${r.name}/${r.type}`): KeyedRecord => ({ ...r, key });

const wwwA: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
const mx10: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const txt: RecordSpec = { name: "@", type: "TXT", content: "v=spf1 -all" };

const PURGE = { purge: true };
const NO_PURGE = { purge: false };

function messages(current: HeldRecord[], desired: RecordSpec[]): string[] {
  return planUpdate(
    current,
    desired.map((r) => want(r)),
    PURGE,
  ).corrections.map((c) => c.message);
}

describe("planUpdate", () => {
  it("plans nothing when nothing changes, in any order", () => {
    const current = [state("r1", wwwA), state("r2", mx10), state("r3", txt)];
    for (const options of [PURGE, NO_PURGE]) {
      const plan = planUpdate(current, [want(txt), want(wwwA), want(mx10)], options);
      expect(plan.requests).toEqual([]);
      expect(plan.corrections).toEqual([]);
      expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 0, unchanged: 3, requests: 0 });
      expect(plan.unchanged.map((u) => u.from.recordId)).toEqual(["r2", "r3", "r1"]);
      expect(plan.unchanged.map((u) => u.to.key)).toEqual(["@/MX", "@/TXT", "www/A"]);
    }
  });

  it("updates a changed priority in place, like dnscontrol says it, and verifies the record it keeps", () => {
    const to = want({ ...mx10, priority: 20 });
    const plan = planUpdate([state("r1", mx10), state("r2", txt)], [to, want(txt)], PURGE);
    const update: Correction = {
      kind: "update",
      from: state("r1", mx10),
      to,
      message: "~ MODIFY @ MX mx1.example.net priority 10 -> 20",
      update: { record_id: "r1", name: "@", content: "mx1.example.net", priority: 20 },
    };
    const verify: Correction = {
      kind: "verify",
      from: state("r2", txt),
      to: want(txt),
      update: { record_id: "r2", name: "@", content: "v=spf1 -all" },
    };
    expect(plan.corrections).toEqual([update]);
    expect(plan.requests).toEqual([
      {
        method: "PATCH",
        corrections: [update, verify],
        body: {
          update: [
            { record_id: "r1", name: "@", content: "mx1.example.net", priority: 20 },
            { record_id: "r2", name: "@", content: "v=spf1 -all" },
          ],
        },
      },
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

  it("creates and deletes with dnscontrol-like messages; the first add rides with the del only with purge", () => {
    const cname: RecordSpec = { name: "www", type: "CNAME", content: "{domainname}." };
    const old: RecordSpec = { name: "old", type: "TXT", content: "bye" };
    const plan = planUpdate([state("r1", old)], [want(cname), want(mx10)], PURGE);
    // TXT is replaced by nothing of its type: a delete; CNAME and MX are new.
    expect(plan.corrections.map(({ kind, message }) => ({ kind, message }))).toEqual([
      { kind: "delete", message: "- DELETE old TXT bye" },
      { kind: "create", message: "+ CREATE @ MX 10 mx1.example.net" },
      { kind: "create", message: "+ CREATE www CNAME {domainname}." },
    ]);
    expect(plan.requests.map((r) => r.body)).toEqual([
      {
        add: [{ name: "@", type: "MX", content: "mx1.example.net", priority: 10 }],
        del: [{ record_id: "r1" }],
      },
      { add: [{ name: "www", type: "CNAME", content: "{domainname}." }] },
    ]);
    expect(plan.requests[1]).toEqual({
      method: "PATCH",
      body: plan.requests[1]?.body,
      corrections: [createCorrection(want(cname))],
    });
    expect(plan.summary).toEqual({ creates: 2, updates: 0, deletes: 1, unchanged: 0, requests: 2 });

    const careful = planUpdate([state("r1", old)], [want(cname), want(mx10)], NO_PURGE);
    expect(careful.corrections).toEqual(plan.corrections);
    expect(careful.requests.map((r) => r.body)).toEqual([
      { del: [{ record_id: "r1" }] },
      { add: [{ name: "@", type: "MX", content: "mx1.example.net", priority: 10 }] },
      { add: [{ name: "www", type: "CNAME", content: "{domainname}." }] },
    ]);
    expect(careful.summary).toEqual({ creates: 2, updates: 0, deletes: 1, unchanged: 0, requests: 3 });
  });

  it("makes a type change a delete plus an add", () => {
    const aaaa = want({ name: "www", type: "AAAA", content: "2001:db8::1" });
    const plan = planUpdate([state("r1", wwwA)], [aaaa], PURGE);
    expect(plan.corrections.map((c) => c.message)).toEqual([
      "- DELETE www A 192.0.2.1",
      "+ CREATE www AAAA 2001:db8::1",
    ]);
    expect(plan.requests).toHaveLength(1);
    expect(plan.requests[0]?.body).toEqual({
      add: [{ name: "www", type: "AAAA", content: "2001:db8::1" }],
      del: [{ record_id: "r1" }],
    });
    expect(planUpdate([state("r1", wwwA)], [aaaa], NO_PURGE).requests.map((r) => r.body)).toEqual([
      { del: [{ record_id: "r1" }] },
      { add: [{ name: "www", type: "AAAA", content: "2001:db8::1" }] },
    ]);
  });

  it("pairs records of the same name before renaming others", () => {
    const current = [
      state("a", { name: "alpha", type: "A", content: "192.0.2.1" }),
      state("z", { name: "zulu", type: "A", content: "192.0.2.2" }),
    ];
    // zulu changes content and alpha is replaced by "zz": pairing by position alone would rename
    // alpha to zulu and zulu to zz; pairing by name first updates zulu in place and renames alpha.
    const desired = [
      want({ name: "zulu", type: "A", content: "192.0.2.3" }),
      want({ name: "zz", type: "A", content: "192.0.2.4" }),
    ];
    expect(planUpdate(current, desired, PURGE).requests[0]?.body.update).toEqual([
      { record_id: "a", name: "zz", content: "192.0.2.4" },
      { record_id: "z", name: "zulu", content: "192.0.2.3" },
    ]);
  });

  it("keeps the ids of exact matches among duplicates, choosing by id", () => {
    const current = [state("r2", wwwA), state("r1", wwwA)];
    const plan = planUpdate(current, [want(wwwA)], PURGE);
    expect(plan.unchanged).toEqual([{ from: state("r1", wwwA), to: want(wwwA) }]);
    expect(plan.requests[0]?.body).toEqual({
      update: [{ record_id: "r1", name: "www", content: "192.0.2.1" }],
      del: [{ record_id: "r2" }],
    });
  });

  it("puts every del and update in the first request, then one add per request", () => {
    const current = [state("d1", { name: "gone", type: "NS", content: "ns.example.net" }), state("u1", mx10)];
    const adds = ["a", "b", "c"].map((name) => want({ name, type: "TXT", content: name }));
    const desired = [want({ ...mx10, priority: 1 }), ...adds];
    const plan = planUpdate(current, desired, PURGE);
    expect(plan.requests.map((s) => s.body)).toEqual([
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

    const careful = planUpdate(current, desired, NO_PURGE);
    expect(careful.requests.map((s) => s.body)).toEqual([
      {
        update: [{ record_id: "u1", name: "@", content: "mx1.example.net", priority: 1 }],
        del: [{ record_id: "d1" }],
      },
      { add: [{ name: "a", type: "TXT", content: "a" }] },
      { add: [{ name: "b", type: "TXT", content: "b" }] },
      { add: [{ name: "c", type: "TXT", content: "c" }] },
    ]);
    expect(formatSummary(careful.summary)).toBe(
      "3 to create, 1 to update, 1 to delete, 0 unchanged (4 requests)",
    );
  });

  it("lets an add-only plan carry its first add at once, purge or not (it names no id a 404 could be about)", () => {
    const plan = planUpdate([], [want(wwwA), want(txt)], NO_PURGE);
    expect(plan.requests.map((r) => r.body)).toEqual([
      { add: [{ name: "@", type: "TXT", content: "v=spf1 -all" }] },
      { add: [{ name: "www", type: "A", content: "192.0.2.1" }] },
    ]);
    expect(plan.requests.some(namesRecordIds)).toBe(false);
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
    const plan = planUpdate([state("s", srv)], [want({ ...srv, port: 5061 })], PURGE);
    expect(plan.requests[0]?.body).toEqual({
      update: [
        { record_id: "s", name: "_sip._tcp", content: "sip.example.net", priority: 1, weight: 2, port: 5061 },
      ],
    });
    expect(plan.corrections[0]?.message).toBe("~ MODIFY _sip._tcp SRV sip.example.net port 3 -> 5061");
  });
});

describe("pairRecords", () => {
  it("says what stays, what is updated, deleted and added", () => {
    const p = pairRecords(
      [state("r1", wwwA), state("r2", mx10), state("r3", txt)],
      [want(wwwA), want({ ...mx10, priority: 5 }), want({ name: "x", type: "CNAME", content: "y.example." })],
    );
    expect(p.unchanged.map((u) => u.from.recordId)).toEqual(["r1"]);
    expect(p.updates.map((u) => [u.from.recordId, u.to.priority])).toEqual([["r2", 5]]);
    expect(p.dels.map((r) => r.recordId)).toEqual(["r3"]);
    expect(p.adds.map((r) => r.key)).toEqual(["x/CNAME"]);
  });
});

describe("planDelete", () => {
  it("deletes everything in one request", () => {
    const plan = planDelete([state("r2", wwwA), state("r1", mx10)]);
    expect(plan.requests).toEqual([
      {
        method: "PATCH",
        body: { del: [{ record_id: "r1" }, { record_id: "r2" }] },
        corrections: [
          {
            kind: "delete",
            record: state("r1", mx10),
            message: "- DELETE @ MX 10 mx1.example.net",
            del: [{ record_id: "r1" }],
          },
          {
            kind: "delete",
            record: state("r2", wwwA),
            message: "- DELETE www A 192.0.2.1",
            del: [{ record_id: "r2" }],
          },
        ],
      },
    ]);
    expect(plan.corrections.map((c) => c.message)).toEqual([
      "- DELETE @ MX 10 mx1.example.net",
      "- DELETE www A 192.0.2.1",
    ]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 2, unchanged: 0, requests: 1 });
  });

  it("sends nothing when there is nothing", () => {
    const plan = planDelete([]);
    expect(plan.mode).toBe("none");
    expect(plan.requests).toEqual([]);
    expect(plan.corrections).toEqual([]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 0, unchanged: 0, requests: 0 });
  });
});

describe("planVerify", () => {
  it("re-states every held record with its own values in one request, and shows no change", () => {
    const plan = verifyPlan([state("r2", wwwA), state("r1", mx10)]);
    expect(plan.corrections).toEqual([]);
    expect(plan.requests.map((r) => r.body)).toEqual([
      {
        update: [
          { record_id: "r1", name: "@", content: "mx1.example.net", priority: 10 },
          { record_id: "r2", name: "www", content: "192.0.2.1" },
        ],
      },
    ]);
    expect(plan.requests[0]?.corrections.map((c) => c.kind)).toEqual(["verify", "verify"]);
    expect(plan.summary).toEqual({ creates: 0, updates: 0, deletes: 0, unchanged: 2, requests: 1 });
    expect(verifyPlan([]).requests).toEqual([]);
  });
});

describe("refusal policies and planRefresh", () => {
  const settings = { templateId: "tpl-test", purge: false, safetyThreshold: false as const };
  const holding = { settings, held: [state("r1", wwwA)], untracked: [] };

  it("gives each kind of plan what a 404 leads to: recover an update, drop and finish a removal, drop and fail a verification", () => {
    const update = planResource(holding, { settings, declared: [want({ ...wwwA, content: "192.0.2.9" })] });
    expect(update.onRefusal).toEqual({ vanished: "recover", templateGone: "fail" });
    expect(planResource(undefined, { settings, declared: [want(txt)] }).onRefusal).toEqual(update.onRefusal);
    expect(planResource(holding, undefined).onRefusal).toEqual({ vanished: "drop", templateGone: "done" });
    expect(planDelete([state("r1", wwwA)], { purge: true }).onRefusal).toEqual({
      vanished: "drop",
      templateGone: "done",
    });
    expect(verifyPlan([state("r1", wwwA)]).onRefusal).toEqual({ vanished: "drop", templateGone: "fail" });
  });

  it("sends nothing on refresh unless verification is switched on, then exactly the verification", () => {
    const off = planRefresh(holding, false);
    expect(off.requests).toEqual([]);
    expect(off.mode).toBe("none");
    const on = planRefresh(holding, true);
    expect(on.requests).toEqual(verifyPlan(holding.held).requests);
    expect(on.onRefusal).toEqual({ vanished: "drop", templateGone: "fail" });
  });
});

describe("requestOf / namesRecordIds", () => {
  it("builds a body of exactly the corrections' items, empty arrays left out", () => {
    expect(requestOf([]).body).toEqual({});
    const [del] = planDelete([state("r1", wwwA)]).corrections;
    const create = createCorrection(want(txt));
    expect(requestOf([create, del!]).body).toEqual({
      add: [{ name: "@", type: "TXT", content: "v=spf1 -all" }],
      del: [{ record_id: "r1" }],
    });
    expect(namesRecordIds(requestOf([create]))).toBe(false);
    expect(namesRecordIds(requestOf([create, del!]))).toBe(true);
    expect(namesRecordIds(verifyPlan([state("r1", wwwA)]).requests[0]!)).toBe(true);
  });
});

describe("searchVanished / withoutVanished", () => {
  const held = ["a", "b", "c", "d"].map((id) => state(id, { name: id, type: "TXT", content: id }));
  // Planned in each test, never while tests are collected: a mutation run attributes code run outside
  // a test to every test.
  const refused = () => verifyPlan(held).requests[0]!.corrections;

  it("gallops (1, then 2 records...), halves a refused probe, and skips the question it knows the answer to", () => {
    const search = searchVanished(refused(), { purge: false });
    const probes: string[][] = [];
    let step = search.next();
    while (!step.done) {
      const ids = step.value.map((c) => (c.kind === "verify" ? c.from.recordId : "?"));
      probes.push(ids);
      step = search.next(!ids.includes("c"));
    }
    // [a] accepted; [b c] refused, halved: [b] accepted, so [c] is the vanished one without asking;
    // then the rest, [d], is asked (nothing says it is refused).
    expect(probes).toEqual([["a"], ["b", "c"], ["b"], ["d"]]);
    expect(step.value.vanished.map((c) => c.kind === "verify" && c.from.recordId)).toEqual(["c"]);
    expect(withoutVanished(held, step.value.vanished).map((r) => r.recordId)).toEqual(["a", "b", "d"]);
  });

  it("needs no probe for a single refused correction, and never probes an add (it names no id)", () => {
    const one = searchVanished(refused().slice(0, 1), { purge: false }).next();
    expect(one.done).toBe(true);
    expect(one.value).toEqual({ vanished: refused().slice(0, 1), rewrite: false });
    const withAdd = searchVanished([...refused().slice(0, 2), createCorrection(want(txt))], { purge: false });
    const probes: Correction[][] = [];
    for (let step = withAdd.next(); !step.done; step = withAdd.next(false)) probes.push(step.value);
    expect(probes.flat().some((c) => c.kind === "create")).toBe(false);
  });
});

describe("applyAccepted", () => {
  const current = [state("d", txt), state("u", mx10), state("k", wwwA)];
  const newRecord = want({ name: "new", type: "A", content: "192.0.2.7" }, "new/A");
  // Planned in each test, never while tests are collected: a mutation run attributes code run outside
  // a test to every test.
  const planned = () =>
    planUpdate(current, [want(wwwA, "www/A"), want({ ...mx10, priority: 30 }, "@/MX"), newRecord], PURGE)
      .requests[0]!;

  it("removes dels, updates in place, keys verified records as declared, adds under the new id, in canonical order", () => {
    const request = planned();
    expect(applyAccepted(current, request.corrections, ["n1"])).toEqual([
      state("u", { ...mx10, priority: 30 }, "@/MX"),
      state("n1", { name: "new", type: "A", content: "192.0.2.7" }, "new/A"),
      state("k", wwwA, "www/A"),
    ]);
  });

  it("does not change its input", () => {
    const request = planned();
    const copy = structuredClone(current);
    applyAccepted(current, request.corrections, ["n1"]);
    expect(current).toEqual(copy);
  });

  it("refuses a wrong number of new ids", () => {
    const request = planned();
    expect(() => applyAccepted(current, request.corrections, [])).toThrow(
      "the request added 1 record(s) but 0 record id(s) came back ([])",
    );
    expect(() => applyAccepted(current, request.corrections, ["n1", "n2"])).toThrow(
      /added 1 record\(s\) but 2 record id\(s\)/,
    );
    const noAdd = planUpdate(current, [want(wwwA)], PURGE).requests[0]!;
    expect(() => applyAccepted(current, noAdd.corrections, ["x"])).toThrow(
      /added 0 record\(s\) but 1 record id\(s\)/,
    );
  });

  it("refuses a new id that is empty or already used", () => {
    const request = planned();
    expect(() => applyAccepted(current, request.corrections, ["k"])).toThrow(
      'the record id "k" came back for a new record',
    );
    expect(() => applyAccepted(current, request.corrections, [""])).toThrow(/empty or already in use/);
  });

  it("treats a del of a record already gone as done, and never brings back a record gone before its update", () => {
    const request = planned();
    const withoutDeleted = current.filter((r) => r.recordId !== "d");
    expect(applyAccepted(withoutDeleted, request.corrections, ["n1"])).toHaveLength(3);
    const withoutUpdated = current.filter((r) => r.recordId !== "u");
    const after = applyAccepted(withoutUpdated, request.corrections, ["n1"]);
    expect(after.map((r) => r.recordId)).toEqual(["n1", "k"]);
  });

  it("keeps only the fields a record has", () => {
    const next = applyAccepted([], [createCorrection(newRecord)], ["n"]);
    expect(Object.keys(next[0]!).sort()).toEqual(["content", "key", "name", "recordId", "type"]);
  });
});

describe("formatSummary", () => {
  it("reads as a sentence", () => {
    const s: PlanSummary = { creates: 2, updates: 1, deletes: 1, unchanged: 7, requests: 3 };
    expect(formatSummary(s)).toBe("2 to create, 1 to update, 1 to delete, 7 unchanged (3 requests)");
    expect(formatSummary({ ...s, requests: 1 })).toBe(
      "2 to create, 1 to update, 1 to delete, 7 unchanged (1 request)",
    );
  });
});

describe("an imported template (its records unlisted)", () => {
  const settings = { templateId: "imp", purge: true, safetyThreshold: false as const };
  const declared = [
    { name: "www", type: "A" as const, content: "192.0.2.1", key: "www/A" },
    { name: "@", type: "TXT" as const, content: "v=spf1 -all", key: "@/TXT" },
  ];
  const holding = { settings, held: [], untracked: [], unlisted: true };

  it("with purge, is rewritten with one PUT of exactly the declared records, saying why", () => {
    const plan = planResource(holding, { settings, declared });
    expect(plan.mode).toBe("rewrite");
    expect(plan.rewrite).toBe("imported");
    expect(plan.requests).toHaveLength(1);
    expect(plan.requests[0]).toMatchObject({ method: "PUT" });
    expect(plan.text).toBe(
      "2 to create (1 request: a PUT, which replaces whatever records the template held when it was imported: the API cannot list them)",
    );
  });

  it("is left as it is while no record is declared (as imported), and without purge gets adds", () => {
    expect(planResource(holding, { settings, declared: [] }).requests).toEqual([]);
    const shared = { ...settings, purge: false };
    const plan = planResource({ ...holding, settings: shared }, { settings: shared, declared });
    expect(plan.mode).toBe("patch");
    expect(plan.requests.every((r) => r.method === "PATCH")).toBe(true);
  });
});
