/**
 * Edges of `domainapi-plan --comments --record` that the deployer reads in its refusals: a body
 * that differs from what the run posted on its very first line, a record file of another form with
 * several faults, a comment touched by another app's bot, and a plan whose parts give one instant
 * in two spellings. The comment and record are shaped as GitHub's REST and GraphQL APIs return them
 * and as the plan action posts (docs/previews.md); the markers are written out here, as they are
 * a format the workflow relies on.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type PlanRecord, readPlanRecord, verifiedPlan } from "../../../provider/cli/provenance";

type Comment = Parameters<typeof verifiedPlan>[0][number];

const HEAD = "0123456789abcdef0123456789abcdef01234567";
const DIGEST = "0123456789abcdef0123456789abcdef";
const RUN = 42;
/** The account `github-actions` posts as, and the sticky comment's marker (`header: dns-plan`). */
const BOT = "github-actions[bot]";
const MARKER = "<!-- Sticky Pull Request Commentdns-plan -->";

/** The plan comment for HEAD as the plan action posts it, its run marked; `first` is its first line. */
function body(first = "### DNS record plan"): string {
  return [
    first,
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
    `<!-- domainapi-plan run=${RUN} -->`,
    MARKER,
  ].join("\n");
}

function comment(over: Partial<Comment> = {}): Comment {
  return {
    body: body(),
    user: { login: BOT },
    node_id: "IC_1",
    created_at: "2026-11-26T10:01:00Z",
    updated_at: "2026-11-26T10:01:00Z",
    ...over,
  };
}

type Node = Required<PlanRecord>["edits"]["data"]["node"];

/** A record that passes every check; `node` replaces parts of the comment's GraphQL node. */
function record(node: Partial<Node> = {}): Required<PlanRecord> {
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
    comment: body(),
    reviews: [
      {
        state: "APPROVED",
        commit_id: HEAD,
        submitted_at: "2026-11-26T11:00:00Z",
        user: { login: "r" },
        author_association: "MEMBER",
      },
    ],
    edits: {
      data: {
        node: {
          id: "IC_1",
          author: { __typename: "Bot", login: "github-actions" },
          lastEditedAt: null,
          userContentEdits: { totalCount: 0, nodes: [] },
          ...node,
        },
      },
    },
  };
}

/** The value, as `ok <value>`, or the refusal's reason. */
function why(r: PlanRecord, c: Comment = comment()): string {
  const result = verifiedPlan([c], { commit: HEAD, author: BOT, marker: MARKER }, r);
  return result.ok ? `ok ${result.value}` : result.reason;
}

describe("the body against what the run posted", () => {
  it("differing on the first line: that line is named, line 1", () => {
    expect(why(record())).toBe(`ok web=${DIGEST}`);
    const posted = { ...record(), comment: body("### DNS record plan (draft)") };
    expect(why(posted)).toBe(
      'the plan comment is not what run 42 posted (line 1 is "### DNS record plan", the run posted "### DNS record plan (draft)"): it was edited',
    );
  });
});

describe("another app's bot", () => {
  const renovate = { __typename: "Bot", login: "renovate" };

  it("as the comment's author in its history: not the workflow", () => {
    expect(why(record({ author: renovate }))).toBe(
      "the edit history names renovate as the comment's author, not github-actions[bot]",
    );
  });

  it("as an editor of the comment: refused, naming it; the workflow's own bot may edit", () => {
    const edit = (editor: { __typename: string; login: string }) =>
      record({
        userContentEdits: {
          totalCount: 1,
          nodes: [{ editedAt: "2026-11-26T10:30:00Z", deletedAt: null, editor }],
        },
      });
    expect(why(edit(renovate))).toBe(
      "the comment was edited by renovate at 2026-11-26T10:30:00Z: only the workflow may change it; preview again for a new comment",
    );
    expect(why(edit({ __typename: "Bot", login: "github-actions" }))).toBe(`ok web=${DIGEST}`);
  });
});

describe("the plan's time", () => {
  it("when two parts give the same instant in two spellings, the comment's own is named", () => {
    // The run started at the instant the comment was created, written with an offset.
    const r = record();
    const tied = { ...r, run: { ...r.run, created_at: "2026-11-26T12:05:00+01:00" } };
    expect(
      why(tied, comment({ created_at: "2026-11-26T11:05:00Z", updated_at: "2026-11-26T11:05:00Z" })),
    ).toBe(
      `the plan was made or changed at 2026-11-26T11:05:00Z, after the last approval of commit ${HEAD} (2026-11-26T11:00:00Z): ` +
        "no reviewer approved with this plan on screen; read it and approve again",
    );
  });
});

describe("a record file of another form", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-edges-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("names each field that does not fit, the faults apart from each other on one line", async () => {
    fs.writeFileSync(path.join(root, "pull.json"), JSON.stringify({ number: "7", head: {} }));
    const message = await readPlanRecord(root).then(
      () => "read",
      (err: Error) => err.message,
    );
    const prefix = `${path.join(root, "pull.json")} is not what the GitHub API returns for it: `;
    expect(message.startsWith(prefix)).toBe(true);
    expect(message).not.toContain("\n");
    const words = message.slice(prefix.length).split(/\s+/);
    expect(words).toContain("number");
    expect(words).toContain("head.sha");
    expect(words.filter((w) => w === "✖")).toHaveLength(2);
  });
});
