/**
 * A command of `provider/cli/` run as a user runs it, in a process of its own: `node
 * provider/cli/<name>.ts args...` from the root of this checkout, with the Node that runs the tests.
 * Only such a process has the module as `require.main`, so only it shows what the command's entry
 * (`if (require.main === module)`) does, and that importing the module runs no command.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";

/** The root of the checkout these tests belong to (under mutation testing, its sandbox). */
const ROOT = path.resolve(__dirname, "..", "..", "..");

/**
 * Loads `.ts` modules as the build makes them, CommonJS (Node's own type stripping keeps the
 * `import` syntax, which a CommonJS entry cannot hold), with the repository's esbuild. A module
 * loaded with `import("./x.js")` (the planner's, lazily) has no `.js` here: keep to paths without.
 */
const HOOK = `const fs = require("node:fs");
const Module = require("node:module");
const { transformSync } = require(${JSON.stringify(createRequire(path.join(ROOT, "package.json")).resolve("esbuild"))});
Module._extensions[".ts"] = (module, filename) => {
  const source = fs.readFileSync(filename, "utf8");
  module._compile(transformSync(source, { loader: "ts", format: "cjs", target: "node22", sourcefile: filename }).code, filename);
};
`;

/** What the process printed and its exit status. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node provider/cli/<name>.ts ...args` (or, with `importOnly`, a program that only imports
 * that module) with `stdin` as its input.
 */
export async function runChildCommand(
  name: string,
  args: readonly string[],
  options: { stdin?: string; importOnly?: boolean } = {},
): Promise<ChildResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-child-command-"));
  try {
    const hook = path.join(dir, "hook.cjs");
    fs.writeFileSync(hook, HOOK);
    const file = path.join("provider", "cli", `${name}.ts`);
    const program = options.importOnly
      ? ["--eval", `require(${JSON.stringify(path.join(ROOT, file))})`]
      : [file];
    // Mutation testing activates a mutant in this process only; Stryker's instrumented code reads
    // this variable in any other, so the child runs the same mutant as the test that starts it.
    const active = (globalThis as { __stryker__?: { activeMutant?: unknown } }).__stryker__?.activeMutant;
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.__STRYKER_ACTIVE_MUTANT__;
    if (active !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = String(active);
    return await new Promise<ChildResult>((resolve, reject) => {
      const child = spawn(process.execPath, ["--require", hook, ...program, ...args], {
        cwd: ROOT,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d));
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(options.stdin ?? "");
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
