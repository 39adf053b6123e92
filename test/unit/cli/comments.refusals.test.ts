/**
 * What `domainapi-plan --comments` says when it takes no plan (cli/comments.ts), word for word: a
 * list that is not GitHub's comments, in one line; value text beside the value line, each place it
 * stands named. And a comment whose body is absent (GitHub's API gives `null`) reads as an empty
 * one: it holds no marker, whatever the marker.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  commentLines,
  DEFAULT_AUTHOR,
  DEFAULT_MARKER,
  parseComments,
  reviewedPlan,
} from "../../../provider/cli/comments";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const D1 = "0123456789abcdef0123456789abcdef";
const VALUE = `DOMAINAPI_EXPECT_PLAN='web=${D1}'`;

function refusal(text: string): string {
  try {
    parseComments(text);
  } catch (err) {
    // The code of an input that is not what the command reads (it exits 2).
    expect(err).toMatchObject({ code: "DOMAINAPI_PREVIEW_INPUT" });
    return (err as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

describe("a list that is not GitHub's comments", () => {
  it("is refused in one line naming what does not fit and where, zod's lines kept apart by a space", () => {
    // zod says "✖ Invalid input" and, on its next line, "  → at [0]": the item that is no comment.
    expect(refusal('[{"body": 5}]')).toBe(
      "the input is not the comments of a pull request as `gh api` returns them: ✖ Invalid input   → at [0]",
    );
  });
});

describe("value text beside the value line", () => {
  it("hidden in an HTML comment and loose outside a code block: refused, naming both places", () => {
    const body = [
      "### DNS record plan",
      "",
      "**Template `web`** (resource `r`): 1 to create",
      "",
      `Plan digest \`${D1}\``,
      "",
      "```text",
      VALUE,
      "```",
      `<!-- ${VALUE} -->`,
      VALUE,
      "",
      `<!-- domainapi-plan commit=${HEAD} -->`,
      DEFAULT_MARKER,
    ].join("\n");
    const result = reviewedPlan([{ user: { login: DEFAULT_AUTHOR }, body }], {
      commit: HEAD,
      author: DEFAULT_AUTHOR,
      marker: DEFAULT_MARKER,
    });
    expect(result).toEqual({
      ok: false,
      reason:
        `the plan comment of commit ${HEAD} holds DOMAINAPI_EXPECT_PLAN text beside its value line ` +
        "(1 in an HTML comment, not shown on GitHub, 1 outside a code block); domainapi-plan writes none",
    });
  });
});

describe("a comment whose body is absent", () => {
  it("has the lines of an empty one", () => {
    expect(commentLines({ body: null })).toEqual(commentLines({ body: "" }));
    expect(commentLines({})).toEqual(commentLines({ body: "" }));
  });

  it("by the workflow's account, for any marker: the same outcome as an empty comment (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), (marker) => {
        const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker };
        expect(reviewedPlan([{ user: { login: DEFAULT_AUTHOR }, body: null }], selection)).toEqual(
          reviewedPlan([{ user: { login: DEFAULT_AUTHOR }, body: "" }], selection),
        );
      }),
    );
  });
});
