/**
 * The workflow's plan comment read as GitHub renders it (CommonMark), where a careless reading would
 * take another value than the one reviewers saw (cli/comments.ts): a code span's padding, stripped
 * only when it stands on both sides of text; a closing code fence, which has nothing after its
 * backticks but spaces; and an HTML comment left open at the end of a line, which hides the rest.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, reviewedPlan } from "../../../provider/cli/comments";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const D1 = "0123456789abcdef0123456789abcdef";
const D2 = "fedcba9876543210fedcba9876543210";
const PLAN = `the plan comment of commit ${HEAD}`;
const VALUE = `DOMAINAPI_EXPECT_PLAN='web=${D1}'`;

/** The workflow's plan comment for HEAD with `middle` between its heading and its markers. */
function comment(middle: readonly string[]): string {
  return [
    "### DNS record plan",
    "",
    ...middle,
    "",
    `<!-- domainapi-plan commit=${HEAD} -->`,
    DEFAULT_MARKER,
  ].join("\n");
}

/** A template's section, its id written as the code span `span`. */
function section(span: string, digest: string): string[] {
  return [`**Template ${span}** (resource \`r\`): 1 to create`, "", `Plan digest \`${digest}\``];
}

/** The value `domainapi-plan` takes from the comment, or why it takes none. */
function why(middle: readonly string[]): string {
  const result = reviewedPlan([{ user: { login: DEFAULT_AUTHOR }, body: comment(middle) }], {
    commit: HEAD,
    author: DEFAULT_AUTHOR,
    marker: DEFAULT_MARKER,
  });
  return result.ok ? `ok ${result.value}` : result.reason;
}

describe("a template id shown as a code span (CommonMark 0.31, 6.1)", () => {
  /** The refusal that names the second template's id as the comment shows it (`web` alone is in the value). */
  const leftOut = (span: string) =>
    why([...section("`web`", D1), "", ...section(span, D2), "", "```text", VALUE, "```"]);
  const leavesOut = (id: string) =>
    `${PLAN}: its DOMAINAPI_EXPECT_PLAN value leaves out template \`${id}\`, whose plan it shows`;

  it("one space stripped from each side when both sides have one", () => {
    expect(leftOut("` a `")).toBe(leavesOut("a"));
    expect(leftOut("`` foo ` bar ``")).toBe(leavesOut("foo ` bar"));
    expect(leftOut("` `` `")).toBe(leavesOut("``"));
    // Only one space each side.
    expect(leftOut("`  ``  `")).toBe(leavesOut(" `` "));
  });

  it("a space on one side only is kept", () => {
    expect(leftOut("` a`")).toBe(leavesOut(" a"));
    expect(leftOut("`a `")).toBe(leavesOut("a "));
  });

  it("a span of spaces only is kept whole", () => {
    expect(leftOut("` `")).toBe(leavesOut(" "));
    expect(leftOut("`  `")).toBe(leavesOut("  "));
  });

  it("the value names a padded id as shown: accepted; with the padding GitHub strips, not the same template", () => {
    expect(why([...section("` web `", D1), "", "```text", VALUE, "```"])).toBe(`ok web=${D1}`);
    expect(why([...section("`web `", D1), "", "```text", VALUE, "```"])).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value names template \`web\`, whose plan the comment does not show`,
    );
  });
});

describe("a code fence", () => {
  it("is not closed by backticks with text after them: the value line after such a line is still in the block", () => {
    // CommonMark 4.5: a closing fence may be followed only by spaces or tabs.
    expect(why([...section("`web`", D1), "", "```text", VALUE, "```sh", VALUE, "```"])).toBe(
      `${PLAN} holds 2 DOMAINAPI_EXPECT_PLAN lines; domainapi-plan writes one`,
    );
  });

  it("is closed by backticks with spaces after them: a value line after it is loose text", () => {
    expect(why([...section("`web`", D1), "", "```text", VALUE, "```   ", VALUE])).toBe(
      `${PLAN} holds DOMAINAPI_EXPECT_PLAN text beside its value line (1 outside a code block); domainapi-plan writes none`,
    );
  });
});

describe("an HTML comment opened after text and left open to a later line", () => {
  it("hides the rest of its line: another value there is hidden text beside the value, refused", () => {
    const middle = [
      ...section("`web`", D1),
      "",
      "```text",
      VALUE,
      "```",
      `Reviewed. <!-- DOMAINAPI_EXPECT_PLAN='web=${D2}'`,
      "-->",
    ];
    expect(why(middle)).toBe(
      `${PLAN} holds DOMAINAPI_EXPECT_PLAN text beside its value line (1 in an HTML comment, not shown on GitHub); domainapi-plan writes none`,
    );
  });

  it("shows the text before it: a heading there still opens its section", () => {
    // The heading stands before the comment: its plan is shown, the value must name it.
    const middle = ["**Template `web`** (resource `r`) <!-- edited", "-->", `Plan digest \`${D1}\``];
    expect(why([...middle, "", "```text", VALUE, "```"])).toBe(`ok web=${D1}`);
  });
});
