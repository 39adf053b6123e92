/**
 * The reviewed-plan guard covers a destroy too (docs/design.md, "The reviewed-plan guard"): under
 * `DOMAINAPI_EXPECT_PLAN`, deleting a resource whose delete plan was not reviewed is refused before
 * anything is sent, and the template keeps its records.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { templatePlans } from "../../../provider/cli/templatePlans";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox } from "../helpers";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

const sandbox = useConfiguredSandbox(records);

beforeEach(() => {
  sandbox.reset();
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});
afterEach(() => {
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});

const base = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "A", content: "192.0.2.30" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
];

async function deployed(
  templateId: string,
  purge: boolean,
  list = base,
): Promise<{ id: string; olds: Props }> {
  const checked = await records.check({}, { __provider: PROVIDER, templateId, records: list, purge });
  expect(checked.failures ?? []).toEqual([]);
  const created = await records.create({ ...(checked.inputs as Props), __provider: PROVIDER });
  sandbox.clearRequests();
  return { id: created.id, olds: { ...(created.outs as Props), __provider: PROVIDER } };
}

/** The digest `domainapi-plan` shows for a preview that deletes the resource holding `olds`. */
function reviewedDelete(olds: Props): string {
  const [plan, ...rest] = templatePlans({
    steps: [
      {
        op: "delete",
        urn: `urn:pulumi:dev::dns::${TYPE}::web`,
        oldState: { type: TYPE, inputs: {}, outputs: olds },
      },
    ],
  });
  expect(rest).toEqual([]);
  expect(plan?.digest).toMatch(/^[0-9a-f]{32}$/);
  return plan!.digest!;
}

function sent() {
  return sandbox.requests.filter((r) => r.method !== "GET");
}

describe.each([true, false])("a destroy under DOMAINAPI_EXPECT_PLAN (purge %s)", (purge) => {
  it("`none` (a review in which nothing was to change) refuses it, sending nothing", async () => {
    const { id, olds } = await deployed("tpl-5", purge);
    process.env.DOMAINAPI_EXPECT_PLAN = "none";
    await expect(records.delete(id, olds)).rejects.toThrow(
      /refusing to change template "tpl-5": its plan is not the reviewed one .*no plan of this template was reviewed.*Nothing was sent/,
    );
    expect(sent()).toEqual([]);
    expect(sandbox.templateRecords("tpl-5")).toHaveLength(base.length);
  });

  it("a stale digest (the delete of what the resource held before) refuses it, sending nothing", async () => {
    const before = await deployed("tpl-5", purge, base.slice(0, 2));
    const stale = reviewedDelete(before.olds);
    sandbox.reset();
    const { id, olds } = await deployed("tpl-5", purge);
    process.env.DOMAINAPI_EXPECT_PLAN = `tpl-5=${stale}`;
    await expect(records.delete(id, olds)).rejects.toThrow(
      new RegExp(`refusing to change template "tpl-5".*the reviewed plan was ${stale}`),
    );
    expect(sent()).toEqual([]);
    expect(sandbox.templateRecords("tpl-5")).toHaveLength(base.length);
  });

  it("the reviewed delete is carried out", async () => {
    const { id, olds } = await deployed("tpl-5", purge);
    process.env.DOMAINAPI_EXPECT_PLAN = `tpl-5=${reviewedDelete(olds)}`;
    await records.delete(id, olds);
    expect(sent().map((r) => r.method)).toEqual(["PATCH"]);
    expect(sandbox.templateRecords("tpl-5")).toEqual([]);
  });
});
