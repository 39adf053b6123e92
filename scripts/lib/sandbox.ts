/**
 * The sandbox (the embedded Domain API), through its public entry and its bin: the one module of
 * scripts and benchmarks that names them, so that moving the sandbox to a package of its own
 * changes this file alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import type * as SandboxApi from "domainapi-sandbox";
import { binPath, consumerRequire } from "./consumer.ts";

export type { Sandbox, SandboxOptions } from "domainapi-sandbox";

/** The sandbox's package (its own workspace package: the provider does not ship it) and its bin. */
const SANDBOX_ENTRY = "domainapi-sandbox";
const SANDBOX_PACKAGE = "domainapi-sandbox";
const SANDBOX_BIN = "domainapi-sandbox";

/** Starts the sandbox in this process (see {@link SandboxApi.startSandbox}). */
export const startSandbox: typeof SandboxApi.startSandbox = (options) =>
  (consumerRequire(SANDBOX_ENTRY) as typeof SandboxApi).startSandbox(options);

/** A sandbox running as a process of its own. */
export interface SandboxProcess {
  readonly child: ChildProcess;
  readonly url: string;
}

const START_TIMEOUT_MS = 15_000;

/**
 * Starts `domainapi-sandbox --port 0 <args>` detached, its output in `logFile`, and resolves with
 * its URL once it listens.
 */
export async function startSandboxProcess(
  args: readonly string[],
  logFile: string,
  cwd: string,
): Promise<SandboxProcess> {
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [binPath(SANDBOX_PACKAGE, SANDBOX_BIN), "--port", "0", ...args], {
    cwd,
    detached: true,
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const url = /listening on (\S+)/.exec(fs.readFileSync(logFile, "utf8"))?.[1];
    if (url) return { child, url };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`the sandbox did not start:\n${fs.readFileSync(logFile, "utf8")}`);
}

/** Stops a sandbox process: SIGTERM, then SIGKILL after 5 s. */
export function stopSandboxProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
