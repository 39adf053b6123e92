/**
 * The harness reads an operation's outputs and summary from the file backend (backend-reads.ts)
 * instead of running the CLI three more times: what it reads must be what the CLI answers.
 */
import type * as pulumi from "@pulumi/pulumi";
import { expect, it } from "vitest";
import { readDeployment, readLatestUpdate, readStackOutputs, readStateResources } from "./backend-reads";
import { createTestStack, domainapi, requireFromWork, typeToken, useSandbox, useStacks } from "./harness";
import { API_KEY } from "./records-helpers";

const sandbox = useSandbox({ apiKey: API_KEY });
const stacks = useStacks();

it("outputs, the last update's summary and the deployment read from the backend's files are what the CLI answers", async () => {
  const sdk = requireFromWork<typeof pulumi>("@pulumi/pulumi");
  let withSecret = false;
  const s = await createTestStack({
    project: "reads",
    // The key from the environment: the config stays plain, so the summary's config can be read.
    config: { greeting: "hello", "domainapi:baseUrl": sandbox.url },
    env: { DOMAINAPI_API_KEY: API_KEY },
    program: async () => ({
      // A custom resource in the deployment, with its inputs and outputs.
      ids: new (domainapi().DnsTemplateRecords)("web", {
        templateId: "tpl-1",
        records: [{ name: "www", type: "A", content: "192.0.2.1" }],
      }).recordIds,
      count: 3,
      nested: { list: [1, "two", { three: true }], empty: null },
      text: "plain",
      ...(withSecret ? { hidden: sdk.secret("s3cr3t"), inside: { deep: sdk.secret("x") } } : {}),
    }),
  });
  stacks.push(s);
  const where = { backendDir: s.backendDir, project: "reads", stack: s.stack.name };
  const cliOutputs = () => s.stack.workspace.stackOutputs(s.stack.name);
  const cliSummary = async () => (await s.stack.history(1, 1, true))[0];

  // Plain outputs: read from the checkpoint, equal to the CLI's, and what up returns.
  const first = await s.up();
  expect(readStackOutputs(where)).toEqual(await cliOutputs());
  expect(first.outputs).toEqual(await cliOutputs());
  expect(first.outputs.count).toEqual({ value: 3, secret: false });
  // The summary of the update just made (not an older one), config included when it is plain.
  const read = readLatestUpdate(where);
  expect({ ...read, config: read?.config }).toEqual(await cliSummary());
  expect(first.summary.resourceChanges).toEqual({ create: 2 });
  // The deployment: what `pulumi stack export --show-secrets` prints.
  const cliDeployment = await s.stack.workspace.exportStack(s.stack.name);
  expect(readDeployment(where)).toEqual(cliDeployment);
  expect(await s.exportState()).toEqual(cliDeployment);

  // A secret among the outputs: the file holds only ciphertext, so the CLI answers.
  withSecret = true;
  await s.stack.setConfig("token", { value: "t0ken", secret: true });
  const second = await s.up();
  expect(readStackOutputs(where)).toBeUndefined();
  expect(second.outputs).toEqual(await cliOutputs());
  expect(second.outputs.hidden).toEqual({ value: "s3cr3t", secret: true });
  expect(second.summary.resourceChanges).toEqual({ same: 2 });
  expect(readDeployment(where)).toBeUndefined();
  const exported = await s.stack.workspace.exportStack(s.stack.name);
  expect(await s.exportState()).toEqual(exported);
  // The program's resource holds no secret: read from the file, it is what the export holds.
  const all = (exported.deployment as { resources: { type: string }[] }).resources;
  const records = all.filter((r) => r.type === typeToken("DnsTemplateRecords"));
  expect(records).toHaveLength(1);
  expect(readStateResources(where, typeToken("DnsTemplateRecords"))).toEqual(records);
  expect(await s.resources(typeToken("DnsTemplateRecords"))).toEqual(records);
  // All of them include the stack's secret outputs: the CLI answers.
  expect(readStateResources(where)).toBeUndefined();
  expect(await s.resources()).toEqual(all);
  const { config: _config, ...rest } = (await cliSummary()) ?? {};
  expect({ ...readLatestUpdate(where) }).toMatchObject(rest);
  // Its config holds a secret now, which only the CLI can decrypt: reading it says so.
  expect(() => readLatestUpdate(where)?.config).toThrow(/stack\.history\(\)/);
});
