/**
 * The stories the provider plugin must tell under the real engine, whichever way the engine reaches
 * it (the npm package's launcher, or the release binary installed with `pulumi plugin install`):
 * each test file names the way, these name what must happen.
 *
 * The YAML story: a Pulumi YAML program run with a plain `pulumi up` through the real YAML language
 * host (examples/yaml-two-accounts): two explicit providers with different keys and base
 * addresses, each reaching only its own sandbox; a record changed with the others' ids kept; a
 * record removed behind Pulumi's back re-added; a domain restored; contacts looked up into an
 * output; everything destroyed; the keys never in the state unencrypted nor in an output. The Go
 * story: the same through a Go Automation API program on the generated Go SDK.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEnv, repoRoot, workRoot } from "./harness";
import { type Project, yamlLanguageHost } from "./plugin-helpers";

/** How a story's program reaches the plugin. */
export interface PluginReach {
  /**
   * The project directory of the YAML program `program` (examples/yaml-two-accounts, whose
   * `plugins.providers` names the npm package), with `yamlBin` (the language host's directory).
   */
  project(program: string, yamlBin: string): Promise<Project>;
}

const execFileAsync = promisify(execFile);

const LIVE_KEY = "live-key-4f1c9e7a0b";
const TEST_KEY = "test-key-8d2b6a3c5e";
const DKIM = "v=DKIM1; k=rsa; p=MIIBdkimSecretPart7Q";

export function describeYamlTwoAccounts(title: string, reach: PluginReach): void {
  describe(title, () => {
    let live: Sandbox;
    let test: Sandbox;
    let project: Project;

    beforeAll(async () => {
      const yamlBin = await yamlLanguageHost();
      live = await startSandbox({ apiKey: LIVE_KEY, contacts: 20 });
      test = await startSandbox({ apiKey: TEST_KEY });
      // A record of someone else in the test account's template: purge: false leaves it alone.
      test.seedTemplate("staging", [{ name: "legacy", type: "TXT", content: "not ours" }]);
      const program = fs.readFileSync(
        path.join(repoRoot, "examples", "yaml-two-accounts", "Pulumi.yaml"),
        "utf8",
      );
      project = await reach.project(program, yamlBin);
      await project.pulumi(["stack", "init", "dev"]);
      await project.pulumi(["config", "set", "liveBaseUrl", live.url]);
      await project.pulumi(["config", "set", "testBaseUrl", test.url]);
      await project.pulumi(["config", "set", "--secret", "liveApiKey", LIVE_KEY]);
      await project.pulumi(["config", "set", "--secret", "testApiKey", TEST_KEY]);
      await project.pulumi(["config", "set", "--secret", "dkimKey", DKIM]);
    }, 600_000);

    afterAll(async () => {
      project?.cleanup();
      await live?.close();
      await test?.close();
    });

    const ids = (s: Sandbox, template: string) =>
      Object.fromEntries(
        (s.templateRecords(template) ?? []).map((r) => [`${r.name}/${r.type}`, r.record_id]),
      );

    it("creates, changes, heals drift, restores, looks up contacts, destroys: each provider on its own API", async () => {
      const printed: string[] = [];
      const run = async (args: string[], extraEnv: Record<string, string> = {}) => {
        const { stdout, stderr } = await project.pulumi(args, undefined, extraEnv);
        printed.push(stdout, stderr);
        return stdout;
      };

      // 1. Create: each template on its own sandbox, with its own key (a wrong key would be a 401).
      await run(["up", "--yes"]);
      expect(Object.keys(ids(live, "web")).sort()).toEqual([
        "@/A",
        "@/MX",
        "@/TXT",
        "_restored/TXT",
        "www/A",
      ]);
      // A record whose content was unknown in the preview (it comes from the other account's restore).
      const restoredRecord = live.templateRecords("web")?.find((r) => r.name === "_restored");
      expect(restoredRecord?.content).toMatch(/^restored at \d{4}-\d\d-\d\dT/);
      expect(Object.keys(ids(test, "staging")).sort()).toEqual([
        "@/A",
        "api/A",
        "legacy/TXT",
        "mail._domainkey/TXT",
        "www/CNAME",
      ]);
      expect(live.templateRecords("staging") ?? []).toEqual([]);
      expect(test.templateRecords("web")).toEqual([]);
      expect(live.requests.every((r) => !r.path.includes("staging") && !r.path.includes("restore"))).toBe(
        true,
      );
      expect(test.requests.every((r) => !r.path.includes("/web") && !r.path.includes("contacts"))).toBe(true);
      expect(test.domainStatus("shop.example")).not.toBe("quarantined");

      const outputs = JSON.parse(await run(["stack", "output", "--json", "--show-secrets"])) as Record<
        string,
        unknown
      >;
      expect(outputs.contactHandles).toHaveLength(3);
      expect((outputs.contactHandles as string[]).every((h) => typeof h === "string" && h !== "")).toBe(true);
      expect(outputs.contactsTotal).toBeGreaterThan(0);
      expect(typeof outputs.restoredAt).toBe("string");
      expect(Object.values(outputs.webIds as Record<string, string>).sort()).toEqual(
        Object.values(ids(live, "web")).sort(),
      );

      // 2. One record changed on the live account; behind Pulumi's back, one record vanished from
      // the test account's template while another changes there.
      const webBefore = ids(live, "web");
      const stagingBefore = ids(test, "staging");
      expect(test.deleteRecord("staging", stagingBefore["www/CNAME"] ?? "")).toBe(true);
      await run(["config", "set", "wwwAddress", "192.0.2.99"]);
      await run(["config", "set", "apiAddress", "198.51.100.99"]);
      // A provider's setting changes too: the provider is updated, its resources are not replaced.
      await run(["config", "set", "--type", "int", "liveTimeoutMs", "20000"]);
      const preview = await run(["preview", "--diff"]);
      expect(preview).toContain("192.0.2.99");
      // The detailed diff: the one record that changes, and the provider updated in place.
      expect(preview).toMatch(/~ www\/A: \{\s+~ content: "192\.0\.2\.11" => "192\.0\.2\.99"/);
      expect(preview).toContain("~ timeoutMs: 30000 => 20000");
      expect(preview).not.toContain("replace");
      const updated = await run(["up", "--yes"]);
      // The planner's messages reach the engine from the plugin process, as from the dynamic host.
      expect(updated).toMatch(/template web: .*1 to update/);

      const webAfter = ids(live, "web");
      expect(webAfter).toEqual(webBefore); // the changed record too: updated in place
      expect(live.templateRecords("web")?.find((r) => r.name === "www")?.content).toBe("192.0.2.99");
      const stagingAfter = ids(test, "staging");
      expect(Object.keys(stagingAfter).sort()).toEqual([
        "@/A",
        "api/A",
        "legacy/TXT",
        "mail._domainkey/TXT",
        "www/CNAME",
      ]);
      expect(stagingAfter["@/A"]).toBe(stagingBefore["@/A"]);
      expect(stagingAfter["api/A"]).toBe(stagingBefore["api/A"]);
      expect(stagingAfter["legacy/TXT"]).toBe(stagingBefore["legacy/TXT"]);
      expect(stagingAfter["www/CNAME"]).not.toBe(stagingBefore["www/CNAME"]); // re-added
      expect(test.templateRecords("staging")?.find((r) => r.name === "api")?.content).toBe("198.51.100.99");

      // 3. A preview's refresh sends nothing. Switched on for the one `pulumi refresh`, it finds a record
      // removed behind Pulumi's back, and the next `up` adds it again (the others keep their ids).
      expect(live.deleteRecord("web", webAfter["@/TXT"] ?? "")).toBe(true);
      live.clearRequests();
      await run(["preview", "--refresh"]);
      // The program's contact lookup reads (GET); nothing writes.
      expect(live.requests.filter((r) => r.method !== "GET")).toEqual([]);
      await run(["refresh", "--yes"], { DOMAINAPI_VERIFY_ON_REFRESH: "1" });
      const refreshed = JSON.parse(await run(["stack", "export"])) as {
        deployment: { resources: { urn: string; outputs?: { ids?: Record<string, string> } }[] };
      };
      const webState = refreshed.deployment.resources.find((r) => r.urn.endsWith("::web"));
      expect(Object.keys(webState?.outputs?.ids ?? {}).sort()).toEqual([
        "@/A",
        "@/MX",
        "_restored/TXT",
        "www/A",
      ]);
      await run(["up", "--yes"]);
      const healed = ids(live, "web");
      expect(Object.keys(healed).sort()).toEqual(["@/A", "@/MX", "@/TXT", "_restored/TXT", "www/A"]);
      for (const key of ["@/A", "@/MX", "_restored/TXT", "www/A"]) expect(healed[key]).toBe(webAfter[key]);

      // 4. The keys: encrypted in the state, in no output, in nothing printed.
      const state = await run(["stack", "export"]);
      const plainOutputs = await run(["stack", "output", "--json"]);
      for (const text of [state, plainOutputs, ...printed]) {
        expect(text).not.toContain(LIVE_KEY);
        expect(text).not.toContain(TEST_KEY);
      }
      // The record given as a secret: in the template, and encrypted in the state.
      expect(test.templateRecords("staging")?.find((r) => r.name === "mail._domainkey")?.content).toBe(DKIM);
      expect(state).not.toContain("DKIM1");
      // Nor in what the CLI printed (the engine masks a secret's text in the provider's messages).
      for (const text of printed) expect(text).not.toContain("DKIM1");
      const deployment = JSON.parse(state) as {
        deployment: { resources: { type: string; urn: string; inputs?: Record<string, unknown> }[] };
      };
      const providers = deployment.deployment.resources.filter(
        (r) => r.type === "pulumi:providers:domainapi",
      );
      expect(providers).toHaveLength(2);
      for (const p of providers)
        expect(p.inputs?.apiKey).toMatchObject({
          "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        });

      // 5. An import reads a resource from its id alone: the API cannot list records, so it holds none;
      // the code it generates takes the schema's types (a list of records), so the import exits 0.
      const testProvider = providers.find((p) => p.urn.endsWith("::test"))?.urn ?? "";
      const importCode = await run([
        "import",
        "domainapi:index:DnsTemplateRecords",
        "imported",
        "tpl-1",
        "--provider",
        `test=${testProvider}`,
        "--protect=false",
        "--yes",
      ]);
      expect(importCode).toMatch(/type: domainapi:(index:)?DnsTemplateRecords/);
      expect(importCode).toMatch(/records: \[\]/);
      expect(importCode).toMatch(/templateId: tpl-1/);
      const afterImport = JSON.parse(await run(["stack", "export"])) as {
        deployment: { resources: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
      };
      const imported = afterImport.deployment.resources.find((r) => r.id === "tpl-1");
      expect(imported?.type).toBe("domainapi:index:DnsTemplateRecords");
      expect(imported?.outputs).toMatchObject({ templateId: "tpl-1", purge: true, records: {}, ids: {} });

      // 6. Destroy: our records go, the record of someone else stays.
      await run(["destroy", "--yes"]);
      expect(live.templateRecords("web")).toEqual([]);
      expect(test.templateRecords("staging")?.map((r) => `${r.name}/${r.type}`)).toEqual(["legacy/TXT"]);
    });
  });
}

/** Files under `dir`, by path from it, in a stable order. */
function filesOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

let built: Promise<string> | undefined;

/**
 * The Go story's program (test/e2e/go-program on sdk/go), built once for every file that runs it:
 * the binary is kept under test/.work by a hash of its sources, the SDK's and the Go version, so a
 * second file (or a second run of the same sources) runs the same build instead of linking again.
 * Two files that miss it at once both build and the last rename wins; either binary is the same.
 */
export function goProgram(): Promise<string> {
  built ??= (async () => {
    const source = path.join(repoRoot, "test", "e2e", "go-program");
    const hash = createHash("sha256");
    for (const dir of [source, path.join(repoRoot, "sdk", "go", "domainapi")]) {
      for (const file of filesOf(dir)) hash.update(`${file}\0`).update(fs.readFileSync(path.join(dir, file)));
    }
    hash.update((await execFileAsync("go", ["version"])).stdout);
    const dir = path.join(workRoot, "go-program", hash.digest("hex").slice(0, 16));
    const binary = path.join(dir, "go-program");
    if (fs.existsSync(binary)) return binary;
    fs.mkdirSync(dir, { recursive: true });
    const partial = fs.mkdtempSync(path.join(dir, "build-"));
    try {
      // The Go toolchain's own caches make a warm build a matter of seconds.
      await execFileAsync("go", ["build", "-o", path.join(partial, "go-program"), "."], {
        cwd: source,
        env: { ...process.env, GOFLAGS: "-mod=mod" },
        maxBuffer: 16 << 20,
      });
      fs.renameSync(path.join(partial, "go-program"), binary);
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
    return binary;
  })();
  return built;
}

/** How the Go story's program reaches the plugin. */
export interface GoPluginReach {
  /**
   * Readies the program's work directory and returns the environment the program runs with:
   * PLUGIN_DIR (the npm package's directory, or empty for an installed plugin), and whatever else.
   */
  prepare(workDir: string): Promise<Record<string, string>>;
}

const LIVE_GO_KEY = "live-go-key-6a0e2d9b";
const TEST_GO_KEY = "test-go-key-1f8c4b7e";

/**
 * The Go story: a Go Automation API inline program (test/e2e/go-program) on the Go SDK generated
 * from the plugin's schema, the same story as the YAML program in one stack.
 */
export function describeGoTwoAccounts(title: string, reach: GoPluginReach): void {
  describe(title, () => {
    let live: Sandbox;
    let test: Sandbox;
    let program: string;
    let workDir: string;
    let backend: string;

    let reached: Record<string, string> = {};

    beforeAll(async () => {
      program = await goProgram();
      live = await startSandbox({ apiKey: LIVE_GO_KEY, contacts: 20 });
      test = await startSandbox({ apiKey: TEST_GO_KEY });
      test.seedTemplate("staging", [{ name: "legacy", type: "TXT", content: "not ours" }]);
      workDir = fs.mkdtempSync(path.join(workRoot, "plugin-go-"));
      backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-go-state-"));
      reached = await reach.prepare(workDir);
    }, 600_000);

    afterAll(async () => {
      for (const dir of [workDir, backend]) {
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      }
      await live?.close();
      await test?.close();
    });

    const ids = (s: Sandbox, template: string) =>
      Object.fromEntries(
        (s.templateRecords(template) ?? []).map((r) => [`${r.name}/${r.type}`, r.record_id]),
      );

    it("creates, changes, heals drift, restores, looks up contacts, destroys: each provider on its own API", async () => {
      const printed: string[] = [];
      const env = (www: string, api: string): Record<string, string> => {
        const e: Record<string, string> = {
          ...(process.env as Record<string, string>),
          ...engineEnv(backend),
          LIVE_URL: live.url,
          LIVE_KEY: LIVE_GO_KEY,
          TEST_URL: test.url,
          TEST_KEY: TEST_GO_KEY,
          WWW_ADDRESS: www,
          API_ADDRESS: api,
          WORK_DIR: workDir,
          ...reached,
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
        expect(text).not.toContain(LIVE_GO_KEY);
        expect(text).not.toContain(TEST_GO_KEY);
      }
      const deployment = JSON.parse(state) as {
        deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] };
      };
      const providers = deployment.deployment.resources.filter(
        (r) => r.type === "pulumi:providers:domainapi",
      );
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
}
