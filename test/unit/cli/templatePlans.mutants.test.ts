/**
 * What the plan comment says in cases the other tests of cli/templatePlans.ts leave open: a
 * resource moved from one explicit provider to another (each plan sent to its own provider's
 * account), the first plan of an imported template (a PUT, and the reviewer is told why), and a
 * template check's warning as the reviewer reads it, whole.
 */
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import type { PreviewDigest } from "../../../provider/cli/preview";
import { templatePlans } from "../../../provider/cli/templatePlans";
import { DYNAMIC_TOKENS, TOKENS } from "../../../provider/manifest";

type Props = Record<string, unknown>;
const PROVIDER = "pulumi:providers:domainapi";
const providerUrn = (name: string) => `urn:pulumi:dev::dns::${PROVIDER}::${name}`;
const records = { "@/A": { name: "@", type: "A", content: "192.0.2.1" } };
const ACCOUNT = "https://api.example.com";

describe("a resource moved to another explicit provider", () => {
  it("is created on the new provider's account and removed from the old provider's", () => {
    // The engine replaces a resource whose provider changes; each side names its own provider.
    const provider = (name: string, baseUrl: string) => ({
      op: "same",
      urn: providerUrn(name),
      oldState: { type: PROVIDER, inputs: { baseUrl }, outputs: { baseUrl } },
      newState: { type: PROVIDER, inputs: { baseUrl }, outputs: { baseUrl } },
    });
    const preview = {
      steps: [
        provider("old-acct", "https://old.example"),
        provider("new-acct", "https://new.example"),
        {
          op: "replace",
          urn: `urn:pulumi:dev::dns::${TOKENS.records}::web`,
          provider: `${providerUrn("new-acct")}::new-id`,
          oldState: {
            type: TOKENS.records,
            provider: `${providerUrn("old-acct")}::old-id`,
            inputs: {},
            outputs: { templateId: "web", purge: true, records, ids: { "@/A": "r1" } },
          },
          newState: {
            type: TOKENS.records,
            provider: `${providerUrn("new-acct")}::new-id`,
            inputs: { templateId: "web2", purge: true, records },
          },
        },
      ],
    } as PreviewDigest;
    const plans = templatePlans(preview, { baseUrl: "" });
    expect(plans.map((p) => [p.templateId, p.reason?.kind, p.account])).toEqual([
      ["web2", "replaces", "https://new.example"],
      ["web", "replacedBy", "https://old.example"],
    ]);
    expect(planMarkdown(plans)).toContain(
      "**Template `web`** (resource `web`, moved to template `web2`): 0 to create, 0 to update, 1 to delete",
    );
    expect(planMarkdown(plans)).toContain("Sent to account `https://old.example`, purge `true`");
  });
});

describe("the first plan of an imported template", () => {
  it("rewrites it with one PUT, and the title says it was imported and cannot be listed", () => {
    // What an import leaves in the state: no records, and the template's own records unlisted.
    const olds: Props = { templateId: "web", purge: true, records: {}, ids: {}, unlisted: true };
    const preview = {
      config: { "domainapi:baseUrl": ACCOUNT },
      steps: [
        {
          op: "update",
          urn: `urn:pulumi:dev::dns::${DYNAMIC_TOKENS.records}::web`,
          oldState: { type: DYNAMIC_TOKENS.records, inputs: {}, outputs: olds },
          newState: { type: DYNAMIC_TOKENS.records, inputs: { templateId: "web", purge: true, records } },
        },
      ],
    } as PreviewDigest;
    const plans = templatePlans(preview);
    expect(plans.map((p) => p.reason)).toEqual([{ kind: "rewritten", why: "imported" }]);
    const title = planMarkdown(plans).split("\n\n")[1];
    expect(title).toBe(
      "**Template `web`** (resource `web`, rewritten with one PUT: it was imported, and the API cannot list what it holds): " +
        plans[0]?.summary,
    );
    expect(plans[0]?.summary).toMatch(/^1 to create \(1 request: a PUT, which replaces whatever records/);
  });
});

describe("a template check's warning in the plan", () => {
  it("is read whole: the record, the rule, its RFCs and what to do", () => {
    const news = {
      templateId: "mail",
      purge: true,
      records: {
        "mail/CNAME": { name: "mail", type: "CNAME", content: "mailhost.example.net." },
        "@/MX": { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      },
    };
    const [plan] = templatePlans({
      config: { "domainapi:baseUrl": ACCOUNT },
      steps: [
        {
          op: "create",
          urn: `urn:pulumi:dev::dns::${DYNAMIC_TOKENS.records}::mail`,
          newState: { type: DYNAMIC_TOKENS.records, inputs: news },
        },
      ],
    } as PreviewDigest);
    expect(plan?.warnings).toEqual([WARNING]);
  });
});

/** The record is named by its text: the plan's records are in canonical order, not the program's. */
const WARNING =
  '@ MX 10 mail.{domainname}.: [target-is-cname, RFC 2181 §10.3, RFC 2782] the MX target "mail.{domainname}." ' +
  "is the CNAME records of this template (mail CNAME mailhost.example.net.); MX targets must be a host's own name, " +
  "and many mail servers refuse to deliver to an alias; fix: point the MX record at the CNAME's target " +
  '"mailhost.example.net.", or give "mail" A/AAAA records instead of the CNAME';
