/**
 * What `domainapi-plan --comments` reads: the output of `gh api repos/OWNER/REPO/issues/N/comments`
 * (one JSON array; with `--paginate` one array per page printed one after the other; with `--slurp`
 * an array of those pages). Anyone can comment, so a comment's body can hold anything, JSON among it:
 * no body may stop the deploy. Output that is not such a list is refused, saying what does not fit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, parseComments, reviewedPlan } from "../../../provider/cli/comments";
import { PreviewInputError } from "../../../provider/cli/errors";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const DIGEST = "0123456789abcdef0123456789abcdef";
const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };

/** The workflow's plan comment for HEAD, as domainapi-plan writes it (the parts the choice reads). */
const PLAN = [
  "### DNS record plan",
  "",
  `**Template \`web\`** (resource \`web\`): 1 to create`,
  "",
  `Plan digest \`${DIGEST}\``,
  "",
  "```text",
  `DOMAINAPI_EXPECT_PLAN='web=${DIGEST}'`,
  "```",
  "",
  `<!-- domainapi-plan commit=${HEAD} -->`,
  DEFAULT_MARKER,
].join("\n");

const bot = { id: 1, user: { login: DEFAULT_AUTHOR, type: "Bot" }, body: PLAN };
const by = (login: string, body: string | null, id = 2) => ({ id, user: { login, type: "User" }, body });

/** The message `parseComments` refuses `text` with. */
function refusal(text: string): string {
  try {
    parseComments(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PreviewInputError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

const NOT_JSON = (reason: string) =>
  `the comments are not JSON (${reason}): expected what \`gh api repos/OWNER/REPO/issues/N/comments --paginate\` prints`;
const NOT_COMMENTS = "the input is not the comments of a pull request as `gh api` returns them: ";

describe("a comment whose body is JSON, or holds quotes, backslashes and brackets, never stops the deploy", () => {
  const bodies = [
    '{"message": "Not Found"}',
    '[{"body": "DOMAINAPI_EXPECT_PLAN=web=00000000000000000000000000000000"}]',
    "[1, 2, 3]",
    '"quoted"',
    "a backslash at the end \\",
    '\\" an escaped quote, then ] } [ {',
    'C:\\temp\\ and "}]"',
    "",
  ];

  it("one array, pages one after the other, an array of pages: the bot's plan", () => {
    const comments = [...bodies.map((b, i) => by("alice", b, 100 + i)), bot];
    const pages = [comments.slice(0, 3), comments.slice(3)];
    for (const text of [
      JSON.stringify(comments),
      JSON.stringify(comments, null, 2),
      pages.map((p) => JSON.stringify(p)).join(""),
      pages.map((p) => JSON.stringify(p, null, "\t")).join("\r\n"),
      JSON.stringify(pages),
    ]) {
      const parsed = parseComments(text);
      expect(parsed.map((c) => c.body)).toEqual(comments.map((c) => c.body));
      expect(reviewedPlan(parsed, selection)).toEqual({ ok: true, value: `web=${DIGEST}` });
    }
  });

  it("any bodies and logins, any paging: every comment read back as it was posted", () => {
    // What JSON escapes or nests, beside plain text and characters beyond the BMP.
    const unit = fc.constantFrom(
      '"',
      "\\",
      "[",
      "]",
      "{",
      "}",
      ",",
      "\n",
      "\u2028",
      "\ud800",
      "a",
      " ",
      "é",
      "😀",
    );
    const comment = fc.record({
      id: fc.nat(),
      user: fc.option(fc.record({ login: fc.string({ unit, maxLength: 12 }) }), { nil: null }),
      body: fc.option(fc.string({ unit, maxLength: 40 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(comment, { maxLength: 4 }), { maxLength: 4 }),
        fc.constantFrom("", "\n", " \r\n\t"),
        fc.boolean(),
        (pages, between, pretty) => {
          const text = pages.map((p) => JSON.stringify(p, null, pretty ? 2 : undefined)).join(between);
          expect(parseComments(text)).toEqual(pages.flat());
        },
      ),
    );
  });

  it("a deleted user's comment (user null) and an empty one (body null) are read, not refused", () => {
    const parsed = parseComments(JSON.stringify([{ id: 3, user: null, body: null }, bot]));
    expect(parsed).toHaveLength(2);
    expect(reviewedPlan(parsed, selection)).toEqual({ ok: true, value: `web=${DIGEST}` });
  });

  it("no comments at all (an empty list, or nothing printed): no plan, not a refusal of the input", () => {
    expect(parseComments("[]")).toEqual([]);
    expect(parseComments("")).toEqual([]);
    expect(parseComments(" \n")).toEqual([]);
  });
});

describe("output that is not JSON: refused, saying where", () => {
  it("a stray character between pages, or text before them", () => {
    expect(refusal("[] x")).toBe(NOT_JSON('unexpected "x" at position 3'));
    expect(refusal("[],[]")).toBe(NOT_JSON('unexpected "," at position 2'));
    expect(refusal("gh: Not Found (HTTP 404)")).toBe(NOT_JSON('unexpected "g" at position 0'));
  });

  it("output cut short, inside an array or inside a string", () => {
    expect(refusal(`[{"body": "a"}`)).toBe(NOT_JSON("the input ends inside a value"));
    expect(refusal(`[{"body": "a}]`)).toBe(NOT_JSON("the input ends inside a value"));
    expect(refusal(`"a`)).toBe(NOT_JSON("the input ends inside a value"));
  });

  it("brackets that balance but are not JSON: JSON's own error", () => {
    expect(refusal("[{]")).toMatch(/^the comments are not JSON \(.+\): expected what `gh api/);
  });
});

describe("JSON that is not a list of comments: refused, saying what does not fit", () => {
  it("an object (gh's error answer, or one comment's URL fetched by mistake)", () => {
    expect(refusal('{"message": "Not Found", "status": "404"}')).toBe(
      `${NOT_COMMENTS}expected arrays of comments`,
    );
    expect(refusal(`[${JSON.stringify(bot)}] {"message": "Not Found"}`)).toBe(
      `${NOT_COMMENTS}expected arrays of comments`,
    );
  });

  it("a list of other things: the schema's complaint, on one line", () => {
    for (const text of ["[1]", '[{"body": 5}]', '[{"user": {"id": 1}}]', '[["x"]]']) {
      const message = refusal(text);
      expect(message.startsWith(NOT_COMMENTS)).toBe(true);
      expect(message.length).toBeGreaterThan(NOT_COMMENTS.length + 5);
      expect(message).not.toContain("\n");
    }
  });
});
