/**
 * The journal's file handling as a long-lived process meets it: no descriptor is left open by any
 * write (a provider writes an entry per request), a file the journal cannot remove is reported, and
 * the entries of a template come back in one stable order.
 */
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  appendStep,
  currentOwner,
  entriesOf,
  entryFile,
  type JournalHeader,
  JournalUnwritableError,
  ownerIsLive,
  removeEntry,
  startEntry,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";

// The file system's own calls, watched (not replaced) to see what is flushed to disk and when.
const fsCalls = vi.hoisted(() => ({
  log: [] as string[],
  paths: new Map<number, string>(),
  /** An error the next open of a path ending so throws, as a full or failing disk would. */
  failOpen: undefined as { suffix: string; code: string } | undefined,
  /** The next listing in reverse, as a file system that does not sort (NTFS, some network ones) gives it. */
  reverseListing: false,
}));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const openSync = (...args: Parameters<typeof fs.openSync>): number => {
    const fail = fsCalls.failOpen;
    if (fail !== undefined && String(args[0]).endsWith(fail.suffix)) {
      fsCalls.failOpen = undefined;
      throw Object.assign(new Error(`${fail.code}: the disk refused ${String(args[0])}`), {
        code: fail.code,
      });
    }
    const fd = fs.openSync(...args);
    fsCalls.paths.set(fd, String(args[0]));
    fsCalls.log.push(`open ${String(args[0])} ${String(args[1])}`);
    return fd;
  };
  const fsyncSync = (fd: number): void => {
    fs.fsyncSync(fd);
    fsCalls.log.push(`fsync ${fsCalls.paths.get(fd)}`);
  };
  // The journal lists names (strings) only.
  const readdirSync = ((dir: string) => {
    const names = fs.readdirSync(dir);
    if (!fsCalls.reverseListing) return names;
    fsCalls.reverseListing = false;
    return [...names].reverse();
  }) as unknown as typeof fs.readdirSync;
  return {
    ...fs,
    default: { ...fs, openSync, fsyncSync, readdirSync },
    openSync,
    fsyncSync,
    readdirSync,
  };
});

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
    fsCalls.reverseListing = true;
    const listed = entriesOf(account.baseUrl, "web").map((found) => found.file);
    expect(listed).toEqual([...files].sort());
    expect(listed).toHaveLength(24);
  });
});

describe("what the journal flushes to disk before it returns", () => {
  beforeEach(() => {
    fsCalls.log.length = 0;
  });

  it("a new entry, written in place: a crash can only cut it, never leave a stray file", () => {
    const file = startEntry(header("web"), [{ sent: put }]);
    expect(fsCalls.log).toEqual([`open ${file} wx`, `fsync ${file}`]);
  });

  it("a replaced entry: the new text, then the directory that holds the rename", () => {
    const file = startEntry(header("web"));
    fsCalls.log.length = 0;
    startEntry(header("web"), [{ sent: put }]);
    // The open that found the old entry threw, so only the temporary file and the directory show.
    const temp = fsCalls.log[0]?.split(" ")[1] ?? "";
    expect(temp.startsWith(`${file}.`) && temp.endsWith(".tmp")).toBe(true);
    expect(fsCalls.log).toEqual([
      `open ${temp} w`,
      `fsync ${temp}`,
      `open ${join(file, "..")} r`,
      `fsync ${join(file, "..")}`,
    ]);
  });

  it("a request before it is sent, but not what an answer proved", () => {
    const file = startEntry(header("web"));
    fsCalls.log.length = 0;
    appendStep(file, { sent: put });
    expect(fsCalls.log).toEqual([`open ${file} a`, `fsync ${file}`]);
    fsCalls.log.length = 0;
    appendStep(file, { learnt: { records: {}, ids: {} } });
    expect(fsCalls.log).toEqual([`open ${file} a`]);
  });
});

describe("a new entry the disk refuses", () => {
  it("is reported and nothing is sent, not retried through a temporary file", () => {
    fsCalls.failOpen = { suffix: ".json", code: "ENOSPC" };
    let caught: unknown;
    try {
      startEntry(header("web"));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JournalUnwritableError);
    expect((caught as Error).message).toMatch(/ENOSPC: the disk refused .*\.json\), so nothing was sent/);
    expect(entriesOf(account.baseUrl, "web")).toEqual([]);
  });
});

describe("an entry's writer running under another user", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is live: the system refuses to signal it (EPERM), which proves it runs", () => {
    // Only root may signal any process, so another user's process is shown by the refusal.
    const refuse = (code: string) =>
      vi.spyOn(process, "kill").mockImplementation(() => {
        throw Object.assign(new Error(`kill ${code}`), { code });
      });
    const owner = { pid: 1, host: hostname() };
    refuse("EPERM");
    expect(ownerIsLive(owner)).toBe(true);
    refuse("ESRCH");
    expect(ownerIsLive(owner)).toBe(false);
  });
});
