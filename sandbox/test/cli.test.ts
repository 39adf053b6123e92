import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { Resolver } from "node:dns/promises";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { PERSONALITY_KEYS } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");
/** The command as installed: the package's bin, which runs the built dist/cli.js. */
const CLI = join(ROOT, "sandbox/bin/domainapi-sandbox.js");
const BUILT = join(ROOT, "sandbox/dist/cli.js");
const FIRST_LINE = /^domainapi-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/;

let workDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  // The CLI is tested as shipped: compiled. tsc emits even when files others are editing have type
  // errors, so the check is that our output exists and is fresh, not tsc's exit status.
  const build = spawnSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", "sandbox/tsconfig.json"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (!existsSync(BUILT))
    throw new Error(`build did not produce ${BUILT}:\n${build.stdout}\n${build.stderr}`);
  expect(build.error).toBeUndefined();
  workDir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
}, 180_000);

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Running {
  child: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<number | null>;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once("exit", (code) => done(code));
  });
}

/** Spawns the CLI and resolves once it printed its first line (the URL). */
async function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const exited = exitOf(child);
  const lines: string[] = [];
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const reader = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no first line within 15 s; stderr: ${stderr}`)), 15_000);
    reader.on("line", (line) => {
      lines.push(line);
      if (lines.length === 1) {
        clearTimeout(timer);
        const match = FIRST_LINE.exec(line);
        if (match === null) fail(new Error(`unexpected first line: ${line}`));
        else done(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return { child, url, lines, exited };
}

/** Runs the CLI to completion (for flags that make it exit at once). */
function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
    timeout: 15_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function get(url: string, key = "k"): Promise<Response> {
  return fetch(url, { headers: { Authorization: `Bearer ${key}` } });
}

describe("domainapi-sandbox", () => {
  it("starts the compiled CLI with a shebang", () => {
    const firstBytes = spawnSync("head", ["-c", "19", CLI], { encoding: "utf8" }).stdout;
    expect(firstBytes).toBe("#!/usr/bin/env node");
  });

  it("prints its URL first, serves the API, and exits 0 on SIGTERM", async () => {
    const running = await startCli(["--port", "0", "--api-key", "k"]);
    const response = await get(`${running.url}/v2/contacts?per_page=1`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { pagination: { total_results: number } };
    expect(body.pagination.total_results).toBe(120);
    expect((await get(`${running.url}/v2/contacts`, "wrong")).status).toBe(401);
    for (let i = 0; i < 50 && running.lines.length < 3; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(running.lines.join("\n")).toContain(`DOMAINAPI_BASE_URL=${running.url} DOMAINAPI_API_KEY=k`);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("serves DNS with --dns-port and --domain, and says where on its second line", async () => {
    const running = await startCli([
      "--port",
      "0",
      "--api-key",
      "k",
      "--dns-port",
      "0",
      "--domain",
      "Shop.Example=web",
    ]);
    for (let i = 0; i < 50 && running.lines.length < 2; i += 1) await new Promise((r) => setTimeout(r, 20));
    const match =
      /^DNS \(authoritative, UDP and TCP\) on (127\.0\.0\.1:\d+) for shop\.example \(template web\)$/.exec(
        running.lines[1] ?? "",
      );
    expect(match, running.lines.join("\n")).not.toBeNull();
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([match![1]!]);
    await expect(resolver.resolve4("shop.example")).rejects.toMatchObject({ code: "ENODATA" });
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("exits 0 on SIGINT", async () => {
    const running = await startCli(["--port", "0", "--api-key", "k"]);
    running.child.kill("SIGINT");
    expect(await running.exited).toBe(0);
  });

  it("takes the key from DOMAINAPI_API_KEY and never prints it", async () => {
    const running = await startCli(["--port", "0"], { DOMAINAPI_API_KEY: "secret-from-env" });
    expect((await get(`${running.url}/v2/contacts?per_page=1`, "secret-from-env")).status).toBe(200);
    for (let i = 0; i < 50 && running.lines.length < 3; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(running.lines.join("\n")).not.toContain("secret-from-env");
    expect(running.lines.join("\n")).toContain("DOMAINAPI_API_KEY=$DOMAINAPI_API_KEY");
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("applies --seed, --contacts, --pagination-field, --connections-as-string, --latency-ms and --rate-limit", async () => {
    const seedFile = join(workDir, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify({
        templates: { mine: [{ name: "@", type: "TXT", content: "hello" }] },
        domains: { "parked.example": "quarantined" },
        contacts: [{ handle: "SEEDED-1", connections: 4 }],
      }),
    );
    const running = await startCli([
      "--port=0",
      "--api-key",
      "k",
      "--seed",
      seedFile,
      "--contacts",
      "2",
      "--pagination-field",
      "current_page",
      "--connections-as-string",
      "--latency-ms",
      "150",
      "--rate-limit",
      "3",
    ]);
    const started = performance.now();
    const response = await get(`${running.url}/v2/contacts`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const body = (await response.json()) as {
      data: Array<{ handle: string; connections: unknown }>;
      pagination: object;
    };
    expect(body.data.map((c) => c.handle)).toEqual(["C0000001", "C0000002", "SEEDED-1"]);
    expect(body.data[2]!.connections).toBe("4");
    expect(body.pagination).toEqual({ current_page: 1, per_page: 50, total_pages: 1, total_results: 3 });
    const restore = await fetch(`${running.url}/v2/domains/parked.example/restore`, {
      method: "POST",
      headers: { Authorization: "Bearer k" },
    });
    expect(restore.status).toBe(204);
    const template = (await (await fetch(`${running.url}/__sandbox/templates/mine`)).json()) as {
      records: unknown[];
    };
    expect(template.records).toHaveLength(1);
    const statuses = await Promise.all(
      Array.from({ length: 3 }, async () => (await get(`${running.url}/v2/contacts`)).status),
    );
    expect(statuses).toContain(429);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("prints usage for --help and exits 0", () => {
    const result = runCli(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: domainapi-sandbox --api-key KEY");
    expect(result.stdout).toContain("--rate-limit");
    // Everything a user needs without the README: every personality's flag, the admin routes, an example.
    for (const key of PERSONALITY_KEYS) {
      const flag = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      expect(result.stdout).toMatch(new RegExp(`\\n  --(no-)?${flag}\\b`));
    }
    expect(result.stdout).toContain("GET /__sandbox/personality");
    expect(result.stdout).toContain("POST /__sandbox/faults");
    expect(result.stdout).toMatch(/Example:\n {2}domainapi-sandbox --api-key /);
  });

  it("applies personality flags: --per-page-cap, --error-body and --numeric-ids", async () => {
    const running = await startCli([
      ...["--port=0", "--api-key", "k", "--contacts", "30"],
      ...["--per-page-cap", "10", "--error-body", "problem", "--numeric-ids"],
    ]);
    const page = (await (await get(`${running.url}/v2/contacts?per_page=50`)).json()) as {
      pagination: { per_page: number };
    };
    expect(page.pagination.per_page).toBe(10);
    const refused = await get(`${running.url}/v2/domains-nope`);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const put = await fetch(`${running.url}/v2/dns/templates/web/records`, {
      method: "PUT",
      headers: { Authorization: "Bearer k", "Content-Type": "application/json" },
      body: JSON.stringify({ records: [{ name: "@", type: "TXT", content: "x" }] }),
    });
    expect(
      ((await put.json()) as { record_id: unknown[] }).record_id.every((id) => typeof id === "number"),
    ).toBe(true);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  const badCommandLines: Array<[string, string[], string]> = [
    ["an unknown flag", ["--api-key", "k", "--bogus"], "--bogus"],
    ["no API key", ["--port", "0"], "--api-key: required"],
    ["a non-numeric port", ["--api-key", "k", "--port", "http"], "--port: expected an integer"],
    ["a port above 65535", ["--api-key", "k", "--port", "70000"], "--port"],
    ["too many contacts", ["--api-key", "k", "--contacts", "100001"], "--contacts"],
    ["a bad latency", ["--api-key", "k", "--latency-ms", "-5"], "--latency-ms"],
    ["a bad pagination field", ["--api-key", "k", "--pagination-field", "pg"], "--pagination-field"],
    ["a zero rate limit", ["--api-key", "k", "--rate-limit", "0"], "--rate-limit"],
    ["a missing seed file", ["--api-key", "k", "--seed", "nope.json"], "--seed: cannot read nope.json"],
    ["a positional argument", ["--api-key", "k", "serve"], "serve"],
    ["an unknown error body", ["--api-key", "k", "--error-body", "xml"], "--error-body: must be one of"],
    ["a zero per-page cap", ["--api-key", "k", "--per-page-cap", "0"], "--per-page-cap"],
    ["a Retry-After form in minutes", ["--api-key", "k", "--retry-after", "minutes"], "--retry-after"],
    ["a partial PATCH mode", ["--api-key", "k", "--patch-apply", "partial"], "--patch-apply"],
    ["a value for a switch", ["--api-key", "k", "--numeric-ids=yes"], "--numeric-ids"],
    [
      "a domain without a DNS server",
      ["--api-key", "k", "--domain", "shop.example=web"],
      "--domain: needs --dns-port",
    ],
    [
      "a domain without its template",
      ["--api-key", "k", "--dns-port", "0", "--domain", "shop.example"],
      "NAME=TEMPLATE",
    ],
    [
      "a domain that is no name",
      ["--api-key", "k", "--dns-port", "0", "--domain", "a..b=web"],
      "is not a domain name",
    ],
    ["a late publication in words", ["--api-key", "k", "--dns-late", "soon"], "--dns-late"],
  ];
  for (const [label, args, fragment] of badCommandLines) {
    it(`exits 2 with a clear error for ${label}`, () => {
      const result = runCli(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(fragment);
      expect(result.stderr).toContain("--help");
      expect(result.stdout).toBe("");
    });
  }

  it("exits 2 naming the field for an invalid seed file", () => {
    const notJson = join(workDir, "broken.json");
    writeFileSync(notJson, "{");
    expect(runCli(["--api-key", "k", "--seed", notJson]).stderr).toContain("is not valid JSON");
    const invalid = join(workDir, "invalid.json");
    writeFileSync(invalid, JSON.stringify({ domains: { "a.example": "gone" } }));
    const result = runCli(["--api-key", "k", "--seed", invalid]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("domains.a.example: must be quarantined or active");
  });

  it("exits 1 when the port is taken", async () => {
    const running = await startCli(["--port", "0", "--api-key", "k"]);
    const port = new URL(running.url).port;
    const result = runCli(["--port", port, "--api-key", "k"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("cannot start");
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });
});
