/**
 * Claims of templates shared through the machine by the plugin processes of one deployment
 * (provider/host/claims.ts): another live process's claim of the same stack is returned, a claim
 * of a process that is gone is not (and is removed), another stack's is not, and the account is
 * the base address as the settings normalise it. The other process is a real one: a child running
 * the same module, bundled here.
 */
import { type ChildProcess, fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { claimOnMachine, isRunning, type MachineClaim, processStart } from "../../provider/host/claims";
import { STATE_DIR_ENV } from "../../provider/host/machineFiles";
import { canonicalBaseUrl } from "../../provider/settings/config";

const root = path.resolve(__dirname, "..", "..");
let work: string;
let childScript: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-claims-"));
  process.env[STATE_DIR_ENV] = path.join(work, "state");
  childScript = path.join(work, "child.cjs");
  // The child claims what its parent sends it, answers with what it saw, and stays alive.
  fs.writeFileSync(
    path.join(work, "child.ts"),
    `import { claimOnMachine } from ${JSON.stringify(path.join(root, "provider", "host", "claims"))};
process.on("message", (claim) => { process.send?.(claimOnMachine(claim as never)); });`,
  );
  buildSync({
    entryPoints: [path.join(work, "child.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: childScript,
    external: ["@pulumi/pulumi"],
    logLevel: "silent",
  });
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  delete process.env[STATE_DIR_ENV];
  fs.rmSync(work, { recursive: true, force: true });
});

/** A plugin process of its own: claims `claim` and answers what it saw. */
async function otherProcess(claim: MachineClaim): Promise<{ child: ChildProcess; saw: MachineClaim[] }> {
  const child = fork(childScript, [], {
    env: { ...process.env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  children.push(child);
  const saw = await new Promise<MachineClaim[]>((resolve, reject) => {
    child.once("message", (m) => resolve(m as MachineClaim[]));
    child.once("error", reject);
    child.send(claim);
  });
  return { child, saw };
}

const ACCOUNT = "https://api.example.com";
const urn = (name: string, stack = "dev") =>
  `urn:pulumi:${stack}::proj::domainapi:index:DnsTemplateRecords::${name}`;

describe("claims of templates across plugin processes", () => {
  it("return another live process's claim of the same stack, account and template, and not its own", async () => {
    const a = { urn: urn("a"), account: ACCOUNT, templateId: "shared", purge: true, provider: '"one"' };
    const { saw } = await otherProcess(a);
    expect(saw).toEqual([]);
    const b = { urn: urn("b"), account: ACCOUNT, templateId: "shared", purge: false, provider: '"two"' };
    expect(claimOnMachine(b)).toEqual([a]);
    // This process claiming again sees the same, not its own claim.
    expect(claimOnMachine(b)).toEqual([a]);
    // Another template, another account, another stack: apart.
    expect(claimOnMachine({ ...b, templateId: "other" })).toEqual([]);
    expect(claimOnMachine({ ...b, urn: urn("c"), account: "https://api.example.org" })).toEqual([]);
    expect(claimOnMachine({ ...b, urn: urn("b", "prod") })).toEqual([]);
  });

  it("skip and remove the claim of a process that is gone", async () => {
    const a = { urn: urn("gone"), account: ACCOUNT, templateId: "stale", purge: true, provider: '"one"' };
    const { child } = await otherProcess(a);
    const dir = fs.readdirSync(path.join(work, "state", "claims")).find((d) => d.includes("stale")) ?? "";
    expect(fs.readdirSync(path.join(work, "state", "claims", dir))).toHaveLength(1);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const b = { urn: urn("new"), account: ACCOUNT, templateId: "stale", purge: true, provider: '"two"' };
    expect(claimOnMachine(b)).toEqual([]);
    // Only this process's own claim is left.
    expect(fs.readdirSync(path.join(work, "state", "claims", dir))).toEqual([
      expect.stringMatching(new RegExp(`^${process.pid}-[0-9a-f]{16}\\.json$`)),
    ]);
  });

  it("give up a template a resource no longer claims", async () => {
    const a = { urn: urn("mover"), account: ACCOUNT, templateId: "before", purge: true, provider: '"one"' };
    claimOnMachine(a);
    claimOnMachine({ ...a, templateId: "after" });
    const { saw } = await otherProcess({ ...a, urn: urn("newcomer") });
    expect(saw).toEqual([]);
  });

  it("hold neither the key nor any record: only what names the claim", async () => {
    const a = { urn: urn("k"), account: ACCOUNT, templateId: "keyless", purge: true, provider: '"one"' };
    claimOnMachine(a);
    const dir = path.join(work, "state", "claims");
    const texts = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"));
    for (const text of texts)
      expect(Object.keys(JSON.parse(text)).sort()).toEqual(
        expect.arrayContaining(["account", "pid", "provider", "purge", "stack", "templateId", "urn"]),
      );
    for (const text of texts) expect(text).not.toMatch(/apiKey|records/);
  });

  it("tell a running process from one that is gone, and a reused id by its start time", () => {
    expect(isRunning(process.pid, processStart(process.pid))).toBe(true);
    expect(isRunning(process.pid, "not-its-start")).toBe(process.platform !== "linux");
    expect(isRunning(2 ** 30, undefined)).toBe(false);
    expect(isRunning(0, undefined)).toBe(false);
  });
});

describe("the account a claim names", () => {
  it.each([
    ["https://api.example.com/", "https://api.example.com"],
    ["https://api.example.com//", "https://api.example.com"],
    ["HTTPS://API.Example.COM", "https://api.example.com"],
    ["https://api.example.com:443", "https://api.example.com"],
    ["http://api.example.com:80/", "http://api.example.com"],
    ["http://api.example.com:8080/prefix/", "http://api.example.com:8080/prefix"],
  ])("is %j as %j: one account however the base address is written", (written, account) => {
    expect(canonicalBaseUrl(written)).toBe(account);
  });

  it("keeps apart what may be another API: another port, scheme or path", () => {
    const accounts = new Set(
      [
        "https://api.example.com",
        "https://api.example.com:8443",
        "http://api.example.com",
        "https://api.example.com/other",
      ].map(canonicalBaseUrl),
    );
    expect(accounts.size).toBe(4);
  });
});
