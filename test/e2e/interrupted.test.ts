/**
 * Interrupted runs under the real engine (docs/behaviour.md, "Interrupted runs"): the CLI and its
 * plugins killed with SIGKILL after the API applied a request and before its answer reached the
 * provider (a proxy holds the answer, so the kill is exact), then the next `pulumi up` on the same
 * machine. Judged by the sandbox's own view of the template and by `pulumi stack export`. Then the
 * CLI alone killed: the plugin it started is gone within 10 s and the API receives nothing after.
 * One stack, one YAML program through the provider plugin, each step starting where the last ended.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HoldingProxy, holdingProxy } from "../provider/holdingProxy";
import {
  accountProgram,
  createProject,
  type Project,
  requireBuiltPlugin,
  yamlLanguageHost,
} from "./plugin-helpers";

const KEY = "interrupted-key-7c1e";
const A = { name: "@", type: "A", content: "192.0.2.10" };
const MX = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const WWW = { name: "www", type: "CNAME", content: "example.net." };
const API = { name: "api", type: "A", content: "192.0.2.20" };
const DOCS = { name: "docs", type: "A", content: "192.0.2.21" };
type Rec = typeof A & { priority?: number };

const program = (records: Rec[]) =>
  accountProgram("domainapi-interrupted", {
    rest: `  web:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: web
      records:
${records.map((r) => `        - ${JSON.stringify(r)}`).join("\n")}
    options:
      provider: \${account}
`,
  });

let sandbox: Sandbox;
let proxy: HoldingProxy;
let project: Project;
let journal: string;

/** The variables of every run: the journal in a directory of this test, as on one machine. */
const runEnv = () => ({ DOMAINAPI_STATE_DIR: journal });

beforeAll(async () => {
  requireBuiltPlugin();
  sandbox = await startSandbox({ apiKey: KEY });
  proxy = await holdingProxy(sandbox.url);
  journal = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-e2e-journal-"));
  project = createProject({ "Pulumi.yaml": program([A, MX]) }, [await yamlLanguageHost()]);
  await project.pulumi(["stack", "init", "dev"]);
  await project.setConfig({ plain: { baseUrl: proxy.url }, secret: { apiKey: KEY } });
}, 600_000);
afterAll(async () => {
  project?.cleanup();
  await proxy?.close();
  await sandbox?.close();
});

const declare = (records: Rec[]) => fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), program(records));
const template = () =>
  (sandbox.templateRecords("web") ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
const lines = (rs: Rec[]) => rs.map((r) => `${r.name} ${r.type} ${r.content}`).sort();

/** A `pulumi` run, its output collected. */
function start(args: string[]): { child: ChildProcess; exited: Promise<string> } {
  const child = spawn("pulumi", [...args, "--non-interactive"], {
    cwd: project.dir,
    env: { ...project.env, ...runEnv() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  child.stdout?.on("data", (d: Buffer) => out.push(d));
  child.stderr?.on("data", (d: Buffer) => out.push(d));
  return {
    child,
    exited: new Promise((resolve) => child.once("exit", () => resolve(Buffer.concat(out).toString()))),
  };
}

/** Process `pid`'s descendants still alive (pid and command line), found through their parents. */
function descendants(pid: number): { pid: number; args: string }[] {
  const ps = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" });
  const all = ps
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length >= 3)
    .map(([p, pp, ...args]) => ({ pid: Number(p), ppid: Number(pp), args: args.join(" ") }));
  const found: { pid: number; args: string }[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push({ pid: p.pid, args: p.args });
        grew = true;
      }
    }
  }
  return found;
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What a killed DIY backend leaves: its lock. A user of a lost runner removes it the same way. */
function unlock(): void {
  const backend = (project.env.PULUMI_BACKEND_URL ?? "").replace(/^file:\/\//, "");
  fs.rmSync(path.join(backend, ".pulumi", "locks"), { recursive: true, force: true });
}

/**
 * Runs `pulumi <args>` until the sandbox has applied its `nth` `method` request, then kills the CLI
 * and its plugins (the whole group) with SIGKILL while the answer is held.
 */
async function killedAfterApply(args: string[], method: string, nth = 1): Promise<void> {
  const held = proxy.holdNext(method, nth);
  const run = start(args);
  const ended = run.exited.then((out) => {
    throw new Error(`pulumi ${args.join(" ")} ended before its ${method} was held:\n${out}`);
  });
  await Promise.race([held, ended]);
  // The CLI and everything it started, at once (its plugins first: none may act on its death).
  for (const p of descendants(run.child.pid!)) process.kill(p.pid, "SIGKILL");
  process.kill(run.child.pid!, "SIGKILL");
  ended.catch(() => undefined);
  await run.exited;
  proxy.drop();
  unlock();
}

/** The next `pulumi up` on this machine; its output. */
async function upAgain(): Promise<string> {
  const { stdout, stderr } = await project.pulumi(["up", "--yes", "--skip-preview"], undefined, runEnv());
  return stdout + stderr;
}

/** What `pulumi stack export` says the resource holds: its record ids. */
async function exportedIds(): Promise<string[]> {
  const { stdout } = await project.pulumi(["stack", "export"], undefined, runEnv());
  const deployment = JSON.parse(stdout).deployment as {
    resources?: { type: string; outputs?: { ids?: Record<string, string> } }[];
  };
  const web = deployment.resources?.find((r) => r.type === "domainapi:index:DnsTemplateRecords");
  return Object.values(web?.outputs?.ids ?? {}).sort();
}

const sandboxIds = () => (sandbox.templateRecords("web") ?? []).map((r) => r.record_id).sort();

describe("killed with SIGKILL after the API applied the request, then `pulumi up` (purge: true)", () => {
  it("a PUT (the create): the next up rewrites once, and the state claims exactly what exists", async () => {
    await killedAfterApply(["up", "--yes", "--skip-preview"], "PUT");
    expect(template()).toEqual(lines([A, MX]));
    // The engine creates it again: the same PUT, which is its recovery.
    await upAgain();
    expect(template()).toEqual(lines([A, MX]));
    expect(await exportedIds()).toEqual(sandboxIds());
  });

  it("a PATCH that adds: no duplicate, the template ends as declared", async () => {
    declare([A, MX, WWW]);
    await killedAfterApply(["up", "--yes", "--skip-preview"], "PATCH");
    expect(template()).toEqual(lines([A, MX, WWW]));
    const out = await upAgain();
    expect(out).toMatch(/outcome unknown: .*a PATCH adding www CNAME example\.net\./);
    expect(out).toMatch(/every record id is new/);
    expect(template()).toEqual(lines([A, MX, WWW]));
    expect(await exportedIds()).toEqual(sandboxIds());
  });

  it("a destroy: the template was emptied while the state claimed it all; up writes it again", async () => {
    await killedAfterApply(["destroy", "--yes", "--skip-preview"], "PATCH");
    expect(template()).toEqual([]);
    await upAgain();
    expect(template()).toEqual(lines([A, MX, WWW]));
    expect(await exportedIds()).toEqual(sandboxIds());
  });
});

describe("the CLI alone killed with SIGKILL", () => {
  it("leaves no plugin of that run alive 10 s later, and nothing reaches the API after", async () => {
    // Two adds: two requests, the first held while the CLI is killed, then answered late.
    declare([A, MX, WWW, API, DOCS]);
    const held = proxy.holdNext("PATCH");
    const run = start(["up", "--yes", "--skip-preview"]);
    await Promise.race([
      held,
      run.exited.then((out) => {
        throw new Error(`pulumi up ended before its PATCH was held:\n${out}`);
      }),
    ]);
    const started = descendants(run.child.pid!);
    const plugins = started.filter((p) => p.args.includes("plugin/main.js"));
    expect(plugins).not.toEqual([]);
    process.kill(run.child.pid!, "SIGKILL");
    await run.exited;
    const killedAt = Date.now();
    const seenBefore = proxy.seen.length;
    // The answer reaches the plugin now: a plugin that went on would send the next add.
    proxy.release();
    while (plugins.some((p) => alive(p.pid)) && Date.now() - killedAt < 10_000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(plugins.filter((p) => alive(p.pid))).toEqual([]);
    expect(proxy.seen.slice(seenBefore)).toEqual([]);
    // The request whose answer the engine never got stays in the journal as of unknown outcome.
    const entries = fs
      .readdirSync(path.join(journal, "journal"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".json"));
    expect(entries).toHaveLength(1);
    // Pulumi's own language host waits minutes for its engine: not ours to judge, but not left either.
    for (const p of started) if (alive(p.pid)) process.kill(p.pid, "SIGKILL");
    unlock();
  });
});
