/**
 * The reviewed plan of a merged pull request, from its comments: only the plan comment the
 * workflow itself posted (its sticky marker, its author) about the head commit that was merged
 * yields a `DOMAINAPI_EXPECT_PLAN` value. Anyone who can comment can write a plan line; only the
 * workflow's own comment is the plan the reviewers saw next to the code they approved.
 *
 * The input is what `gh api repos/OWNER/REPO/issues/N/comments` prints: one JSON array, with
 * `--paginate` one array per page one after the other, with `--slurp` an array of those arrays.
 *
 * Pure: text in, a value or the reason there is none out.
 */
import { z } from "zod";
import { EXPECT_PLAN_ENV, formatExpectation, parseExpectation } from "../records/digest";
import { markedCommits } from "./commit";
import { PreviewInputError } from "./errors";
import { PLAN_HEADING, PREVIEW_FAILED } from "./markdown";

/** The fields of an issue comment of GitHub's REST API that the choice needs. */
const CommentSchema = z.looseObject({
  body: z.string().nullish(),
  user: z.looseObject({ login: z.string() }).nullish(),
  html_url: z.string().optional(),
});

/** One comment of a pull request, as GitHub's REST API returns it. */
export type PullRequestComment = z.infer<typeof CommentSchema>;

const CommentPagesSchema = z.array(z.union([CommentSchema, z.array(CommentSchema)]));

/** Which comment counts as the workflow's plan. */
export interface PlanCommentSelection {
  /** The head commit of the pull request that was merged (full SHA). */
  commit: string;
  /** The login of the workflow's own account: `github-actions[bot]`, or the app the workflow posts as. */
  author: string;
  /** Text only the workflow's comment carries: the sticky comment action's header marker. */
  marker: string;
}

/** The login the default `GITHUB_TOKEN` of a workflow posts as. */
export const DEFAULT_AUTHOR = "github-actions[bot]";

/** The marker marocchino/sticky-pull-request-comment adds for `header: dns-plan` (examples/ci). */
export const DEFAULT_MARKER = "<!-- Sticky Pull Request Commentdns-plan -->";

/** The outcome: the value to give `pulumi up`, or which check failed. */
export type ReviewedPlanResult = { ok: true; value: string } | { ok: false; reason: string };

/**
 * The JSON values in `text` one after the other (`gh api --paginate` prints one array per page with
 * nothing between them), parsed.
 */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === "[" || ch === "{") {
      if (depth++ === 0) start = i;
    } else if (ch === "]" || ch === "}") {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    } else if (depth === 0 && !/\s/.test(ch ?? "")) {
      throw new SyntaxError(`unexpected ${JSON.stringify(ch)} at position ${i}`);
    }
  }
  if (depth !== 0 || inString) throw new SyntaxError("the input ends inside a value");
  return values;
}

/**
 * Parses the comments of a pull request as `gh api` prints them (one array, pages one after the
 * other, or an array of pages).
 *
 * @throws PreviewInputError when the text is not such a list (the message names what does not fit)
 * @example
 * parseComments('[{"body": "hi", "user": {"login": "octocat"}}]').length; // 1
 */
export function parseComments(text: string): PullRequestComment[] {
  let values: unknown[];
  try {
    values = jsonValues(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new PreviewInputError(
      `the comments are not JSON (${reason}): expected what \`gh api repos/OWNER/REPO/issues/N/comments --paginate\` prints`,
    );
  }
  const parsed = CommentPagesSchema.safeParse(values.flatMap((v) => (Array.isArray(v) ? v : [v])));
  if (!parsed.success || values.some((v) => !Array.isArray(v))) {
    const detail = parsed.success
      ? "expected arrays of comments"
      : z.prettifyError(parsed.error).replaceAll("\n", " ");
    throw new PreviewInputError(
      `the input is not the comments of a pull request as \`gh api\` returns them: ${detail}`,
    );
  }
  return parsed.data.flat();
}

/** `<login>`s of the comments that hold a plan line but are not the workflow's, for the message. */
function othersWithPlanLines(comments: readonly PullRequestComment[], author: string): string {
  const logins = [
    ...new Set(
      comments
        .filter((c) => c.user?.login !== author && (c.body ?? "").includes(EXPECT_PLAN_ENV))
        .map((c) => c.user?.login ?? "(deleted user)"),
    ),
  ];
  return logins.length > 0
    ? ` (ignored: a plan line in comments by ${logins.join(", ")}, who are not the workflow)`
    : "";
}

/** The `DOMAINAPI_EXPECT_PLAN` line of one plan comment, or why it gives none. */
function expectationOf(lines: readonly string[], commit: string): ReviewedPlanResult {
  if (lines.includes(PREVIEW_FAILED)) {
    return {
      ok: false,
      reason: `the preview of commit ${commit} failed: its plan comment gives no reviewed plan`,
    };
  }
  const assignments = lines.filter((l) => l.startsWith(`${EXPECT_PLAN_ENV}=`));
  if (assignments.length !== 1) {
    return {
      ok: false,
      reason:
        assignments.length === 0
          ? `the plan comment of commit ${commit} gives no ${EXPECT_PLAN_ENV} value: a template's plan was not known in the preview (see the comment)`
          : `the plan comment of commit ${commit} holds ${assignments.length} ${EXPECT_PLAN_ENV} lines; domainapi-plan writes one`,
    };
  }
  try {
    const expected = parseExpectation(assignments[0]);
    if (expected?.kind !== "reviewed") {
      return {
        ok: false,
        reason: `the plan comment of commit ${commit} has an empty ${EXPECT_PLAN_ENV} value`,
      };
    }
    return { ok: true, value: formatExpectation(expected.plans) };
  } catch (err) {
    return {
      ok: false,
      reason: `the plan comment of commit ${commit}: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of the plan the workflow posted for `selection.commit`, or which
 * check failed: no comment by `selection.author` with `selection.marker`; none of them marks that
 * commit (the preview of the last push did not post); the preview of it failed; it gives no value.
 * Comments by anyone else, quoted replies included, are never read for the value.
 *
 * @example
 * reviewedPlan(parseComments(text), { commit: sha, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER });
 * // { ok: true, value: "mail=0123456789abcdef web=3f2a9c1e0b7d4a55" }
 */
export function reviewedPlan(
  comments: readonly PullRequestComment[],
  selection: PlanCommentSelection,
): ReviewedPlanResult {
  const commit = selection.commit.toLowerCase();
  const ours = comments.filter(
    (c) => c.user?.login === selection.author && (c.body ?? "").includes(selection.marker),
  );
  if (ours.length === 0) {
    return {
      ok: false,
      reason:
        `no plan comment of the workflow: no comment by ${selection.author} holds ${JSON.stringify(selection.marker)}` +
        othersWithPlanLines(comments, selection.author),
    };
  }
  const bodies = ours.map((c) => (c.body ?? "").split(/\r?\n/));
  const ofCommit = bodies.filter((lines) => {
    const marked = markedCommits(lines);
    return marked.length === 1 && marked[0] === commit && lines[0] === PLAN_HEADING;
  });
  if (ofCommit.length === 0) {
    const seen = [...new Set(bodies.flatMap(markedCommits))];
    const was =
      seen.length > 0
        ? `it is for commit ${seen.join(", ")}`
        : "it names no commit (domainapi-plan ran without --commit)";
    return {
      ok: false,
      reason:
        `the workflow's plan comment is not about the merged head commit ${commit}: ${was}. ` +
        "The preview of the last push did not post its plan; preview that commit again before deploying",
    };
  }
  const results = ofCommit.map((lines) => expectationOf(lines, commit));
  const failed = results.find((r) => !r.ok);
  if (failed) return failed;
  const values = new Set(results.map((r) => (r.ok ? r.value : "")));
  if (values.size > 1) {
    return { ok: false, reason: `the workflow posted ${values.size} different plans for commit ${commit}` };
  }
  return results[0] as ReviewedPlanResult;
}
