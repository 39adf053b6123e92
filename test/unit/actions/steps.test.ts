/**
 * The steps of actions/plan and actions/apply, run as the actions run them (`node <script>` with the
 * environment their action.yml gives), with the real `domainapi-plan` (dist/, built by `npm test`)
 * and stand-ins for `gh` and `pulumi` on PATH (test/fixtures/actions: recorded JSON shaped as
 * GitHub's REST and GraphQL APIs return it; a recorded `pulumi preview --json` of the engine).
 *
 * The plan action's two halves make the comment and the record; the apply action then applies only
 * that comment's value, and refuses each forgery of issue 33 and of the author of the pull request:
 * a forged line, an older commit, no comment, a failed preview, an edited comment, a hidden value, a
 * value for a template the comment never shows, a plan made after the approval, a run a branch made.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER } from "../../../provider/cli/comments";
import { parsePreview } from "../../../provider/cli/preview";
import { planComment, planExpectation } from "../../../provider/cli/review";

const repoRoot = path.resolve(__dirname, "..", "..", "..");
const PLAN_JS = path.join(repoRoot, "dist", "provider", "cli", "plan.js");
const FAKES = path.join(repoRoot, "test", "fixtures", "actions", "bin");
const PREVIEWS = path.join(repoRoot, "test", "fixtures", "preview");
const REPO = "octo/dns";
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const EARLIER = "89abcdef0123456789abcdef0123456789abcdef";
const MERGE = "fedcba9876543210fedcba9876543210fedcba98";
const PREVIEW_RUN = 5001;
const PLAN_RUN = 5002;
const PR = 7;
const NODE_ID = "IC_kwDOplan";

const update = parsePreview(fs.readFileSync(path.join(PREVIEWS, "update.json"), "utf8"));
const REVIEWED = planExpectation(update) as string;

/** What a run of a step left: its status, output, and the calls it made to gh and pulumi. */
interface StepRun {
  status: number;
  stdout: string;
  stderr: string;
  gh: { args: string[]; input?: { body: string } }[];
  ups: { args: string[]; cwd: string; expect: string }[];
  outputs: Record<string, string>;
}

interface FakeGitHub {
  api: Record<string, unknown>;
  downloads: Record<string, string>;
}

let work: string;
/** The built domainapi-plan as npm installs it: an executable command. */
let PLAN_BIN: string;

beforeAll(() => {
  if (!fs.existsSync(PLAN_JS)) throw new Error(`${PLAN_JS} is missing: run \`npm run build\` first`);
  work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-actions-"));
  PLAN_BIN = path.join(work, "domainapi-plan");
  fs.writeFileSync(PLAN_BIN, `#!/bin/sh\nexec node ${JSON.stringify(PLAN_JS)} "$@"\n`, { mode: 0o755 });
});

/** Lays out `github` for the fake gh: one answer file per route, one directory per artifact. */
function layFakeGitHub(dir: string, github: FakeGitHub): void {
  fs.mkdirSync(path.join(dir, "api"), { recursive: true });
  fs.mkdirSync(path.join(dir, "downloads"), { recursive: true });
  for (const [key, answer] of Object.entries(github.api)) {
    fs.writeFileSync(
      path.join(dir, "api", `${key.replaceAll("/", "_").replaceAll(" ", "_")}.json`),
      JSON.stringify(answer),
    );
  }
  for (const [key, source] of Object.entries(github.downloads)) {
    fs.cpSync(source, path.join(dir, "downloads", key.replace("/", "_")), { recursive: true });
  }
}

/** The calls the fake gh logged, in order. */
function ghCalls(dir: string): StepRun["gh"] {
  const calls = path.join(dir, "calls");
  if (!fs.existsSync(calls)) return [];
  const numbers = fs
    .readdirSync(calls)
    .filter((f) => /^\d+$/.test(f))
    .map(Number)
    .sort((a, b) => a - b);
  return numbers.map((n) => {
    const args = fs
      .readFileSync(path.join(calls, String(n)), "utf8")
      .split("\0")
      .slice(0, -1);
    const input = path.join(calls, `${n}.input`);
    return fs.existsSync(input) ? { args, input: JSON.parse(fs.readFileSync(input, "utf8")) } : { args };
  });
}

/** Runs an action's script as its action.yml runs it, with `env` on top of the fakes' settings. */
function runStep(
  script: string,
  env: Record<string, string>,
  github: FakeGitHub = { api: {}, downloads: {} },
): StepRun {
  const dir = fs.mkdtempSync(path.join(work, "step-"));
  const files = {
    gh: path.join(dir, "gh"),
    upLog: path.join(dir, "pulumi.log"),
    output: path.join(dir, "github-output"),
    summary: path.join(dir, "summary.md"),
  };
  layFakeGitHub(files.gh, github);
  for (const f of [files.upLog, files.output]) fs.writeFileSync(f, "");
  const result = spawnSync("node", [path.join(repoRoot, script)], {
    encoding: "utf8",
    env: {
      PATH: `${FAKES}:${process.env.PATH}`,
      HOME: dir,
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      FAKE_GH_DIR: files.gh,
      FAKE_PULUMI_LOG: files.upLog,
      ...env,
    },
  });
  const ups = fs
    .readFileSync(files.upLog, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [cwd, expect, ...args] = l.split("\0").slice(0, -1);
      return { cwd: cwd as string, expect: expect as string, args };
    });
  const outputs = Object.fromEntries(
    fs
      .readFileSync(files.output, "utf8")
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return {
    status: result.status ?? 1,
    stdout: result.stdout,
    stderr: result.stderr,
    gh: ghCalls(files.gh),
    ups,
    outputs,
  };
}

/** The plan action in mode preview: `pulumi preview --json` of `fixture`, exiting `exit`. */
function previewStep(fixture: string, exit = 0) {
  const out = fs.mkdtempSync(path.join(work, "preview-"));
  const result = runStep("actions/plan/preview.ts", {
    STACK: "prod",
    WORK_DIR: work,
    OUT_DIR: out,
    FAKE_PULUMI_PREVIEW: path.join(PREVIEWS, fixture),
    FAKE_PULUMI_EXIT: String(exit),
  });
  return { result, out };
}

/** The plan action in mode comment, rendering the artifact in `previewDir` (none: no artifact), for `head`. */
function commentStep(previewDir: string | undefined, head = HEAD, existing: unknown[] = []) {
  const out = fs.mkdtempSync(path.join(work, "record-"));
  const result = runStep(
    "actions/plan/comment.ts",
    {
      GITHUB_EVENT_NAME: "workflow_run",
      GH_TOKEN: "t",
      REPO,
      SERVER_URL: "https://github.com",
      RUN_ID: String(PLAN_RUN),
      PREVIEW_RUN: String(PREVIEW_RUN),
      HEAD_SHA: head,
      PULL_REQUEST: String(PR),
      DOMAINAPI_PLAN: PLAN_BIN,
      AUTHOR: DEFAULT_AUTHOR,
      MARKER: DEFAULT_MARKER,
      PREVIEW_ARTIFACT: "dns-preview",
      WORK: fs.mkdtempSync(path.join(work, "scratch-")),
      OUT_DIR: out,
    },
    {
      api: {
        [`GET repos/${REPO}/issues/${PR}/comments`]: existing,
        [`POST repos/${REPO}/issues/${PR}/comments`]: {
          id: 901,
          html_url: "https://github.com/octo/dns/pull/7#c901",
        },
        [`DELETE repos/${REPO}/issues/comments/900`]: "",
      },
      downloads: previewDir ? { [`${PREVIEW_RUN}/dns-preview`]: previewDir } : {},
    },
  );
  return { result, out };
}

const plans = new Map<string, ReturnType<typeof makePlan>>();

/** The comment and record the plan action makes of a preview of `head` (made once for each). */
function planned(head = HEAD, fixture = "update.json", exit = 0) {
  const key = `${head} ${fixture} ${exit}`;
  const made = plans.get(key) ?? makePlan(head, fixture, exit);
  plans.set(key, made);
  return made;
}

function makePlan(head: string, fixture: string, exit: number) {
  const preview = previewStep(fixture, exit);
  const comment = commentStep(preview.out, head);
  expect(comment.result.stderr).not.toMatch(/::error::/);
  return {
    body: fs.readFileSync(path.join(comment.out, "comment.md"), "utf8"),
    record: comment.out,
    comment,
  };
}

/** A GitHub where PR 7 (head HEAD) was merged as MERGE, with `comments`, `reviews` and the plan run's record. */
function mergedGitHub(options: {
  comments: unknown[];
  record?: string;
  reviews?: unknown[];
  run?: Record<string, unknown>;
  edits?: unknown[];
}): FakeGitHub {
  const pull = {
    number: PR,
    user: { login: "author" },
    merged_at: "2026-11-26T12:00:00Z",
    merge_commit_sha: MERGE,
    head: { sha: HEAD },
  };
  return {
    api: {
      [`GET repos/${REPO}/commits/${MERGE}/pulls`]: [pull],
      [`GET repos/${REPO}/pulls/${PR}`]: pull,
      [`GET repos/${REPO}/issues/${PR}/comments`]: options.comments,
      [`GET repos/${REPO}/pulls/${PR}/reviews`]: options.reviews ?? [
        {
          id: 1,
          user: { login: "reviewer" },
          state: "APPROVED",
          author_association: "MEMBER",
          commit_id: HEAD,
          submitted_at: "2026-11-26T11:00:00Z",
        },
      ],
      [`GET repos/${REPO}/actions/runs/${PLAN_RUN}`]: {
        id: PLAN_RUN,
        event: "workflow_run",
        status: "completed",
        conclusion: "success",
        created_at: "2026-11-26T10:00:00Z",
        run_started_at: "2026-11-26T10:00:00Z",
        html_url: `https://github.com/${REPO}/actions/runs/${PLAN_RUN}`,
        ...options.run,
      },
      graphql: {
        data: {
          node: {
            id: NODE_ID,
            author: { __typename: "Bot", login: "github-actions" },
            lastEditedAt: null,
            userContentEdits: { totalCount: options.edits?.length ?? 0, nodes: options.edits ?? [] },
          },
        },
      },
    },
    downloads: options.record ? { [`${PLAN_RUN}/dns-plan`]: options.record } : {},
  };
}

/** A comment as `GET /repos/{owner}/{repo}/issues/{n}/comments` returns it. */
function restComment(login: string, body: string, times: { created?: string; updated?: string } = {}) {
  return {
    id: 900,
    node_id: NODE_ID,
    html_url: `https://github.com/${REPO}/pull/${PR}#issuecomment-900`,
    user: { login, type: login.endsWith("[bot]") ? "Bot" : "User" },
    body,
    created_at: times.created ?? "2026-11-26T10:01:00Z",
    updated_at: times.updated ?? times.created ?? "2026-11-26T10:01:00Z",
  };
}

/** The apply action's step against `github`. */
function applyStep(github: FakeGitHub) {
  return runStep(
    "actions/apply/apply.ts",
    {
      GH_TOKEN: "t",
      REPO,
      SHA: MERGE,
      DOMAINAPI_PLAN: PLAN_BIN,
      AUTHOR: DEFAULT_AUTHOR,
      MARKER: DEFAULT_MARKER,
      PLAN_ARTIFACT: "dns-plan",
      STACK: "prod",
      WORK_DIR: work,
      RECORD_DIR: fs.mkdtempSync(path.join(work, "apply-record-")),
    },
    github,
  );
}

/** Asserts that the apply step stopped before `pulumi up`, with a reason matching `reason`. */
function refused(result: StepRun, reason: RegExp) {
  expect(result.status).toBe(1);
  expect(result.ups).toEqual([]);
  expect(result.stderr).toMatch(/::error::pull request #7: no reviewed plan: |::error::no reviewed plan/);
  expect(result.stderr).toMatch(reason);
}

describe("actions/plan", { timeout: 120_000 }, () => {
  it("mode preview: the preview's JSON and exit status in the artifact directory, also when it failed", () => {
    const good = previewStep("update.json");
    expect(good.result.status).toBe(0);
    expect(good.result.outputs).toEqual({ "exit-code": "0" });
    expect(JSON.parse(fs.readFileSync(path.join(good.out, "preview.json"), "utf8"))).toEqual(
      JSON.parse(fs.readFileSync(path.join(PREVIEWS, "update.json"), "utf8")),
    );
    const bad = previewStep("failed.json", 255);
    // The step itself succeeds so that the artifact is uploaded; action.yml then fails the job.
    expect(bad.result.status).toBe(0);
    expect(bad.result.outputs).toEqual({ "exit-code": "255" });
    expect(JSON.parse(fs.readFileSync(path.join(bad.out, "status.json"), "utf8"))).toEqual({ exitCode: 255 });
  });

  it("mode comment: posts the plan of the head commit naming its run, and records exactly what it posted", () => {
    const { body, record, comment } = planned();
    const posts = comment.result.gh.filter((c) => c.args.includes("POST"));
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args).toContain(`repos/${REPO}/issues/${PR}/comments`);
    expect(posts[0]?.input?.body).toBe(body);
    expect(body.startsWith(planComment(update, { commit: HEAD }).trimEnd())).toBe(true);
    expect(body).toContain(`[run ${PLAN_RUN}](https://github.com/${REPO}/actions/runs/${PLAN_RUN})`);
    expect(body).toContain(`<!-- domainapi-plan run=${PLAN_RUN} -->\n${DEFAULT_MARKER}\n`);
    expect(JSON.parse(fs.readFileSync(path.join(record, "meta.json"), "utf8"))).toEqual({
      pullRequest: PR,
      commit: HEAD,
      run: PLAN_RUN,
      previewRun: PREVIEW_RUN,
    });
    expect(comment.result.outputs).toEqual({ "preview-failed": "false" });
  });

  it("mode comment: posts a new comment and deletes the workflow's earlier one (not anyone else's), never edits one", () => {
    // An edit by another hand stays in a comment's history: a comment updated in place would be
    // refused by apply for every later commit once someone had edited it, whatever was previewed.
    const preview = previewStep("update.json");
    const mallory = { ...restComment("mallory", `x ${DEFAULT_MARKER}`), id: 899 };
    const earlier = restComment(DEFAULT_AUTHOR, `### DNS record plan\n\nold\n${DEFAULT_MARKER}`);
    const { result } = commentStep(preview.out, HEAD, [mallory, earlier]);
    expect(result.status).toBe(0);
    const calls = result.gh.map((c) => c.args.slice(1, 4).join(" "));
    expect(calls.filter((c) => /--method/.test(c))).toEqual([
      `--method POST repos/${REPO}/issues/${PR}/comments`,
      `--method DELETE repos/${REPO}/issues/comments/900`,
    ]);
  });

  it("mode comment: a failed preview is posted with its error, and the step says so for the job to fail", () => {
    const { body, comment } = planned(HEAD, "failed.json", 255);
    expect(body).toContain("**The preview failed**");
    expect(comment.result.gh.filter((c) => c.args.includes("POST"))).toHaveLength(1);
    expect(comment.result.outputs).toEqual({ "preview-failed": "true" });
  });

  it("mode comment: a run that left no preview: the comment says so, the job fails, and apply finds no plan in it", () => {
    const { result, out } = commentStep(undefined);
    expect(result.status).toBe(0);
    expect(result.outputs).toEqual({ "preview-failed": "true" });
    const body = fs.readFileSync(path.join(out, "comment.md"), "utf8");
    expect(body).toMatch(
      new RegExp(`^### DNS record plan\n\nNo plan for commit \`${HEAD}\`: \\[run ${PREVIEW_RUN}\\]`),
    );
    expect(result.gh.filter((c) => c.args.includes("POST"))[0]?.input?.body).toBe(body);
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, body)], record: out })),
      /the workflow's plan comment is not about the merged head commit \w+: it names no commit/,
    );
  });

  it("mode comment: refuses outside a workflow_run job, and an artifact that is not a preview, posting nothing", () => {
    const preview = previewStep("update.json");
    fs.writeFileSync(path.join(preview.out, "preview.json"), '{"not": "a preview"}');
    const { result } = commentStep(preview.out);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /::error::the artifact of run 5001 is not the output of `pulumi preview --json`/,
    );
    expect(result.gh.some((c) => c.args.includes("POST") || c.args.includes("PATCH"))).toBe(false);
    const pr = runStep("actions/plan/comment.ts", { GITHUB_EVENT_NAME: "pull_request" });
    expect(pr.status).toBe(1);
    expect(pr.stderr).toMatch(/mode comment runs in a job triggered by workflow_run/);
  });
});

describe("actions/apply", { timeout: 120_000 }, () => {
  it("the bot's comment, as its run posted it and approved after: `pulumi up` under its value", () => {
    const { body, record } = planned();
    const result = applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, body)], record }));
    expect(result.stderr).not.toMatch(/::error::/);
    expect(result.status).toBe(0);
    expect(result.ups).toEqual([
      {
        args: ["up", "--yes", "--non-interactive", "--stack", "prod"],
        cwd: fs.realpathSync(work),
        expect: REVIEWED,
      },
    ]);
  });

  it("a forged line: another user's comment with the markers and a plan line is never read", () => {
    const { body, record } = planned();
    const forged = body.replace(
      /DOMAINAPI_EXPECT_PLAN='[^']*'/,
      "DOMAINAPI_EXPECT_PLAN='web=00000000000000000000000000000000'",
    );
    refused(
      applyStep(mergedGitHub({ comments: [restComment("mallory", forged)], record })),
      /no plan comment of the workflow.*ignored: a plan line in comments by mallory/,
    );
  });

  it("an older commit: the bot's comment of an earlier push", () => {
    const { body, record } = planned(EARLIER);
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, body)], record })),
      new RegExp(`not about the merged head commit ${HEAD}: it is for commit ${EARLIER}`),
    );
  });

  it("no comment, and no pull request for the pushed commit", () => {
    refused(applyStep(mergedGitHub({ comments: [] })), /no plan comment of the workflow/);
    const none = applyStep({ api: { [`GET repos/${REPO}/commits/${MERGE}/pulls`]: [] }, downloads: {} });
    expect(none.status).toBe(1);
    expect(none.ups).toEqual([]);
    expect(none.stderr).toMatch(/no reviewed plan: commit fedcba9\w+ was not made by merging a pull request/);
  });

  it("a failed preview: its comment gives no plan", () => {
    const { body, record } = planned(HEAD, "failed.json", 255);
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, body)], record })),
      new RegExp(`the preview of commit ${HEAD} failed`),
    );
  });

  it("an edited comment: a changed value, or the same text after someone else's edit", () => {
    const { body, record } = planned();
    const changed = body.replace(
      /DOMAINAPI_EXPECT_PLAN='([^ ']*)/,
      "DOMAINAPI_EXPECT_PLAN='$1 extra=0123456789abcdef0123456789abcdef",
    );
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, changed)], record })),
      new RegExp(
        `the plan comment is not what run ${PLAN_RUN} posted \\(line \\d+ is .*extra=.*\\): it was edited`,
      ),
    );
    const mallory = {
      editedAt: "2026-11-26T10:30:00Z",
      deletedAt: null,
      editor: { __typename: "User", login: "mallory" },
    };
    const bot = {
      editedAt: "2026-11-26T10:01:00Z",
      deletedAt: null,
      editor: { __typename: "Bot", login: "github-actions" },
    };
    refused(
      applyStep(
        mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, body)], record, edits: [mallory, bot] }),
      ),
      /the comment was edited by mallory at 2026-11-26T10:30:00Z: only the workflow may change it/,
    );
  });

  it("a hidden value: a plan line in an HTML comment, invisible on GitHub", () => {
    const { body, record } = planned();
    const hidden = body.replace(
      /```text\nDOMAINAPI_EXPECT_PLAN=[^\n]*\n```/,
      "<!--\nDOMAINAPI_EXPECT_PLAN='web=00000000000000000000000000000000'\n-->",
    );
    expect(hidden).not.toBe(body);
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, hidden)], record })),
      /the plan comment is not what run 5002 posted/,
    );
  });

  it("a value for a template the comment never shows", () => {
    const { body, record } = planned();
    const extra = body.replace(
      /DOMAINAPI_EXPECT_PLAN='/,
      "DOMAINAPI_EXPECT_PLAN='unshown=0123456789abcdef0123456789abcdef ",
    );
    refused(
      applyStep(mergedGitHub({ comments: [restComment(DEFAULT_AUTHOR, extra)], record })),
      /the plan comment is not what run 5002 posted/,
    );
  });

  it("a comment made after the approval (a re-run, an unapproved commit: test/unit/cli/provenance.test.ts)", () => {
    const { body, record } = planned();
    const late = restComment(DEFAULT_AUTHOR, body, { created: "2026-11-26T11:30:00Z" });
    refused(
      applyStep(mergedGitHub({ comments: [late], record })),
      /the plan was made or changed at 2026-11-26T11:30:00Z, after the last approval of commit \w+ \(2026-11-26T11:00:00Z\)/,
    );
  });

  it("a comment naming a run that a branch's workflow made", () => {
    const { body, record } = planned();
    const comments = [restComment(DEFAULT_AUTHOR, body)];
    refused(
      applyStep(mergedGitHub({ comments, record, run: { event: "pull_request" } })),
      /run 5002, named by the plan comment, was triggered by pull_request, not workflow_run/,
    );
  });
});
