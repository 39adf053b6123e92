/**
 * The commit a plan was made from. `domainapi-plan --commit <sha>` shows it in the comment and marks
 * it in an HTML comment the deployment reads back, so that a merge is deployed only under the plan
 * of the very commit it merged, not under one posted for an earlier push of the same pull request.
 *
 * Pure.
 */
import { PreviewInputError } from "./errors";

/** A full commit id: SHA-1 (40 hexadecimal digits) or SHA-256 (64). */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The marker's form; the commit is the only value in it, and it is hexadecimal. */
const MARKER = /^<!-- domainapi-plan commit=([0-9a-f]+) -->$/;

/**
 * `value` as a commit id, lower-cased.
 *
 * @throws PreviewInputError naming the option and the form expected (an abbreviated id would match
 *   more than one commit, so it is refused)
 * @example
 * parseCommit("3F2A...", "--commit"); // "3f2a..."
 */
export function parseCommit(value: string, option: string): string {
  const sha = value.trim().toLowerCase();
  if (!FULL_SHA.test(sha)) {
    throw new PreviewInputError(
      `${option}: ${JSON.stringify(value)} is not a full commit id (40 or 64 hexadecimal digits); ` +
        "give the whole SHA (in a pull request's workflow: github.event.pull_request.head.sha)",
    );
  }
  return sha;
}

/**
 * The line that marks the commit in a plan comment: an HTML comment, invisible on GitHub, on a line
 * of its own.
 *
 * @example
 * commitMarker("0123456789abcdef0123456789abcdef01234567");
 * // "<!-- domainapi-plan commit=0123456789abcdef0123456789abcdef01234567 -->"
 */
export function commitMarker(sha: string): string {
  return `<!-- domainapi-plan commit=${sha} -->`;
}

/**
 * The commits marked in a comment's lines (see {@link commitMarker}), in order.
 *
 * @example
 * markedCommits(["### DNS record plan", "<!-- domainapi-plan commit=0123...4567 -->"]); // ["0123...4567"]
 */
export function markedCommits(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const found = MARKER.exec(line);
    return found ? [found[1] as string] : [];
  });
}

/** The run marker's form: the id of the workflow run that posted the comment, decimal. */
const RUN_MARKER = /^<!-- domainapi-plan run=([0-9]+) -->$/;

/**
 * The line that names, in a plan comment, the workflow run that rendered and posted it (the plan
 * action writes it): the deployment fetches that run's record to check the comment against it.
 *
 * @example
 * runMarker(123456); // "<!-- domainapi-plan run=123456 -->"
 */
export function runMarker(runId: number): string {
  return `<!-- domainapi-plan run=${runId} -->`;
}

/**
 * The run ids marked in a comment's lines (see {@link runMarker}), in order.
 *
 * @example
 * markedRuns(["<!-- domainapi-plan run=123456 -->"]); // [123456]
 */
export function markedRuns(lines: readonly string[]): number[] {
  return lines.flatMap((line) => {
    const found = RUN_MARKER.exec(line);
    return found ? [Number(found[1])] : [];
  });
}
