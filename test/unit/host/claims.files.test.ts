/**
 * The claim files one plugin process leaves for the others of its deployment
 * (provider/host/claims.ts), as they meet them: readable by the user alone, stale once the
 * process or the engine that started it is gone, apart by project, never crashing a check when
 * the cache cannot be written or a file there is not a claim.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { claimOnMachine, isRunning, type MachineClaim, processStart } from "../../../provider/host/claims";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";

let work: string;
const children: ChildProcess[] = [];
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-claim-files-"));
  process.env[STATE_DIR_ENV] = path.join(work, "state");
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  process.env[STATE_DIR_ENV] = path.join(work, "state");
});
afterAll(() => {
  delete process.env[STATE_DIR_ENV];
  fs.rmSync(work, { recursive: true, force: true });
});

const ACCOUNT = "https://api.example.com";
const urn = (name: string, stack = "dev", project = "proj") =>
  `urn:pulumi:${stack}::${project}::domainapi:index:DnsTemplateRecords::${name}`;
const claim = (name: string, templateId: string, over: Partial<MachineClaim> = {}): MachineClaim => ({
  urn: urn(name),
  account: ACCOUNT,
  templateId,
  purge: true,
  provider: '"live"',
  ...over,
});

/** Field 22 of /proc/<pid>/stat (proc(5)): the start time in clock ticks after boot. */
const startTime = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};

async function sleeper(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child;
}

/** The directory this process's claim of `templateId` went to. */
function dirOf(templateId: string): string {
  const root = path.join(work, "state", "claims");
  return path.join(root, fs.readdirSync(root).find((d) => d.includes(`-${templateId}-`))!);
}

/** A claim file as another plugin process would leave it. */
function leave(dir: string, name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("this process's claim", () => {
  it("is readable by its user alone, in a directory only its user may enter, naming this process and its engine", () => {
    expect(claimOnMachine(claim("mine", "modes"))).toEqual([]);
    const dir = dirOf("modes");
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(path.basename(dir)).toMatch(/^api\.example\.com-modes-[0-9a-f]{16}$/);
    // A template id may itself end like a file name: the directory keeps it whole.
    claimOnMachine(claim("another", "v.json"));
    expect(path.basename(dirOf("v.json"))).toMatch(/^api\.example\.com-v\.json-[0-9a-f]{16}$/);
    const [name] = fs.readdirSync(dir);
    expect(name).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{16}\\.json$`));
    const file = path.join(dir, name!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({
      ...claim("mine", "modes"),
      stack: "dev",
      project: "proj",
      pid: process.pid,
      started: startTime(process.pid),
      engine: { pid: process.ppid, started: startTime(process.ppid) },
    });
  });
});

describe("the claims of other processes", () => {
  it("a live process's claim is returned; of a process whose engine is gone, skipped and removed", async () => {
    const plugin = await sleeper();
    const engine = await sleeper();
    const engineStart = startTime(engine.pid!);
    claimOnMachine(claim("self", "engines"));
    const dir = dirOf("engines");
    const other = claim("other", "engines", { purge: false, provider: "the default provider" });
    const live = {
      ...other,
      stack: "dev",
      project: "proj",
      pid: plugin.pid,
      started: startTime(plugin.pid!),
      engine: { pid: engine.pid, started: engineStart },
    };
    leave(dir, "1-live.json", live);
    expect(claimOnMachine(claim("self", "engines"))).toEqual([other]);
    engine.kill("SIGKILL");
    await new Promise((resolve) => engine.once("exit", resolve));
    expect(claimOnMachine(claim("self", "engines"))).toEqual([]);
    expect(fs.existsSync(path.join(dir, "1-live.json"))).toBe(false);
  });

  it("a claim of another project, or of the same resource, is not another resource's", async () => {
    const plugin = await sleeper();
    claimOnMachine(claim("self", "projects"));
    const dir = dirOf("projects");
    const base = {
      account: ACCOUNT,
      templateId: "projects",
      purge: true,
      provider: '"live"',
      stack: "dev",
      pid: plugin.pid,
      engine: { pid: process.pid },
    };
    leave(dir, "1-a.json", { ...base, urn: urn("x", "dev", "other"), project: "other" });
    leave(dir, "1-b.json", { ...base, urn: urn("self"), project: "proj" });
    expect(claimOnMachine(claim("self", "projects"))).toEqual([]);
    // Both stay: their processes run.
    expect(fs.readdirSync(dir).sort()).toEqual(["1-a.json", "1-b.json", expect.stringMatching(/^\d+-/)]);
  });

  it("a file that is not a claim, or a claim half written, is passed over and left alone", async () => {
    const plugin = await sleeper();
    claimOnMachine(claim("self", "odd"));
    const dir = dirOf("odd");
    const whole = {
      ...claim("other", "odd"),
      stack: "dev",
      project: "proj",
      pid: plugin.pid,
      engine: { pid: process.pid },
    };
    const { engine: _e, ...noEngine } = whole;
    const { pid: _p, ...noPid } = whole;
    const { urn: _u, ...noUrn } = whole;
    const odd = [
      leave(dir, "2-text.json", "not json"),
      leave(dir, "2-engine.json", noEngine),
      leave(dir, "2-pid.json", noPid),
      leave(dir, "2-urn.json", noUrn),
      leave(dir, "2-half.json.2.tmp", whole),
    ];
    expect(claimOnMachine(claim("self", "odd"))).toEqual([]);
    for (const file of odd) expect(fs.existsSync(file)).toBe(true);
  });

  it("a cache that cannot be written: no claim is shared, and the check goes on", () => {
    const file = path.join(work, "a-file");
    fs.writeFileSync(file, "");
    process.env[STATE_DIR_ENV] = file;
    expect(claimOnMachine(claim("self", "nowhere"))).toEqual([]);
  });
});

describe("whether a process runs", () => {
  it("this process runs, whether or not its start is known", () => {
    expect(isRunning(process.pid, undefined)).toBe(true);
    expect(processStart(process.pid)).toBe(startTime(process.pid));
  });

  it("an id of 0 or below names a group of processes, never one that runs", () => {
    expect(isRunning(-1, undefined)).toBe(false);
    expect(isRunning(0, undefined)).toBe(false);
  });

  it("the first process of the system runs, though it may belong to another user", () => {
    expect(isRunning(1, undefined)).toBe(true);
  });

  it("a process gone has no start", async () => {
    const child = await sleeper();
    const pid = child.pid!;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(processStart(pid)).toBeUndefined();
    expect(isRunning(pid, undefined)).toBe(false);
  });
});
