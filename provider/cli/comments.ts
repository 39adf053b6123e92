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
import { EXPECT_PLAN_ENV, formatExpectation, parseExpectation, type ReviewedPlan } from "../records/digest";
import { markedCommits } from "./commit";
import { PreviewInputError } from "./errors";
import { PLAN_HEADING, PREVIEW_FAILED, RESTORE_TITLE, visible } from "./markdown";

/** The fields of an issue comment of GitHub's REST API that the choice needs. */
const CommentSchema = z.looseObject({
  body: z.string().nullish(),
  user: z.looseObject({ login: z.string() }).nullish(),
  html_url: z.string().optional(),
  node_id: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
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
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  // Where the top-level value being read starts: its opener sets it before its closer reads it.
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === "[" || ch === "{") {
      if (depth++ === 0) start = i;
    } else if (ch === "]" || ch === "}") {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    } else if (depth === 0 && !/\s/.test(ch)) {
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
    // JSON.parse and jsonValues throw only SyntaxErrors.
    throw new PreviewInputError(
      `the comments are not JSON (${(err as SyntaxError).message}): expected what \`gh api repos/OWNER/REPO/issues/N/comments --paginate\` prints`,
    );
  }
  const parsed = CommentPagesSchema.safeParse(values.flat());
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
        .filter((c) => c.user?.login !== author && c.body?.includes(EXPECT_PLAN_ENV))
        .map((c) => c.user?.login ?? "(deleted user)"),
    ),
  ];
  return logins.length > 0
    ? ` (ignored: a plan line in comments by ${logins.join(", ")}, who are not the workflow)`
    : "";
}

/** A line of a comment as GitHub shows it: outside HTML comments, and whether a code fence holds it. */
interface ShownLine {
  text: string;
  fenced: boolean;
}

/**
 * The lines of a comment that GitHub shows: an HTML comment (`<!-- ... -->`) outside a code fence
 * is invisible there, so nothing in one can be what a reviewer read. Fence lines themselves are left
 * out. A `<!--` that never closes hides the rest of the comment.
 */
function shownLines(lines: readonly string[]): ShownLine[] {
  const shown: ShownLine[] = [];
  let fence: string | undefined;
  let hidden = false;
  for (const line of lines) {
    let text = line;
    if (hidden) {
      const end = text.indexOf("-->");
      if (end < 0) continue;
      hidden = false;
      text = text.slice(end + 3);
    } else if (fence !== undefined) {
      const close = /^ {0,3}(`{3,})\s*$/.exec(text);
      if (close?.[1] !== undefined && close[1].length >= fence.length) fence = undefined;
      else shown.push({ text, fenced: true });
      continue;
    } else {
      const open = /^ {0,3}(`{3,})[^`]*$/.exec(text);
      if (open?.[1] !== undefined) {
        fence = open[1];
        continue;
      }
    }
    text = text.replace(/<!--[\s\S]*?-->/g, "");
    const start = text.indexOf("<!--");
    if (start >= 0) {
      hidden = true;
      text = text.slice(0, start);
    }
    shown.push({ text, fenced: false });
  }
  return shown;
}

/** The content of the code span `text` starts with (CommonMark: one padding space each side stripped). */
function leadingCodeSpan(text: string): string | undefined {
  const ticks = /^`+/.exec(text)?.[0];
  if (ticks === undefined) return undefined;
  const rest = text.slice(ticks.length);
  const close = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(rest);
  if (close === null) return undefined;
  const inner = rest.slice(0, close.index);
  return inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() !== "" ? inner.slice(1, -1) : inner;
}

const TEMPLATE_TITLE = "**Template ";
const DIGEST_LINE = /^Plan digest `([0-9a-f]{32})`$/;

/**
 * The templates a plan comment shows with a digest, as `templateId` (as shown, escapes and all) →
 * digest; or why the comment cannot be read so (a template shown twice, two digests in a section).
 */
function shownDigests(shown: readonly ShownLine[]): Map<string, string> | string {
  const digests = new Map<string, string>();
  let current: string | undefined;
  let seen = new Set<string>();
  for (const { text, fenced } of shown) {
    if (fenced) continue;
    const restore = text.startsWith(RESTORE_TITLE);
    if (restore || text.startsWith(TEMPLATE_TITLE)) {
      const named = leadingCodeSpan(text.slice((restore ? RESTORE_TITLE : TEMPLATE_TITLE).length));
      // A restore's key in the value is `restore/<domain>` (no template id holds a `/`).
      current = named !== undefined && restore ? `restore/${named}` : named;
      if (current === undefined) return `a template heading names no template: ${JSON.stringify(text)}`;
      if (seen.has(current)) return `template \`${current}\` is shown twice`;
      seen = new Set([...seen, current]);
      continue;
    }
    const digest = DIGEST_LINE.exec(text)?.[1];
    if (digest === undefined) continue;
    if (current === undefined || digests.has(current)) {
      return `a plan digest (${digest}) stands outside a template's section, or a section has two`;
    }
    digests.set(current, digest);
  }
  return digests;
}

/**
 * Why the value does not name exactly the templates the comment shows, each with the digest shown
 * under its heading; `undefined` when it does. A value for a template the comment never shows, or
 * with another digest, would apply a plan no reviewer read.
 */
function valueMismatch(plans: readonly ReviewedPlan[], shown: readonly ShownLine[]): string | undefined {
  const digests = shownDigests(shown);
  if (typeof digests === "string") return digests;
  const named = new Set<string>();
  for (const plan of plans) {
    const id = visible(plan.templateId);
    named.add(id);
    const digest = digests.get(id);
    if (digest === undefined) {
      return `its ${EXPECT_PLAN_ENV} value names template \`${id}\`, whose plan the comment does not show`;
    }
    if (digest !== plan.digest) {
      return `its ${EXPECT_PLAN_ENV} value gives template \`${id}\` the digest ${plan.digest}, but the plan shown for it has ${digest}`;
    }
  }
  const left = [...digests.keys()].filter((id) => !named.has(id));
  return left.length > 0
    ? `its ${EXPECT_PLAN_ENV} value leaves out template ${left.map((id) => `\`${id}\``).join(", ")}, whose plan it shows`
    : undefined;
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of one plan comment, or why it gives none. Only what GitHub
 * shows counts: the value line stands in a code block, outside any HTML comment, and names exactly
 * the templates shown with the digests shown.
 */
function expectationOf(lines: readonly string[], commit: string): ReviewedPlanResult {
  const shown = shownLines(lines);
  if (shown.some((l) => !l.fenced && l.text === PREVIEW_FAILED)) {
    return {
      ok: false,
      reason: `the preview of commit ${commit} failed: its plan comment gives no reviewed plan`,
    };
  }
  const assignment = `${EXPECT_PLAN_ENV}=`;
  const assignments = shown.filter((l) => l.fenced && l.text.startsWith(assignment));
  const loose = shown.filter((l) => !l.fenced && l.text.trimStart().startsWith(assignment)).length;
  const hidden =
    lines.filter((l) => l.includes(assignment)).length -
    shown.filter((l) => l.text.includes(assignment)).length;
  const elsewhere = [
    ...(hidden > 0 ? [`${hidden} in an HTML comment, not shown on GitHub`] : []),
    ...(loose > 0 ? [`${loose} outside a code block`] : []),
  ];
  if (assignments.length !== 1) {
    const also = elsewhere.length > 0 ? ` (and ${elsewhere.join(", ")})` : "";
    return {
      ok: false,
      reason:
        assignments.length === 0
          ? `the plan comment of commit ${commit} shows no ${EXPECT_PLAN_ENV} value${also}: a template's plan was not known in the preview (see the comment)`
          : `the plan comment of commit ${commit} holds ${assignments.length} ${EXPECT_PLAN_ENV} lines${also}; domainapi-plan writes one`,
    };
  }
  if (elsewhere.length > 0) {
    return {
      ok: false,
      reason: `the plan comment of commit ${commit} holds ${EXPECT_PLAN_ENV} text beside its value line (${elsewhere.join(", ")}); domainapi-plan writes none`,
    };
  }
  try {
    const expected = parseExpectation(assignments[0]?.text);
    if (expected?.kind !== "reviewed") {
      return {
        ok: false,
        reason: `the plan comment of commit ${commit} has an empty ${EXPECT_PLAN_ENV} value`,
      };
    }
    const mismatch = valueMismatch(expected.plans, shown);
    if (mismatch !== undefined) {
      return { ok: false, reason: `the plan comment of commit ${commit}: ${mismatch}` };
    }
    return { ok: true, value: formatExpectation(expected.plans) };
  } catch (err) {
    return {
      ok: false,
      // parseExpectation's UnreviewedPlanError, the one thing above that throws.
      reason: `the plan comment of commit ${commit}: ${(err as Error).message}`,
    };
  }
}

/** The workflow's plan comments about `selection.commit`, or why there is none. */
export function workflowPlanComments(
  comments: readonly PullRequestComment[],
  selection: PlanCommentSelection,
): { ok: true; comments: PullRequestComment[] } | { ok: false; reason: string } {
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
  const ofCommit = ours.filter((c) => {
    const lines = commentLines(c);
    const marked = markedCommits(lines);
    return marked.length === 1 && marked[0] === commit && lines[0] === PLAN_HEADING;
  });
  if (ofCommit.length === 0) {
    const seen = [...new Set(ours.map(commentLines).flatMap(markedCommits))];
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
  return { ok: true, comments: ofCommit };
}

/** A comment's lines (any line ending). */
export function commentLines(comment: PullRequestComment): string[] {
  return (comment.body ?? "").split(/\r?\n/);
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of one plan comment of the workflow (see {@link expectationOf}).
 *
 * @example
 * planCommentValue(comment, sha); // { ok: true, value: "web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }
 */
export function planCommentValue(comment: PullRequestComment, commit: string): ReviewedPlanResult {
  return expectationOf(commentLines(comment), commit.toLowerCase());
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of the plan the workflow posted for `selection.commit`, or which
 * check failed: no comment by `selection.author` with `selection.marker`; none of them marks that
 * commit (the preview of the last push did not post); the preview of it failed; it gives no value.
 * Comments by anyone else, quoted replies included, are never read for the value.
 *
 * @example
 * reviewedPlan(parseComments(text), { commit: sha, author: DEFAULT_AUTHOR, marker: DEFAULT_MARKER });
 * // { ok: true, value: "mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }
 */
export function reviewedPlan(
  comments: readonly PullRequestComment[],
  selection: PlanCommentSelection,
): ReviewedPlanResult {
  const found = workflowPlanComments(comments, selection);
  if (!found.ok) return found;
  const commit = selection.commit.toLowerCase();
  const values = new Set<string>();
  for (const comment of found.comments) {
    const result = planCommentValue(comment, commit);
    if (!result.ok) return result;
    values.add(result.value);
  }
  if (values.size > 1) {
    return { ok: false, reason: `the workflow posted ${values.size} different plans for commit ${commit}` };
  }
  return { ok: true, value: [...values][0] as string };
}
