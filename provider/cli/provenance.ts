/**
 * The reviewed plan of a merged pull request, tied to the immutable record of the run that posted
 * it: `domainapi-plan --comments ... --record <dir>`. A comment can be edited by anyone with write
 * access and stays authored by the bot; a workflow run's record cannot be changed. So the value is
 * taken only when the workflow's plan comment is, byte for byte, what that run posted, was edited by
 * no one but the workflow, was made by a run of a workflow the pull request cannot change, and was
 * on screen before a reviewer approved the head commit.
 *
 * The record is what the apply action's script fetched with `gh` (this module calls
 * nothing): the merged pull request, the run the comment names, the run's artifact, the reviews,
 * and the comment's edit history. Pure, except {@link readPlanRecord}, which reads those files.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { z } from "zod";
import {
  commentLines,
  jsonValues,
  type PlanCommentSelection,
  type PullRequestComment,
  planCommentValue,
  type ReviewedPlanResult,
  workflowPlanComments,
} from "./comments";
import { markedRuns } from "./commit";
import { PreviewInputError } from "./errors";

/** `GET /repos/{owner}/{repo}/pulls/{n}`: the merged pull request. */
const PullSchema = z.looseObject({
  number: z.number().int(),
  user: z.looseObject({ login: z.string() }).nullish(),
  head: z.looseObject({ sha: z.string() }),
  merged_at: z.string().nullish(),
});

/** `GET /repos/{owner}/{repo}/actions/runs/{id}`: the run that rendered and posted the comment. */
const RunSchema = z.looseObject({
  id: z.number().int(),
  event: z.string(),
  status: z.string().nullish(),
  conclusion: z.string().nullish(),
  created_at: z.string(),
  run_started_at: z.string().nullish(),
  html_url: z.string().optional(),
});

/** One review of `GET /repos/{owner}/{repo}/pulls/{n}/reviews`. */
const ReviewSchema = z.looseObject({
  user: z.looseObject({ login: z.string() }).nullish(),
  state: z.string(),
  commit_id: z.string().nullish(),
  submitted_at: z.string().nullish(),
  author_association: z.string().nullish(),
});

/**
 * The `author_association`s of a review whose author belongs to the repository (its owner, a member
 * of the owning organisation, an invited collaborator). On a public repository anyone can submit a
 * review of state `APPROVED`; GitHub only leaves it out of the required approvals. Such an approval
 * says nothing, so it never marks a plan approved.
 */
const APPROVERS: ReadonlySet<string> = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

/** An `Actor` of GitHub's GraphQL API (a bot's login there has no `[bot]` suffix). */
const ActorSchema = z.looseObject({ __typename: z.string().optional(), login: z.string() }).nullish();

/** The GraphQL answer for the comment's node: its author and every edit of its history. */
const EditsSchema = z.looseObject({
  data: z.looseObject({
    node: z.looseObject({
      id: z.string(),
      author: ActorSchema,
      lastEditedAt: z.string().nullish(),
      userContentEdits: z.looseObject({
        totalCount: z.number().int(),
        nodes: z.array(
          z.looseObject({
            editedAt: z.string().nullish(),
            deletedAt: z.string().nullish(),
            editor: ActorSchema,
          }),
        ),
      }),
    }),
  }),
});

/** What the plan action wrote beside the comment it posted, in its run's artifact. */
const MetaSchema = z.looseObject({
  pullRequest: z.number().int(),
  commit: z.string(),
  run: z.number().int(),
  previewRun: z.number().int().optional(),
});

/** The merged pull request as the REST API returns it. */
export type RecordPull = z.infer<typeof PullSchema>;
/** A workflow run as the REST API returns it. */
export type RecordRun = z.infer<typeof RunSchema>;
/** A pull-request review as the REST API returns it. */
export type RecordReview = z.infer<typeof ReviewSchema>;
/** The comment's node with its edit history, as the GraphQL API returns it. */
export type RecordEdits = z.infer<typeof EditsSchema>;
/** The plan action's note of what it posted. */
export type RecordMeta = z.infer<typeof MetaSchema>;

/** Everything the deployment fetched about the plan comment; a part it could not fetch is absent. */
export interface PlanRecord {
  /** `pull.json`: the merged pull request. */
  pull?: RecordPull;
  /** `run.json`: the run the comment names. */
  run?: RecordRun;
  /** `reviews.json`: the pull request's reviews (`gh api --paginate` pages). */
  reviews?: RecordReview[];
  /** `edits.json`: the comment's edit history (GraphQL). */
  edits?: RecordEdits;
  /** `artifact/comment.md`: the body the run posted, from its artifact. */
  comment?: string;
  /** `artifact/meta.json`: the pull request, commit and run the plan action wrote down. */
  meta?: RecordMeta;
}

/** The files of a record directory and the schema of each JSON one. */
const FILES = {
  pull: ["pull.json", PullSchema],
  run: ["run.json", RunSchema],
  edits: ["edits.json", EditsSchema],
  meta: [path.join("artifact", "meta.json"), MetaSchema],
} as const;

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PreviewInputError(`cannot read ${file}: ${String(err)}`);
  }
}

function parsed<T>(file: string, text: string, schema: z.ZodType<T>, paged = false): T {
  let value: unknown;
  try {
    const values = jsonValues(text);
    value = paged ? values.flat(2) : values[0];
    if (!paged && values.length !== 1) throw new SyntaxError(`${values.length} JSON values, expected one`);
  } catch (err) {
    // jsonValues, JSON.parse and the count above throw only SyntaxErrors.
    throw new PreviewInputError(`${file} is not JSON: ${(err as SyntaxError).message}`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new PreviewInputError(
      `${file} is not what the GitHub API returns for it: ${z.prettifyError(result.error).replaceAll("\n", " ")}`,
    );
  }
  return result.data;
}

/**
 * Reads a record directory (`pull.json`, `run.json`, `reviews.json`, `edits.json`,
 * `artifact/comment.md`, `artifact/meta.json`); a missing file leaves its part absent, so that the
 * check names what is missing.
 *
 * @throws PreviewInputError naming a file that is there but not of its form
 * @example
 * const record = await readPlanRecord("plan-record");
 */
export async function readPlanRecord(dir: string): Promise<PlanRecord> {
  const record: PlanRecord = {};
  for (const [key, [name, schema]] of Object.entries(FILES)) {
    const file = path.join(dir, name);
    const text = await readOptional(file);
    if (text !== undefined) Object.assign(record, { [key]: parsed(file, text, schema as z.ZodType) });
  }
  const reviews = await readOptional(path.join(dir, "reviews.json"));
  if (reviews !== undefined) {
    record.reviews = parsed(path.join(dir, "reviews.json"), reviews, z.array(ReviewSchema), true);
  }
  const comment = await readOptional(path.join(dir, "artifact", "comment.md"));
  if (comment !== undefined) record.comment = comment;
  return record;
}

/** A body with its line endings and trailing blank space made uniform (GitHub keeps the rest). */
function normalized(body: string): string {
  return body.replaceAll("\r\n", "\n").trimEnd();
}

/** The first line where two bodies differ, for the message. */
function firstDifference(posted: string, now: string): string {
  const a = posted.split("\n");
  const b = now.split("\n");
  const at = a.findIndex((line, i) => line !== b[i]);
  const i = at < 0 ? a.length : at;
  return `line ${i + 1} is ${JSON.stringify(b[i] ?? "(none)")}, the run posted ${JSON.stringify(a[i] ?? "(none)")}`;
}

/** Whether a GraphQL actor is the account the workflow posts as (`github-actions[bot]` is the Bot `github-actions`). */
function isWorkflow(actor: z.infer<typeof ActorSchema>, author: string): boolean {
  if (!actor) return false;
  if (!author.endsWith("[bot]")) return actor.login === author && actor.__typename !== "Bot";
  return actor.__typename === "Bot" && (actor.login === author || `${actor.login}[bot]` === author);
}

/** Why the comment's history shows a hand other than the workflow's; `undefined` when it does not. */
function editedByOthers(comment: PullRequestComment, edits: RecordEdits, author: string): string | undefined {
  const node = edits.data.node;
  if (comment.node_id !== undefined && node.id !== comment.node_id) {
    return `the edit history fetched is of node ${node.id}, not of the plan comment (${comment.node_id})`;
  }
  if (!isWorkflow(node.author, author)) {
    return `the edit history names ${node.author?.login ?? "(deleted user)"} as the comment's author, not ${author}`;
  }
  const history = node.userContentEdits;
  if (history.totalCount > history.nodes.length) {
    return `the comment has ${history.totalCount} edits and only ${history.nodes.length} were fetched; preview again for a new comment`;
  }
  for (const edit of history.nodes) {
    if (edit.deletedAt) {
      return `an edit of the comment (at ${edit.editedAt ?? "?"}) was deleted from its history at ${edit.deletedAt}: what it changed cannot be seen; preview again for a new comment`;
    }
    if (!isWorkflow(edit.editor, author)) {
      return `the comment was edited by ${edit.editor?.login ?? "(deleted user)"} at ${edit.editedAt ?? "?"}: only the workflow may change it; preview again for a new comment`;
    }
  }
  return undefined;
}

/** The latest of ISO 8601 times (GitHub's `Z` form), ignoring absent ones. */
function latest(times: readonly (string | null | undefined)[]): string | undefined {
  // Stryker disable next-line StringLiteral: Date.parse of "" and of any other non-date text is NaN, so an absent time is left out either way
  const known = times.filter((t): t is string => !Number.isNaN(Date.parse(t ?? "")));
  return known.reduce<string | undefined>(
    (a, t) => (a === undefined || Date.parse(t) > Date.parse(a) ? t : a),
    undefined,
  );
}

/**
 * Why no reviewer approved the head commit after the plan was last on screen in its final form;
 * `undefined` when one did. The plan's time is the latest of the comment's creation, its last
 * update and edit, and the start of the (latest attempt of the) run that posted it; an approval
 * counts only when submitted strictly later, for the merged head commit, not dismissed, and by the
 * repository's owner, a member or a collaborator ({@link APPROVERS}) other than the pull request's author,
 * who has not asked for changes since.
 */
function approvedTooEarly(
  commit: string,
  comment: PullRequestComment,
  record: PlanRecord & { pull: RecordPull; run: RecordRun; edits: RecordEdits; reviews: RecordReview[] },
): string | undefined {
  const planTime = latest([
    comment.created_at,
    comment.updated_at,
    record.edits.data.node.lastEditedAt,
    record.run.run_started_at ?? record.run.created_at,
  ]);
  if (planTime === undefined) return "the plan comment and its run carry no time";
  const ofCommit = record.reviews.filter(
    (r) => r.state === "APPROVED" && r.commit_id?.toLowerCase() === commit && r.submitted_at,
  );
  const author = record.pull.user?.login;
  // A reviewer who asked for changes after approving has taken the approval back (GitHub counts a
  // reviewer's latest review), even though the approving review keeps its state.
  const withdrawn = (r: RecordReview) =>
    record.reviews.some(
      (later) =>
        later.state === "CHANGES_REQUESTED" &&
        later.user?.login === r.user?.login &&
        // Stryker disable next-line StringLiteral: Date.parse of "" and of any other non-date text is NaN, so a request without a time withdraws nothing either way
        Date.parse(later.submitted_at ?? "") >= Date.parse(r.submitted_at as string),
    );
  const approvals = ofCommit.filter(
    (r) =>
      // Stryker disable next-line StringLiteral: neither "" nor any other text but the three associations is in APPROVERS, so a review without one never counts
      APPROVERS.has(r.author_association ?? "") &&
      r.user?.login !== undefined &&
      r.user.login !== author &&
      !withdrawn(r),
  );
  if (approvals.length === 0) {
    const ignored = ofCommit.map(
      (r) =>
        `${r.user?.login ?? "(deleted user)"} (${r.user?.login === author ? "the pull request's author" : withdrawn(r) ? "changes requested since" : (r.author_association ?? "no author_association")})`,
    );
    const also =
      ignored.length > 0
        ? ` (ignored: approvals by ${ignored.join(", ")}; only the repository's owner, members and collaborators other than the pull request's author count)`
        : "";
    return `no review approved the merged head commit ${commit}: a reviewed plan needs an approval of that commit${also}`;
  }
  const after = approvals.filter((r) => Date.parse(r.submitted_at as string) > Date.parse(planTime));
  if (after.length === 0) {
    const last = latest(approvals.map((r) => r.submitted_at));
    return (
      `the plan was made or changed at ${planTime}, after the last approval of commit ${commit} (${last}): ` +
      "no reviewer approved with this plan on screen; read it and approve again"
    );
  }
  return undefined;
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of the workflow's plan comment for `selection.commit`, checked
 * against the record of the run that posted it, or the first check that failed: the comment (as
 * `reviewedPlan` chooses it, and only one); the run it names (triggered by `workflow_run`, so its
 * workflow is the default branch's, and successful); the run's artifact (this pull request, this
 * commit, this run, and the very body of the comment); the edit history (no one but the workflow);
 * an approval of the commit after the plan's time; the value (shown, matching the digests shown).
 *
 * @example
 * verifiedPlan(comments, selection, await readPlanRecord("plan-record"));
 * // { ok: false, reason: "the comment was edited by mallory at 2026-11-26T10:05:00Z: ..." }
 */
export function verifiedPlan(
  comments: readonly PullRequestComment[],
  selection: PlanCommentSelection,
  record: PlanRecord,
): ReviewedPlanResult {
  const commit = selection.commit.toLowerCase();
  const found = workflowPlanComments(comments, selection);
  if (!found.ok) return found;
  if (found.comments.length > 1) {
    return {
      ok: false,
      reason: `${found.comments.length} plan comments of the workflow are about commit ${commit}; the plan action keeps one, so the others were posted by something else`,
    };
  }
  const comment = found.comments[0] as PullRequestComment;
  const runs = markedRuns(commentLines(comment));
  if (runs.length !== 1) {
    return {
      ok: false,
      reason: `the plan comment of commit ${commit} names ${runs.length === 0 ? "no run" : `${runs.length} runs`}: the plan action names the one run that posted it; preview again`,
    };
  }
  const runId = runs[0] as number;
  const { pull, run, meta, edits, reviews } = record;
  if (pull === undefined) return { ok: false, reason: "the record holds no pull request (pull.json)" };
  if (pull.head.sha.toLowerCase() !== commit || !pull.merged_at) {
    return {
      ok: false,
      reason: `pull request #${pull.number} is ${pull.merged_at ? `at head ${pull.head.sha}` : "not merged"}, not the merged head commit ${commit}`,
    };
  }
  if (run === undefined)
    return { ok: false, reason: `the record holds no run ${runId}, which the comment names` };
  if (run.id !== runId)
    return { ok: false, reason: `the record is of run ${run.id}; the comment names run ${runId}` };
  if (run.event !== "workflow_run") {
    return {
      ok: false,
      reason: `run ${runId}, named by the plan comment, was triggered by ${run.event}, not workflow_run: its workflow came from a branch, which a pull request can change`,
    };
  }
  if (run.status !== "completed" || run.conclusion !== "success") {
    return {
      ok: false,
      reason: `run ${runId} ${run.status === "completed" ? `ended in ${run.conclusion}` : "has not completed"}`,
    };
  }
  if (meta === undefined || record.comment === undefined) {
    return { ok: false, reason: `run ${runId} has no plan artifact (meta.json and comment.md)` };
  }
  if (meta.run !== runId || meta.pullRequest !== pull.number || meta.commit.toLowerCase() !== commit) {
    return {
      ok: false,
      reason: `the artifact of run ${runId} is of run ${meta.run}, pull request #${meta.pullRequest}, commit ${meta.commit}; expected #${pull.number} at ${commit}`,
    };
  }
  const posted = normalized(record.comment);
  // Stryker disable next-line StringLiteral: unreachable: workflowPlanComments keeps only comments whose body holds the marker, so the body is never absent here
  const now = normalized(comment.body ?? "");
  if (posted !== now) {
    return {
      ok: false,
      reason: `the plan comment is not what run ${runId} posted (${firstDifference(posted, now)}): it was edited`,
    };
  }
  if (edits === undefined)
    return { ok: false, reason: "the record holds no edit history of the comment (edits.json)" };
  const edited = editedByOthers(comment, edits, selection.author);
  if (edited !== undefined) return { ok: false, reason: edited };
  if (reviews === undefined) return { ok: false, reason: "the record holds no reviews (reviews.json)" };
  const early = approvedTooEarly(commit, comment, { ...record, pull, run, edits, reviews });
  if (early !== undefined) return { ok: false, reason: early };
  return planCommentValue(comment, commit);
}
