/**
 * Which account each plan of a preview is sent to, as `up` resolves it (the plugin's explicit
 * providers by their own `baseUrl` input, default providers by the stack config, then
 * `DOMAINAPI_BASE_URL`, then where the state says the resource was made), and that a digest changes
 * with it. The steps are in the shape `pulumi preview --json` prints for the plugin: each resource
 * step names its provider as `<provider urn>::<id>`, and a provider that is created or changed has a
 * step of its own with its inputs.
 */
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import type { PreviewDigest } from "../../../provider/cli/preview";
import { templatePlans } from "../../../provider/cli/templatePlans";
import { TOKENS } from "../../../provider/manifest";

type Props = Record<string, unknown>;
const PROVIDER = "pulumi:providers:domainapi";
const providerUrn = (name: string) => `urn:pulumi:dev::dns::${PROVIDER}::${name}`;
const records = { "@/A": { name: "@", type: "A", content: "192.0.2.1" } };

function providerStep(name: string, op: string, olds?: Props, news?: Props) {
  return {
    op,
    urn: providerUrn(name),
    ...(olds ? { oldState: { type: PROVIDER, id: "old-id", inputs: olds, outputs: olds } } : {}),
    ...(news ? { newState: { type: PROVIDER, id: "", inputs: news, outputs: news } } : {}),
  };
}

function createStep(name: string, provider: string, templateId = name) {
  return {
    op: "create",
    urn: `urn:pulumi:dev::dns::${TOKENS.records}::${name}`,
    provider: `${providerUrn(provider)}::04da6b54-80e4-46f7-96ec-b56ff0331ba9`,
    newState: {
      type: TOKENS.records,
      provider: `${providerUrn(provider)}::04da6b54-80e4-46f7-96ec-b56ff0331ba9`,
      inputs: { templateId, purge: true, records },
    },
  };
}

const accounts = (preview: PreviewDigest) =>
  templatePlans(preview, { baseUrl: "https://env.example" }).map((p) => [p.resource, p.account]);

describe("the account of each plan", () => {
  it("an explicit provider's baseUrl input, whatever the stack config says; a default provider's, the stack config", () => {
    const preview = {
      config: { "domainapi:baseUrl": "https://stack.example" },
      steps: [
        providerStep("acct-b", "create", undefined, { baseUrl: "https://b.example/", apiKey: "[secret]" }),
        createStep("on-b", "acct-b"),
        createStep("on-default", "default_0_1_0"),
      ],
    };
    expect(accounts(preview)).toEqual([
      ["on-b", "https://b.example"],
      ["on-default", "https://stack.example"],
    ]);
  });

  it("without a stack config, DOMAINAPI_BASE_URL; an explicit provider without baseUrl reads it too", () => {
    const preview = {
      steps: [
        providerStep("acct", "same", { apiKey: "[secret]" }, { apiKey: "[secret]" }),
        createStep("web", "acct"),
      ],
    };
    expect(accounts(preview)).toEqual([["web", "https://env.example"]]);
  });

  it("an explicit provider not in the preview, and a create: not known, so shown without a digest", () => {
    const plans = templatePlans({ steps: [createStep("web", "acct")] }, { baseUrl: "https://env.example" });
    expect(plans[0]).toMatchObject({ notPlannable: "account" });
    expect(plans[0]?.digest).toBeUndefined();
    expect(planMarkdown(plans)).toContain(
      "No plan digest: **no digest**: the preview does not say which account",
    );
  });

  it("a provider whose baseUrl changes: the records are created on the new account and removed from the old", () => {
    const olds = {
      templateId: "web",
      purge: true,
      records,
      ids: { "@/A": "r1" },
      baseUrl: "https://old.example",
    };
    const preview = {
      steps: [
        providerStep(
          "acct",
          "replace",
          { baseUrl: "https://old.example" },
          { baseUrl: "https://new.example" },
        ),
        {
          op: "replace",
          urn: `urn:pulumi:dev::dns::${TOKENS.records}::web`,
          provider: `${providerUrn("acct")}::04da6b54-80e4-46f7-96ec-b56ff0331ba9`,
          oldState: {
            type: TOKENS.records,
            provider: `${providerUrn("acct")}::old-id`,
            inputs: {},
            outputs: olds,
          },
          newState: {
            type: TOKENS.records,
            provider: `${providerUrn("acct")}::04da6b54-80e4-46f7-96ec-b56ff0331ba9`,
            inputs: { templateId: "web", purge: true, records },
          },
        },
      ],
    };
    const plans = templatePlans(preview);
    expect(plans.map((p) => [p.reason?.kind, p.account])).toEqual([
      ["replaces", "https://new.example"],
      ["replacedBy", "https://old.example"],
    ]);
  });

  it("the same plan on two accounts has two digests", () => {
    const on = (baseUrl: string) =>
      templatePlans({ config: { "domainapi:baseUrl": baseUrl }, steps: [createStep("web", "default")] })[0]
        ?.digest;
    expect(on("https://a.example")).toMatch(/^[0-9a-f]{32}$/);
    expect(on("https://a.example")).not.toBe(on("https://b.example"));
    // One account written two ways is one account.
    expect(on("https://A.example:443/")).toBe(on("https://a.example"));
  });
});

describe("the restores of a preview", () => {
  const TYPE = "pulumi-nodejs:dynamic/domainapi:DomainRestore";
  const step = (op: string, olds?: Props, news?: Props) => ({
    op,
    urn: `urn:pulumi:dev::dns::${TYPE}::r-${op}`,
    ...(olds ? { oldState: { type: TYPE, inputs: olds, outputs: olds } } : {}),
    ...(news ? { newState: { type: TYPE, inputs: news, outputs: {} } } : {}),
  });
  const config = { "domainapi:baseUrl": "https://api.example.com" };

  it("a replacement and the update of an unconfirmed restore send a restore: listed; a confirmed one's update and a delete send none", () => {
    const done = { domain: "a.example", restoredAt: "2026-01-01T00:00:00Z" };
    const preview = {
      config,
      steps: [
        step("replace", { domain: "a.example" }, { domain: "b.example" }),
        step("update", { domain: "c.example", unconfirmed: true }, { domain: "c.example" }),
        step("update", done, { ...done, triggers: ["x"] }),
        step("delete", { domain: "d.example" }),
      ],
    };
    const plans = templatePlans(preview);
    expect(plans.map((p) => [p.resource, p.templateId, p.reason?.kind])).toEqual([
      ["r-replace", "restore/b.example", "restoredAgain"],
      ["r-update", "restore/c.example", "unconfirmed"],
    ]);
    const md = planMarkdown(plans);
    expect(md).toContain(
      "**Domain restore `b.example`** (resource `r-replace`, replaced: its domain or triggers changed, so it restores again)",
    );
    expect(md).toContain(
      "**Domain restore `c.example`** (resource `r-update`, asked again: the answer to the earlier restore was lost)",
    );
    expect(md).toMatch(
      /DOMAINAPI_EXPECT_PLAN='restore\/b\.example=[0-9a-f]{32} restore\/c\.example=[0-9a-f]{32}'/,
    );
  });
});
