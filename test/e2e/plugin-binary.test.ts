/**
 * The release binary under the real engine, as a team without Node has it: the linux-amd64
 * tarball of `npm run dist` installed with `pulumi plugin install resource domainapi <version>
 * --file <tarball>` into a fresh PULUMI_HOME, no Node on PATH, nothing installed in the program's
 * directory. The same stories as the npm-launched plugin (plugin-stories.ts): the YAML program
 * with two explicit providers, and the Go program; and `pulumi package get-schema domainapi`
 * prints the schema with its version and where the release is downloaded from. And the `pulumi new`
 * templates of YAML and Go on it: the YAML one made by `pulumi new --generate-only` and run with a
 * plain `pulumi up`, the Go one built as its own module and run as a Go program under the engine;
 * each creates the template's four records on the sandbox and destroys them.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledPlugin, installPluginBinary } from "../../scripts/lib/plugin-install.ts";
import { engineEnv, repoRoot, workRoot } from "./harness";
import { createProject, yamlLanguageHost } from "./plugin-helpers";
import { describeGoTwoAccounts, describeYamlTwoAccounts } from "./plugin-stories";

const execFileAsync = promisify(execFile);

/** Every installation in this file, removed at the end. */
const installed: InstalledPlugin[] = [];
afterAll(() => {
  for (const plugin of installed) plugin.cleanup();
});

async function install(tools: string[] = []): Promise<InstalledPlugin> {
  const plugin = await installPluginBinary(repoRoot, tools);
  installed.push(plugin);
  return plugin;
}

describe("the installed plugin binary", () => {
  let plugin: InstalledPlugin;
  beforeAll(async () => {
    plugin = await install();
  }, 120_000);

  it("is where `pulumi plugin install` puts it, and its schema carries its version and download URL", async () => {
    const { stdout: list } = await execFileAsync("pulumi", ["plugin", "ls", "--json"], {
      env: { ...process.env, ...plugin.env },
    });
    expect(JSON.parse(list)).toContainEqual(
      expect.objectContaining({ name: "domainapi", kind: "resource", version: plugin.version }),
    );
    const { stdout } = await execFileAsync("pulumi", ["package", "get-schema", "domainapi"], {
      env: { ...process.env, ...plugin.env },
      maxBuffer: 16 << 20,
    });
    const schema = JSON.parse(stdout) as { name: string; version?: string; pluginDownloadURL?: string };
    expect(schema.name).toBe("domainapi");
    expect(schema.version).toBe(plugin.version);
    expect(schema.pluginDownloadURL).toMatch(/^(https?|github|gitlab):\/\/\S+$/);
  });
});

describeYamlTwoAccounts("the plugin binary from a YAML program, no Node anywhere", {
  async project(program, yamlBin) {
    const plugin = await install([path.join(yamlBin, "pulumi-language-yaml")]);
    // The program as a user of the binary writes it: no `plugins.providers` entry, no node_modules.
    const withoutPluginPath = program.replace(/^plugins:\n(?:[ #].*\n)+/m, "");
    expect(withoutPluginPath).not.toContain("node_modules");
    const project = createProject({ "Pulumi.yaml": withoutPluginPath }, [], { link: false, env: plugin.env });
    expect(fs.readdirSync(project.dir)).toEqual(["Pulumi.yaml"]);
    return project;
  },
});

describeGoTwoAccounts("the plugin binary from a Go program, no Node anywhere", {
  async prepare(workDir) {
    const plugin = await install();
    expect(fs.readdirSync(workDir)).toEqual([]);
    return { ...plugin.env, PLUGIN_DIR: "" };
  },
});

/** The records every template declares, as the sandbox holds them. */
const TEMPLATE_RECORDS = [
  "@ A 192.0.2.10",
  "@ MX mx1.example.net 10",
  "@ TXT v=spf1 mx -all",
  "www CNAME {domainname}.",
];
const TEMPLATE_KEY = "template-key-5e0c7b2a";

describe("the pulumi new templates on the plugin binary, no Node anywhere", () => {
  let sandbox: Sandbox;
  let yamlBin: string;
  beforeAll(async () => {
    yamlBin = await yamlLanguageHost();
    sandbox = await startSandbox({ apiKey: TEMPLATE_KEY });
    // The templates exist at the registrar, empty: the programs fill them.
    for (const template of ["yaml-web", "go-web"]) sandbox.seedTemplate(template, []);
  }, 600_000);
  afterAll(async () => {
    await sandbox?.close();
  });
  const held = (template: string) =>
    (sandbox.templateRecords(template) ?? [])
      .map((r) =>
        [r.name, r.type, r.content, r.priority].filter((v) => v !== undefined && v !== null).join(" "),
      )
      .sort();

  it("YAML: pulumi new --generate-only makes the program; a plain pulumi up creates the four records", async () => {
    const plugin = await install([path.join(yamlBin, "pulumi-language-yaml")]);
    const project = createProject({}, [], { link: false, env: plugin.env });
    try {
      await project.pulumi([
        "new",
        path.join(repoRoot, "templates", "domainapi-yaml"),
        "--generate-only",
        "--yes",
        "--name",
        "dns",
        "--config",
        `domainapi:baseUrl=${sandbox.url}`,
        "--config",
        `domainapi:apiKey=${TEMPLATE_KEY}`,
      ]);
      expect(fs.readdirSync(project.dir)).toEqual(["Pulumi.yaml"]);
      const program = fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
      expect(program).toMatch(/^name: dns$/m);
      expect(program).not.toMatch(/^template:/m);
      // --generate-only makes no stack: the steps the README names after it.
      await project.pulumi(["stack", "init", "dev"]);
      await project.setConfig({
        plain: { "domainapi:baseUrl": sandbox.url, templateId: "yaml-web" },
        secret: { "domainapi:apiKey": TEMPLATE_KEY },
      });
      const { stdout } = await project.pulumi(["up", "--yes"]);
      expect(stdout).toMatch(/template yaml-web: wrote 4 record\(s\) with one PUT/);
      expect(held("yaml-web")).toEqual(TEMPLATE_RECORDS);
      const outputs = JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as {
        recordIds: Record<string, string>;
        lastPlan: string;
      };
      expect(Object.keys(outputs.recordIds).sort()).toEqual(["@/A", "@/MX", "@/TXT", "www/CNAME"]);
      expect(Object.values(outputs.recordIds).sort()).toEqual(
        (sandbox.templateRecords("yaml-web") ?? []).map((r) => r.record_id).sort(),
      );
      expect(outputs.lastPlan).toMatch(/4 to create/);
      await project.pulumi(["destroy", "--yes"]);
      expect(sandbox.templateRecords("yaml-web")).toEqual([]);
    } finally {
      project.cleanup();
    }
  }, 300_000);

  it("Go: the template builds as its own module on sdk/go and, run under the engine, creates the four records", async () => {
    const plugin = await install();
    const scratch = fs.mkdtempSync(path.join(workRoot, "template-go-"));
    const backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-template-go-state-"));
    const go = (args: string[], cwd: string) =>
      execFileAsync("go", args, { cwd, env: { ...process.env, GOFLAGS: "-mod=mod" }, maxBuffer: 16 << 20 });
    try {
      // The template as `pulumi new` writes it, with the replace its go.mod tells a user to add.
      const template = path.join(repoRoot, "templates", "domainapi-go");
      const module = path.join(scratch, "dns");
      fs.mkdirSync(module);
      for (const file of fs.readdirSync(template)) {
        const text = fs.readFileSync(path.join(template, file), "utf8");
        fs.writeFileSync(path.join(module, file), text.replaceAll(`$\{PROJECT}`, "dns"));
      }
      const sdk = path.join(repoRoot, "sdk", "go", "domainapi");
      await go(["mod", "edit", `-replace=github.com/pulumi-domainapi/sdk/go/domainapi=${sdk}`], module);
      await go(["build", "-o", path.join(scratch, "dns-program"), "."], module);

      // Its program under the engine: the same main.go as a package of a driver's (Go's
      // Automation API, an inline program: no Go language host is needed).
      const driverSource = path.join(repoRoot, "test", "e2e", "template-go-driver");
      const driver = path.join(scratch, "driver");
      fs.mkdirSync(path.join(driver, "template"), { recursive: true });
      fs.copyFileSync(path.join(driverSource, "main.go"), path.join(driver, "main.go"));
      fs.copyFileSync(path.join(driverSource, "go.sum"), path.join(driver, "go.sum"));
      fs.writeFileSync(
        path.join(driver, "go.mod"),
        fs
          .readFileSync(path.join(driverSource, "go.mod"), "utf8")
          .replace(
            /^replace github\.com\/pulumi-domainapi\/sdk\/go\/domainapi => .*$/m,
            `replace github.com/pulumi-domainapi/sdk/go/domainapi => ${sdk}`,
          ),
      );
      const main = fs.readFileSync(path.join(module, "main.go"), "utf8");
      expect(main).toMatch(/^package main$/m);
      fs.writeFileSync(
        path.join(driver, "template", "main.go"),
        main.replace(/^package main$/m, "package template"),
      );
      fs.writeFileSync(
        path.join(driver, "template", "export.go"),
        "package template\n\n// Program is the template's program.\nvar Program = program\n",
      );
      await go(["build", "-o", path.join(scratch, "driver-program"), "."], driver);

      const workDir = fs.mkdtempSync(path.join(scratch, "work-"));
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        ...engineEnv(backend),
        ...plugin.env,
        BASE_URL: sandbox.url,
        API_KEY: TEMPLATE_KEY,
        TEMPLATE_ID: "go-web",
        WORK_DIR: workDir,
      };
      for (const key of Object.keys(env)) if (key.startsWith("DOMAINAPI_")) delete env[key];
      const step = async (name: string) => {
        try {
          return await execFileAsync(path.join(scratch, "driver-program"), [name], {
            env,
            maxBuffer: 64 << 20,
          });
        } catch (err) {
          const e = err as { stdout?: string; stderr?: string; message: string };
          throw new Error(`the Go template's ${name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
        }
      };
      const up = await step("up");
      expect(up.stderr).toMatch(/template go-web: wrote 4 record\(s\) with one PUT/);
      expect(held("go-web")).toEqual(TEMPLATE_RECORDS);
      const outputs = JSON.parse(up.stdout) as { recordIds: Record<string, string>; lastPlan: string };
      expect(Object.keys(outputs.recordIds).sort()).toEqual(["@/A", "@/MX", "@/TXT", "www/CNAME"]);
      expect(outputs.lastPlan).toMatch(/4 to create/);
      for (const text of [up.stdout, up.stderr]) expect(text).not.toContain(TEMPLATE_KEY);
      await step("destroy");
      expect(sandbox.templateRecords("go-web")).toEqual([]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
      fs.rmSync(backend, { recursive: true, force: true });
    }
  }, 600_000);
});
