/**
 * Runs a program directory through scripts/run-program.ts in a child Node process, the way
 * `npm run demo` and a user's CI run it, and returns the runner's JSON result.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./harness";

const execFileAsync = promisify(execFile);

/** The runner script. */
export const RUNNER = path.join(repoRoot, "scripts", "run-program.ts");

/** What the runner reports (`--json`). */
export interface RunResult {
  op: string;
  project: string;
  stack: string;
  entry: string;
  workDir: string;
  backendDir: string;
  passphrase: string;
  outputs: Record<string, unknown>;
  summary?: { result?: string; resourceChanges?: Record<string, number> };
  destroySummary?: { result?: string; resourceChanges?: Record<string, number> };
  removed?: boolean;
}

/** Options of {@link runProgramDir}. */
export interface RunOptions {
  op?: "up" | "preview" | "destroy" | "up+destroy";
  /** Sets domainapi:baseUrl and domainapi:apiKey (secret) in the stack config. */
  sandbox?: { url: string; apiKey: string };
  /** Reuse the directories of an earlier run (for a destroy after an up). */
  after?: RunResult;
  env?: Record<string, string>;
}

/** Runs `dir` with the runner; throws with the runner's output when it fails. */
export async function runProgramDir(dir: string, options: RunOptions = {}): Promise<RunResult> {
  const jsonFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-run-")), "result.json");
  const args = [RUNNER, dir, "--op", options.op ?? "up", "--json", jsonFile, "--quiet"];
  if (options.sandbox) args.push("--base-url", options.sandbox.url, "--api-key", options.sandbox.apiKey);
  if (options.after) args.push("--work-dir", options.after.workDir, "--backend", options.after.backendDir);
  try {
    await execFileAsync(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(fs.readFileSync(jsonFile, "utf8")) as RunResult;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`run-program ${dir} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  } finally {
    fs.rmSync(path.dirname(jsonFile), { recursive: true, force: true });
  }
}

/** Removes what an `up` left behind (work dir and state) when a test stops before its destroy. */
export function removeRunDirs(result: RunResult | undefined): void {
  if (!result) return;
  fs.rmSync(result.workDir, { recursive: true, force: true });
  fs.rmSync(result.backendDir, { recursive: true, force: true });
  try {
    fs.rmdirSync(path.dirname(result.workDir)); // the runner's .pulumi-run, once empty
  } catch {
    // other runs still use it
  }
}
