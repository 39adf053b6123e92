/**
 * The checks of `domainapi-plan --comments --record` on the record itself (the flows through the
 * actions are in test/unit/actions/steps.test.ts): the edit history's hands, a history cut short or
 * with a deleted edit, a second plan comment, the approval's commit and time. The record is shaped as
 * GitHub's REST and GraphQL APIs return its parts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, type PullRequestComment } from "../../../provider/cli/comments";
import { runMarker } from "../../../provider/cli/commit";
import { parsePreview } from "../../../provider/cli/preview";
import { type PlanRecord, verifiedPlan } from "../../../provider/cli/provenance";
import { planComment, planExpectation } from "../../../provider/cli/review";

// Made in each test, never while tests are collected: a mutation run attributes code run outside a
// test to every test.
const update = () =>
  parsePreview(
    fs.readFileSync(path.join(__dirname, "..", "..", "fixtures", "preview", "update.json"), "utf8"),
  );
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const RUN = 42;
const body = () => `${planComment(update(), { commit: HEAD })}\n${runMarker(RUN)}\n${DEFAULT_MARKER}\n`;
const selection = { commit: HEAD, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER };

const comment = (): PullRequestComment => ({
  body: body(),
  user: { login: DEFAULT_AUTHOR },
  node_id: "IC_1",
  created_at: "2026-11-26T10:01:00Z",
  updated_at: "2026-11-26T10:01:00Z",
});

type Edit = {
  editedAt: string;
  deletedAt: string | null;
  editor: { __typename: string; login: string } | null;
};

function record(edits: Edit[] = [], totalCount = edits.length): PlanRecord {
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
          userContentEdits: { totalCount, nodes: edits },
        },
      },
    },
  };
}

const reason = (r: ReturnType<typeof verifiedPlan>) => (r.ok ? `ok ${r.value}` : r.reason);

describe("the record of a plan comment", () => {
  it("a consistent record: the comment's value", () => {
    expect(verifiedPlan([comment()], selection, record())).toEqual({
      ok: true,
      value: planExpectation(update()),
    });
  });

  it("an edit by a user, even one whose login looks like the bot's, is another hand", () => {
    const user = {
      editedAt: "2026-11-26T10:30:00Z",
      deletedAt: null,
      editor: { __typename: "User", login: "github-actions" },
    };
    expect(reason(verifiedPlan([comment()], selection, record([user])))).toMatch(
      /edited by github-actions at 2026-11-26T10:30:00Z: only the workflow may change it/,
    );
    const ghost = { editedAt: "2026-11-26T10:30:00Z", deletedAt: null, editor: null };
    expect(reason(verifiedPlan([comment()], selection, record([ghost])))).toMatch(
      /edited by \(deleted user\)/,
    );
  });

  it("a history with a deleted edit, or longer than was fetched: refused, as it cannot be read whole", () => {
    const deleted = {
      editedAt: "2026-11-26T10:30:00Z",
      deletedAt: "2026-11-26T10:31:00Z",
      editor: { __typename: "Bot", login: "github-actions" },
    };
    expect(reason(verifiedPlan([comment()], selection, record([deleted])))).toMatch(
      /was deleted from its history/,
    );
    expect(reason(verifiedPlan([comment()], selection, record([], 101)))).toMatch(
      /has 101 edits and only 0 were fetched/,
    );
  });

  it("a second plan comment of the workflow for the same commit: refused", () => {
    expect(reason(verifiedPlan([comment(), { ...comment(), node_id: "IC_2" }], selection, record()))).toMatch(
      /2 plan comments of the workflow are about commit/,
    );
  });

  it("approvals: of another commit, dismissed, or in the same second as the plan do not count", () => {
    const base = record();
    const at = (state: string, commit: string, time: string) => ({
      ...base,
      reviews: [
        { state, commit_id: commit, submitted_at: time, user: { login: "r" }, author_association: "MEMBER" },
      ],
    });
    expect(
      reason(verifiedPlan([comment()], selection, at("APPROVED", "f".repeat(40), "2026-11-26T11:00:00Z"))),
    ).toMatch(/no review approved the merged head commit/);
    expect(
      reason(verifiedPlan([comment()], selection, at("DISMISSED", HEAD, "2026-11-26T11:00:00Z"))),
    ).toMatch(/no review approved/);
    expect(
      reason(verifiedPlan([comment()], selection, at("APPROVED", HEAD, "2026-11-26T10:01:00Z"))),
    ).toMatch(/made or changed at 2026-11-26T10:01:00Z, after the last approval/);
  });

  it("an approval by someone outside the repository, by the pull request's author, or taken back by a request for changes does not count", () => {
    // On a public repository anyone can submit an APPROVED review (GitHub leaves it out of the
    // required approvals). Re-run the preview after the real approval, have a second account
    // approve: the re-run's plan must not pass as approved.
    const base = record();
    const real = base.reviews![0]!;
    const rerun = { ...base.run!, run_started_at: "2026-11-26T11:20:00Z" };
    const late = { ...real, submitted_at: "2026-11-26T11:30:00Z" };
    for (const [who, review] of [
      ["an outsider", { ...late, user: { login: "sock" }, author_association: "NONE" }],
      ["a contributor", { ...late, user: { login: "sock" }, author_association: "CONTRIBUTOR" }],
      ["no association given", { ...late, user: { login: "sock" }, author_association: undefined }],
      ["the author", { ...late, user: { login: "author" }, author_association: "COLLABORATOR" }],
    ] as const) {
      expect(
        reason(verifiedPlan([comment()], selection, { ...base, run: rerun, reviews: [real, review] })),
        who,
      ).toMatch(/made or changed at 2026-11-26T11:20:00Z, after the last approval/);
      expect(reason(verifiedPlan([comment()], selection, { ...base, reviews: [review] })), who).toMatch(
        /^no review approved the merged head commit \w+: .*\(ignored: approvals by (sock|author) \(/,
      );
    }
    const changes = { ...real, state: "CHANGES_REQUESTED", submitted_at: "2026-11-26T11:40:00Z" };
    expect(
      reason(verifiedPlan([comment()], selection, { ...base, reviews: [real, changes] })),
      "approved, then asked for changes",
    ).toMatch(
      /^no review approved the merged head commit \w+: .*\(ignored: approvals by r \(changes requested since\)/,
    );
    for (const association of ["OWNER", "MEMBER", "COLLABORATOR"]) {
      const review = { ...late, author_association: association };
      expect(verifiedPlan([comment()], selection, { ...base, run: rerun, reviews: [review] }).ok).toBe(true);
    }
  });

  it("the workflow's own edits pass; a re-run of the plan's run after the approval, or no artifact, does not", () => {
    const bot = {
      editedAt: "2026-11-26T10:02:00Z",
      deletedAt: null,
      editor: { __typename: "Bot", login: "github-actions" },
    };
    expect(verifiedPlan([comment()], selection, record([bot])).ok).toBe(true);
    const base = record();
    const rerun = { ...base, run: { ...base.run!, run_started_at: "2026-11-26T11:20:00Z" } };
    expect(reason(verifiedPlan([comment()], selection, rerun))).toMatch(
      /made or changed at 2026-11-26T11:20:00Z, after the last approval of commit \w+ \(2026-11-26T11:00:00Z\)/,
    );
    expect(
      reason(verifiedPlan([comment()], selection, { ...base, comment: undefined, meta: undefined })),
    ).toMatch(/run 42 has no plan artifact/);
  });

  it("a record of another run, pull request or commit: refused, naming both", () => {
    const base = record();
    expect(
      reason(
        verifiedPlan([comment()], selection, { ...base, meta: { pullRequest: 8, commit: HEAD, run: RUN } }),
      ),
    ).toMatch(/artifact of run 42 is of run 42, pull request #8/);
    expect(reason(verifiedPlan([comment()], selection, { ...base, run: { ...base.run!, id: 41 } }))).toMatch(
      /record is of run 41; the comment names run 42/,
    );
    expect(
      reason(verifiedPlan([comment()], selection, { ...base, run: { ...base.run!, conclusion: "failure" } })),
    ).toMatch(/run 42 ended in failure/);
  });
});
