/**
 * Which DomainRestore steps of a preview the plan comment lists (cli/templatePlans.ts), beyond the
 * plain cases: a restore sends its one POST when created, replaced, or updated after its earlier
 * answer was lost; removing it sends nothing (a restore cannot be undone), whatever its state says.
 * A restore whose domain the preview hides is listed (each field of the plan as documented on
 * `TemplatePlan`) with no summary of requests and nothing set aside: no request of it is known.
 */
import { describe, expect, it } from "vitest";
import { templatePlans } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
type Preview = Parameters<typeof templatePlans>[0];

/** The dynamic resource's type token of DomainRestore. */
const TYPE = "pulumi-nodejs:dynamic/domainapi:DomainRestore";
const config = { "domainapi:baseUrl": "https://api.example.com" };

function step(op: string, name: string, olds?: Props, news?: Props) {
  return {
    op,
    urn: `urn:pulumi:dev::dns::${TYPE}::${name}`,
    ...(olds ? { oldState: { type: TYPE, inputs: olds, outputs: olds } } : {}),
    ...(news ? { newState: { type: TYPE, inputs: news, outputs: {} } } : {}),
  };
}

const plansOf = (...steps: ReturnType<typeof step>[]) => templatePlans({ config, steps } as Preview);

describe("a restore whose earlier answer was lost", () => {
  const lost = { domain: "c.example", unconfirmed: true };

  it("removed from the program, or left as it is: sends nothing, so it is not listed", () => {
    expect(plansOf(step("delete", "gone", lost))).toEqual([]);
    expect(plansOf(step("same", "kept", lost, { domain: "c.example" }))).toEqual([]);
  });

  it("updated: asked again, and listed", () => {
    expect(plansOf(step("update", "again", lost, { domain: "c.example" })).map((p) => p.reason)).toEqual([
      { kind: "unconfirmed" },
    ]);
  });
});

describe("a restore whose domain the preview hides", () => {
  it("is listed with no request and no record set aside, and no value to expect", () => {
    expect(plansOf(step("create", "hidden", undefined, { domain: "[secret]" }))).toEqual([
      {
        resource: "hidden",
        templateId: "restore/(secret)",
        restore: "(secret)",
        reason: { kind: "created" },
        summary: "",
        corrections: [],
        setAside: [],
        notPlannable: "secret",
      },
    ]);
  });
});
