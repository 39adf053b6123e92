/**
 * The npm path of the provider plugin on both ends of the SDK range: the packed package installed
 * into a fresh project with `@pulumi/pulumi` at the floor of its peer range (3.139.0) and with the
 * newest the registry serves (`npm view @pulumi/pulumi version`), and on each a YAML program run by
 * a plain `pulumi up` through the real YAML language host: an explicit provider, a template
 * created, contacts looked up, everything destroyed. The plugin serves its gRPC service with the
 * generated stubs of whichever SDK is installed, so it must behave the same on both. Also: one copy
 * of the SDK, of grpc-js and of google-protobuf in each project (two copies of the protobuf
 * runtime would mix message classes).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, packCheckout } from "../../scripts/lib/pack.ts";
import { engineEnv, workRoot } from "./harness";
import { requireBuiltPlugin, yamlLanguageHost } from "./plugin-helpers";

const execFileAsync = promisify(execFile);
const KEY = "sdk-range-key-7a3e";
const FLOOR = "3.139.0";

const PROGRAM = `name: domainapi-sdk-range
runtime: yaml
plugins:
  providers:
    - name: domainapi
      path: ./node_modules/pulumi-domainapi
config:
  baseUrl:
    type: string
  apiKey:
    type: string
    secret: true
resources:
  account:
    type: pulumi:providers:domainapi
    properties:
      apiKey: \${apiKey}
      baseUrl: \${baseUrl}
  web:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: web
      records:
        - { name: www, type: A, content: 192.0.2.7 }
    options:
      provider: \${account}
variables:
  contacts:
    fn::invoke:
      function: domainapi:index:getContacts
      arguments:
        limit: 2
      options:
        provider: \${account}
outputs:
  contactsTotal: \${contacts.total}
`;

let scratch: string;
let tarball: string;
let yamlBin: string;
let sandbox: Sandbox;

beforeAll(async () => {
  requireBuiltPlugin();
  scratch = fs.mkdtempSync(path.join(workRoot, "sdk-range-"));
  ({ tarball } = await packCheckout(scratch));
  yamlBin = await yamlLanguageHost();
  sandbox = await startSandbox({ apiKey: KEY, contacts: 5 });
}, 600_000);
afterAll(async () => {
  await sandbox?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The real path `require(name)` loads from `dir`. */
function resolvedFrom(dir: string, name: string): string {
  return fs.realpathSync(require.resolve(name, { paths: [dir] }));
}

async function newestSdk(): Promise<string> {
  return (await npm(["view", "@pulumi/pulumi", "version"], scratch)).trim();
}

describe("the npm path of the plugin on the SDK range", () => {
  it.each([
    ["the floor of the peer range", async () => FLOOR],
    ["the newest", newestSdk],
  ])("with @pulumi/pulumi at %s: a YAML program creates, looks up and destroys", async (_which, version) => {
    const sdkVersion = await version();
    const dir = fs.mkdtempSync(path.join(scratch, "project-"));
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "p", version: "0.0.0", private: true }),
    );
    await npm(["install", "--no-audit", "--no-fund", tarball, `@pulumi/pulumi@${sdkVersion}`], dir, 900_000);
    const plugin = path.join(dir, "node_modules", "pulumi-domainapi");
    const installed = JSON.parse(
      fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ) as { version: string };
    expect(installed.version).toBe(sdkVersion);
    for (const name of ["@pulumi/pulumi", "@grpc/grpc-js", "google-protobuf/google/protobuf/struct_pb"])
      expect(resolvedFrom(plugin, name), name).toBe(
        resolvedFrom(path.join(dir, "node_modules", "@pulumi", "pulumi"), name),
      );

    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), PROGRAM);
    const backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-sdk-range-"));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...engineEnv(backend),
      PATH: [yamlBin, process.env.PATH ?? ""].join(path.delimiter),
    };
    for (const key of Object.keys(env)) if (key.startsWith("DOMAINAPI_")) delete env[key];
    const pulumi = async (...args: string[]) =>
      (await execFileAsync("pulumi", [...args, "--non-interactive"], { cwd: dir, env, maxBuffer: 64 << 20 }))
        .stdout;
    try {
      sandbox.reset();
      await pulumi("stack", "init", "dev");
      await pulumi("config", "set", "baseUrl", sandbox.url);
      await pulumi("config", "set", "--secret", "apiKey", KEY);
      await pulumi("up", "--yes");
      expect(sandbox.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.7"]);
      const outputs = JSON.parse(await pulumi("stack", "output", "--json")) as { contactsTotal?: number };
      expect(outputs.contactsTotal).toBe(5);
      await pulumi("destroy", "--yes");
      expect(sandbox.templateRecords("web")).toEqual([]);
    } finally {
      fs.rmSync(backend, { recursive: true, force: true });
    }
  });
});
