/**
 * The workflows of examples/ci and the two actions, linted: actionlint on the workflows and on each
 * action's steps laid out as a workflow's job (actionlint checks workflows, not composite actions;
 * it runs shellcheck on every `run:` when shellcheck is installed), and the least-privilege rules of
 * docs/previews.md: a job that runs a pull request's code holds no API key, no secret but the
 * stack's read-only state token, and no token that can write; the job that renders the plan runs
 * none of the pull request's code; only the `up` job holds the key, in a protected environment.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const repoRoot = path.resolve(__dirname, "..", "..", "..");
const WORKFLOWS = path.join(repoRoot, "examples", "ci", ".github", "workflows");

/** The one secret a pull-request job may hold: a Pulumi Cloud token of a team that can only read the stack. */
const READ_ONLY_STATE_TOKEN = "PULUMI_PREVIEW_TOKEN";

type Yaml = Record<string, unknown>;

const asRecord = (v: unknown): Yaml => (v !== null && typeof v === "object" ? (v as Yaml) : {});

/** The events a workflow's `on:` names. */
function events(workflow: Yaml): string[] {
  const on = workflow.on;
  if (typeof on === "string") return [on];
  return Array.isArray(on) ? on.map(String) : Object.keys(asRecord(on));
}

/** Whether a job's `if:` keeps it off pull-request events. */
function pushOnly(job: Yaml): boolean {
  const condition = String(job.if ?? "");
  return (
    /github\.event_name\s*==\s*'push'/.test(condition) || /github\.ref\s*==\s*'refs\/heads\//.test(condition)
  );
}

/** Why a permissions block (job, or workflow's when the job has none) lets the token write. */
function writes(permissions: unknown): string | undefined {
  if (permissions === undefined)
    return "no permissions block: the token gets the repository's default, which can write";
  if (typeof permissions === "string")
    return permissions === "read-all" ? undefined : `permissions: ${permissions}`;
  const granted = Object.entries(asRecord(permissions)).filter(([, v]) => v === "write");
  return granted.length > 0 ? `permissions: ${granted.map(([k]) => `${k}: write`).join(", ")}` : undefined;
}

/**
 * What breaks the least-privilege rules in a workflow, one line per finding (empty when nothing).
 *
 * @example
 * privilegeProblems(fs.readFileSync("pulumi.yml", "utf8")); // []
 */
function privilegeProblems(text: string): string[] {
  const workflow = asRecord(parse(text));
  const on = events(workflow);
  const jobs = asRecord(workflow.jobs);
  const problems: string[] = [];
  const workflowEnv = JSON.stringify(workflow.env ?? {});
  for (const [name, value] of Object.entries(jobs)) {
    const job = asRecord(value);
    const whole = JSON.stringify(job);
    const secrets = [...`${workflowEnv}${whole}`.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map(
      (m) => m[1] as string,
    );
    if (on.some((e) => e === "pull_request" || e === "pull_request_target") && !pushOnly(job)) {
      for (const secret of new Set(secrets)) {
        if (secret !== READ_ONLY_STATE_TOKEN)
          problems.push(`${name}: a pull-request job holds secrets.${secret}`);
      }
      if (whole.includes("DOMAINAPI_API_KEY") && !whole.includes('"DOMAINAPI_API_KEY":"ci-sandbox-key"')) {
        problems.push(`${name}: a pull-request job sets DOMAINAPI_API_KEY`);
      }
      const write = writes(job.permissions ?? workflow.permissions);
      if (write) problems.push(`${name}: a pull-request job's token can write (${write})`);
      if (job.environment !== undefined) problems.push(`${name}: a pull-request job uses an environment`);
    }
    if (on.includes("workflow_run")) {
      if (whole.includes("actions/checkout")) problems.push(`${name}: the rendering job checks out code`);
      if (/"run":/.test(whole)) problems.push(`${name}: the rendering job runs commands of its own`);
      if (!String(job.if ?? "").includes("github.event.workflow_run.event == 'pull_request'")) {
        problems.push(`${name}: the rendering job does not check that the run was a pull request's`);
      }
    }
    if (secrets.includes("DOMAINAPI_API_KEY") && job.environment === undefined) {
      problems.push(`${name}: holds the API key outside a protected environment`);
    }
  }
  return problems;
}

/** actionlint of the pinned version (scripts/ensure-actionlint.sh builds it once). */
function actionlint(files: string[]): { status: number; output: string } {
  const ensured = spawnSync("bash", [path.join(repoRoot, "scripts", "ensure-actionlint.sh")], {
    encoding: "utf8",
  });
  if (ensured.status !== 0) throw new Error(`ensure-actionlint.sh failed: ${ensured.stderr}`);
  const result = spawnSync(ensured.stdout.trim(), ["-no-color", ...files], {
    encoding: "utf8",
    cwd: repoRoot,
  });
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}

/**
 * An action's steps as a workflow actionlint can check: one job whose steps are the composite
 * steps, the action's inputs as `workflow_call` inputs, and its environment (`GITHUB_ACTION_PATH`).
 */
function actionAsWorkflow(actionFile: string): string {
  const action = asRecord(parse(fs.readFileSync(actionFile, "utf8")));
  const inputs = Object.fromEntries(
    Object.keys(asRecord(action.inputs)).map((name) => [name, { type: "string", required: false }]),
  );
  const runs = asRecord(action.runs);
  return stringify({
    name: `action ${path.basename(path.dirname(actionFile))}`,
    on: { workflow_call: { inputs } },
    jobs: { steps: { "runs-on": "ubuntu-latest", env: { GITHUB_ACTION_PATH: "." }, steps: runs.steps } },
  });
}

describe("the example workflows and the actions", () => {
  it("pass actionlint (with shellcheck on every run: script where it is installed)", {
    timeout: 300_000,
  }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "actions-lint-"));
    const synthetic = ["plan", "apply"].map((name) => {
      const file = path.join(dir, `${name}.yml`);
      fs.writeFileSync(file, actionAsWorkflow(path.join(repoRoot, "actions", name, "action.yml")));
      return file;
    });
    const workflows = fs.readdirSync(WORKFLOWS).map((f) => path.join(WORKFLOWS, f));
    const { status, output } = actionlint([...workflows, ...synthetic]);
    expect(output).toBe("");
    expect(status).toBe(0);
    // actionlint checks the lint itself: a broken expression in an action's step is reported.
    const broken = path.join(dir, "broken.yml");
    fs.writeFileSync(
      broken,
      fs.readFileSync(synthetic[0] as string, "utf8").replace("inputs.stack", "inputs.stak"),
    );
    expect(actionlint([broken]).output).toMatch(/property "stak" is not defined/);
  });

  it("hold least privilege: no key and no writing token where a pull request's code runs", () => {
    for (const file of fs.readdirSync(WORKFLOWS)) {
      expect([file, privilegeProblems(fs.readFileSync(path.join(WORKFLOWS, file), "utf8"))]).toEqual([
        file,
        [],
      ]);
    }
  });

  it("the lint finds each way a workflow gives a pull request's code a key or a writing token", () => {
    const leaky = `
on: pull_request
permissions:
  contents: read
  pull-requests: write
env:
  DOMAINAPI_API_KEY: \${{ secrets.DOMAINAPI_API_KEY }}
jobs:
  preview:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci
`;
    expect(privilegeProblems(leaky)).toEqual([
      "preview: a pull-request job holds secrets.DOMAINAPI_API_KEY",
      "preview: a pull-request job's token can write (permissions: pull-requests: write)",
      "preview: holds the API key outside a protected environment",
    ]);
    const defaults = "on: [pull_request]\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: echo }]\n";
    expect(privilegeProblems(defaults)).toEqual([
      "a: a pull-request job's token can write (no permissions block: the token gets the repository's default, which can write)",
    ]);
    const renderer = `
on:
  workflow_run:
    workflows: [dns]
jobs:
  comment:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npx domainapi-plan preview.json
`;
    expect(privilegeProblems(renderer)).toEqual([
      "comment: the rendering job checks out code",
      "comment: the rendering job runs commands of its own",
      "comment: the rendering job does not check that the run was a pull request's",
    ]);
  });
});
