/**
 * The trusted half of the plan action, in a run triggered by `workflow_run` (so its workflow is the
 * default branch's, which no pull request can change): downloads the preview artifact of the
 * pull request's run, renders it with the pinned `domainapi-plan --commit <head>`, and posts it as
 * the one plan comment of the pull request (a new comment, the earlier ones deleted), naming this
 * run. It writes what it posted into
 * a record directory the action uploads as this run's artifact, which the apply action checks the
 * comment against. It runs none of the pull request's code: the artifact is data, and
 * `domainapi-plan` shows every value of it in code.
 *
 * Environment: GH_TOKEN, REPO, SERVER_URL, RUN_ID, PREVIEW_RUN, HEAD_SHA, PULL_REQUEST (may be
 * empty: then looked up by the head commit), DOMAINAPI_PLAN, AUTHOR, MARKER, PREVIEW_ARTIFACT,
 * WORK (a scratch directory), OUT_DIR (the record to upload).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { env, gh, output, pages, run, StepError, step, summary } from "../lib/run.ts";

/** The line naming the run that posted a comment; `domainapi-plan --record` reads it back. */
const runMarker = (id: number) => `<!-- domainapi-plan run=${id} -->`;

interface Pull {
  number: number;
  state?: string;
  head: { sha: string };
}

interface Comment {
  id: number;
  body?: string | null;
  user?: { login: string } | null;
}

/** The open pull request whose head is `sha`. */
function pullOf(repo: string, sha: string): number {
  const pulls = (JSON.parse(gh(["api", `repos/${repo}/commits/${sha}/pulls`])) as Pull[]).filter(
    (p) => p.head.sha === sha && p.state !== "closed",
  );
  if (pulls.length !== 1) {
    throw new StepError(
      `${pulls.length === 0 ? "no" : pulls.length} open pull requests have head ${sha}: no comment posted`,
    );
  }
  return (pulls[0] as Pull).number;
}

/** The plan's Markdown, and whether the preview failed (its own exit status, or the plan says so). */
function renderedPlan(
  repo: string,
  previewRun: number,
  previewDir: string,
  head: string,
  link: (id: number) => string,
): { plan: string; failed: boolean } {
  const args = ["run", "download", String(previewRun), "--repo", repo, "--name", env("PREVIEW_ARTIFACT")];
  if (run("gh", [...args, "--dir", previewDir]).status !== 0) {
    // No plan to show: say so in the comment, so that no one reads an earlier push's plan as this one's.
    const plan = `### DNS record plan\n\nNo plan for commit \`${head}\`: ${link(previewRun)} left no preview (it failed or was cancelled before \`pulumi preview\`; see its log).\n`;
    return { plan, failed: true };
  }
  const rendered = run(env("DOMAINAPI_PLAN"), ["--commit", head, path.join(previewDir, "preview.json")]);
  if (rendered.status !== 0) {
    throw new StepError(
      `the artifact of run ${previewRun} is not the output of \`pulumi preview --json\` (domainapi-plan exit ${rendered.status}): no plan posted`,
    );
  }
  // The preview's exit status is in the artifact beside its JSON; the plan of a failed preview also
  // starts a line so (domainapi-plan). Either fails this job after the upload, as it failed the other.
  let status: unknown;
  try {
    status = (
      JSON.parse(fs.readFileSync(path.join(previewDir, "status.json"), "utf8")) as { exitCode?: unknown }
    ).exitCode;
  } catch {
    status = undefined;
  }
  const planFailed = rendered.stdout.split("\n").some((line) => line.startsWith("**The preview failed**"));
  return { plan: rendered.stdout, failed: planFailed || status !== 0 };
}

step(() => {
  if (env("GITHUB_EVENT_NAME") !== "workflow_run") {
    throw new StepError(
      "mode comment runs in a job triggered by workflow_run (its workflow is the default branch's, which a pull request cannot change)",
    );
  }
  const repo = env("REPO");
  const head = env("HEAD_SHA").toLowerCase();
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(head))
    throw new StepError(`HEAD_SHA ${head} is not a commit id`);
  const runId = Number(env("RUN_ID"));
  const previewRun = Number(env("PREVIEW_RUN"));
  const given = process.env.PULL_REQUEST?.trim();
  const pull = given ? Number(given) : pullOf(repo, head);
  if (!Number.isSafeInteger(pull) || !Number.isSafeInteger(runId) || !Number.isSafeInteger(previewRun)) {
    throw new StepError(
      `PULL_REQUEST, RUN_ID and PREVIEW_RUN must be numbers (${given}, ${runId}, ${previewRun})`,
    );
  }
  const work = env("WORK");
  const previewDir = path.join(work, "preview");
  fs.mkdirSync(previewDir, { recursive: true });
  const server = env("SERVER_URL");
  const link = (id: number) => `[run ${id}](${server}/${repo}/actions/runs/${id})`;
  const { plan, failed } = renderedPlan(repo, previewRun, previewDir, head, link);
  const body = [
    plan.trimEnd(),
    "",
    `<sub>Rendered by ${link(runId)} from the preview of ${link(previewRun)}. Only the deployment's own check of this comment against that run's record decides what \`pulumi up\` applies.</sub>`,
    runMarker(runId),
    env("MARKER"),
    "",
  ].join("\n");
  const bodyFile = path.join(work, "body.json");
  fs.writeFileSync(bodyFile, JSON.stringify({ body }));

  // A new comment each time, and the workflow's earlier ones deleted, never one edited in place: an
  // edit by anyone else stays in a comment's history (and every edit counts against the 100 the
  // apply action reads), so a comment updated in place would be refused for good once someone
  // else had touched it.
  const author = env("AUTHOR");
  const marker = env("MARKER");
  const earlier = pages<Comment>(
    gh(["api", "--paginate", "--slurp", `repos/${repo}/issues/${pull}/comments`]),
  ).filter((c) => c.user?.login === author && (c.body ?? "").includes(marker));
  const posted = gh([
    "api",
    "--method",
    "POST",
    `repos/${repo}/issues/${pull}/comments`,
    "--input",
    bodyFile,
  ]);
  const url = (JSON.parse(posted) as { html_url?: string }).html_url ?? "";
  process.stdout.write(`plan comment posted on pull request #${pull}: ${url}\n`);
  for (const old of earlier) {
    gh(["api", "--method", "DELETE", `repos/${repo}/issues/comments/${old.id}`]);
    process.stdout.write(`earlier plan comment ${old.id} deleted\n`);
  }

  const out = env("OUT_DIR");
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "comment.md"), body);
  fs.writeFileSync(
    path.join(out, "meta.json"),
    `${JSON.stringify({ pullRequest: pull, commit: head, run: runId, previewRun }, null, 2)}\n`,
  );
  summary(plan);
  output("preview-failed", String(failed));
  return 0;
});
