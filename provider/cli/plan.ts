#!/usr/bin/env node
/**
 * `domainapi-plan`: turns `pulumi preview --json` into the Markdown of a pull-request comment that
 * says, per DNS template, which records are created, modified and deleted and which ids are kept;
 * with `--expect`, into the `DOMAINAPI_EXPECT_PLAN` value of that plan; with `--comments`, takes that
 * value from the plan comment the workflow posted on the merged pull request.
 *
 * Exit status: 0 the plan (or value) was written (also when nothing changes, and when the preview
 * failed: the plan then says so first); 2 no value can be given (the message says which check
 * failed), the input is not what was expected, or the arguments are wrong; 1 anything else.
 */
import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { EXPECT_PLAN_ENV } from "../records/digest";
import { DEFAULT_AUTHOR, DEFAULT_MARKER, parseComments, reviewedPlan } from "./comments";
import { parseCommit } from "./commit";
import { PreviewInputError } from "./errors";
import { readPlanRecord, verifiedPlan } from "./provenance";

const USAGE = `Usage: domainapi-plan [--commit <sha>] [preview.json]
       domainapi-plan --expect [preview.json]
       domainapi-plan --comments <comments.json> --commit <sha> [--author <login>] [--marker <text>] [--record <dir>]

Reads the output of \`pulumi preview --json\` (from the file, or from stdin) and writes the plan of
every DNS template it changes as Markdown, for a pull-request comment. --commit names the commit
the preview was made from (the pull request's head), so that the deployment can check it:

  pulumi preview --json > preview.json
  domainapi-plan --commit "$HEAD_SHA" preview.json > plan.md

With --expect, writes instead the ${EXPECT_PLAN_ENV} value of the plans: given to \`pulumi up\`, it
applies exactly these plans and refuses any template whose plan differs. Run it so that its failure
stops before \`pulumi up\` (in \`VAR="$(...)" pulumi up\` the shell ignores it, and the empty value
then refuses every change):

  expect=$(domainapi-plan --expect preview.json) && ${EXPECT_PLAN_ENV}="$expect" pulumi up

With --comments, writes the ${EXPECT_PLAN_ENV} value of the plan the workflow posted on a merged
pull request, from its comments as \`gh api --paginate repos/OWNER/REPO/issues/N/comments\` prints
them. Only the workflow's own comment counts: by --author (default ${DEFAULT_AUTHOR}), holding
--marker (default ${DEFAULT_MARKER}, the sticky comment of
examples/ci), made from the commit given with --commit (the merged head). No other comment, quoted
replies included, is read for it. With --record, the comment must also be what the run it names
posted (the record the apply action fetches: docs/previews.md), edited by no one else, and approved
after it was last changed.

Exit status: 0 written; 2 no value can be given (the message says which check failed: the preview
failed, a template cannot be planned from it, no comment of the workflow about that commit), or the
input or the arguments are wrong; 1 anything else.`;

/** Where the command reads and writes; the real process's streams by default. */
export interface PlanCommandIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  expect: { type: "boolean" },
  commit: { type: "string" },
  comments: { type: "string" },
  author: { type: "string" },
  marker: { type: "string" },
  record: { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

/** A wrong use of the options: exit 2 with the message and the usage. */
class UsageError extends Error {}

/** The checks of the options that node:util's parseArgs does not make. */
function checkCombination(values: Values, positionals: readonly string[]): void {
  if (positionals.length > 1) throw new UsageError(`one preview file at most, got ${positionals.length}`);
  if (values.comments !== undefined) {
    if (values.commit === undefined)
      throw new UsageError("--comments needs --commit <sha>: the merged head commit");
    if (positionals.length > 0) throw new UsageError("--comments reads the comments file, not a preview");
  } else {
    if (values.author !== undefined || values.marker !== undefined || values.record !== undefined) {
      throw new UsageError(
        "--author, --marker and --record choose and check the comment that --comments reads; give --comments too",
      );
    }
    if (values.expect && values.commit !== undefined) {
      throw new UsageError("--commit is shown in the Markdown; --expect prints only the value");
    }
  }
}

/**
 * Runs `domainapi-plan` with `args` (without `node` and the script) and returns the exit status.
 *
 * @example
 * await runPlanCommand(["preview.json"]); // 0, the Markdown on stdout
 */
export async function runPlanCommand(args: readonly string[], io: PlanCommandIo = process): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: OPTIONS }));
    if (values.help) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    checkCombination(values, positionals);
  } catch (err) {
    // parseArgs's TypeError, or a UsageError.
    io.stderr.write(`domainapi-plan: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const [file] = positionals;
  if (values.comments === undefined && file === undefined && io.stdin.isTTY) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const commit = values.commit === undefined ? undefined : parseCommit(values.commit, "--commit");
    if (values.comments !== undefined) {
      const comments = parseComments(await readInput(values.comments, io));
      const selection = {
        commit: commit as string,
        author: values.author ?? DEFAULT_AUTHOR,
        marker: values.marker ?? DEFAULT_MARKER,
      };
      const record = values.record === undefined ? undefined : await readPlanRecord(values.record);
      const result = record ? verifiedPlan(comments, selection, record) : reviewedPlan(comments, selection);
      return written(result, io, "no reviewed plan");
    }
    // Loaded here: the planner loads the Pulumi SDK (0.6 s of CPU), which --comments does not need.
    const [{ parsePreview }, { planComment, planExpectationResult }] = await Promise.all([
      import("./preview.js"),
      import("./review.js"),
    ]);
    const preview = parsePreview(await readInput(file, io));
    if (!values.expect) {
      io.stdout.write(planComment(preview, commit ? { commit } : {}));
      return 0;
    }
    return written(planExpectationResult(preview), io, "no plan to expect");
  } catch (err) {
    io.stderr.write(`domainapi-plan: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof PreviewInputError ? 2 : 1;
  }
}

/** Writes a value, or says why there is none (status 2). */
function written(
  result: { ok: true; value: string } | { ok: false; reason: string },
  io: PlanCommandIo,
  none: string,
): number {
  if (!result.ok) {
    io.stderr.write(`domainapi-plan: ${none}: ${result.reason}\n`);
    return 2;
  }
  io.stdout.write(`${result.value}\n`);
  return 0;
}

async function readInput(file: string | undefined, io: PlanCommandIo): Promise<string> {
  if (file === undefined || file === "-") return text(io.stdin);
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(err);
    throw new PreviewInputError(`cannot read ${file}: ${reason}`);
  }
}

/** What {@link runAsCommand} needs of the process: its arguments, its streams, its exit status. */
export interface PlanProcess extends PlanCommandIo {
  readonly argv: readonly string[];
  exitCode: number | string | null | undefined;
}

/**
 * `domainapi-plan` as its binary runs it: the arguments after `node` and the script, the exit status
 * the command returns (1, said, for a failure it did not foresee).
 */
export async function runAsCommand(proc: PlanProcess = process): Promise<void> {
  try {
    proc.exitCode = await runPlanCommand(proc.argv.slice(2), proc);
  } catch (err) {
    proc.stderr.write(`domainapi-plan: ${err instanceof Error ? err.message : String(err)}\n`);
    proc.exitCode = 1;
  }
}

if (require.main === module) void runAsCommand();
