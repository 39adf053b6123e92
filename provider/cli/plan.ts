#!/usr/bin/env node
/**
 * `domainapi-plan`: turns `pulumi preview --json` into the Markdown of a pull-request comment that
 * says, per DNS template, which records are created, modified and deleted and which ids are kept.
 *
 *   pulumi preview --json > preview.json
 *   npx domainapi-plan preview.json > plan.md      # or: npx domainapi-plan < preview.json
 *
 * Exit status: 0 the plan was written (also when nothing changes, and when the preview failed: the
 * plan then says so first); 2 the input is not a preview or the arguments are wrong; 1 anything else.
 */
import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { EXPECT_PLAN_ENV } from "../records/digest";
import { PreviewInputError, parsePreview } from "./preview";
import { planComment, planExpectation } from "./review";

const USAGE = `Usage: domainapi-plan [--expect] [preview.json]

Reads the output of \`pulumi preview --json\` (from the file, or from stdin) and writes the plan of
every DNS template it changes as Markdown, for a pull-request comment:

  pulumi preview --json > preview.json
  domainapi-plan preview.json > plan.md

With --expect, writes instead the ${EXPECT_PLAN_ENV} value of the reviewed plans: given to
\`pulumi up\`, it applies exactly these plans and refuses any template whose plan differs.

  ${EXPECT_PLAN_ENV}="$(domainapi-plan --expect preview.json)" pulumi up

Exit status: 0 plan written, 2 the input is not a \`pulumi preview --json\` document (or, with
--expect, the preview failed or a plan is known only during \`pulumi up\`).`;

/** Where the command reads and writes; the real process's streams by default. */
export interface PlanCommandIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * Runs `domainapi-plan` with `args` (without `node` and the script) and returns the exit status.
 *
 * @example
 * await runPlanCommand(["preview.json"]); // 0, the Markdown on stdout
 */
export async function runPlanCommand(args: readonly string[], io: PlanCommandIo = process): Promise<number> {
  let positionals: string[];
  let help: boolean | undefined;
  let expectation: boolean | undefined;
  try {
    const parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { help: { type: "boolean", short: "h" }, expect: { type: "boolean" } },
    });
    positionals = parsed.positionals;
    help = parsed.values.help;
    expectation = parsed.values.expect;
  } catch (err) {
    io.stderr.write(`domainapi-plan: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  if (help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (extra.length > 0 || (file === undefined && io.stdin.isTTY)) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const input = file === undefined || file === "-" ? await text(io.stdin) : await readInput(file);
    const preview = parsePreview(input);
    if (!expectation) {
      io.stdout.write(planComment(preview));
      return 0;
    }
    const value = planExpectation(preview);
    if (value === undefined) {
      io.stderr.write(
        "domainapi-plan: no plan to expect: the preview failed, or a template's records are known only during `pulumi up`\n",
      );
      return 2;
    }
    io.stdout.write(`${value}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`domainapi-plan: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof PreviewInputError ? 2 : 1;
  }
}

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(err);
    throw new PreviewInputError(`cannot read ${file}: ${reason}`);
  }
}

if (require.main === module) {
  runPlanCommand(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`domainapi-plan: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
