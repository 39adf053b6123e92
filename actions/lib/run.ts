/**
 * What the actions' scripts share: running a command (`gh`, `npm`, `pulumi`, `domainapi-plan`) with
 * its output captured or passed through, reading the inputs GitHub hands a step as environment
 * variables, and writing step outputs. Nothing here decides about a plan: `domainapi-plan` does.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";

/** A step's stop with a reason: printed as a workflow error annotation, exit status 1. */
export class StepError extends Error {}

/**
 * The value of a required environment variable (the action passes its inputs so).
 *
 * @throws StepError naming the variable when it is unset or blank
 */
export function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value.trim() === "")
    throw new StepError(`${name} is not set: the action passes it`);
  return value;
}

/** The value of an optional environment variable; `undefined` when unset or blank. */
export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** What a finished command left. */
export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args`, its output captured (stderr also shown), and returns what it left. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdout?: number } = {},
): Ran {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", options.stdout ?? "pipe", "pipe"],
  });
  if (result.error) throw new StepError(`cannot run ${command}: ${result.error.message}`);
  if (result.stderr) process.stderr.write(result.stderr);
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/**
 * Runs `gh` with `args` and returns its output.
 *
 * @throws StepError with gh's message when it fails
 */
export function gh(args: readonly string[]): string {
  const result = run("gh", args);
  if (result.status !== 0) {
    throw new StepError(
      `gh ${args.slice(0, 3).join(" ")} failed: ${result.stderr.trim() || `exit ${result.status}`}`,
    );
  }
  return result.stdout;
}

/** `gh api --paginate --slurp` output (an array of pages) as one list. */
export function pages<T>(text: string): T[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new StepError("gh api --slurp did not print an array of pages");
  return parsed.flat() as T[];
}

/** Adds `name=value` to the step's outputs (`$GITHUB_OUTPUT`), when GitHub gives that file. */
export function output(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT;
  if (file) fs.appendFileSync(file, `${name}=${value}\n`);
}

/** Appends Markdown to the job's summary (`$GITHUB_STEP_SUMMARY`), when GitHub gives that file. */
export function summary(markdown: string): void {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) fs.appendFileSync(file, `${markdown}\n`);
}

/**
 * Runs a step's `main`, turning a StepError into a workflow error annotation and exit status 1.
 *
 * @example
 * step(() => { ...; return 0; });
 */
export function step(main: () => number): void {
  try {
    process.exitCode = main();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `::error::${message.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A")}\n`,
    );
    process.exitCode = 1;
  }
}
