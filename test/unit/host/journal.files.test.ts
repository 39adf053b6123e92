/**
 * The journal's files as a user meets them (docs/behaviour.md, "Interrupted runs"): where an entry
 * is, what an unreadable one is said to be (its line and why), a state directory that cannot hold
 * entries, the traces a finished run leaves (none), and who wrote an entry.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appendStep,
  currentOwner,
  entriesOf,
  entryFile,
  type JournalHeader,
  JournalUnwritableError,
  ownerIsLive,
  readEntry,
  removeEntry,
  startEntry,
  templateDir,
} from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";

const saved = { ...process.env };
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "journal-files-"));
  process.env.DOMAINAPI_STATE_DIR = root;
});
afterEach(() => {
  if (saved.DOMAINAPI_STATE_DIR === undefined) delete process.env.DOMAINAPI_STATE_DIR;
  else process.env.DOMAINAPI_STATE_DIR = saved.DOMAINAPI_STATE_DIR;
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
const put = { method: "PUT" as const, adds: ["www A 192.0.2.2"], deletes: [], updates: [] };

/** Field 22 of /proc/<pid>/stat (proc(5)): the start time in clock ticks after boot. */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};

describe("where an entry is", () => {
  it("one directory per account and template under <state>/journal, one short-named file per resource", () => {
    const file = startEntry(header({ resource: "web/a b/../c" }));
    const dir = templateDir(account.baseUrl, "web");
    expect(dirname(dir)).toBe(join(root, "journal"));
    expect(basename(dir)).toMatch(/^api\.example\.com-web-[0-9a-f]{16}$/);
    expect(dirname(file)).toBe(dir);
    expect(basename(file)).toMatch(/^[0-9a-f]{16}\.json$/);
    expect(file).toBe(entryFile(account.baseUrl, "web", "web/a b/../c"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // A template id may itself end like a file name: the directory keeps it whole.
    expect(basename(templateDir(account.baseUrl, "v.json"))).toMatch(
      /^api\.example\.com-v\.json-[0-9a-f]{16}$/,
    );
  });

  it("a finished run leaves no trace: the template's directory goes with its last entry", () => {
    const one = startEntry(header({ resource: "web/1111" }));
    const two = startEntry(header({ resource: "web/2222" }));
    const dir = templateDir(account.baseUrl, "web");
    removeEntry(one);
    // Another resource's entry is still there: the directory stays.
    expect(readdirSync(dir)).toEqual([basename(two)]);
    removeEntry(two);
    expect(existsSync(dir)).toBe(false);
  });

  it("a temporary file left by a crash is not an entry", () => {
    const file = startEntry(header());
    writeFileSync(`${file}.123.abc.tmp`, "half");
    expect(entriesOf(account.baseUrl, "web")).toEqual([expect.objectContaining({ kind: "entry", file })]);
  });

  it("a PUT in flight reads back as a PUT; a destroy's entry as a destroy", () => {
    const file = startEntry(header({ operation: "delete" }), [{ sent: put }]);
    expect(readEntry(file)).toMatchObject({
      kind: "entry",
      entry: { operation: "delete", inFlight: put },
    });
  });
});

describe("an entry that does not read is said to be unreadable, with its line and why", () => {
  const rewrite = (file: string, text: string) => {
    writeFileSync(file, text);
    return readEntry(file);
  };

  it("a first line that is not JSON, or is empty", () => {
    const file = startEntry(header());
    expect(rewrite(file, "nope\n")).toEqual({
      kind: "corrupt",
      file,
      reason: `line 1: Unexpected token 'o', "nope" is not valid JSON`,
    });
    // Created, then the machine stopped before its first line was written.
    expect(rewrite(file, "")).toEqual({
      kind: "corrupt",
      file,
      reason: "line 1: Unexpected end of JSON input",
    });
  });

  it("a first line of another version, or missing a field, names the field", () => {
    const file = startEntry(header());
    expect(rewrite(file, `${JSON.stringify({ ...header(), version: 2 })}\n`)).toEqual({
      kind: "corrupt",
      file,
      reason: "line 1: version: Invalid input: expected 1",
    });
    const { baseUrl: _dropped, ...rest } = account;
    expect(rewrite(file, `${JSON.stringify({ ...header(), account: rest })}\n`)).toEqual({
      kind: "corrupt",
      file,
      reason: "line 1: account.baseUrl: Invalid input: expected string, received undefined",
    });
  });

  it("a later line that is not a step names that line", () => {
    const file = startEntry(header());
    const head = readFileSync(file, "utf8");
    expect(rewrite(file, `${head}{"learnt":{}}\n{"sent":{}}\n{"learnt":{}}\n`)).toEqual({
      kind: "corrupt",
      file,
      reason: "line 3: Invalid input",
    });
    expect(rewrite(file, `${head}x\n{"learnt":{}}\n`)).toEqual({
      kind: "corrupt",
      file,
      reason: `line 2: Unexpected token 'x', "x" is not valid JSON`,
    });
  });

  it("a directory where the entry should be is unreadable, saying why", () => {
    const file = entryFile(account.baseUrl, "web", "web");
    mkdirSync(file, { recursive: true });
    expect(readEntry(file)).toEqual({
      kind: "corrupt",
      file,
      reason: expect.stringContaining("EISDIR"),
    });
  });
});

describe("a state directory that cannot hold entries", () => {
  it("a file: no entry is found or removed there, and none can be written, naming the directory and the fix", () => {
    const notADir = join(root, "file");
    writeFileSync(notADir, "");
    process.env.DOMAINAPI_STATE_DIR = notADir;
    const file = entryFile(account.baseUrl, "web", "web");
    expect(readEntry(file)).toBeUndefined();
    expect(() => removeEntry(file)).not.toThrow();
    expect(entriesOf(account.baseUrl, "web")).toEqual([]);
    const dir = templateDir(account.baseUrl, "web");
    let error: unknown;
    try {
      startEntry(header());
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JournalUnwritableError);
    expect((error as JournalUnwritableError).code).toBe("DOMAINAPI_JOURNAL_UNWRITABLE");
    // Thrown by another copy of the package (a program's and the plugin's), it is still this error.
    const copy = Object.assign(new Error("m"), {
      [Symbol.for("pulumi-domainapi.JournalUnwritableError")]: true,
    });
    expect(copy).toBeInstanceOf(JournalUnwritableError);
    expect((error as Error).message).toBe(
      `cannot write the intent journal in ${dir} (ENOTDIR: not a directory, mkdir '${dir}'), ` +
        "so nothing was sent: a request sent unrecorded could not be recovered if this run were interrupted. Make " +
        "that directory writable, or set DOMAINAPI_STATE_DIR to a writable directory (docs/behaviour.md, " +
        '"Interrupted runs").',
    );
    expect(() => appendStep(file, { sent: put })).toThrow(
      new RegExp(`^cannot write the intent journal in ${dirname(file).replaceAll(".", "\\.")} \\(ENOTDIR`),
    );
  });
});

describe("who wrote an entry", () => {
  let child: ChildProcess | undefined;
  afterEach(() => child?.kill("SIGKILL"));

  it("this process, by its id, its start time as the kernel counts it, and its host", () => {
    expect(currentOwner()).toEqual({ pid: process.pid, started: startTime(process.pid), host: hostname() });
  });

  it("another process that runs is live though the entry does not say when it started; once gone, it is not", async () => {
    child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await new Promise((resolve) => child!.once("spawn", resolve));
    const owner = { pid: child.pid!, host: hostname() };
    expect(ownerIsLive(owner)).toBe(true);
    expect(ownerIsLive({ ...owner, started: startTime(owner.pid) })).toBe(true);
    // The same process id and start on another machine (a restored cache) is another process.
    expect(ownerIsLive({ ...owner, host: `${hostname()}-ci`, started: startTime(owner.pid) })).toBe(false);
    child.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    expect(ownerIsLive(owner)).toBe(false);
  });
});
