/**
 * An update that changes only a template's settings (`purge`, the safety threshold) sends no record
 * request, so the plan comment lists no plan for it, even where the account is known and the plan
 * could be digested: there is no record change to review. A record changed in the same update is.
 */
import { describe, expect, it } from "vitest";
import type { PreviewDigest } from "../../../provider/cli/preview";
import { templatePlans } from "../../../provider/cli/templatePlans";
import { DYNAMIC_TOKENS } from "../../../provider/manifest";

type Props = Record<string, unknown>;
const TYPE: string = DYNAMIC_TOKENS.records;
const ACCOUNT = "https://api.example.com";

const a = { name: "@", type: "A", content: "192.0.2.1" };
const held = {
  templateId: "web",
  purge: true,
  records: { "@/A": a },
  ids: { "@/A": "rec-1" },
  lastPlan: "1 to create",
};

/** A preview of one update of the template `web` to `news`, on the stack's configured account. */
function updateTo(news: Props): PreviewDigest {
  return {
    config: { "domainapi:baseUrl": ACCOUNT },
    steps: [
      {
        op: "update",
        urn: `urn:pulumi:dev::dns::${TYPE}::web`,
        oldState: { type: TYPE, inputs: {}, outputs: held },
        newState: { type: TYPE, inputs: news, outputs: {} },
      },
    ],
  } as PreviewDigest;
}

describe("an update of a template's settings alone, on a known account", () => {
  it("purge turned off: no plan", () => {
    expect(templatePlans(updateTo({ templateId: "web", purge: false, records: held.records }))).toEqual([]);
  });

  it("the safety threshold turned off: no plan", () => {
    const news = { templateId: "web", purge: true, safetyThreshold: false, records: held.records };
    expect(templatePlans(updateTo(news))).toEqual([]);
  });

  it("with a record changed too: one plan, sent to that account, with its digest", () => {
    const records = { "@/A": { ...a, content: "192.0.2.9" } };
    const plans = templatePlans(updateTo({ templateId: "web", purge: false, records }));
    expect(plans.map((p) => [p.resource, p.templateId, p.account, p.notPlannable])).toEqual([
      ["web", "web", ACCOUNT, undefined],
    ]);
    expect(plans[0]?.digest).toMatch(/^[0-9a-f]{32}$/);
  });
});
