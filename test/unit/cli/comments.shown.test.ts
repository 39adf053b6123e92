/**
 * Only what GitHub shows of the workflow's plan comment is what reviewers approved, and the comment
 * can be edited by anyone with write access. So the value is read as GitHub renders Markdown: an HTML
 * comment outside a code block shows nothing, a code fence (CommonMark: three or more backticks, up
 * to three spaces in, closed by a fence at least as long) shows its lines as text, and the value must
 * name exactly the templates shown, each with the digest shown under its heading.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, reviewedPlan } from "../../../provider/cli/comments";
import { PREVIEW_FAILED } from "../../../provider/cli/markdown";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const D1 = "0123456789abcdef0123456789abcdef";
const D2 = "fedcba9876543210fedcba9876543210";
const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };
const PLAN = `the plan comment of commit ${HEAD}`;

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
const section = (id = "web", digest = D1) => [
  `**Template \`${id}\`** (resource \`r\`): 1 to create`,
  "",
  `Plan digest \`${digest}\``,
];
const valueBlock = (value = `web=${D1}`) => ["```text", `DOMAINAPI_EXPECT_PLAN='${value}'`, "```"];
const why = (middle: readonly string[]) => {
  const result = reviewedPlan([{ user: { login: DEFAULT_AUTHOR }, body: comment(middle) }], selection);
  return result.ok ? `ok ${result.value}` : result.reason;
};

describe("the value line", () => {
  it("in a code block, as domainapi-plan writes it: the value", () => {
    expect(why([...section(), "", ...valueBlock()])).toBe(`ok web=${D1}`);
    // A fence may carry another info string, be longer, or stand up to three spaces in.
    expect(why([...section(), "````", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "````"])).toBe(`ok web=${D1}`);
    expect(why([...section(), "   ```sh", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "   ```  "])).toBe(
      `ok web=${D1}`,
    );
  });

  it("none: the message says a plan was not known, and where value text stands that GitHub does not show as one", () => {
    expect(why(section())).toBe(
      `${PLAN} shows no DOMAINAPI_EXPECT_PLAN value: a template's plan was not known in the preview (see the comment)`,
    );
    expect(why([...section(), `  DOMAINAPI_EXPECT_PLAN='web=${D1}'`])).toBe(
      `${PLAN} shows no DOMAINAPI_EXPECT_PLAN value (and 1 outside a code block): a template's plan was not known in the preview (see the comment)`,
    );
    expect(
      why([...section(), `<!-- DOMAINAPI_EXPECT_PLAN='web=${D1}' -->`, `DOMAINAPI_EXPECT_PLAN='web=${D1}'`]),
    ).toBe(
      `${PLAN} shows no DOMAINAPI_EXPECT_PLAN value (and 1 in an HTML comment, not shown on GitHub, 1 outside a code block): a template's plan was not known in the preview (see the comment)`,
    );
  });

  it("four spaces in is no fence: its lines are not in a code block", () => {
    expect(why([...section(), "    ```", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "    ```"])).toMatch(
      /shows no DOMAINAPI_EXPECT_PLAN value \(and 1 outside a code block\)/,
    );
  });

  it("a fence closes only with a fence at least as long, with nothing after it", () => {
    // The three-backtick line inside a four-backtick block is text: the value after it is still in the block.
    expect(why([...section(), "````", "```", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "````"])).toBe(
      `ok web=${D1}`,
    );
    // "``` x" does not close the block, so the loose value line below it is in the block too: two values.
    expect(
      why([...section(), ...valueBlock().slice(0, 2), "``` x", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "```"]),
    ).toBe(`${PLAN} holds 2 DOMAINAPI_EXPECT_PLAN lines; domainapi-plan writes one`);
    // A closed block: the value line after it is outside.
    expect(why([...section(), ...valueBlock(), `DOMAINAPI_EXPECT_PLAN='web=${D1}'`])).toBe(
      `${PLAN} holds DOMAINAPI_EXPECT_PLAN text beside its value line (1 outside a code block); domainapi-plan writes none`,
    );
  });

  it("a longer fence closes a block; one four spaces in does not", () => {
    const loose = `${PLAN} holds DOMAINAPI_EXPECT_PLAN text beside its value line (1 outside a code block); domainapi-plan writes none`;
    const value = `DOMAINAPI_EXPECT_PLAN='web=${D1}'`;
    expect(why([...section(), "```text", value, "`````", value])).toBe(loose);
    expect(why([...section(), "```text", value, "    ```", value, "```"])).toBe(
      `${PLAN} holds 2 DOMAINAPI_EXPECT_PLAN lines; domainapi-plan writes one`,
    );
  });

  it("a fence line with a backtick in its info string opens nothing (CommonMark): the value line after it is loose", () => {
    expect(why([...section(), "```te`xt", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "```"])).toMatch(
      /\(and 1 outside a code block\)/,
    );
  });

  it("must start the line in its block: indented there, it is not the value", () => {
    expect(why([...section(), "```text", ` DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "```"])).toBe(
      `${PLAN} shows no DOMAINAPI_EXPECT_PLAN value: a template's plan was not known in the preview (see the comment)`,
    );
  });

  it("two in blocks and one hidden: counted each", () => {
    expect(
      why([...section(), ...valueBlock(), ...valueBlock(), `<!-- DOMAINAPI_EXPECT_PLAN='web=${D2}' -->`]),
    ).toBe(
      `${PLAN} holds 2 DOMAINAPI_EXPECT_PLAN lines (and 1 in an HTML comment, not shown on GitHub); domainapi-plan writes one`,
    );
  });

  it("empty, malformed, or `none` beside a shown plan: refused, saying which", () => {
    expect(why([...section(), ...valueBlock("")])).toBe(`${PLAN} has an empty DOMAINAPI_EXPECT_PLAN value`);
    expect(why([...section(), ...valueBlock("web=xyz")])).toMatch(
      new RegExp(`^${PLAN}: DOMAINAPI_EXPECT_PLAN: "web=xyz" is not a templateId=digest pair`),
    );
    expect(why([...section(), ...valueBlock("none")])).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value leaves out template \`web\`, whose plan it shows`,
    );
    // Nothing to change, nothing shown: `none` is the reviewed plan.
    expect(why(["No DNS record changes.", "", ...valueBlock("none")])).toBe("ok none");
  });
});

describe("HTML comments", () => {
  it("text after a closed one on the same line, or after the line that closes one, is shown", () => {
    const [heading, , digest] = section() as [string, string, string];
    expect(why([`<!-- x -->${heading}`, digest, ...valueBlock()])).toBe(`ok web=${D1}`);
    expect(why(["<!-- hidden", `-->${heading}`, digest, ...valueBlock()])).toBe(`ok web=${D1}`);
    expect(why(["<!--", "hidden", "-->", heading, `<!-- a -->${digest}<!-- b -->`, ...valueBlock()])).toBe(
      `ok web=${D1}`,
    );
    // Shown after the comment: a value line there is loose text, not hidden.
    expect(why([heading, digest, ...valueBlock(), `<!-- x -->DOMAINAPI_EXPECT_PLAN='web=${D1}'`])).toBe(
      `${PLAN} holds DOMAINAPI_EXPECT_PLAN text beside its value line (1 outside a code block); domainapi-plan writes none`,
    );
  });

  it("a section inside one is not shown: its template cannot be in the value", () => {
    expect(
      why([...section(), "<!--", ...section("other", D2), "-->", ...valueBlock(`web=${D1} other=${D2}`)]),
    ).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value names template \`other\`, whose plan the comment does not show`,
    );
    expect(why([...section(), `<!-- ${section("other", D2).join(" ")} -->`, ...valueBlock()])).toBe(
      `ok web=${D1}`,
    );
  });

  it("one never closed hides the rest of the comment, its value too", () => {
    expect(why([...section(), "<!-- note", ...valueBlock()])).toBe(
      `${PLAN} shows no DOMAINAPI_EXPECT_PLAN value (and 1 in an HTML comment, not shown on GitHub): a template's plan was not known in the preview (see the comment)`,
    );
    expect(why([...section(), "text <!-- note", "```text", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`])).toMatch(
      /and 1 in an HTML comment/,
    );
  });

  it("inside a code block it is text, shown as written", () => {
    expect(why([...section(), "```text", `DOMAINAPI_EXPECT_PLAN='web=${D1}'`, "<!--", "```"])).toBe(
      `ok web=${D1}`,
    );
  });
});

describe("the templates shown and their digests", () => {
  it("every template shown, each with its own digest: the value, in the value's order", () => {
    expect(why([...section("web", D1), ...section("mail", D2), ...valueBlock(`mail=${D2} web=${D1}`)])).toBe(
      `ok mail=${D2} web=${D1}`,
    );
  });

  it("a digest other than the one shown under the template, or a template left out", () => {
    expect(why([...section("web", D1), ...section("mail", D2), ...valueBlock(`web=${D2} mail=${D2}`)])).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value gives template \`web\` the digest ${D2}, but the plan shown for it has ${D1}`,
    );
    expect(why([...section("web", D1), ...section("mail", D2), ...section("dns", D1), ...valueBlock()])).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value leaves out template \`mail\`, \`dns\`, whose plan it shows`,
    );
  });

  it("a template shown twice, a heading without its id, a digest outside a section or two in one: refused", () => {
    expect(why([...section(), ...section(), ...valueBlock()])).toBe(
      `${PLAN}: template \`web\` is shown twice`,
    );
    expect(why(["**Template web** (resource `r`)", ...valueBlock()])).toBe(
      `${PLAN}: a template heading names no template: "**Template web** (resource \`r\`)"`,
    );
    expect(why([`Plan digest \`${D1}\``, ...section(), ...valueBlock()])).toBe(
      `${PLAN}: a plan digest (${D1}) stands outside a template's section, or a section has two`,
    );
    expect(why([...section(), `Plan digest \`${D2}\``, ...valueBlock()])).toBe(
      `${PLAN}: a plan digest (${D2}) stands outside a template's section, or a section has two`,
    );
  });

  it("a digest line is the whole line, outside code blocks; anything else is not a digest shown", () => {
    const heading = section()[0] as string;
    for (const line of [
      ` Plan digest \`${D2}\``,
      `Plan digest \`${D2}\`.`,
      `Plan digest \`${D2.toUpperCase()}\``,
      `Plan digest \`${D2}0\``,
      `Plan digest \`${D2.slice(1)}\``,
      `Plan digest ${D2}`,
      `Plan  digest \`${D2}\``,
    ]) {
      expect(why([heading, `Plan digest \`${D1}\``, line, ...valueBlock()])).toBe(`ok web=${D1}`);
    }
    expect(
      why([heading, "```", `Plan digest \`${D2}\``, "```", `Plan digest \`${D1}\``, ...valueBlock()]),
    ).toBe(`ok web=${D1}`);
    // A heading in a code block (a warning quoting one) starts no section.
    expect(
      why([heading, `Plan digest \`${D1}\``, "```", section("web")[0] as string, "```", ...valueBlock()]),
    ).toBe(`ok web=${D1}`);
  });

  it("a template without a digest (its plan not known) is not in the value, and one with none is not shown", () => {
    expect(why([section("later")[0] as string, ...section(), ...valueBlock()])).toBe(`ok web=${D1}`);
  });

  it("a restore's section is named restore/<domain> in the value", () => {
    const restore = [
      "**Domain restore `shop.example`** (resource `r`, new): restored",
      "",
      `Plan digest \`${D2}\``,
    ];
    expect(why([...section(), ...restore, ...valueBlock(`web=${D1} restore/shop.example=${D2}`)])).toBe(
      `ok web=${D1} restore/shop.example=${D2}`,
    );
    expect(why([...section(), ...restore, ...valueBlock(`web=${D1} shop.example=${D2}`)])).toBe(
      `${PLAN}: its DOMAINAPI_EXPECT_PLAN value names template \`shop.example\`, whose plan the comment does not show`,
    );
    expect(why(["**Domain restore shop.example**", ...valueBlock()])).toMatch(
      /a template heading names no template/,
    );
  });

  it("template ids as code spans: backticks inside, padding stripped as CommonMark does", () => {
    const shown = (span: string, digest = D1) => [
      `**Template ${span}** (resource \`r\`)`,
      `Plan digest \`${digest}\``,
    ];
    expect(why([...shown("``a`b``"), ...valueBlock(`a\`b=${D1}`)])).toBe(`ok a\`b=${D1}`);
    expect(why([...shown("`` `a ``"), ...valueBlock(`\`a=${D1}`)])).toBe(`ok \`a=${D1}`);
    expect(why([...shown("` web `"), ...valueBlock()])).toBe(`ok web=${D1}`);
    // One-sided padding, and a span of spaces only, are kept as they are.
    expect(why([...shown("` web`"), ...valueBlock()])).toMatch(
      /names template `web`, whose plan the comment does not show/,
    );
    expect(why([...shown("``a`b`"), ...valueBlock()])).toMatch(/a template heading names no template/);
    expect(why([...shown("``a```b``"), ...valueBlock(`a\`\`\`b=${D1}`)])).toBe(`ok a\`\`\`b=${D1}`);
  });

  it("an id the value writes with a raw invisible character matches the escape the heading shows", () => {
    const heading = ["**Template `a\\u{200B}b`** (resource `r`)", `Plan digest \`${D1}\``];
    expect(why([...heading, ...valueBlock(`a\u200Bb=${D1}`)])).toBe(`ok a\u200Bb=${D1}`);
  });
});

describe("a failed preview", () => {
  it("its section, shown: no reviewed plan", () => {
    expect(why([PREVIEW_FAILED, "", "```text", "error: boom", "```", ...section(), ...valueBlock()])).toBe(
      `the preview of commit ${HEAD} failed: its plan comment gives no reviewed plan`,
    );
  });

  it("the sentence inside a code block (a warning that quotes it) or inside an HTML comment is no failure", () => {
    expect(why([...section(), "```text", PREVIEW_FAILED, "```", ...valueBlock()])).toBe(`ok web=${D1}`);
    expect(why([`<!-- ${PREVIEW_FAILED} -->`, ...section(), ...valueBlock()])).toBe(`ok web=${D1}`);
  });
});
