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
import { planMarkdown } from "./markdown";
import { PreviewInputError, parsePreview, previewErrors } from "./preview";
import { templatePlans } from "./templatePlans";

const USAGE = `Usage: domainapi-plan [preview.json]

Reads the output of \`pulumi preview --json\` (from the file, or from stdin) and writes the plan of
every DNS template it changes as Markdown, for a pull-request comment:

  pulumi preview --json > preview.json
  domainapi-plan preview.json > plan.md

Exit status: 0 plan written, 2 the input is not a \`pulumi preview --json\` document.`;

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
  try {
    const parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { help: { type: "boolean", short: "h" } },
    });
    positionals = parsed.positionals;
    help = parsed.values.help;
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
    io.stdout.write(planMarkdown(templatePlans(preview), previewErrors(preview)));
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
