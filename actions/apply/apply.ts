/**
 * The apply action's step: finds the pull request whose merge made the pushed commit, fetches the
 * record of its plan (the comments, the run the workflow's plan comment names with that run's
 * artifact, the comment's edit history, the reviews), lets the pinned
 * `domainapi-plan --comments --record` decide whether that comment is the approved plan of the
 * merged head commit, and runs `pulumi up` under its `DOMAINAPI_EXPECT_PLAN` value. Any failed
 * check stops before `pulumi up`, with the reason.
 *
 * Environment: GH_TOKEN, REPO, SHA, DOMAINAPI_PLAN, AUTHOR, MARKER, PLAN_ARTIFACT, STACK, WORK_DIR,
 * RECORD_DIR; `gh` and `pulumi` on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { env, gh, pages, run, StepError, step } from "../lib/run.ts";

const RUN_MARKER = /^<!-- domainapi-plan run=([0-9]+) -->$/m;

/** The comment's node with its whole edit history, each editor's login and kind (a Bot or a User). */
const EDITS_QUERY = `query($id: ID!) {
  node(id: $id) {
    ... on IssueComment {
      id
      author { __typename login }
      lastEditedAt
      userContentEdits(first: 100) { totalCount nodes { editedAt deletedAt editor { __typename login } } }
    }
  }
}`;

interface Pull {
  number: number;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  head: { sha: string };
}

interface Comment {
  body?: string | null;
  node_id?: string;
  user?: { login: string } | null;
}

step(() => {
  const repo = env("REPO");
  const sha = env("SHA").toLowerCase();
  const record = env("RECORD_DIR");
  fs.mkdirSync(path.join(record, "artifact"), { recursive: true });

  const merged = (JSON.parse(gh(["api", `repos/${repo}/commits/${sha}/pulls`])) as Pull[]).filter(
    (p) => p.merged_at && p.merge_commit_sha?.toLowerCase() === sha,
  );
  if (merged.length !== 1) {
    throw new StepError(
      `no reviewed plan: commit ${sha} was ${merged.length === 0 ? "not made by merging a pull request" : `made by ${merged.length} merged pull requests`}; nothing applied`,
    );
  }
  const pull = merged[0] as Pull;
  fs.writeFileSync(path.join(record, "pull.json"), gh(["api", `repos/${repo}/pulls/${pull.number}`]));
  const commentsFile = path.join(record, "comments.json");
  const commentsText = gh(["api", "--paginate", "--slurp", `repos/${repo}/issues/${pull.number}/comments`]);
  fs.writeFileSync(commentsFile, commentsText);
  fs.writeFileSync(
    path.join(record, "reviews.json"),
    gh(["api", "--paginate", "--slurp", `repos/${repo}/pulls/${pull.number}/reviews`]),
  );

  // The run the workflow's latest plan comment names, and that comment's history: domainapi-plan
  // checks that they belong together and to the merged head commit.
  const author = env("AUTHOR");
  const marker = env("MARKER");
  const ours = pages<Comment>(commentsText).filter(
    (c) => c.user?.login === author && (c.body ?? "").includes(marker) && RUN_MARKER.test(c.body ?? ""),
  );
  const latest = ours.at(-1);
  const runId = latest ? RUN_MARKER.exec(latest.body ?? "")?.[1] : undefined;
  if (latest && runId) {
    fs.writeFileSync(path.join(record, "run.json"), gh(["api", `repos/${repo}/actions/runs/${runId}`]));
    const dir = path.join(record, "artifact");
    const got = run("gh", [
      "run",
      "download",
      runId,
      "--repo",
      repo,
      "--name",
      env("PLAN_ARTIFACT"),
      "--dir",
      dir,
    ]);
    if (got.status !== 0)
      process.stderr.write(`::warning::run ${runId} has no ${env("PLAN_ARTIFACT")} artifact\n`);
    if (latest.node_id) {
      fs.writeFileSync(
        path.join(record, "edits.json"),
        gh(["api", "graphql", "-f", `query=${EDITS_QUERY}`, "-f", `id=${latest.node_id}`]),
      );
    }
  }

  const checked = run(env("DOMAINAPI_PLAN"), [
    "--comments",
    commentsFile,
    "--commit",
    pull.head.sha,
    "--record",
    record,
    "--author",
    author,
    "--marker",
    marker,
  ]);
  if (checked.status !== 0) {
    const reason =
      checked.stderr.trim().replace(/^domainapi-plan: /, "") || `domainapi-plan exit ${checked.status}`;
    throw new StepError(`pull request #${pull.number}: ${reason}; nothing applied`);
  }
  const expected = checked.stdout.trim();
  process.stdout.write(
    `pull request #${pull.number}, head ${pull.head.sha}: applying the reviewed plan ${expected}\n`,
  );
  const up = run("pulumi", ["up", "--yes", "--non-interactive", "--stack", env("STACK")], {
    cwd: env("WORK_DIR"),
    env: { ...process.env, DOMAINAPI_EXPECT_PLAN: expected },
    stdout: 1,
  });
  return up.status;
});
