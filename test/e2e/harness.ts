/**
 * End-to-end harness: real Pulumi engine (the CLI built by scripts/ensure-pulumi.sh), driven through
 * the Automation API, on a throw-away file backend.
 *
 * Programs run as Automation API inline programs. Their language runtime is the Node process that
 * runs the test (the Automation API serves it over gRPC and hands the CLI its address), so no
 * `pulumi-language-nodejs` binary is needed; everything else (engine, state, secrets, the
 * dynamic-provider plugin that deserializes our shim in its own process) is the real thing.
 *
 * The package under test is loaded the way a user's program loads it: by name, from a
 * `node_modules/pulumi-domainapi` link in the work root, so the engine's plugin process resolves
 * `require("pulumi-domainapi/impl")` exactly as it would in a user's project.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type * as Automation from "@pulumi/pulumi/automation";
import { type Sandbox, type SandboxOptions, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll } from "vitest";
import * as links from "../../scripts/link-package.ts";
import { readResultsFromFiles, readStateResources, stackFiles } from "./backend-reads";

const execFileAsync = promisify(execFile);

/** The repository root. */
export const repoRoot = path.resolve(__dirname, "../..");
/** Where stacks' work directories live; holds the `node_modules/pulumi-domainapi` link. */
export const workRoot = path.join(repoRoot, "test", ".work");

/**
 * Makes `node_modules/pulumi-domainapi` under `dir` a link to `target` (a checkout of this package;
 * default this repository). The one helper the harness, the benchmarks and scripts/run-program.ts
 * share: scripts/link-package.ts.
 */
export const linkPackage: (dir: string, target?: string) => string = (dir, target) =>
  links.linkPackage(dir, target);

linkPackage(workRoot);
// The test-only engine-floor resource, loaded by name like the package (test/fixtures/engine-floor).
links.linkPackage(workRoot, links.engineFloor, "domainapi-engine-floor");
const load = createRequire(path.join(workRoot, "program.js"));

/** Loads a module by name as a user's program would (natively, not through vitest's transform). */
export function requireFromWork<T>(name: string): T {
  return load(name) as T;
}

/** The automation API, from the same @pulumi/pulumi instance the package under test uses. */
export const automation = requireFromWork<typeof Automation>("@pulumi/pulumi/automation");

isolateInlineProgramChannels();

/**
 * Works around a Pulumi Node SDK leak that makes a later Automation API inline run in the same
 * process fail at once with `14 UNAVAILABLE: No connection established. Last error: null` (seen
 * in CI, in the fault matrix; a test file here runs many inline programs in one process).
 *
 * Each inline run opens gRPC clients to that run's engine and never closes them (in the SDK's
 * per-run store, `disconnect()` only closes its module-level clients; the fix belongs there).
 * grpc-js shares connections ("subchannels") between clients by address, across the process. Once
 * a run's CLI has exited, a late call on its leaked client fails and leaves the shared subchannel
 * for that address backing off. If the OS later gives the same loopback port to another run's
 * engine, that run's new client is handed the backing-off subchannel and its first call fails
 * without trying to connect (reproduced with grpc-js alone in inline-host.test.ts). A client with
 * its own subchannel pool is not affected, so every client the SDK makes from now on gets one.
 */
function isolateInlineProgramChannels(): void {
  const settings = requireFromWork<{ grpcClientOptions: Record<string, unknown> }>(
    "@pulumi/pulumi/runtime/settings",
  );
  settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;
}

/** The package under test, loaded by name (lazily: only once `npm run build` has produced dist/). */
export function domainapi(): typeof import("../../provider") {
  return requireFromWork("pulumi-domainapi");
}

/** A config value; secrets are stored encrypted by the passphrase secrets provider. */
export type ConfigInput = string | { value: string; secret: true };

/** Options of {@link createTestStack}. */
export interface TestStackOptions {
  /** The inline program. Whatever it returns becomes the stack's outputs. */
  program: Automation.PulumiFn;
  /** Project name (default "domainapi-e2e"). */
  project?: string;
  /** Config of the stack; keys without a namespace get the project's. */
  config?: Record<string, ConfigInput>;
  /** Extra environment of the CLI (and of the plugin processes it starts). */
  env?: Record<string, string>;
  /** Work directory (default: a fresh one under test/.work). Must resolve `pulumi-domainapi`. */
  workDir?: string;
  /** State backend directory (default: a fresh temp dir). Pass one to reopen a stack elsewhere. */
  backendDir?: string;
  /** Stack name (default "test"). */
  stackName?: string;
}

/** Output captured from one engine operation. */
export interface Captured {
  stdout: string;
  stderr: string;
}

/** A stack on a temp file backend, with capture of everything the engine printed. */
export interface TestStack {
  stack: Automation.Stack;
  workDir: string;
  backendDir: string;
  up(opts?: Automation.UpOptions): Promise<Automation.UpResult & Captured>;
  preview(opts?: Automation.PreviewOptions): Promise<Automation.PreviewResult & Captured>;
  refresh(opts?: Automation.RefreshOptions): Promise<Automation.RefreshResult & Captured>;
  destroy(opts?: Automation.DestroyOptions): Promise<Automation.DestroyResult & Captured>;
  /** `pulumi stack export`, parsed. */
  exportState(): Promise<Automation.Deployment>;
  /**
   * The text of `pulumi stack export` as the CLI prints it (secrets encrypted, as a user sees
   * them); the Automation API's exportStack shows secrets in plaintext, so it is no test of leaks.
   */
  exportText(): Promise<string>;
  /** Every file of the state backend, concatenated: what is actually stored. */
  storedText(): string;
  /** State resources of a type token (e.g. "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords"). */
  resources(type?: string): Promise<StateResource[]>;
  /** Everything the engine printed in this stack's operations so far. */
  transcript(): string;
  /**
   * Deletes the directories made for the stack (its state goes with them); a stack in directories
   * the test passed in is first destroyed and removed. Never throws.
   */
  cleanup(): Promise<void>;
}

/** One resource of an exported deployment. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

const PASSPHRASE = "e2e-passphrase";

let command: Promise<Automation.PulumiCommand> | undefined;

/**
 * The Pulumi CLI every stack of this process runs, found (and its version checked) once: without
 * it, each new workspace runs `pulumi version` again, which costs as much as a small engine step.
 */
export function pulumiCommand(): Promise<Automation.PulumiCommand> {
  command ??= automation.PulumiCommand.get();
  return command;
}

/** The environment every engine operation of the tests runs with. */
export function engineEnv(backendDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}

/**
 * Creates (or selects) a stack for an inline program on a temp file backend.
 *
 * @example
 * const s = await createTestStack({ program: async () => { new domainapi.DomainRestore("r", { domain: "shop.example" }); } });
 * try { await s.up(); } finally { await s.cleanup(); }
 */
export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  const workDir = options.workDir ?? fs.mkdtempSync(path.join(workRoot, "stack-"));
  const ownsWorkDir = options.workDir === undefined;
  const backendDir = options.backendDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-state-"));
  const ownsBackend = options.backendDir === undefined;
  const project = options.project ?? "domainapi-e2e";
  const env = engineEnv(backendDir, options.env);

  // A fresh backend holds no stack to select: create it at once (one CLI call instead of two).
  const args = { stackName: options.stackName ?? "test", projectName: project, program: options.program };
  const workspace = {
    workDir,
    envVars: env,
    secretsProvider: "passphrase",
    projectSettings: { name: project, runtime: "nodejs" as const, backend: { url: `file://${backendDir}` } },
    pulumiCommand: await pulumiCommand(),
  };
  const stack = ownsBackend
    ? await automation.LocalWorkspace.createStack(args, workspace)
    : await automation.LocalWorkspace.createOrSelectStack(args, workspace);
  const config = Object.entries(options.config ?? {}).map(([key, value]) => [
    key.includes(":") ? key : `${project}:${key}`,
    typeof value === "string" ? { value } : { value: value.value, secret: true },
  ]);
  // One `pulumi config set-all` for every value (secrets encrypted as `config set --secret` does).
  if (config.length > 0) await stack.setAllConfig(Object.fromEntries(config));
  // The outputs and summary of an operation come from the backend's files, not three more CLI runs.
  const files = stackFiles(stack, backendDir, project);
  readResultsFromFiles(stack, files);

  const log: string[] = [];
  async function run<T extends { stdout: string; stderr: string }>(
    op: string,
    fn: (onOutput: (s: string) => void) => Promise<T>,
  ): Promise<T> {
    const chunks: string[] = [];
    try {
      const result = await fn((s) => chunks.push(s));
      log.push(`$ ${op}\n${result.stdout}\n${result.stderr}`);
      return result;
    } catch (err) {
      log.push(`$ ${op} (failed)\n${chunks.join("")}\n${String(err)}`);
      throw err;
    }
  }

  const testStack: TestStack = {
    stack,
    workDir,
    backendDir,
    up: (opts) => run("up", (onOutput) => stack.up({ onOutput, ...opts })),
    preview: (opts) => run("preview", (onOutput) => stack.preview({ onOutput, ...opts })),
    refresh: (opts) => run("refresh", (onOutput) => stack.refresh({ onOutput, ...opts })),
    destroy: (opts) => run("destroy", (onOutput) => stack.destroy({ onOutput, ...opts })),
    exportState: () => stack.exportStack(),
    async exportText() {
      const { stdout } = await execFileAsync(
        "pulumi",
        ["stack", "export", "--stack", stack.name, "--cwd", workDir],
        {
          env: { ...process.env, ...env },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      return stdout;
    },
    storedText() {
      const files = fs
        .readdirSync(backendDir, { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile());
      return files.map((f) => fs.readFileSync(path.join(f.parentPath, f.name), "utf8")).join("\n");
    },
    async resources(type?: string) {
      // From the checkpoint file where the resources asked for hold no secret, else from the CLI.
      const read = readStateResources<StateResource>(files, type);
      if (read !== undefined) return read;
      const deployment = await stack.exportStack();
      const all = ((deployment.deployment as { resources?: StateResource[] }).resources ??
        []) as StateResource[];
      return type ? all.filter((r) => r.type === type) : all;
    },
    transcript: () => log.join("\n"),
    async cleanup() {
      // A stack whose state and project live only in directories made for it goes with them: its
      // resources are in a sandbox that the test resets or closes, so a destroy would show nothing
      // (and cost an engine run). A stack in a directory the test passed in is destroyed and removed.
      if (!(ownsWorkDir && ownsBackend)) {
        try {
          await stack.destroy({ continueOnError: true });
        } catch {
          // best effort: the stack may hold nothing, or a test may have broken it on purpose
        }
        try {
          await stack.workspace.removeStack(stack.name, { force: true });
        } catch {
          // best effort
        }
      }
      if (ownsWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
      if (ownsBackend) fs.rmSync(backendDir, { recursive: true, force: true });
    },
  };
  return testStack;
}

/**
 * The e2e prelude, part one: one sandbox for the enclosing `describe` (or file), started before its
 * first test and closed after its last. The returned object is filled in by that `beforeAll`, so a
 * test file declares it once instead of repeating the start and the close.
 *
 * @example
 * const sandbox = useSandbox({ apiKey: API_KEY });
 */
export function useSandbox(options: SandboxOptions): Sandbox {
  const sandbox = {} as Sandbox;
  beforeAll(async () => {
    Object.assign(sandbox, await startSandbox(options));
  });
  afterAll(async () => {
    await sandbox.close?.();
  });
  return sandbox;
}

/**
 * The e2e prelude, part two: one stack made by `make` before the first test and cleaned up
 * ({@link TestStack.cleanup}) after the last. Declared after {@link useSandbox}, its clean-up runs
 * first (vitest runs `afterAll` hooks in reverse), so a stack that must be destroyed still reaches
 * the sandbox.
 *
 * @example
 * const sandbox = useSandbox({ apiKey: API_KEY });
 * const s = useStack(() => recordsStack(sandbox, programFor("tpl-1", () => desired.records)));
 */
export function useStack(make: () => Promise<TestStack>): TestStack {
  const stack = {} as TestStack;
  beforeAll(async () => {
    Object.assign(stack, await make());
  });
  afterAll(async () => {
    await stack.cleanup?.();
  });
  return stack;
}

/**
 * For files that make a stack per test: push each one on the returned list, and every one is
 * cleaned up after the last test (before the sandbox of {@link useSandbox} closes).
 */
export function useStacks(): TestStack[] {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const s of stacks.splice(0)) await s.cleanup();
  });
  return stacks;
}

/** Type token of a dynamic resource of this package, e.g. `typeToken("DnsTemplateRecords")`. */
export function typeToken(name: string): string {
  return `pulumi-nodejs:dynamic/domainapi:${name}`;
}
