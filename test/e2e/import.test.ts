/**
 * Issue 29 under the real engine: the 40-record zone (test/e2e/import-zone.ts: every type, split
 * TXT, $ORIGIN, relative and absolute names, comments, parentheses) -> the built
 * `domainapi-import` -> `pulumi up` of the program it wrote, in TypeScript (Automation API inline,
 * scripts/run-program.ts), YAML (a plain `pulumi up` with the YAML language host) and Go (a Go
 * Automation API inline program around the generated `declare`) -> the sandbox's template holds
 * exactly the zone's records -> the next preview shows no change and the sandbox receives nothing.
 * The Python program compiles (`python3 -m py_compile`; no Python language host here).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEnv, linkPackage, repoRoot, useSandbox, workRoot } from "./harness";
import { type ExpectedRecord, ZONE_40, ZONE_40_RECORDS } from "./import-zone";
import { createProject, requireBuiltPlugin, yamlLanguageHost } from "./plugin-helpers";
import { removeRunDirs, runProgramDir } from "./program-runner";

const execFileAsync = promisify(execFile);
const API_KEY = "import-e2e-key-7c2d9e";
const BIN = path.join(repoRoot, "dist", "provider", "cli", "import.js");

const sandbox = useSandbox({ apiKey: API_KEY });
let zoneDir: string;
let zoneFile: string;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  requireBuiltPlugin();
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  // The templates exist at the registrar, holding what the DNS host had before the import.
  for (const id of ["web-ts", "web-yaml", "web-go"]) {
    sandbox.seedTemplate(id, [
      { name: "old", type: "A", content: "192.0.2.200" },
      { name: "@", type: "TXT", content: "left by hand" },
    ]);
  }
  zoneDir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-zone-"));
  zoneFile = path.join(zoneDir, "example.com.zone");
  fs.writeFileSync(zoneFile, ZONE_40);
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) cleanup();
  fs.rmSync(zoneDir, { recursive: true, force: true });
});

/** Runs the built bin as a user's shell would; returns the output directory. */
async function importInto(lang: string, template: string, out: string): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [
    BIN,
    zoneFile,
    "--template",
    template,
    "--lang",
    lang,
    "--out",
    out,
  ]);
  expect(stdout).toContain(`${template} (${zoneFile}, domain example.com.): 40 records, 8 skipped`);
  return out;
}

function projectDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(workRoot, prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function canonical(records: readonly ExpectedRecord[]): string[] {
  return records
    .map((r) =>
      JSON.stringify([r.name, r.type, r.content, r.priority ?? null, r.weight ?? null, r.port ?? null]),
    )
    .sort();
}

/** The template's records at the sandbox, less the A and AAAA records it made for URL forwards. */
function templateHolds(templateId: string): string[] {
  const made = new Set(Object.values(sandbox.madeRecords(templateId) ?? {}).flat());
  return canonical((sandbox.templateRecords(templateId) ?? []).filter((r) => !made.has(r.record_id)));
}

/** The template holds exactly the zone's records, and the program's first up was one PUT plus a PATCH per forward. */
function expectImported(templateId: string): void {
  expect(templateHolds(templateId)).toEqual(canonical(ZONE_40_RECORDS));
  const writes = sandbox.requests.filter((r) => r.path.includes(`/templates/${templateId}/`));
  expect(writes.map((r) => r.method)).toEqual(["PUT", "PATCH", "PATCH", "PATCH"]);
}

describe("domainapi-import -> pulumi up, under the engine", () => {
  it("TypeScript: the dynamic resources through the Automation API", async () => {
    const dir = await importInto("ts", "web-ts", projectDir("import-ts-"));
    linkPackage(dir);
    const up = await runProgramDir(dir, { sandbox: { url: sandbox.url, apiKey: API_KEY } });
    cleanups.push(() => removeRunDirs(up));
    expectImported("web-ts");
    sandbox.requests.length = 0;
    const preview = await runProgramDir(dir, {
      op: "preview",
      after: up,
      sandbox: { url: sandbox.url, apiKey: API_KEY },
    });
    expect(
      Object.keys(
        (preview.summary as { changeSummary?: Record<string, number> } | undefined)?.changeSummary ?? {},
      ),
    ).toEqual(["same"]);
    expect(sandbox.requests).toEqual([]);
  }, 600_000);

  it("YAML: a plain pulumi up with the YAML language host", async () => {
    const yamlBin = await yamlLanguageHost();
    const out = await importInto("yaml", "web-yaml", projectDir("import-yaml-out-"));
    const project = createProject({ "Pulumi.yaml": fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8") }, [
      yamlBin,
    ]);
    cleanups.push(() => project.cleanup());
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "domainapi:baseUrl", sandbox.url]);
    await project.pulumi(["config", "set", "--secret", "domainapi:apiKey", API_KEY]);
    sandbox.requests.length = 0;
    await project.pulumi(["up", "--yes"]);
    expectImported("web-yaml");
    sandbox.requests.length = 0;
    const { stdout } = await project.pulumi(["preview", "--expect-no-changes", "--json"]);
    const changes = (JSON.parse(stdout) as { changeSummary?: Record<string, number> }).changeSummary;
    expect(Object.keys(changes ?? {})).toEqual(["same"]);
    expect(sandbox.requests).toEqual([]);
  }, 600_000);

  it("Go: the generated declare() run as a Go inline program", async () => {
    const out = await importInto("go", "web-go", projectDir("import-go-out-"));
    const moduleDir = projectDir("import-go-mod-");
    const workDir = projectDir("import-go-work-");
    const backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-go-state-"));
    cleanups.push(() => fs.rmSync(backend, { recursive: true, force: true }));
    linkPackage(workDir);
    // The generated main.go, less its main (the harness below runs `declare` inline instead).
    const generated = fs.readFileSync(path.join(out, "main.go"), "utf8");
    const withoutMain = generated.replace("func main() {\n\tpulumi.Run(declare)\n}\n", "");
    expect(withoutMain).not.toBe(generated);
    fs.writeFileSync(path.join(moduleDir, "main.go"), withoutMain);
    fs.writeFileSync(path.join(moduleDir, "harness.go"), GO_HARNESS);
    // The module set of test/e2e/go-program (its go.sum lists every module needed), with the SDK from this checkout.
    const goProgram = path.join(repoRoot, "test", "e2e", "go-program");
    const mod = fs
      .readFileSync(path.join(goProgram, "go.mod"), "utf8")
      .replace(/^module .*$/m, "module domainapi-import-e2e")
      .replace(
        /^replace .*$/m,
        `replace github.com/pulumi-domainapi/sdk/go/domainapi => ${path.join(repoRoot, "sdk", "go", "domainapi")}`,
      );
    fs.writeFileSync(path.join(moduleDir, "go.mod"), mod);
    fs.copyFileSync(path.join(goProgram, "go.sum"), path.join(moduleDir, "go.sum"));
    const program = path.join(moduleDir, "import-program");
    await execFileAsync("go", ["build", "-o", program, "."], {
      cwd: moduleDir,
      env: { ...process.env, GOFLAGS: "-mod=mod" },
      maxBuffer: 16 << 20,
    });
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...engineEnv(backend),
      BASE_URL: sandbox.url,
      API_KEY,
      PLUGIN_DIR: path.join(workDir, "node_modules", "pulumi-domainapi"),
      WORK_DIR: workDir,
    };
    for (const key of Object.keys(env)) if (key.startsWith("DOMAINAPI_")) delete env[key];
    const step = async (name: string): Promise<string> => {
      try {
        return (await execFileAsync(program, [name], { env, maxBuffer: 64 << 20 })).stdout;
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`import-program ${name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
      }
    };
    sandbox.requests.length = 0;
    await step("up");
    expectImported("web-go");
    sandbox.requests.length = 0;
    const summary = JSON.parse(await step("preview")) as Record<string, number>;
    expect(Object.keys(summary)).toEqual(["same"]);
    expect(sandbox.requests).toEqual([]);
  }, 900_000);

  it("Python: the program compiles", async () => {
    const out = await importInto("python", "web-py", projectDir("import-py-"));
    await execFileAsync("python3", ["-m", "py_compile", path.join(out, "__main__.py")]);
    expect(fs.readFileSync(path.join(out, "__main__.py"), "utf8")).toContain("domainapi.DnsTemplateRecords(");
  }, 60_000);
});

/** A Go Automation API inline program around the generated `declare`: `up`, or `preview` printing its change summary. */
const GO_HARNESS = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

func run(step string) error {
	ctx := context.Background()
	project := workspace.Project{
		Name:    tokens.PackageName("domainapi-import-go"),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Plugins: &workspace.Plugins{Providers: []workspace.PluginOptions{{Name: "domainapi", Path: os.Getenv("PLUGIN_DIR")}}},
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "domainapi-import-go", declare,
		auto.Project(project), auto.WorkDir(os.Getenv("WORK_DIR")), auto.SecretsProvider("passphrase"))
	if err != nil {
		return err
	}
	if err := stack.SetAllConfig(ctx, map[string]auto.ConfigValue{
		"domainapi:baseUrl": {Value: os.Getenv("BASE_URL")},
		"domainapi:apiKey":  {Value: os.Getenv("API_KEY"), Secret: true},
	}); err != nil {
		return err
	}
	switch step {
	case "up":
		_, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr))
		return err
	case "preview":
		res, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(os.Stderr))
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(res.ChangeSummary)
	}
	return fmt.Errorf("unknown step %q: up or preview", step)
}

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`;
