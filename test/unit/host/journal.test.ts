/**
 * The intent journal's files (docs/behaviour.md, "Interrupted runs"): where they go, that an entry
 * is written whole and read back step by step, what a cut or corrupt file means, and how an entry
 * of another process that still runs is told from one left by an interrupted run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendStep,
  currentOwner,
  entriesOf,
  type JournalHeader,
  ownerIsLive,
  readEntry,
  removeEntry,
  startEntry,
  templateDir,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";
import { findInterruption } from "../../../provider/records/interrupted";

const saved = { ...process.env };
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "journal-unit-"));
  process.env.DOMAINAPI_STATE_DIR = root;
});
afterEach(() => {
  for (const k of ["DOMAINAPI_STATE_DIR", "XDG_CACHE_HOME"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const account = { baseUrl: "https://api.example.com", keyFingerprint: keyFingerprint("secret-key") };
const header = (over: Partial<JournalHeader> = {}): JournalHeader => ({
  version: 1,
  account,
  templateId: "web",
  resource: "web",
  operation: "update",
  purge: true,
  owner: currentOwner(),
  writtenAt: "2026-01-01T00:00:00.000Z",
  plan: "1 to create",
  startIds: [],
  ...over,
});
const sent = { method: "PATCH" as const, adds: ["www A 192.0.2.2"], deletes: [], updates: [] };

describe("where entries go", () => {
  it("under $XDG_CACHE_HOME/pulumi-domainapi/journal when DOMAINAPI_STATE_DIR is not set", () => {
    delete process.env.DOMAINAPI_STATE_DIR;
    process.env.XDG_CACHE_HOME = root;
    const file = startEntry(header());
    expect(file.startsWith(join(root, "pulumi-domainapi", "journal"))).toBe(true);
  });

  it("one file per resource of one account's template, readable only by its user, never holding the key", () => {
    const a = startEntry(header());
    const b = startEntry(header({ resource: "web/1234abcd", purge: false }));
    expect(a).not.toBe(b);
    expect(readdirSync(templateDir(account.baseUrl, "web")).sort()).toHaveLength(2);
    expect(statSync(a).mode & 0o777).toBe(0o600);
    expect(readFileSync(a, "utf8")).not.toContain("secret-key");
  });
});

describe("an entry, step by step", () => {
  it("is written whole (no temporary file left), and the last request without its answer is in flight", () => {
    const file = startEntry(header());
    appendStep(file, { learnt: { records: {}, ids: {} } });
    appendStep(file, { sent });
    expect(readdirSync(templateDir(account.baseUrl, "web"))).toEqual([file.split("/").at(-1)]);
    const found = readEntry(file);
    expect(found).toMatchObject({
      kind: "entry",
      entry: { inFlight: sent, steps: [{ learnt: {} }, { sent }] },
    });
    appendStep(file, { learnt: { records: {}, ids: {} } });
    // A later operation's entry replaces it whole (renamed over it), never beside it.
    startEntry(header({ plan: "the next operation" }), [{ sent }]);
    expect(readdirSync(templateDir(account.baseUrl, "web"))).toEqual([file.split("/").at(-1)]);
    expect(readEntry(file)).toMatchObject({
      kind: "entry",
      entry: { plan: "the next operation", steps: [{ sent }] },
    });
    startEntry(header());
    appendStep(file, { learnt: { records: {}, ids: {} } });
    appendStep(file, { sent });
    appendStep(file, { learnt: { records: {}, ids: {} } });
    const answered = readEntry(file);
    expect(answered?.kind === "entry" && answered.entry.steps.length).toBe(3);
    expect(answered?.kind === "entry" && answered.entry.inFlight).toBeUndefined();
  });

  it("a last line cut short was being written: a request cut so was never sent", () => {
    const file = startEntry(header());
    appendStep(file, { learnt: { records: {}, ids: {} } });
    writeFileSync(file, `${readFileSync(file, "utf8")}{"sent":{"meth`);
    const found = readEntry(file);
    expect(found?.kind === "entry" && found.entry.inFlight).toBeUndefined();
  });

  it("any other line that does not read makes the entry corrupt, named by its file", () => {
    const file = startEntry(header());
    writeFileSync(file, `${readFileSync(file, "utf8")}not json\n{"sent":{}}\n`);
    expect(readEntry(file)).toMatchObject({ kind: "corrupt", file });
    writeFileSync(file, "garbage\n");
    expect(entriesOf(account.baseUrl, "web")).toMatchObject([{ kind: "corrupt", file }]);
  });

  it("is gone once removed; removing it twice is fine", () => {
    const file = startEntry(header());
    removeEntry(file);
    removeEntry(file);
    expect(readEntry(file)).toBeUndefined();
  });
});

describe("two processes on one template", () => {
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill("SIGKILL"));

  const startTime = (pid: number) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    } catch {
      return undefined;
    }
  };

  it("an entry of another process that still runs is a run in flight: refused for an update, said in a preview", async () => {
    child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await new Promise((resolve) => child!.once("spawn", resolve));
    const pid = child.pid!;
    const started = startTime(pid);
    const owner = { pid, host: hostname(), ...(started ? { started } : {}) };
    const file = startEntry(header({ owner }));
    appendStep(file, { sent });
    expect(ownerIsLive(owner)).toBe(true);
    const settings = { templateId: "web", purge: true, safetyThreshold: false as const };
    expect(() => findInterruption(account, settings, "web", undefined, [], true)).toThrow(
      new RegExp(
        `another process \\(pid ${pid} .*is sending a PATCH adding www A 192\\.0\\.2\\.2 .*nothing was sent`,
      ),
    );
    expect(findInterruption(account, settings, "web", undefined, [], false)).toMatchObject({
      files: [],
      warning: expect.stringContaining(`pid ${pid}`),
    });
    // The same pid with another start time is another process: the entry's writer is gone.
    if (started) expect(ownerIsLive({ ...owner, started: `${started}0` })).toBe(false);

    // Once it is gone, its entry is an interrupted run: the request's outcome is unknown.
    child.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    expect(ownerIsLive(owner)).toBe(false);
    const found = findInterruption(account, settings, "web", undefined, [], true);
    expect(found.interruption).toMatchObject({
      source: "journal",
      unknownAdds: ["www A 192.0.2.2"],
      request: expect.stringMatching(/^a PATCH adding www A 192\.0\.2\.2/),
    });
  });

  it("entries of this very process, and of another machine (a restored CI cache), are never live", () => {
    expect(ownerIsLive(currentOwner())).toBe(false);
    expect(ownerIsLive({ ...currentOwner(), pid: process.ppid, host: `${hostname()}-elsewhere` })).toBe(
      false,
    );
  });
});
