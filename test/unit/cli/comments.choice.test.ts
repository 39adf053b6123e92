/**
 * Which comment gives the reviewed plan of a merged pull request, and what the deployment is told
 * when none does: only the workflow's comments (its login, its sticky marker) that start with the
 * plan's heading and mark exactly the merged head commit count; two of them with different plans
 * are no reviewed plan. Every refusal says which check failed, since a deployer acts on it.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_AUTHOR,
  DEFAULT_MARKER,
  type PullRequestComment,
  parseComments,
  reviewedPlan,
} from "../../../provider/cli/comments";
import { type PlanCommandIo, runPlanCommand } from "../../../provider/cli/plan";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const EARLIER = "89abcdef0123456789abcdef0123456789abcdef";
const D1 = "0123456789abcdef0123456789abcdef";
const D2 = "fedcba9876543210fedcba9876543210";
const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };

/** A plan comment as domainapi-plan writes it for one template `web` with `digest`, marked for `commits`. */
function planBody(digest = D1, commits: readonly string[] = [HEAD]): string {
  return [
    "### DNS record plan",
    "",
    `**Template \`web\`** (resource \`web\`): 1 to create`,
    "",
    `Plan digest \`${digest}\``,
    "",
    "```text",
    `DOMAINAPI_EXPECT_PLAN='web=${digest}'`,
    "```",
    "",
    ...commits.map((c) => `<!-- domainapi-plan commit=${c} -->`),
    DEFAULT_MARKER,
  ].join("\n");
}

const by = (login: string | null, body: string | null): PullRequestComment =>
  ({ user: login === null ? null : { login }, body }) as PullRequestComment;
const bot = (body: string) => by(DEFAULT_AUTHOR, body);
const why = (comments: PullRequestComment[], commit = HEAD) => {
  const result = reviewedPlan(comments, { ...selection, commit });
  return result.ok ? `ok ${result.value}` : result.reason;
};

const NO_WORKFLOW_COMMENT = `no plan comment of the workflow: no comment by github-actions[bot] holds "<!-- Sticky Pull Request Commentdns-plan -->"`;
const notAbout = (was: string) =>
  `the workflow's plan comment is not about the merged head commit ${HEAD}: ${was}. ` +
  "The preview of the last push did not post its plan; preview that commit again before deploying";

describe("the workflow's comment, and only it", () => {
  it("is found by its login and its marker: the default ones are github-actions[bot] and the dns-plan sticky header", () => {
    expect(DEFAULT_AUTHOR).toBe("github-actions[bot]");
    expect(DEFAULT_MARKER).toBe("<!-- Sticky Pull Request Commentdns-plan -->");
    expect(why([by("github-actions[bot]", planBody())])).toBe(`ok web=${D1}`);
  });

  it("none: says whose comment with which marker is missing, and names only others who wrote a plan line", () => {
    expect(why([])).toBe(NO_WORKFLOW_COMMENT);
    expect(why([by("alice", "LGTM"), by(null, null)])).toBe(NO_WORKFLOW_COMMENT);
    // The bot's plan without its marker is not its sticky comment; the bot is never listed as "not the workflow".
    const unmarked = planBody().replace(DEFAULT_MARKER, "");
    expect(why([bot(unmarked)])).toBe(NO_WORKFLOW_COMMENT);
    const forged = planBody(D2);
    expect(
      why([by("mallory", forged), by(null, forged), by("eve", forged), by("mallory", forged), bot(unmarked)]),
    ).toBe(
      `${NO_WORKFLOW_COMMENT} (ignored: a plan line in comments by mallory, (deleted user), eve, who are not the workflow)`,
    );
  });

  it("another user's comment holding the marker and a plan line is not the workflow's", () => {
    expect(why([by("mallory", planBody(D2)), bot(planBody())])).toBe(`ok web=${D1}`);
    expect(why([bot(planBody()), by("mallory", planBody(D2))])).toBe(`ok web=${D1}`);
  });

  it("must start with the plan's heading: a quote of it, or a line above it, is not the plan", () => {
    expect(why([bot(`> ${planBody()}`)])).toBe(notAbout(`it is for commit ${HEAD}`));
    expect(why([bot(`Edited:\n${planBody()}`)])).toBe(notAbout(`it is for commit ${HEAD}`));
  });

  it("must mark exactly the merged head commit (any case of the given SHA), once", () => {
    expect(why([bot(planBody())], HEAD.toUpperCase())).toBe(`ok web=${D1}`);
    expect(why([bot(planBody(D1, [EARLIER]))])).toBe(notAbout(`it is for commit ${EARLIER}`));
    expect(why([bot(planBody(D1, [EARLIER])), bot(planBody(D2, [EARLIER]))])).toBe(
      notAbout(`it is for commit ${EARLIER}`),
    );
    // Two marks, the head's among them: which commit was planned cannot be told.
    expect(why([bot(planBody(D1, [EARLIER, HEAD]))])).toBe(notAbout(`it is for commit ${EARLIER}, ${HEAD}`));
    expect(why([bot(planBody(D1, [HEAD, HEAD]))])).toBe(notAbout(`it is for commit ${HEAD}`));
    expect(why([bot(planBody(D1, []))])).toBe(
      notAbout("it names no commit (domainapi-plan ran without --commit)"),
    );
  });

  it("is read whatever its line endings (a comment edited on Windows keeps CRLF)", () => {
    expect(why([bot(planBody().replaceAll("\n", "\r\n"))])).toBe(`ok web=${D1}`);
  });
});

describe("several plan comments of the workflow for the merged commit", () => {
  it("the same plan twice: that plan", () => {
    expect(why([bot(planBody()), bot(planBody())])).toBe(`ok web=${D1}`);
  });

  it("two different plans: no reviewed plan, whichever came first", () => {
    const reason = `the workflow posted 2 different plans for commit ${HEAD}`;
    expect(why([bot(planBody(D1)), bot(planBody(D2))])).toBe(reason);
    expect(why([bot(planBody(D2)), bot(planBody(D1))])).toBe(reason);
    expect(why([bot(planBody(D1)), bot(planBody(D2)), bot(planBody(D1))])).toBe(reason);
    expect(why([bot(planBody(D1)), bot(planBody(D2))], HEAD.toUpperCase())).toBe(reason);
  });

  it("one of them gives no value: that one's reason, even beside a good one", () => {
    const empty = planBody().replace(`'web=${D1}'`, "''");
    const reason = `the plan comment of commit ${HEAD} has an empty DOMAINAPI_EXPECT_PLAN value`;
    expect(why([bot(planBody()), bot(empty)])).toBe(reason);
    expect(why([bot(empty), bot(planBody())])).toBe(reason);
  });
});

/** Runs `domainapi-plan` in this process with `stdin` as its standard input. */
async function run(args: string[], stdin: string) {
  const { PassThrough } = await import("node:stream");
  const input = new PassThrough();
  input.end(stdin);
  let stdout = "";
  let stderr = "";
  const io: PlanCommandIo = {
    stdin: input,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  return { code: await runPlanCommand(args, io), stdout, stderr };
}

describe("domainapi-plan --comments - (gh api's output piped in)", () => {
  it("prints the plan; two different plans for the commit stop the deploy with status 2", async () => {
    const one = JSON.stringify([bot(planBody()), by("alice", '{"json": ["in", "a", "comment"]}')]);
    expect(await run(["--comments", "-", "--commit", HEAD], one)).toEqual({
      code: 0,
      stdout: `web=${D1}\n`,
      stderr: "",
    });
    const two = JSON.stringify([bot(planBody(D1)), bot(planBody(D2))]);
    expect(await run(["--comments", "-", "--commit", HEAD], two)).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-plan: no reviewed plan: the workflow posted 2 different plans for commit ${HEAD}\n`,
    });
  });

  it("output that is not the comments: status 2, saying so", async () => {
    const { code, stderr } = await run(["--comments", "-", "--commit", HEAD], '{"message": "Not Found"}');
    expect(code).toBe(2);
    expect(stderr).toBe(
      "domainapi-plan: the input is not the comments of a pull request as `gh api` returns them: expected arrays of comments\n",
    );
    expect(parseComments("[]")).toEqual([]);
  });
});
