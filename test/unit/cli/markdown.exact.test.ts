/**
 * The plan comment of `domainapi-plan` (cli/markdown.ts) line by line, where it has nothing to say:
 * a template whose account the preview does not name has no "Sent to account" line, one given no
 * digest and no reason has no digest line, and a failed preview gives no value to set. A reviewer
 * reads every line of it; no line stands there that says nothing.
 */
import { describe, expect, it } from "vitest";
import { PLAN_HEADING, PREVIEW_FAILED, planMarkdown } from "../../../provider/cli/markdown";

/** A plan as `templatePlans` makes it (its type taken from `planMarkdown`, whose input it is). */
type TemplatePlan = Parameters<typeof planMarkdown>[0][number];

const DIGEST = "0123456789abcdef0123456789abcdef";
const TITLE = "**Template `web`** (resource `web`): 1 to create, 0 to update, 0 to delete (1 request)";
const CHANGES = ["```diff", "+ CREATE www A 192.0.2.1  (new id)", "```"];

function plan(extra: Partial<TemplatePlan> = {}): TemplatePlan {
  return {
    resource: "web",
    templateId: "web",
    summary: "1 to create, 0 to update, 0 to delete (1 request)",
    corrections: [{ kind: "create", message: "+ CREATE www A 192.0.2.1", id: "new" }],
    setAside: [],
    ...extra,
  };
}

/** The lines of the template's section: from its title to the paragraph after it (the value's, or the footer). */
function sectionLines(markdown: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(TITLE);
  expect(start, markdown).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && /^(To apply|No `DOMAINAPI_EXPECT_PLAN`|<sub>)/.test(l));
  return lines.slice(start, end - 1);
}

describe("a template's section", () => {
  it("with the account it is sent to: its changes, the account, its digest", () => {
    expect(
      sectionLines(planMarkdown([plan({ account: "https://api.example.com/v1", digest: DIGEST })])),
    ).toEqual([
      TITLE,
      "",
      ...CHANGES,
      "",
      "Sent to account `https://api.example.com/v1`.",
      "",
      `Plan digest \`${DIGEST}\``,
    ]);
  });

  it("whose account the preview does not say: its changes and why it has no digest, no account line", () => {
    expect(sectionLines(planMarkdown([plan({ notPlannable: "account" })]))).toEqual([
      TITLE,
      "",
      ...CHANGES,
      "",
      expect.stringMatching(/^No plan digest: \*\*no digest\*\*: the preview does not say which account/),
    ]);
  });

  it("given no digest and no reason: its changes, then nothing", () => {
    expect(sectionLines(planMarkdown([plan()]))).toEqual([TITLE, "", ...CHANGES]);
  });
});

describe("a preview that failed, with what it planned before", () => {
  it("the heading, the failure, the section, the footer: no value to set, nor a paragraph in its place", () => {
    const markdown = planMarkdown(
      [plan({ account: "https://api.example.com/v1", digest: DIGEST })],
      ["error: boom"],
    );
    const paragraphs = markdown.trimEnd().split("\n\n");
    expect(paragraphs.slice(0, 3)).toEqual([PLAN_HEADING, PREVIEW_FAILED, "```text\nerror: boom\n```"]);
    expect(paragraphs[3]).toBe(TITLE);
    expect(paragraphs.at(-2)).toBe(`Plan digest \`${DIGEST}\``);
    expect(paragraphs.at(-1)).toMatch(/^<sub>Made by <code>domainapi-plan<\/code>.*<\/sub>$/);
    expect(paragraphs).toHaveLength(8);
    expect(markdown).not.toContain("DOMAINAPI_EXPECT_PLAN");
  });
});
