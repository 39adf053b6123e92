/**
 * A resource belongs to the API it was made on (docs/design.md, "Accounts"), under the real engine:
 * - through the plugin, a YAML program whose explicit provider's `baseUrl` moves to a second
 *   sandbox replaces its resources: the records end on the second API and none stay on the first
 *   (deleted with the old provider's settings), and nothing claims a record was "removed outside
 *   Pulumi";
 * - a stack of the dynamic resources whose `domainapi:baseUrl` changes fails its preview naming
 *   both addresses, and sends nothing to either API.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, domainapi, type TestStack } from "./harness";
import {
  accountProgram,
  createProject,
  type Project,
  requireBuiltPlugin,
  yamlLanguageHost,
} from "./plugin-helpers";

const KEY_ONE = "accounts-one-key-5d2a";
const KEY_TWO = "accounts-two-key-9e4b";
let one: Sandbox;
let two: Sandbox;

beforeAll(async () => {
  [one, two] = await Promise.all([startSandbox({ apiKey: KEY_ONE }), startSandbox({ apiKey: KEY_TWO })]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

const PROGRAM = accountProgram("domainapi-accounts", {
  config: `  www:
    type: string
    default: 192.0.2.1
`,
  rest: `  web:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: web
      records:
        - { name: www, type: A, content: "\${www}" }
        - { name: "@", type: TXT, content: "v=spf1 -all" }
    options:
      provider: \${account}
`,
});

describe("through the plugin, a provider's new baseUrl", () => {
  let project: Project;
  beforeAll(async () => {
    requireBuiltPlugin();
    project = createProject({ "Pulumi.yaml": PROGRAM }, [await yamlLanguageHost()]);
    await project.pulumi(["stack", "init", "dev"]);
  }, 600_000);
  afterAll(() => project?.cleanup());

  it("replaces its resources: the records end on the new API and none stay on the old", async () => {
    const printed: string[] = [];
    const run = async (args: string[]) => {
      const { stdout, stderr } = await project.pulumi(args);
      printed.push(stdout, stderr);
      return stdout;
    };
    await project.setConfig({ plain: { baseUrl: one.url }, secret: { apiKey: KEY_ONE } });
    await run(["up", "--yes"]);
    expect(
      one
        .templateRecords("web")
        ?.map((r) => r.content)
        .sort(),
    ).toEqual(["192.0.2.1", "v=spf1 -all"]);

    await project.setConfig({ plain: { baseUrl: two.url }, secret: { apiKey: KEY_TWO } });
    const preview = await run(["preview"]);
    expect(preview).toMatch(/\+-\s+domainapi:index:DnsTemplateRecords\s+web\s+replace/);
    await run(["up", "--yes"]);
    expect(
      two
        .templateRecords("web")
        ?.map((r) => r.content)
        .sort(),
    ).toEqual(["192.0.2.1", "v=spf1 -all"]);
    expect(one.templateRecords("web")).toEqual([]);

    // The next change is an ordinary update on the new API: nothing "removed outside Pulumi".
    await run(["config", "set", "www", "192.0.2.2"]);
    await run(["up", "--yes"]);
    expect(
      two
        .templateRecords("web")
        ?.map((r) => r.content)
        .sort(),
    ).toEqual(["192.0.2.2", "v=spf1 -all"]);
    expect(printed.join("\n")).not.toMatch(/removed outside Pulumi/);
    await run(["destroy", "--yes"]);
    expect(two.templateRecords("web")).toEqual([]);
  });
});

describe("the dynamic resources, when domainapi:baseUrl changes", () => {
  let stack: TestStack;
  afterAll(async () => stack?.cleanup());

  it("fail the preview naming both addresses, and send nothing", async () => {
    stack = await createTestStack({
      program: async () => {
        const { DnsTemplateRecords } = domainapi();
        new DnsTemplateRecords("web", {
          templateId: "web",
          records: [{ name: "www", type: "A", content: "192.0.2.1" }],
        });
      },
      config: { "domainapi:baseUrl": one.url, "domainapi:apiKey": { value: KEY_ONE, secret: true } },
    });
    await stack.up();
    expect(one.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.1"]);
    await stack.stack.setAllConfig({
      "domainapi:baseUrl": { value: two.url },
      "domainapi:apiKey": { value: KEY_TWO, secret: true },
    });
    one.clearRequests();
    two.clearRequests();
    const failure = await stack.preview().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(failure).toContain(`made on ${one.url}`);
    expect(failure).toContain(`is now ${two.url}`);
    expect(failure).toContain("DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1");
    expect(one.requests).toEqual([]);
    expect(two.requests).toEqual([]);
    // Back on the API it was made on, it is destroyed there.
    await stack.stack.setAllConfig({
      "domainapi:baseUrl": { value: one.url },
      "domainapi:apiKey": { value: KEY_ONE, secret: true },
    });
    await stack.destroy();
    expect(one.templateRecords("web")).toEqual([]);
  });
});
