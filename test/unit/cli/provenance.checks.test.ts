/**
 * Every check of `domainapi-plan --comments --record` refuses with a message that names what failed,
 * since the deployer must act on it: the run the comment names, the pull request, the artifact, the
 * body against what the run posted, the edit history, and the approvals against the plan's time.
 * The record is shaped as GitHub's REST and GraphQL APIs return its parts.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, type PullRequestComment } from "../../../provider/cli/comments";
import { runMarker } from "../../../provider/cli/commit";
import { type PlanRecord, type RecordReview, verifiedPlan } from "../../../provider/cli/provenance";

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const OTHER = "89abcdef0123456789abcdef0123456789abcdef";
const DIGEST = "0123456789abcdef0123456789abcdef";
const RUN = 42;

/** The workflow's plan comment for HEAD, as the plan action posts it (its run marked). */
function body(runs: readonly number[] = [RUN]): string {
  return [
    "### DNS record plan",
    "",
    "**Template `web`** (resource `web`): 1 to create",
    "",
    `Plan digest \`${DIGEST}\``,
    "",
    "```text",
    `DOMAINAPI_EXPECT_PLAN='web=${DIGEST}'`,
    "```",
    "",
    `<!-- domainapi-plan commit=${HEAD} -->`,
    ...runs.map(runMarker),
    DEFAULT_MARKER,
  ].join("\n");
}

const BODY = body();
const comment: PullRequestComment = {
  body: BODY,
  user: { login: DEFAULT_AUTHOR },
  node_id: "IC_1",
  created_at: "2026-11-26T10:01:00Z",
  updated_at: "2026-11-26T10:01:00Z",
};
const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };
const approval = (over: Partial<RecordReview> = {}): RecordReview => ({
  state: "APPROVED",
  commit_id: HEAD,
  submitted_at: "2026-11-26T11:00:00Z",
  user: { login: "r" },
  author_association: "MEMBER",
  ...over,
});

/** A record that passes every check. */
function record(): Required<PlanRecord> {
  return {
    pull: { number: 7, user: { login: "author" }, head: { sha: HEAD }, merged_at: "2026-11-26T12:00:00Z" },
    run: {
      id: RUN,
      event: "workflow_run",
      status: "completed",
      conclusion: "success",
      created_at: "2026-11-26T10:00:00Z",
    },
    meta: { pullRequest: 7, commit: HEAD, run: RUN },
    comment: BODY,
    reviews: [approval()],
    edits: {
      data: {
        node: {
          id: "IC_1",
          author: { __typename: "Bot", login: "github-actions" },
          lastEditedAt: null,
          userContentEdits: { totalCount: 0, nodes: [] },
        },
      },
    },
  };
}

const OK = `ok web=${DIGEST}`;
const why = (r: PlanRecord, c: PullRequestComment = comment, author = DEFAULT_AUTHOR) => {
  const result = verifiedPlan([{ ...c, user: { login: author } }], { ...selection, author }, r);
  return result.ok ? `ok ${result.value}` : result.reason;
};
const withEdits = (
  r: PlanRecord,
  node: Partial<Required<PlanRecord>["edits"]["data"]["node"]>,
): PlanRecord => ({
  ...r,
  edits: { data: { node: { ...record().edits.data.node, ...node } } },
});

describe("the comment and the run it names", () => {
  it("a consistent record, whatever the case of the SHAs: the value", () => {
    expect(why(record())).toBe(OK);
    const base = record();
    const upper = {
      ...base,
      pull: { ...base.pull, head: { sha: HEAD.toUpperCase() } },
      meta: { ...base.meta, commit: HEAD.toUpperCase() },
    };
    expect(why(upper)).toBe(OK);
  });

  it("no comment of the workflow: the choice's own reason", () => {
    expect(verifiedPlan([], selection, record())).toEqual({
      ok: false,
      reason: expect.stringMatching(/^no plan comment of the workflow/),
    });
  });

  it("names no run, or two: refused", () => {
    const base = record();
    expect(why({ ...base, comment: body([]) }, { ...comment, body: body([]) })).toBe(
      `the plan comment of commit ${HEAD} names no run: the plan action names the one run that posted it; preview again`,
    );
    expect(why(base, { ...comment, body: body([RUN, 43]) })).toBe(
      `the plan comment of commit ${HEAD} names 2 runs: the plan action names the one run that posted it; preview again`,
    );
  });

  it("the pull request: absent, not merged, or at another head", () => {
    const base = record();
    expect(why({ ...base, pull: undefined })).toBe("the record holds no pull request (pull.json)");
    expect(why({ ...base, pull: { ...base.pull, merged_at: null } })).toBe(
      `pull request #7 is not merged, not the merged head commit ${HEAD}`,
    );
    expect(why({ ...base, pull: { ...base.pull, head: { sha: OTHER } } })).toBe(
      `pull request #7 is at head ${OTHER}, not the merged head commit ${HEAD}`,
    );
  });

  it("the run: absent, another one, not from workflow_run, not completed, not successful", () => {
    const base = record();
    expect(why({ ...base, run: undefined })).toBe("the record holds no run 42, which the comment names");
    expect(why({ ...base, run: { ...base.run, id: 41 } })).toBe(
      "the record is of run 41; the comment names run 42",
    );
    expect(why({ ...base, run: { ...base.run, event: "pull_request_target" } })).toBe(
      "run 42, named by the plan comment, was triggered by pull_request_target, not workflow_run: its workflow came from a branch, which a pull request can change",
    );
    expect(why({ ...base, run: { ...base.run, status: "in_progress", conclusion: null } })).toBe(
      "run 42 has not completed",
    );
    expect(why({ ...base, run: { ...base.run, status: "in_progress", conclusion: "success" } })).toBe(
      "run 42 has not completed",
    );
    expect(why({ ...base, run: { ...base.run, conclusion: "cancelled" } })).toBe("run 42 ended in cancelled");
  });

  it("the artifact: either file missing, or of another run, pull request or commit", () => {
    const base = record();
    const none = "run 42 has no plan artifact (meta.json and comment.md)";
    expect(why({ ...base, meta: undefined })).toBe(none);
    expect(why({ ...base, comment: undefined })).toBe(none);
    const expected = `expected #7 at ${HEAD}`;
    expect(why({ ...base, meta: { ...base.meta, run: 41 } })).toBe(
      `the artifact of run 42 is of run 41, pull request #7, commit ${HEAD}; ${expected}`,
    );
    expect(why({ ...base, meta: { ...base.meta, pullRequest: 8 } })).toBe(
      `the artifact of run 42 is of run 42, pull request #8, commit ${HEAD}; ${expected}`,
    );
    expect(why({ ...base, meta: { ...base.meta, commit: OTHER } })).toBe(
      `the artifact of run 42 is of run 42, pull request #7, commit ${OTHER}; ${expected}`,
    );
  });
});

describe("the body against what the run posted", () => {
  it("the same but for line endings and trailing blank space: the value", () => {
    expect(why({ ...record(), comment: `${BODY.replaceAll("\n", "\r\n")}\r\n\n  ` })).toBe(OK);
    expect(why(record(), { ...comment, body: `${BODY}\n\n` })).toBe(OK);
  });

  it("a line changed, added or removed: refused, naming the first line that differs", () => {
    const lines = BODY.split("\n");
    const changed = BODY.replace("1 to create", "0 to create");
    expect(why(record(), { ...comment, body: changed })).toBe(
      `the plan comment is not what run 42 posted (line 3 is "**Template \`web\`** (resource \`web\`): 0 to create", the run posted "**Template \`web\`** (resource \`web\`): 1 to create"): it was edited`,
    );
    expect(why({ ...record(), comment: `${BODY}\nmore` })).toBe(
      `the plan comment is not what run 42 posted (line ${lines.length + 1} is "(none)", the run posted "more"): it was edited`,
    );
    // The comment longer than what was posted: the first extra line is named.
    const posted = lines.slice(0, 1).join("\n");
    expect(why({ ...record(), comment: posted })).toBe(
      `the plan comment is not what run 42 posted (line 2 is "", the run posted "(none)"): it was edited`,
    );
  });

  it("a comment with no body is not what was posted", () => {
    expect(why(record(), { ...comment, body: null })).toMatch(/^no plan comment of the workflow/);
  });
});

describe("the edit history", () => {
  it("absent, of another node, or naming another author: refused", () => {
    const base = record();
    expect(why({ ...base, edits: undefined })).toBe(
      "the record holds no edit history of the comment (edits.json)",
    );
    expect(why(withEdits(base, { id: "IC_9" }))).toBe(
      "the edit history fetched is of node IC_9, not of the plan comment (IC_1)",
    );
    // A comment without its node id cannot be compared: the history's author is still checked.
    expect(why(withEdits(base, { id: "IC_9" }), { ...comment, node_id: undefined })).toBe(OK);
    expect(why(withEdits(base, { author: { __typename: "User", login: "mallory" } }))).toBe(
      "the edit history names mallory as the comment's author, not github-actions[bot]",
    );
    expect(why(withEdits(base, { author: null }))).toBe(
      "the edit history names (deleted user) as the comment's author, not github-actions[bot]",
    );
  });

  it("the bot as GraphQL names it: the Bot github-actions, or with its [bot] suffix; a User of that name is not it", () => {
    const base = record();
    expect(why(withEdits(base, { author: { __typename: "Bot", login: "github-actions[bot]" } }))).toBe(OK);
    expect(why(withEdits(base, { author: { login: "github-actions" } }))).toMatch(/names github-actions as/);
    expect(why(withEdits(base, { author: { __typename: "User", login: "github-actions[bot]" } }))).toMatch(
      /names github-actions\[bot\] as/,
    );
  });

  it("a workflow that posts as a user account: that user, never a Bot of that login", () => {
    const base = record();
    const user = withEdits(base, { author: { __typename: "User", login: "deployer" } });
    expect(why(user, comment, "deployer")).toBe(OK);
    expect(why(withEdits(base, { author: { login: "deployer" } }), comment, "deployer")).toBe(OK);
    expect(
      why(withEdits(base, { author: { __typename: "Bot", login: "deployer" } }), comment, "deployer"),
    ).toBe("the edit history names deployer as the comment's author, not deployer");
    expect(
      why(withEdits(base, { author: { __typename: "User", login: "other" } }), comment, "deployer"),
    ).toMatch(/names other as the comment's author, not deployer/);
  });

  it("an edit without its time or editor is named as far as it can be", () => {
    const base = record();
    const edit = (
      editedAt: string | null,
      deletedAt: string | null,
      editor: { __typename: string; login: string } | null,
    ) => withEdits(base, { userContentEdits: { totalCount: 1, nodes: [{ editedAt, deletedAt, editor }] } });
    expect(why(edit(null, null, null))).toBe(
      "the comment was edited by (deleted user) at ?: only the workflow may change it; preview again for a new comment",
    );
    expect(why(edit(null, "2026-11-26T10:31:00Z", { __typename: "Bot", login: "github-actions" }))).toBe(
      "an edit of the comment (at ?) was deleted from its history at 2026-11-26T10:31:00Z: what it changed cannot be seen; preview again for a new comment",
    );
    expect(why(edit("2026-11-26T10:30:00Z", null, { __typename: "Bot", login: "github-actions" }))).toBe(OK);
  });

  it("every edit fetched: a history as long as its count passes", () => {
    const bot = {
      editedAt: "2026-11-26T10:30:00Z",
      deletedAt: null,
      editor: { __typename: "Bot", login: "github-actions" },
    };
    const base = record();
    expect(why(withEdits(base, { userContentEdits: { totalCount: 2, nodes: [bot, bot] } }))).toBe(OK);
    expect(why(withEdits(base, { userContentEdits: { totalCount: 3, nodes: [bot, bot] } }))).toBe(
      "the comment has 3 edits and only 2 were fetched; preview again for a new comment",
    );
  });
});

describe("the approval against the plan's time", () => {
  it("no reviews fetched: refused", () => {
    expect(why({ ...record(), reviews: undefined })).toBe("the record holds no reviews (reviews.json)");
  });

  it("the plan's time is the latest of the comment's creation, update and last edit and of the run's start", () => {
    const base = record();
    const tooEarly = (time: string) =>
      `the plan was made or changed at ${time}, after the last approval of commit ${HEAD} (2026-11-26T11:00:00Z): ` +
      "no reviewer approved with this plan on screen; read it and approve again";
    expect(why(base, { ...comment, updated_at: "2026-11-26T11:05:00Z" })).toBe(
      tooEarly("2026-11-26T11:05:00Z"),
    );
    expect(why(base, { ...comment, created_at: "2026-11-26T11:06:00Z", updated_at: undefined })).toBe(
      tooEarly("2026-11-26T11:06:00Z"),
    );
    expect(why(withEdits(base, { lastEditedAt: "2026-11-26T11:07:00Z" }))).toBe(
      tooEarly("2026-11-26T11:07:00Z"),
    );
    expect(why({ ...base, run: { ...base.run, created_at: "2026-11-26T11:08:00Z" } })).toBe(
      tooEarly("2026-11-26T11:08:00Z"),
    );
    // A re-run's start replaces the run's creation.
    expect(
      why({
        ...base,
        run: { ...base.run, created_at: "2026-11-26T11:08:00Z", run_started_at: "2026-11-26T10:30:00Z" },
      }),
    ).toBe(OK);
    // Times that are not times are left out; none at all: refused.
    expect(why(base, { ...comment, updated_at: "soon" })).toBe(OK);
    const noTime = { ...base, run: { ...base.run, created_at: "unknown" } };
    expect(why(noTime, { ...comment, created_at: undefined, updated_at: undefined })).toBe(
      "the plan comment and its run carry no time",
    );
  });

  it("several approvals before the plan: the latest is named", () => {
    const base = record();
    const reviews = [
      approval({ submitted_at: "2026-11-26T10:20:00Z", user: { login: "a" } }),
      approval({ submitted_at: "2026-11-26T10:40:00Z", user: { login: "b" } }),
      approval({ submitted_at: "2026-11-26T10:30:00Z", user: { login: "c" } }),
    ];
    expect(why({ ...base, run: { ...base.run, run_started_at: "2026-11-26T10:50:00Z" }, reviews })).toMatch(
      /\(2026-11-26T10:40:00Z\): no reviewer approved/,
    );
    // One of them after the plan is enough.
    expect(why({ ...base, run: { ...base.run, run_started_at: "2026-11-26T10:35:00Z" }, reviews })).toBe(OK);
  });

  it("an approval of the commit in any case counts; one without a time, or of another state, does not", () => {
    const base = record();
    expect(why({ ...base, reviews: [approval({ commit_id: HEAD.toUpperCase() })] })).toBe(OK);
    const none = `no review approved the merged head commit ${HEAD}: a reviewed plan needs an approval of that commit`;
    expect(why({ ...base, reviews: [approval({ submitted_at: null })] })).toBe(none);
    expect(why({ ...base, reviews: [approval({ state: "COMMENTED" })] })).toBe(none);
    expect(why({ ...base, reviews: [approval({ commit_id: null })] })).toBe(none);
    expect(why({ ...base, reviews: [] })).toBe(none);
  });

  it("ignored approvals are listed with why: author, association, deleted user", () => {
    const base = record();
    const reviews = [
      approval({ user: { login: "author" } }),
      approval({ user: { login: "sock" }, author_association: "NONE" }),
      approval({ user: null }),
      approval({ user: { login: "x" }, author_association: null }),
    ];
    expect(why({ ...base, reviews })).toBe(
      `no review approved the merged head commit ${HEAD}: a reviewed plan needs an approval of that commit ` +
        "(ignored: approvals by author (the pull request's author), sock (NONE), (deleted user) (MEMBER), x (no author_association); " +
        "only the repository's owner, members and collaborators other than the pull request's author count)",
    );
  });

  it("a request for changes takes back only its reviewer's approval, and only when at or after it", () => {
    const base = record();
    const changes = (login: string, at: string): RecordReview => ({
      ...approval({ user: { login }, submitted_at: at }),
      state: "CHANGES_REQUESTED",
    });
    expect(why({ ...base, reviews: [approval(), changes("other", "2026-11-26T11:30:00Z")] })).toBe(OK);
    expect(why({ ...base, reviews: [changes("r", "2026-11-26T10:30:00Z"), approval()] })).toBe(OK);
    expect(why({ ...base, reviews: [approval(), changes("r", "2026-11-26T11:00:00Z")] })).toMatch(
      /ignored: approvals by r \(changes requested since\)/,
    );
  });

  it("a pull request whose author is a deleted user: every member's approval counts", () => {
    const base = record();
    expect(why({ ...base, pull: { ...base.pull, user: null } })).toBe(OK);
  });
});
