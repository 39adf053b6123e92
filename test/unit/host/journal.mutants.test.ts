/**
 * The journal's file handling as a long-lived process meets it: no descriptor is left open by any
 * write (a provider writes an entry per request), a file the journal cannot remove is reported, and
 * the entries of a template come back in one stable order.
 */
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendStep,
  currentOwner,
  entriesOf,
  entryFile,
  type JournalHeader,
  removeEntry,
  startEntry,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";

const saved = process.env.DOMAINAPI_STATE_DIR;
beforeEach(() => {
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "journal-mutants-"));
});
afterEach(() => {
  if (saved === undefined) delete process.env.DOMAINAPI_STATE_DIR;
  else process.env.DOMAINAPI_STATE_DIR = saved;
});

const account = { baseUrl: "https://api.example.com", keyFingerprint: keyFingerprint("secret-key") };
const header = (resource: string): JournalHeader => ({
  version: 1,
  account,
  templateId: "web",
  resource,
  operation: "update",
  purge: true,
  owner: currentOwner(),
  writtenAt: "2026-01-01T00:00:00.000Z",
  plan: "1 to create",
  startIds: [],
});
const put = { method: "PUT" as const, adds: ["www A 192.0.2.2"], deletes: [], updates: [] };

/** The descriptors this process holds open (Linux shows them under /proc). */
const openFds = (): number => readdirSync("/proc/self/fd").length;

describe.runIf(process.platform === "linux")("the journal leaves no file descriptor open", () => {
  it("when an entry is created", () => {
    const before = openFds();
    startEntry(header("web"));
    expect(openFds()).toBe(before);
  });

  it("when an entry replaces an older one (a temporary file renamed, the directory flushed)", () => {
    startEntry(header("web"));
    const before = openFds();
    startEntry(header("web"), [{ sent: put }]);
    expect(openFds()).toBe(before);
  });

  it("when a request or what an answer proved is appended", () => {
    const file = startEntry(header("web"));
    const before = openFds();
    appendStep(file, { sent: put });
    expect(openFds()).toBe(before);
    appendStep(file, { learnt: { records: {}, ids: {} } });
    expect(openFds()).toBe(before);
  });
});

describe("removing an entry", () => {
  it("reports a file of the journal it cannot remove, rather than saying it is gone", () => {
    // A directory where the entry's file should be: unlink refuses it (EISDIR or EPERM).
    const file = entryFile(account.baseUrl, "web", "web");
    mkdirSync(file, { recursive: true });
    expect(() => removeEntry(file)).toThrow(/EISDIR|EPERM/);
  });
});

describe("the entries of a template", () => {
  it("come back ordered by file name, whatever order the directory lists them in", () => {
    const files = Array.from({ length: 24 }, (_, i) => startEntry(header(`resource-${i}`)));
    const listed = entriesOf(account.baseUrl, "web").map((found) => found.file);
    expect(listed).toEqual([...files].sort());
    expect(listed).toHaveLength(24);
  });
});
