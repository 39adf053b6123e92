/**
 * The reviewed plan of a merged pull request comes only from the workflow's own plan comment about
 * the merged head commit (`domainapi-plan --comments`): of the comment lists below, only the bot's
 * comment for that commit yields a value; every other one stops with the check that failed.
 * Comment bodies are real plans of a captured preview, posted as the sticky comment action posts
 * them (its marker on the last line).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_AUTHOR,
  DEFAULT_MARKER,
  type PullRequestComment,
  parseComments,
  reviewedPlan,
} from "../../../provider/cli/comments";
import { type PlanCommandIo, runPlanCommand } from "../../../provider/cli/plan";
import { parsePreview } from "../../../provider/cli/preview";
import { planComment, planExpectation } from "../../../provider/cli/review";

const fixtures = path.join(__dirname, "..", "..", "fixtures", "preview");
// Made in each test, never while tests are collected: a mutation run attributes code run outside a
// test to every test.
const update = () => parsePreview(fs.readFileSync(path.join(fixtures, "update.json"), "utf8"));
const failed = () => parsePreview(fs.readFileSync(path.join(fixtures, "failed.json"), "utf8"));

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const EARLIER = "89abcdef0123456789abcdef0123456789abcdef";
const reviewed = () => planExpectation(update()) as string;
const FORGED = "web=00000000000000000000000000000000";

/** A comment as `gh api repos/O/R/issues/N/comments` returns it (the fields that matter, and a few that do not). */
function comment(login: string, body: string, id = 1): PullRequestComment & Record<string, unknown> {
  return {
    id,
    html_url: `https://github.com/o/r/pull/7#issuecomment-${id}`,
    user: { login, type: login.endsWith("[bot]") ? "Bot" : "User" },
    body,
    created_at: "2026-11-26T10:00:00Z",
  };
}

/** The workflow's comment: the plan of `commit`, with the sticky action's marker appended. */
const bot = (commit: string, preview = update()) =>
  comment(DEFAULT_AUTHOR, `${planComment(preview, { commit })}\n${DEFAULT_MARKER}`, 10);

const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };

describe("the reviewed plan of a merged pull request", () => {
  it("the bot's comment for the merged head commit, alone: its plan", () => {
    expect(reviewed()).toMatch(/^\S+=[0-9a-f]{32}( \S+=[0-9a-f]{32})+$/);
    expect(reviewedPlan([bot(HEAD)], selection)).toEqual({ ok: true, value: reviewed() });
  });

  it("a later comment by another user holding a plan line (and the marker): still the bot's plan", () => {
    const forged = comment(
      "mallory",
      `### DNS record plan\n\nDOMAINAPI_EXPECT_PLAN='${FORGED}'\n<!-- domainapi-plan commit=${HEAD} -->\n${DEFAULT_MARKER}`,
      11,
    );
    expect(reviewedPlan([bot(HEAD), forged], selection)).toEqual({ ok: true, value: reviewed() });
    // Without the bot's comment, the forged one yields nothing, and the message names who was ignored.
    const alone = reviewedPlan([forged], selection);
    expect(alone).toEqual({ ok: false, reason: expect.stringMatching(/no plan comment of the workflow/) });
    expect(alone.ok ? "" : alone.reason).toMatch(/ignored: a plan line in comments by mallory/);
  });

  it("a quoted reply to the bot's comment is never read; alone it yields nothing", () => {
    const quoted = planComment(update(), { commit: HEAD })
      .split("\n")
      .map((l) => `> ${l}`)
      .join("\n");
    const reply = comment("alice", `${quoted}\n\nLooks good, but:\n\nDOMAINAPI_EXPECT_PLAN=${FORGED}`, 12);
    expect(reviewedPlan([bot(HEAD), reply], selection)).toEqual({ ok: true, value: reviewed() });
    expect(reviewedPlan([reply], selection).ok).toBe(false);
  });

  it("the bot's comment for an older commit: stops, naming both commits", () => {
    const result = reviewedPlan([bot(EARLIER)], selection);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.reason).toMatch(
      new RegExp(`not about the merged head commit ${HEAD}: it is for commit ${EARLIER}`),
    );
  });

  it("no comment at all: stops", () => {
    const result = reviewedPlan([], selection);
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^no plan comment of the workflow: no comment by github-actions\[bot\]/),
    });
  });

  it("the bot's comment of a failed preview, or one made without --commit: stops, saying which", () => {
    const failedResult = reviewedPlan([bot(HEAD, failed())], selection);
    expect(failedResult.ok ? "" : failedResult.reason).toMatch(
      new RegExp(`the preview of commit ${HEAD} failed`),
    );
    const unmarked = comment(DEFAULT_AUTHOR, `${planComment(update())}\n${DEFAULT_MARKER}`);
    const result = reviewedPlan([unmarked], selection);
    expect(result.ok ? "" : result.reason).toMatch(/names no commit \(domainapi-plan ran without --commit\)/);
  });

  it("another author or marker is configurable: an app's comment counts only when named", () => {
    const app = { ...bot(HEAD), user: { login: "dns-plans[bot]" } };
    expect(reviewedPlan([app], selection).ok).toBe(false);
    expect(reviewedPlan([app], { ...selection, author: "dns-plans[bot]" })).toEqual({
      ok: true,
      value: reviewed(),
    });
    expect(reviewedPlan([bot(HEAD)], { ...selection, marker: "<!-- other -->" }).ok).toBe(false);
  });

  it("reads gh api's output: one array, pages one after the other (--paginate), an array of pages (--slurp)", () => {
    const one = [comment("alice", "hi", 1), bot(HEAD)];
    const pages = [[comment("alice", "hi", 1)], [bot(HEAD)]];
    for (const text of [
      JSON.stringify(one),
      pages.map((p) => JSON.stringify(p, null, 2)).join("\n"),
      pages.map((p) => JSON.stringify(p)).join(""),
      JSON.stringify(pages),
    ]) {
      expect(reviewedPlan(parseComments(text), selection)).toEqual({ ok: true, value: reviewed() });
    }
    expect(() => parseComments('{"message": "Not Found"}')).toThrow(/not the comments of a pull request/);
    expect(() => parseComments("[{]")).toThrow(/the comments are not JSON/);
  });
});

/** Runs the command and returns its status and output. */
async function run(args: string[]) {
  const stdin = new PassThrough();
  stdin.end("");
  let stdout = "";
  let stderr = "";
  const io: PlanCommandIo = {
    stdin,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  return { code: await runPlanCommand(args, io), stdout, stderr };
}

describe("domainapi-plan --comments", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-comments-"));
  const write = (name: string, comments: unknown[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(comments));
    return file;
  };

  it("prints the value of the bot's comment for the commit, else exits 2 with the check that failed", async () => {
    const good = await run(["--comments", write("good.json", [bot(HEAD)]), "--commit", HEAD]);
    expect(good).toEqual({ code: 0, stdout: `${reviewed()}\n`, stderr: "" });
    const old = await run(["--comments", write("old.json", [bot(EARLIER)]), "--commit", HEAD]);
    expect(old.code).toBe(2);
    expect(old.stdout).toBe("");
    expect(old.stderr).toMatch(
      /^domainapi-plan: no reviewed plan: the workflow's plan comment is not about the merged head commit/,
    );
  });

  it("--commit in the Markdown: shown, and marked for the deployment", async () => {
    const file = path.join(dir, "preview.json");
    fs.writeFileSync(file, JSON.stringify(update()));
    const { code, stdout } = await run(["--commit", HEAD.toUpperCase(), file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Planned from commit \`${HEAD}\`.`);
    expect(stdout).toContain(`<!-- domainapi-plan commit=${HEAD} -->`);
  });

  it("refuses an abbreviated commit, --comments without --commit, and --author without --comments", async () => {
    const file = write("any.json", []);
    const short = await run(["--comments", file, "--commit", HEAD.slice(0, 7)]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--commit: "0123456" is not a full commit id/);
    expect((await run(["--comments", file])).stderr).toMatch(/--comments needs --commit/);
    expect((await run(["--author", "x", file])).stderr).toMatch(
      /--author, --marker and --record choose and check the comment/,
    );
  });
});

describe("only what GitHub shows of the bot's comment counts (an edit by anyone with write access)", () => {
  const value = (body: string) => reviewedPlan([comment(DEFAULT_AUTHOR, body, 10)], selection);
  const good = () => bot(HEAD).body as string;
  const valueLine = /```text\nDOMAINAPI_EXPECT_PLAN='([^']*)'\n```/;

  it("a value moved into an HTML comment, invisible on GitHub: refused, saying so", () => {
    const hidden = good().replace(valueLine, "<!--\nDOMAINAPI_EXPECT_PLAN='$1'\n-->");
    expect(value(hidden)).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /shows no DOMAINAPI_EXPECT_PLAN value \(and 1 in an HTML comment, not shown on GitHub\)/,
      ),
    });
    const inline = good().replace(
      valueLine,
      "```text\nDOMAINAPI_EXPECT_PLAN='$1'\n```\n<!-- DOMAINAPI_EXPECT_PLAN='web=00000000000000000000000000000000' -->",
    );
    expect(value(inline).ok ? "" : (value(inline) as { reason: string }).reason).toMatch(
      /beside its value line \(1 in an HTML comment, not shown on GitHub\)/,
    );
    const unclosed = good().replace(valueLine, "<!-- DOMAINAPI_EXPECT_PLAN='$1'");
    expect(value(unclosed).ok).toBe(false);
  });

  it("a value outside the code block, or a second one: refused", () => {
    const loose = good().replace(valueLine, "DOMAINAPI_EXPECT_PLAN='$1'");
    expect((value(loose) as { reason: string }).reason).toMatch(/\(and 1 outside a code block\)/);
    const two = good().replace(
      valueLine,
      "```text\nDOMAINAPI_EXPECT_PLAN='$1'\n```\n\n```text\nDOMAINAPI_EXPECT_PLAN='$1'\n```",
    );
    expect((value(two) as { reason: string }).reason).toMatch(/holds 2 DOMAINAPI_EXPECT_PLAN lines/);
  });

  it("a value for a template the comment never shows, a digest not the shown one, a shown template left out", () => {
    const [, pairs] = valueLine.exec(good()) as RegExpExecArray;
    const first = (pairs as string).split(" ")[0] as string;
    const [template, digest] = first.split("=") as [string, string];
    const extra = good().replace(
      valueLine,
      `\`\`\`text\nDOMAINAPI_EXPECT_PLAN='${pairs} unshown=0123456789abcdef0123456789abcdef'\n\`\`\``,
    );
    expect((value(extra) as { reason: string }).reason).toMatch(
      /value names template `unshown`, whose plan the comment does not show/,
    );
    const other = good().replace(valueLine, (m) =>
      m.replace(`${template}=${digest}`, `${template}=0123456789abcdef0123456789abcdef`),
    );
    expect((value(other) as { reason: string }).reason).toMatch(
      new RegExp(
        `gives template \`${template}\` the digest 0123456789abcdef0123456789abcdef, but the plan shown for it has ${digest}`,
      ),
    );
    const fewer = good().replace(valueLine, (m) => m.replace(`${first} `, ""));
    expect((value(fewer) as { reason: string }).reason).toMatch(
      new RegExp(`value leaves out template \`${template}\`, whose plan it shows`),
    );
    // The comment as domainapi-plan wrote it gives its value.
    expect(value(good())).toEqual({ ok: true, value: reviewed() });
  });
});
