/**
 * An `up` stopped between "the API applied" and "the engine recorded it" (docs/behaviour.md,
 * "Interrupted runs"), read back by the next operation: which request was in flight (a PUT, an
 * update, a verification), that what the run proved is neither lost nor doubled, that a create
 * takes over only an entry it may take over, and what the user is told first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  currentOwner,
  entriesOf,
  entryFile,
  type JournalHeader,
  readEntry,
  startEntry,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";
import {
  createCorrection,
  deleteCorrection,
  putOf,
  requestOf,
  updateCorrection,
  verifyCorrection,
} from "../../../provider/records/corrections";
import {
  consultJournal,
  findInterruption,
  interruptionWarning,
  openJournal,
} from "../../../provider/records/interrupted";
import { maskText, secretsOfRecords } from "../../../provider/records/masking";
import {
  type HeldRecord,
  type Holding,
  type KeyedRecord,
  planResource,
  type Settings,
} from "../../../provider/records/plan";
import { encodeOutputs } from "../../../provider/records/state";

const saved = { ...process.env };
beforeEach(() => {
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "interrupted-journal-"));
  process.env.DOMAINAPI_API_KEY = "secret-key";
  process.env.DOMAINAPI_BASE_URL = account.baseUrl;
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

const scope = (
  settings: Settings,
  startIds: string[],
  operation: "create" | "update" | "delete" = "update",
) => ({
  account,
  settings,
  resource: "web",
  operation,
  startIds,
});
const header = (over: Partial<JournalHeader> = {}): JournalHeader => ({
  version: 1,
  account,
  templateId: "web",
  resource: "web",
  operation: "update",
  purge: true,
  owner: { pid: 1, host: `${hostname()}-gone` },
  writtenAt: "2026-01-01T00:00:00.000Z",
  plan: "",
  startIds: [],
  ...over,
});

/** Journals, as the run loop does, what an answer proved: `set` held, nothing removed, nothing unknown. */
const answered = (file: string, settings: Settings, set: HeldRecord[]) => {
  const { records, ids } = encodeOutputs(settings, set, "");
  writeFileSync(
    file,
    `${readFileSync(file, "utf8")}${JSON.stringify({ learnt: { records, ids, removed: [], untracked: [] } })}\n`,
  );
};

describe("the request in flight, as the next operation reads it", () => {
  it("a PUT: every record it writes is an add of unknown outcome; it named no held record", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, putOf([a, www]), "plan");
    const found = readEntry(entryFile(account.baseUrl, "web", "web"));
    expect(found?.kind === "entry" && found.entry.inFlight).toEqual({
      method: "PUT",
      adds: ["@ A 192.0.2.10", "www CNAME example.net."],
      deletes: [],
      updates: [],
    });
    const { interruption } = findInterruption(
      account,
      PURGE,
      "web",
      { settings: PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(interruption).toMatchObject({
      request: expect.stringMatching(/^a PUT of 2 record\(s\) \(update, /),
      unknownAdds: ["@ A 192.0.2.10", "www CNAME example.net."],
      namedHeld: false,
    });
  });

  it("an update in place names the record it changes: it is verified before anything else is believed", () => {
    const journal = openJournal(scope(NO_PURGE, ["r1"]));
    journal.sending(
      { held: [a], untracked: [] },
      requestOf([updateCorrection(a, { ...a, content: "192.0.2.11" })]),
      "plan",
    );
    const { interruption } = findInterruption(
      account,
      NO_PURGE,
      "web",
      { settings: NO_PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(interruption).toMatchObject({
      request: expect.stringMatching(/^a PATCH updating 1 record\(s\) \(update, /),
      unknownAdds: [],
      namedHeld: true,
    });
  });

  it("a verification changes nothing: no record is named as updated, nothing is of unknown outcome", () => {
    const journal = openJournal(scope(NO_PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, requestOf([verifyCorrection(a, a)]), "plan");
    const { interruption } = findInterruption(
      account,
      NO_PURGE,
      "web",
      { settings: NO_PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(interruption).toMatchObject({
      request: expect.stringMatching(/^a PATCH verifying records \(update, /),
      held: [a],
      unknownAdds: [],
      namedHeld: false,
    });
  });

  it("a destroy's entry is read back as a destroy", () => {
    const journal = openJournal(scope(PURGE, ["r1"], "delete"));
    journal.sending({ held: [a], untracked: [] }, requestOf([deleteCorrection(a)]), "plan");
    const { interruption } = findInterruption(
      account,
      PURGE,
      "web",
      { settings: PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(interruption?.request).toMatch(/^a PATCH deleting 1 record\(s\) \(delete, \d{4}-/);
  });

  it("a run stopped after an answer came back and before the engine heard of it: what the answer proved is kept", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    // The answer is in and journaled; the run stopped before the engine heard of it.
    const made: HeldRecord = { ...www, recordId: "r7" };
    answered(entryFile(account.baseUrl, "web", "web"), PURGE, [made]);
    const found = findInterruption(
      account,
      PURGE,
      "web",
      { settings: PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(found.interruption).toEqual({
      source: "journal",
      request: expect.stringMatching(/^a request whose answer had come back \(update, /),
      held: [a, made],
      unknownAdds: [],
      namedHeld: false,
    });
  });

  it("an entry with no answer journaled yet: only the request in flight is of unknown outcome", () => {
    const file = startEntry(header({ purge: false }), [
      { sent: { method: "PATCH", adds: ["api A 192.0.2.20"], deletes: [], updates: ["r1"] } },
    ]);
    const found = findInterruption(account, NO_PURGE, "web", undefined, [], true);
    expect(found.files).toEqual([file]);
    expect(found.interruption).toEqual({
      source: "journal",
      request: "a PATCH adding api A 192.0.2.20, updating 1 record(s) (update, 2026-01-01T00:00:00.000Z)",
      held: [],
      unknownAdds: ["api A 192.0.2.20"],
      namedHeld: true,
    });
  });

  it("an answer's step edited by hand is read as far as it goes, never crashing the next run", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const file = entryFile(account.baseUrl, "web", "web");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}${JSON.stringify({ learnt: { records: {}, ids: {}, removed: "r1", untracked: "lost" } })}\n`,
    );
    const found = findInterruption(
      account,
      PURGE,
      "web",
      { settings: PURGE, held: [a], untracked: [] },
      [],
      true,
    );
    expect(found.interruption).toMatchObject({ held: [a], unknownAdds: [] });
  });
});

describe("what a run proved is never lost nor doubled", () => {
  it("a URL forward whose made records changed in place keeps its new ids", () => {
    const forward: HeldRecord = {
      name: "go",
      type: "URLFWD",
      content: "https://example.net/",
      recordId: "f1",
      madeIds: ["m1", "m2"],
      key: "go/URLFWD",
    };
    const journal = openJournal(scope(NO_PURGE, ["f1"]));
    journal.sending(
      { held: [forward], untracked: [] },
      requestOf([verifyCorrection(forward, forward)]),
      "plan",
    );
    const remade = { ...forward, madeIds: ["m3", "m4"] };
    journal.sending({ held: [remade], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const found = findInterruption(
      account,
      NO_PURGE,
      "web",
      { settings: NO_PURGE, held: [forward], untracked: [] },
      [],
      true,
    );
    expect(found.interruption?.held).toEqual([remade]);
  });

  it("each answer journals only what changed: a create of many records, one request each, costs each step its own size", () => {
    const journal = openJournal(scope(NO_PURGE, [], "create"));
    const records = Array.from({ length: 25 }, (_, i) => ({
      name: `h${String(i).padStart(2, "0")}`,
      type: "A" as const,
      content: `192.0.2.${i + 1}`,
      key: `h${String(i).padStart(2, "0")}/A`,
    }));
    const held: HeldRecord[] = [];
    for (const [i, r] of records.entries()) {
      journal.sending({ held: [...held], untracked: [] }, requestOf([createCorrection(r)]), "plan");
      held.push({ ...r, recordId: `id${i}` });
    }
    const file = entryFile(account.baseUrl, "web", "web");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    // Each answer's step names one record: a step that restated every held record would grow the
    // file with the square of the records (about 25 times larger at the end here).
    const longest = Math.max(...lines.slice(2).map((l) => l.length));
    expect(longest).toBeLessThan(300);
    const found = findInterruption(account, NO_PURGE, "web", undefined, [], true);
    expect(found.interruption?.held).toEqual(held.slice(0, -1));
    expect(found.interruption?.unknownAdds).toEqual(["h24 A 192.0.2.25"]);
  });

  it("an update that started from other records than the state holds now claims nothing of them", () => {
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending({ held: [a], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    // The state has one more record than the run started from (the engine recorded a later run).
    const grown: Holding = { settings: PURGE, held: [a, mx], untracked: [] };
    expect(findInterruption(account, PURGE, "web", grown, [], true).interruption).not.toHaveProperty("held");
    // The same records held in another order are the same start.
    const journal2 = openJournal(scope(PURGE, ["r1", "r2"]));
    journal2.sending({ held: [a, mx], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const reordered: Holding = { settings: PURGE, held: [mx, a], untracked: [] };
    expect(findInterruption(account, PURGE, "web", reordered, [], true).interruption?.held).toEqual([a, mx]);
  });
});

describe("a create without purge, found by its records", () => {
  it("takes over a create whose last answer came back, by the records it proved", () => {
    const journal = openJournal({ ...scope(NO_PURGE, [], "create"), resource: "web/aaaa" });
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(api)]), "plan");
    const file = entryFile(account.baseUrl, "web", "web/aaaa");
    answered(file, NO_PURGE, [{ ...api, recordId: "r5" }]);
    const found = findInterruption(account, NO_PURGE, undefined, undefined, ["api A 192.0.2.20"], true);
    expect(found.files).toEqual([file]);
    expect(found.interruption?.held).toEqual([{ ...api, recordId: "r5" }]);
  });

  it("an unreadable entry on the template is not taken over by a create, and does not stop it", () => {
    const file = startEntry(header({ resource: "web/bbbb", operation: "create", purge: false }));
    writeFileSync(file, "{not json\n");
    expect(findInterruption(account, NO_PURGE, undefined, undefined, ["api A 192.0.2.20"], true)).toEqual({
      files: [],
    });
  });
});

describe("another process that still runs", () => {
  let child: ChildProcess;
  let owner: { pid: number; host: string; started?: string };
  beforeAll(async () => {
    child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const pid = child.pid!;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    owner = { pid, host: hostname(), started: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]! };
  });
  afterAll(() => {
    child.kill("SIGKILL");
  });

  const holding: Holding = { settings: PURGE, held: [a], untracked: [] };
  const inFlight = {
    sent: { method: "PATCH" as const, adds: ["www CNAME example.net."], deletes: [], updates: [] },
  };

  it("a create never takes over the entry of a create still running, though it adds the same records", () => {
    startEntry(header({ resource: "web/cccc", operation: "create", purge: false, owner }), [inFlight]);
    expect(
      findInterruption(account, NO_PURGE, undefined, undefined, ["www CNAME example.net."], true),
    ).toEqual({ files: [] });
  });

  it("an update is refused and a preview warns, each naming it; a misspelt DOMAINAPI_REWRITE is said on its own line", () => {
    startEntry(header({ owner }), [inFlight]);
    expect(() =>
      consultJournal({ operation: "update", settings: PURGE, resource: "web", holding, declared: [a] }),
    ).toThrow(new RegExp(`another process \\(pid ${owner.pid} on ${hostname()}`));
    process.env.DOMAINAPI_REWRITE = "wbe";
    const preview = consultJournal({
      operation: "diff",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(preview.interruption).toBeUndefined();
    expect(preview.warning?.split("\n")).toEqual([
      expect.stringMatching(
        /^template web: another process \(pid \d+ .* nothing was sent: wait for that run/,
      ),
      "template web: DOMAINAPI_REWRITE=wbe does not name this template, so it is not rewritten (name it by its " +
        "template id, web, or use all).",
    ]);
  });
});

describe("consultJournal", () => {
  const holding: Holding = { settings: PURGE, held: [a], untracked: [] };

  it("a preview without DOMAINAPI_REWRITE says nothing", () => {
    const diff = consultJournal({
      operation: "diff",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(diff.warning).toBeUndefined();
    expect(diff.interruption).toBeUndefined();
  });

  it("hands the next run the values the interrupted run marked secret, so every line about it masks them", () => {
    const secrets = secretsOfRecords([{ name: "hidden", type: "TXT", content: "token-123" }]);
    const journal = openJournal(scope(PURGE, ["r1"]));
    journal.sending(
      { held: [a], untracked: [] },
      requestOf([createCorrection({ name: "hidden", type: "TXT", content: "token-123", key: "hidden/TXT" })]),
      "plan",
      secrets,
    );
    // The program no longer declares the secret record: the entry alone knows it was secret.
    const next = consultJournal({
      operation: "update",
      settings: PURGE,
      resource: "web",
      holding,
      declared: [a],
    });
    expect(next.interruption?.request).toContain("hidden TXT token-123");
    expect(maskText(next.interruption!.request, next.secrets)).toMatch(
      /^a PATCH adding \[secret\] TXT \[secret\] /,
    );
  });
});

describe("what the user is told first", () => {
  it("a create without purge whose only record was in flight: named as once or missing, and nothing sent", () => {
    const journal = openJournal({ ...scope(NO_PURGE, [], "create"), resource: "web/dddd" });
    journal.sending({ held: [], untracked: [] }, requestOf([createCorrection(www)]), "plan");
    const found = findInterruption(account, NO_PURGE, undefined, undefined, ["www CNAME example.net."], true);
    const interruption = found.interruption!;
    const entryDate = () => {
      const read = readEntry(entryFile(account.baseUrl, "web", "web/dddd"));
      return read?.kind === "entry" ? read.entry.writtenAt : "";
    };
    const plan = planResource(undefined, { settings: NO_PURGE, declared: [www] }, interruption);
    expect(plan.requests).toEqual([]);
    expect(interruptionWarning(plan, interruption, false)).toBe(
      "template web: outcome unknown: an earlier run on this machine was interrupted while sending a PATCH adding " +
        `www CNAME example.net. (create, ${entryDate()}). Whether the API applied the add of these records is ` +
        "unknown: www CNAME example.net.. Each is now in the template once, or missing: the resource does not add " +
        "them again (a second copy could never be found, as the API cannot list a template's records) and its state " +
        "does not claim them (they stay listed as of unknown outcome). Check them in the registrar's panel and add one " +
        "that is missing there by hand. Recovering: 0 to create, 0 to update, 0 to delete, 0 unchanged (0 requests).",
    );
  });
});

describe("the entry's file", () => {
  it("stays readable by its user alone when the next operation replaces it", () => {
    openJournal(scope(PURGE, [])).sending(
      { held: [], untracked: [] },
      requestOf([createCorrection(www)]),
      "one",
    );
    openJournal(scope(PURGE, [])).sending(
      { held: [], untracked: [] },
      requestOf([createCorrection(api)]),
      "two",
    );
    const file = entryFile(account.baseUrl, "web", "web");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(entriesOf(account.baseUrl, "web")).toMatchObject([{ kind: "entry", entry: { plan: "two" } }]);
    expect(currentOwner().pid).toBe(process.pid);
  });
});
