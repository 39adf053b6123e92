/**
 * The records path and its intent journal (docs/behaviour.md, "Interrupted runs"), without a
 * sandbox: what a run writes before each request, what the next operation reads back as a fact for
 * the planner, what it says first, and the one-run rewrite (`DOMAINAPI_REWRITE`) that stands in
 * for a journal that is gone.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  entriesOf,
  entryFile,
  type JournalRequest,
  readEntry,
  startEntry,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";
import { createCorrection, deleteCorrection, requestOf } from "../../../provider/records/corrections";
import {
  ConcurrentRunError,
  consultJournal,
  describeJournalRequest,
  findInterruption,
  interruptionWarning,
  openJournal,
  rewriteCommand,
  rewriteRequested,
} from "../../../provider/records/interrupted";
import { secretsOfRecords } from "../../../provider/records/masking";
import {
  type HeldRecord,
  type Holding,
  type Interruption,
  type KeyedRecord,
  planResource,
  type Settings,
} from "../../../provider/records/plan";

const saved = { ...process.env };
beforeEach(() => {
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "interrupted-unit-"));
  delete process.env.DOMAINAPI_REWRITE;
});
afterEach(() => {
  for (const k of ["DOMAINAPI_STATE_DIR", "DOMAINAPI_REWRITE", "DOMAINAPI_API_KEY", "DOMAINAPI_BASE_URL"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const account = { baseUrl: "https://api.example.com", keyFingerprint: keyFingerprint("secret-key") };
const PURGE: Settings = { templateId: "web", purge: true, safetyThreshold: false };
const NO_PURGE: Settings = { templateId: "web", purge: false, safetyThreshold: false };

const a: HeldRecord = { name: "@", type: "A", content: "192.0.2.10", recordId: "r1", key: "@/A" };
const mx: HeldRecord = {
  name: "@",
  type: "MX",
  content: "mx1.example.net",
  priority: 10,
  recordId: "r2",
  key: "@/MX",
};
const www: KeyedRecord = { name: "www", type: "CNAME", content: "example.net.", key: "www/CNAME" };
const api: KeyedRecord = { name: "api", type: "A", content: "192.0.2.20", key: "api/A" };

const patch = (over: Partial<JournalRequest> = {}): JournalRequest => ({
  method: "PATCH",
  adds: [],
  deletes: [],
  updates: [],
  ...over,
});

describe("rewriteCommand", () => {
  it("names a plain template id as it is", () => {
    expect(rewriteCommand("web")).toBe("DOMAINAPI_REWRITE=web pulumi up");
    expect(rewriteCommand("shop.v2-eu_1")).toBe("DOMAINAPI_REWRITE=shop.v2-eu_1 pulumi up");
  });

  it("quotes any other id for a POSIX shell, a single quote included", () => {
    expect(rewriteCommand("my tpl")).toBe("DOMAINAPI_REWRITE='my tpl' pulumi up");
    expect(rewriteCommand("bob's")).toBe("DOMAINAPI_REWRITE='bob'\\''s' pulumi up");
    expect(rewriteCommand("web$x")).toBe("DOMAINAPI_REWRITE='web$x' pulumi up");
    expect(rewriteCommand("x;web")).toBe("DOMAINAPI_REWRITE='x;web' pulumi up");
  });
});

describe("rewriteRequested", () => {
  it("is off when the variable is not set", () => {
    expect(rewriteRequested("web")).toBe(false);
    expect(rewriteRequested("web", undefined)).toBe(false);
  });

  it("names templates by their exact ids, separated by spaces or commas, or all of them", () => {
    expect(rewriteRequested("web", "web")).toBe(true);
    expect(rewriteRequested("web", "mail, web")).toBe(true);
    expect(rewriteRequested("web", "mail  web")).toBe(true);
    expect(rewriteRequested("web", "mail,web,")).toBe(true);
    expect(rewriteRequested("web", "all")).toBe(true);
    expect(rewriteRequested("web", "web2,mail")).toBe(false);
    expect(rewriteRequested("web", "mail web-eu")).toBe(false);
    expect(rewriteRequested("web", "")).toBe(false);
  });

  it("reads DOMAINAPI_REWRITE by default", () => {
    process.env.DOMAINAPI_REWRITE = "mail,web";
    expect(rewriteRequested("web")).toBe(true);
    expect(rewriteRequested("shop")).toBe(false);
  });
});

describe("describeJournalRequest", () => {
  it("says what was in flight as people read it", () => {
    expect(describeJournalRequest(undefined)).toBe("a request whose answer had come back");
    expect(describeJournalRequest({ method: "PUT", adds: ["a", "b"], deletes: [], updates: [] })).toBe(
      "a PUT of 2 record(s)",
    );
    expect(describeJournalRequest(patch({ adds: ["www A 192.0.2.1"] }))).toBe(
      "a PATCH adding www A 192.0.2.1",
    );
    expect(describeJournalRequest(patch({ deletes: ["r1", "r2"], updates: ["r3"] }))).toBe(
      "a PATCH deleting 2 record(s), updating 1 record(s)",
    );
    expect(describeJournalRequest(patch({ adds: ["x TXT 1", "y TXT 2"], updates: ["r3"] }))).toBe(
      "a PATCH adding x TXT 1, adding y TXT 2, updating 1 record(s)",
    );
    expect(describeJournalRequest(patch())).toBe("a PATCH verifying records");
  });
});

describe("openJournal and findInterruption: a run written, then read back", () => {
  const scope = (settings: Settings, startIds: string[]) => ({
    account,
    settings,
    resource: "web",
    operation: "update" as const,
    startIds,
  });

  it("writes nothing until the first request, then the request in flight and what was proven before it", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    const file = entryFile(account.baseUrl, "web", "web");
    expect(readEntry(file)).toBeUndefined();
    journal.sending(
      { held: [a], untracked: [] },
      requestOf([deleteCorrection(a), createCorrection(www)]),
      "plan 1",
    );
    const found = readEntry(file);
    expect(found).toMatchObject({
      kind: "entry",
      entry: {
        templateId: "web",
        resource: "web",
        operation: "update",
        purge: true,
        plan: "plan 1",
        startIds: ["r1"],
        inFlight: { method: "PATCH", adds: ["www CNAME example.net."], deletes: ["r1"], updates: [] },
      },
    });
    expect(found?.kind === "entry" && found.entry.secrets).toBeUndefined();
    expect(
      findInterruption(account, PURGE, "web", { settings: PURGE, held: [a], untracked: [] }, [], true),
    ).toEqual({
      interruption: {
        source: "journal",
        request: expect.stringMatching(
          /^a PATCH adding www CNAME example\.net\., deleting 1 record\(s\) \(update, \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
        ),
        held: [a],
        unknownAdds: ["www CNAME example.net."],
        namedHeld: true,
      },
      files: [file],
      secrets: expect.objectContaining({ texts: new Set(), numbers: new Set() }),
    });
  });

  it("replays each answer's step: records set, records removed, adds of unknown outcome since", () => {
    const journal = openJournal(scope(NO_PURGE, ["r1", "r2"]));
    journal.sending({ held: [a, mx], untracked: [] }, requestOf([deleteCorrection(mx)]), "plan");
    const made: HeldRecord = { ...api, recordId: "r9" };
    const changed: HeldRecord = { ...a, content: "192.0.2.11" };
    journal.sending(
      { held: [changed, made], untracked: ["lost TXT maybe"] },
      requestOf([createCorrection(www)]),
      "plan",
    );
    const holding: Holding = { settings: NO_PURGE, held: [mx, a], untracked: [] };
    const found = findInterruption(account, NO_PURGE, "web", holding, [], true);
    expect(found.interruption?.held).toEqual([changed, made]);
    expect(found.interruption?.unknownAdds).toEqual(["lost TXT maybe", "www CNAME example.net."]);
    // Only an add was in flight: no held record was named.
    expect(found.interruption?.namedHeld).toBe(false);
  });

  it("claims nothing of what the run proved when the state has moved on since it started", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const moved: Holding = { settings: PURGE, held: [mx], untracked: [] };
    const found = findInterruption(account, PURGE, "web", moved, [], true);
    expect(found.interruption).not.toHaveProperty("held");
    expect(found.interruption?.unknownAdds).toEqual(["www CNAME example.net."]);
    // The same ids in another order are the same start.
    const journal2 = openJournal(scope(PURGE, ["r2", "r1"]));
    journal2.sending({ held: [a, mx], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const same: Holding = { settings: PURGE, held: [a, mx], untracked: [] };
    expect(findInterruption(account, PURGE, "web", same, [], true).interruption?.held).toEqual([a, mx]);
    // As many ids, not the same ones.
    const other: Holding = { settings: PURGE, held: [a, { ...mx, recordId: "r3" }], untracked: [] };
    expect(findInterruption(account, PURGE, "web", other, [], true).interruption).not.toHaveProperty("held");
  });

  it("keeps the values the run marked secret, for the run that reads the entry to mask", () => {
    const journal = openJournal(scope(PURGE, []));
    const secrets = secretsOfRecords([
      { name: "hidden", type: "MX", content: "mx.secret.example", priority: 42 },
    ]);
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(www)]), "plan", secrets);
    const found = findInterruption(account, PURGE, "web", undefined, [], true);
    expect(found.secrets?.texts.has("hidden")).toBe(true);
    expect(found.secrets?.texts.has("mx.secret.example")).toBe(true);
    expect(found.secrets?.numbers.has(42)).toBe(true);
  });

  it("clears its own entry and those it took over", () => {
    const adopted = startEntry({
      version: 1,
      account,
      templateId: "web",
      resource: "web/old",
      operation: "create",
      purge: false,
      owner: { pid: 1, host: "elsewhere" },
      writtenAt: "2026-01-01T00:00:00.000Z",
      plan: "",
      startIds: [],
    });
    const journal = openJournal(scope(PURGE, []), [adopted]);
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    expect(entriesOf(account.baseUrl, "web")).toHaveLength(2);
    journal.clear();
    expect(entriesOf(account.baseUrl, "web")).toEqual([]);
  });

  it("reads an entry it cannot parse as a request of unknown outcome that may have named every held record", () => {
    const journal = openJournal(scope(PURGE, []));
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const file = entryFile(account.baseUrl, "web", "web");
    writeFileSync(file, "{not json\n");
    const found = findInterruption(account, PURGE, "web", undefined, [], true);
    expect(found.interruption).toEqual({
      source: "journal",
      request: expect.stringMatching(
        new RegExp(`^a request the journal cannot tell \\(its entry ${file} is unreadable: .+\\)$`),
      ),
      unknownAdds: ["an add whose answer was lost"],
      namedHeld: true,
    });
    expect(found.files).toEqual([file]);
  });

  it("finds nothing where no entry was written", () => {
    expect(findInterruption(account, PURGE, "web", undefined, [], true)).toEqual({ files: [] });
    expect(
      findInterruption(account, NO_PURGE, undefined, undefined, ["www CNAME example.net."], true),
    ).toEqual({
      files: [],
    });
  });
});

describe("findInterruption: a create without purge, found by its records", () => {
  const createScope = (resource: string) => ({
    account,
    settings: NO_PURGE,
    resource,
    operation: "create" as const,
    startIds: [],
  });

  it("takes over an interrupted create's entry that holds one of the records it declares", () => {
    const journal = openJournal(createScope("web/aaaa"));
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(api)]), "plan");
    journal.sending(
      { held: [{ ...api, recordId: "r5" }], untracked: [] },
      requestOf([createCorrection(www)]),
      "plan",
    );
    const file = entryFile(account.baseUrl, "web", "web/aaaa");
    // Found by a record the run proved, or by the add in flight.
    for (const declared of ["api A 192.0.2.20", "www CNAME example.net."]) {
      const found = findInterruption(account, NO_PURGE, undefined, undefined, [declared], true);
      expect(found.files).toEqual([file]);
      expect(found.interruption?.held).toEqual([{ ...api, recordId: "r5" }]);
    }
    expect(findInterruption(account, NO_PURGE, undefined, undefined, ["mail A 192.0.2.99"], true)).toEqual({
      files: [],
    });
  });

  it("never takes over an update's entry, nor one of a resource with purge", () => {
    const update = openJournal({ ...createScope("web/bbbb"), operation: "update" });
    update.sending({ held: [], untracked: [] }, requestOf([createCorrection(api)]), "plan");
    const purged = openJournal({ ...createScope("web"), settings: PURGE });
    purged.sending({ held: [], untracked: [] }, requestOf([createCorrection(api)]), "plan");
    expect(findInterruption(account, NO_PURGE, undefined, undefined, ["api A 192.0.2.20"], true)).toEqual({
      files: [],
    });
  });
});

describe("ConcurrentRunError", () => {
  it("names the other process, what it sends (masked) and what to do; nothing was sent", () => {
    const entry = {
      version: 1 as const,
      account,
      templateId: "web",
      resource: "web",
      operation: "update" as const,
      purge: true,
      owner: { pid: 4242, host: "ci-runner" },
      writtenAt: "2026-01-01T00:00:00.000Z",
      plan: "",
      startIds: [],
      steps: [],
      inFlight: patch({ adds: ["hidden TXT token"] }),
    };
    const error = new ConcurrentRunError("web", entry, "/tmp/entry.json", secretsOfRecords(["hidden"]));
    expect(error.code).toBe("DOMAINAPI_CONCURRENT_RUN");
    expect(error.message).toBe(
      "template web: another process (pid 4242 on ci-runner, since 2026-01-01T00:00:00.000Z) is sending a PATCH adding " +
        "[secret] TXT token to this template for the same resource right now (journal entry /tmp/entry.json). Two runs " +
        "on one template undo each other's work, so nothing was sent: wait for that run to end and run `pulumi up` again.",
    );
  });
});

describe("interruptionWarning", () => {
  const held: Holding = { settings: PURGE, held: [a], untracked: [] };
  const fromJournal = (over: Partial<Interruption> = {}): Interruption => ({
    source: "journal",
    request: "a PATCH adding www CNAME example.net. (update, 2026-01-01T00:00:00.000Z)",
    unknownAdds: ["www CNAME example.net."],
    ...over,
  });
  const declare = (settings: Settings, records: KeyedRecord[]) => ({ settings, declared: records });

  it("with purge: the interrupted request, then the one PUT that recovers", () => {
    const interruption = fromJournal();
    const plan = planResource(held, declare(PURGE, [a, www]), interruption);
    expect(interruptionWarning(plan, interruption, true)).toBe(
      "template web: outcome unknown: an earlier run on this machine was interrupted while sending a PATCH adding " +
        `www CNAME example.net. (update, 2026-01-01T00:00:00.000Z). Recovering: ${plan.text}.`,
    );
  });

  it("without purge: names the records that may be there once or missing, and says how to check them", () => {
    const holding: Holding = { settings: NO_PURGE, held: [a], untracked: [] };
    const interruption = fromJournal({ held: [a] });
    const plan = planResource(holding, declare(NO_PURGE, [a, www, api]), interruption);
    expect(interruptionWarning(plan, interruption, false)).toBe(
      "template web: outcome unknown: an earlier run on this machine was interrupted while sending a PATCH adding " +
        "www CNAME example.net. (update, 2026-01-01T00:00:00.000Z). Whether the API applied the add of these records " +
        "is unknown: www CNAME example.net.. Each is now in the template once, or missing: the resource does not add " +
        "them again (a second copy could never be found, as the API cannot list a template's records) and its state " +
        "does not claim them (they stay listed as of unknown outcome). Check them in the registrar's panel and add one " +
        `that is missing there by hand. Recovering: ${plan.text} (the first request verifies every record the state holds).`,
    );
  });

  it("without purge and nothing set aside: only the recovery, without a verification when none is sent", () => {
    const interruption = fromJournal({ unknownAdds: [], request: "a PUT of 1 record(s)" });
    const plan = planResource(undefined, declare(NO_PURGE, [api]), interruption);
    expect(plan.requests[0]?.method).toBe("PATCH");
    expect(interruptionWarning(plan, interruption, false)).toBe(
      "template web: outcome unknown: an earlier run on this machine was interrupted while sending a PUT of 1 " +
        `record(s). Recovering: ${plan.text}.`,
    );
  });

  it("DOMAINAPI_REWRITE: what the PUT does with purge, and why it does not apply without", () => {
    const requested: Interruption = {
      source: "requested",
      request: "DOMAINAPI_REWRITE=web",
      unknownAdds: [],
    };
    const plan = planResource(held, declare(PURGE, [a]), requested);
    expect(interruptionWarning(plan, requested, true)).toBe(`template web: DOMAINAPI_REWRITE: ${plan.text}.`);
    expect(interruptionWarning(plan, requested, false)).toBe(
      "template web: DOMAINAPI_REWRITE does not apply (purge: false: the template holds records that are not this " +
        "resource's, so it is never rewritten).",
    );
  });
});

describe("consultJournal", () => {
  beforeEach(() => {
    process.env.DOMAINAPI_API_KEY = "secret-key";
    process.env.DOMAINAPI_BASE_URL = account.baseUrl;
  });
  const holding: Holding = { settings: PURGE, held: [a], untracked: [] };

  it("a preview without a key reads nothing and journals nothing", () => {
    delete process.env.DOMAINAPI_API_KEY;
    const consulted = consultJournal({
      operation: "diff",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(consulted.interruption).toBeUndefined();
    expect(consulted.warning).toBeUndefined();
    expect(consulted.journal("web")).toBeUndefined();
  });

  it("an update without a key fails as the client would", () => {
    delete process.env.DOMAINAPI_API_KEY;
    expect(() =>
      consultJournal({ operation: "update", settings: PURGE, resource: "web", holding, declared: [a] }),
    ).toThrow(/DOMAINAPI_API_KEY|apiKey/);
  });

  it("journals an update's requests under the resource id, with the ids the state held", () => {
    const consulted = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(consulted).toMatchObject({ secrets: { texts: new Set(), numbers: new Set() } });
    expect(consulted.interruption).toBeUndefined();
    const journal = consulted.journal("web");
    journal?.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const found = readEntry(entryFile(account.baseUrl, "web", "web"));
    expect(found).toMatchObject({ kind: "entry", entry: { operation: "update", startIds: ["r1"] } });
  });

  it("a preview reads an interrupted run's entry but never journals", () => {
    const consulted = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    consulted
      .journal("web")
      ?.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const diff = consultJournal({
      operation: "diff",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(diff.interruption?.source).toBe("journal");
    expect(diff.journal("web")).toBeUndefined();
  });

  it("DOMAINAPI_REWRITE naming the template is the fact for the plan; for a removal it is nothing", () => {
    process.env.DOMAINAPI_REWRITE = "mail,web";
    const consulted = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(consulted.interruption).toEqual({
      source: "requested",
      request: "DOMAINAPI_REWRITE=mail,web",
      unknownAdds: [],
    });
    expect(consulted.warning).toBeUndefined();
    const removal = consultJournal({
      operation: "delete",
      settings: PURGE,
      resource: "web",
      holding,
      declared: undefined,
    });
    expect(removal.interruption).toBeUndefined();
  });

  it("a preview names a DOMAINAPI_REWRITE that does not name the template: a typo would rewrite nothing", () => {
    process.env.DOMAINAPI_REWRITE = "wbe";
    const diff = consultJournal({
      operation: "diff",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(diff.interruption).toBeUndefined();
    expect(diff.warning).toBe(
      "template web: DOMAINAPI_REWRITE=wbe does not name this template, so it is not rewritten (name it by its " +
        "template id, web, or use all).",
    );
    // Only a preview says it, and only of a resource that declares records.
    expect(
      consultJournal({ operation: "update", settings: PURGE, resource: "web", holding, declared: [a] })
        .warning,
    ).toBeUndefined();
    expect(
      consultJournal({ operation: "diff", settings: PURGE, resource: "web", holding, declared: undefined })
        .warning,
    ).toBeUndefined();
  });

  it("an interrupted run's entry wins over DOMAINAPI_REWRITE", () => {
    const first = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    first.journal("web")?.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    process.env.DOMAINAPI_REWRITE = "web";
    const next = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(next.interruption?.source).toBe("journal");
    // The entry is taken over: cleared with the new run's own.
    next.journal("web")?.clear();
    expect(entriesOf(account.baseUrl, "web")).toEqual([]);
  });
});
