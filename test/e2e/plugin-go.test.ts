/**
 * The provider plugin under the real engine from a Go program: a Go Automation API inline program
 * (test/e2e/go-program) on the Go SDK generated from the plugin's schema (sdk/go, by
 * scripts/gen-sdk.sh with Pulumi's code generators), the same story as the YAML program in one
 * stack: two explicit providers on two sandboxes with different keys, a record changed with the
 * other ids kept, a record removed behind Pulumi's back re-added, a domain restored, contacts
 * looked up into an output, everything destroyed, the keys never in the state unencrypted nor in
 * an output. Also: the committed SDKs are what the generator makes of the schema now, and the
 * Python SDK compiles.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEnv, linkPackage, repoRoot, workRoot } from "./harness";
import { requireBuiltPlugin } from "./plugin-helpers";

const execFileAsync = promisify(execFile);
const LIVE_KEY = "live-go-key-6a0e2d9b";
const TEST_KEY = "test-go-key-1f8c4b7e";

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
  }
  return out;
}

describe("the generated SDKs", () => {
  it("are what the generator makes of schema.json now, and the Python SDK compiles", async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-sdk-"));
    try {
      await execFileAsync("bash", [path.join(repoRoot, "scripts", "gen-sdk.sh")], {
        env: { ...process.env, DOMAINAPI_SDK_OUT: fresh },
        maxBuffer: 16 << 20,
      });
      for (const language of ["go", "python"]) {
        expect(
          filesUnder(path.join(fresh, language)),
          `sdk/${language} is stale: run bash scripts/gen-sdk.sh`,
        ).toEqual(filesUnder(path.join(repoRoot, "sdk", language)));
      }
      const python = Object.keys(filesUnder(path.join(fresh, "python"))).filter((f) => f.endsWith(".py"));
      expect(python.length).toBeGreaterThan(5);
      await execFileAsync("python3", ["-m", "py_compile", ...python], { cwd: path.join(fresh, "python") });
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describe("the provider plugin from a Go inline program", () => {
  let live: Sandbox;
  let test: Sandbox;
  let program: string;
  let workDir: string;
  let backend: string;

  beforeAll(async () => {
    requireBuiltPlugin();
    program = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-go-")), "go-program");
    // The Go toolchain's own caches make a warm build a matter of seconds.
    await execFileAsync("go", ["build", "-o", program, "."], {
      cwd: path.join(repoRoot, "test", "e2e", "go-program"),
      env: { ...process.env, GOFLAGS: "-mod=mod" },
      maxBuffer: 16 << 20,
    });
    live = await startSandbox({ apiKey: LIVE_KEY, contacts: 20 });
    test = await startSandbox({ apiKey: TEST_KEY });
    test.seedTemplate("staging", [{ name: "legacy", type: "TXT", content: "not ours" }]);
    workDir = fs.mkdtempSync(path.join(workRoot, "plugin-go-"));
    backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-go-state-"));
    linkPackage(workDir);
  }, 600_000);

  afterAll(async () => {
    for (const dir of [workDir, backend, program && path.dirname(program)]) {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
    await live?.close();
    await test?.close();
  });

  const ids = (s: Sandbox, template: string) =>
    Object.fromEntries((s.templateRecords(template) ?? []).map((r) => [`${r.name}/${r.type}`, r.record_id]));

  it("creates, changes, heals drift, restores, looks up contacts, destroys: each provider on its own API", async () => {
    const printed: string[] = [];
    const env = (www: string, api: string): Record<string, string> => {
      const e: Record<string, string> = {
        ...(process.env as Record<string, string>),
        ...engineEnv(backend),
        LIVE_URL: live.url,
        LIVE_KEY,
        TEST_URL: test.url,
        TEST_KEY,
        WWW_ADDRESS: www,
        API_ADDRESS: api,
        PLUGIN_DIR: path.join(workDir, "node_modules", "pulumi-domainapi"),
        WORK_DIR: workDir,
      };
      for (const key of Object.keys(e)) if (key.startsWith("DOMAINAPI_")) delete e[key];
      return e;
    };
    const step = async (name: string, www: string, api: string): Promise<Record<string, unknown>> => {
      try {
        const { stdout, stderr } = await execFileAsync(program, [name], {
          env: env(www, api),
          maxBuffer: 64 << 20,
        });
        printed.push(stdout, stderr);
        return stdout.trim() === "" ? {} : (JSON.parse(stdout) as Record<string, unknown>);
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`go-program ${name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
      }
    };

    // 1. Create.
    const outputs = await step("up", "192.0.2.11", "198.51.100.20");
    expect(Object.keys(ids(live, "web")).sort()).toEqual(["@/A", "@/MX", "@/TXT", "www/A"]);
    expect(Object.keys(ids(test, "staging")).sort()).toEqual(["@/A", "api/A", "legacy/TXT", "www/CNAME"]);
    expect(live.templateRecords("staging") ?? []).toEqual([]);
    expect(test.templateRecords("web")).toEqual([]);
    expect(test.domainStatus("shop.example")).not.toBe("quarantined");
    // The default provider, from the stack config, reached the test account too.
    expect(test.domainStatus("old.example")).not.toBe("quarantined");
    expect(live.domainStatus("old.example")).toBe("quarantined");
    expect(outputs.contactHandles).toHaveLength(3);
    expect(outputs.contactsTotal).toBeGreaterThan(0);
    expect(typeof outputs.restoredAt).toBe("string");
    expect(Object.values(outputs.webIds as Record<string, string>).sort()).toEqual(
      Object.values(ids(live, "web")).sort(),
    );

    // 2. A record changed on one account; a record vanished behind Pulumi's back on the other.
    const webBefore = ids(live, "web");
    const stagingBefore = ids(test, "staging");
    expect(test.deleteRecord("staging", stagingBefore["www/CNAME"] ?? "")).toBe(true);
    await step("up", "192.0.2.99", "198.51.100.99");
    expect(ids(live, "web")).toEqual(webBefore);
    expect(live.templateRecords("web")?.find((r) => r.name === "www")?.content).toBe("192.0.2.99");
    const stagingAfter = ids(test, "staging");
    expect(Object.keys(stagingAfter).sort()).toEqual(["@/A", "api/A", "legacy/TXT", "www/CNAME"]);
    for (const key of ["@/A", "api/A", "legacy/TXT"]) expect(stagingAfter[key]).toBe(stagingBefore[key]);
    expect(test.templateRecords("staging")?.find((r) => r.name === "api")?.content).toBe("198.51.100.99");

    // 3. The keys: encrypted in the state (the test key given as plain text too), in no output.
    const { stdout: state } = await execFileAsync(
      "pulumi",
      ["stack", "export", "--stack", "dev", "--cwd", workDir],
      {
        env: env("", ""),
        maxBuffer: 64 << 20,
      },
    );
    for (const text of [state, ...printed]) {
      expect(text).not.toContain(LIVE_KEY);
      expect(text).not.toContain(TEST_KEY);
    }
    const deployment = JSON.parse(state) as {
      deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] };
    };
    const providers = deployment.deployment.resources.filter((r) => r.type === "pulumi:providers:domainapi");
    // Two explicit providers and the default one, each key encrypted.
    expect(providers).toHaveLength(3);
    for (const p of providers) {
      expect(p.inputs?.apiKey).toMatchObject({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      });
    }

    // 4. Destroy.
    await step("destroy", "192.0.2.99", "198.51.100.99");
    expect(live.templateRecords("web")).toEqual([]);
    expect(test.templateRecords("staging")?.map((r) => `${r.name}/${r.type}`)).toEqual(["legacy/TXT"]);
  });
});
