/**
 * The plugin path as a YAML team has it: the release binary installed with `pulumi plugin install`
 * into a PULUMI_HOME of its own, no Node on PATH, a YAML program run with a plain `pulumi`. One
 * stack, one sandbox, the program rewritten between steps:
 * 1. two explicit providers on one account (base URLs that differ only by a trailing slash), each
 *    with a DnsTemplateRecords on one template: refused at preview naming both, nothing sent;
 * 2. `pulumi import` of a template by its id, then an `up` declaring records: the template holds
 *    exactly them, after one PUT, and the import and the preview said so;
 * 3. a key the API refuses: on an explicit provider blamed on its `apiKey` input, on the default
 *    provider on the stack config (set in plain text: warned about too) or on the environment
 *    variable, whichever was used.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledPlugin, installPluginBinary } from "../../scripts/lib/plugin-install.ts";
import { repoRoot } from "./harness";
import { createProject, type Project, yamlLanguageHost } from "./plugin-helpers";

const KEY = "plugin-path-key-7c1e93";
const WRONG = "plugin-path-wrong-2b8d41";

let sandbox: Sandbox;
let plugin: InstalledPlugin;
let project: Project;
let cache: string;

/** The program: the config it reads, then `resources`. */
function program(resources: string): string {
  return `name: domainapi-plugin-path
runtime: yaml
config:
  baseUrl:
    type: string
  apiKey:
    type: string
    secret: true
${resources === "" ? "resources: {}\n" : `resources:\n${resources}`}`;
}

const record = (name: string, content: string) =>
  `        - { name: ${name}, type: A, content: ${content} }\n`;

beforeAll(async () => {
  const yamlBin = await yamlLanguageHost();
  sandbox = await startSandbox({ apiKey: KEY });
  plugin = await installPluginBinary(repoRoot, [path.join(yamlBin, "pulumi-language-yaml")]);
  // The claims the plugin processes share go to a cache of this test.
  cache = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plugin-path-cache-"));
  project = createProject({ "Pulumi.yaml": program("") }, [], {
    link: false,
    env: { ...plugin.env, XDG_CACHE_HOME: cache },
  });
  await project.pulumi(["stack", "init", "dev"]);
  await project.setConfig({
    plain: { baseUrl: sandbox.url, "domainapi:baseUrl": sandbox.url },
    secret: { apiKey: KEY, "domainapi:apiKey": KEY },
  });
}, 600_000);

afterAll(async () => {
  project?.cleanup();
  plugin?.cleanup();
  if (cache !== undefined) fs.rmSync(cache, { recursive: true, force: true });
  await sandbox?.close();
});

function write(resources: string): void {
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), program(resources));
}

/** Runs `pulumi <args>` expecting it to fail; its output. */
async function failing(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  try {
    await project.pulumi(args, undefined, extraEnv);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`pulumi ${args.join(" ")} succeeded`);
}

describe("the plugin binary from a YAML program, no Node on PATH", () => {
  it("refuses two providers' resources on one template at preview, naming both, and sends nothing", async () => {
    write(`  one:
    type: pulumi:providers:domainapi
    properties:
      apiKey: \${apiKey}
      baseUrl: \${baseUrl}
  two:
    type: pulumi:providers:domainapi
    properties:
      apiKey: \${apiKey}
      baseUrl: \${baseUrl}/
  a:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: shared
      records:
${record("www", "192.0.2.1")}    options:
      provider: \${one}
  b:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: shared
      purge: false
      records:
${record("mail", "192.0.2.2")}    options:
      provider: \${two}
`);
    sandbox.clearRequests();
    const output = await failing(["up", "--yes"]);
    expect(output).toMatch(
      /DnsTemplateRecords "(a|b)" \(provider "(one|two)"\) and "(a|b)" \(provider "(one|two)"\) both manage template "shared" of http:\/\/127\.0\.0\.1:\d+, and "a" has purge: true/,
    );
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.templateRecords("shared") ?? []).toEqual([]);
  });

  it("imports a template by its id and owns it: the next up leaves exactly the declared records, with one PUT", async () => {
    sandbox.seedTemplate("imp", [
      { name: "legacy", type: "A", content: "192.0.2.7" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ]);
    write("");
    const imported = await project.pulumi([
      "import",
      "domainapi:index:DnsTemplateRecords",
      "site",
      "imp",
      "--yes",
    ]);
    const importText = imported.stdout + imported.stderr;
    expect(importText).toContain(
      "template imp imported: the API cannot list a template's records, so the resource holds none; with purge: true, the first `pulumi up` that declares records replaces whatever the template holds with exactly them",
    );
    // Shown under the resource it is about, not the stack.
    expect(importText).toMatch(
      /domainapi:index:DnsTemplateRecords \(site\):\n\s+(info: )?template imp imported:/,
    );
    write(`  site:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: imp
      records:
${record("www", "192.0.2.1")}${record("api", "192.0.2.3")}`);
    sandbox.clearRequests();
    const { stdout } = await project.pulumi(["up", "--yes"]);
    expect(stdout).toContain(
      "template imp: 2 to create (1 request: a PUT, which replaces whatever records the template held when it was imported",
    );
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(
      sandbox
        .templateRecords("imp")
        ?.map((r) => `${r.name} ${r.content}`)
        .sort(),
    ).toEqual(["api 192.0.2.3", "www 192.0.2.1"]);
    await project.pulumi(["preview", "--expect-no-changes"]);
  });

  it("blames a refused key on the setting used: the explicit provider's input, the stack config, the environment", async () => {
    const site = `  site:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: imp
      records:
${record("www", "192.0.2.1")}${record("api", "192.0.2.4")}`;
    write(`${site}  account:
    type: pulumi:providers:domainapi
    properties:
      apiKey: \${apiKey}
      baseUrl: \${baseUrl}
  other:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: other
      records:
${record("www", "192.0.2.5")}    options:
      provider: \${account}
`);
    // The explicit provider's key comes from the program; the default provider's from the stack
    // config, set in plain text.
    await project.setConfig({ plain: { "domainapi:apiKey": WRONG }, secret: { apiKey: WRONG } });
    const both = await failing(["up", "--yes", "--continue-on-error"]);
    expect(both).toContain(
      "Check the API key: it comes from the explicit provider's `apiKey` input: change that input in the program",
    );
    expect(both).toContain(
      "Check the API key: it comes from the stack config domainapi:apiKey: change it with `pulumi config set --secret domainapi:apiKey <key>`",
    );
    expect(both).toMatch(/domainapi:apiKey is set in plain text in Pulumi\.dev\.yaml \(line \d+\)/);
    expect(both).not.toContain("or the DOMAINAPI_API_KEY environment variable.");
    expect(both).not.toContain(WRONG);

    // The default provider's key from the environment, the stack config unset.
    write(site);
    await project.pulumi(["config", "rm", "domainapi:apiKey"]);
    const fromEnv = await failing(["up", "--yes"], { DOMAINAPI_API_KEY: WRONG });
    expect(fromEnv).toContain(
      "Check the API key: it comes from the DOMAINAPI_API_KEY environment variable (domainapi:apiKey is not set): change it there",
    );
    expect(fromEnv).not.toContain(WRONG);
    expect(sandbox.templateRecords("imp")?.find((r) => r.name === "api")?.content).toBe("192.0.2.3");
  });
});
