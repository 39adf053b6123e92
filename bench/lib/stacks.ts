/**
 * Stack set-up for the engine benchmarks: Automation API inline programs on a file state backend
 * of their own, with the real engine, secrets provider and plugin process. Two programs of the
 * same shape: `n` DnsTemplateRecords, and `n` EngineFloor resources with the same inputs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ConfigMap, ProjectSettings, PulumiFn, Stack } from "@pulumi/pulumi/automation/index.js";
import { automation, domainapi, EngineFloor, workRoot } from "./package.ts";
import { checkedInputsOf, resourceRecords, templateOf } from "./templates.ts";

export { checkedInputsOf, resourceRecords, templateOf };

/** A stack and the directories it owns. */
export interface BenchStack {
  readonly name: string;
  readonly stack: Stack;
  readonly workDir: string;
}

/** `n` DnsTemplateRecords, template `i` holding {@link resourceRecords}(i). */
export function recordsProgram(n: number): PulumiFn {
  return async () => {
    for (let i = 0; i < n; i++) {
      new domainapi.DnsTemplateRecords(`r${i}`, { templateId: templateOf(i), records: resourceRecords(i) });
    }
    return {};
  };
}

/** `n` EngineFloor resources with the same records: what the engine alone costs for that stack. */
export function floorProgram(n: number): PulumiFn {
  return async () => {
    for (let i = 0; i < n; i++) new EngineFloor(`r${i}`, { records: resourceRecords(i) });
    return {};
  };
}

/**
 * `n` EngineFloor resources given the checked inputs DnsTemplateRecords stores, whose outputs then
 * add what it adds (ids, plan, URL): the engine's cost of the same state, with no provider work.
 */
export function stateFloorProgram(n: number): PulumiFn {
  return async () => {
    for (let i = 0; i < n; i++) new EngineFloor(`r${i}`, checkedInputsOf(i));
    return {};
  };
}

/** A fresh file state backend under the system's temp directory. */
export function newBackend(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-bench-state-"));
}

/** What {@link createStack} sets up besides the program. */
export interface StackOptions {
  /** The stack's config, e.g. the provider's settings. */
  readonly config?: ConfigMap;
  /** Environment of the CLI and the plugin processes it starts (for instance NODE_OPTIONS for a CPU profile). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Provider plugins found by path, as `plugins.providers` in Pulumi.yaml names them (how a YAML
   * program finds the provider plugin that is not installed as a plugin).
   */
  readonly pluginProviders?: ReadonlyArray<{ readonly name: string; readonly path: string }>;
}

/**
 * Creates stack `name` of `program` on `backendDir`, its work directory under the work root (so
 * the plugin processes the engine starts there load the installed package).
 */
export async function createStack(
  name: string,
  program: PulumiFn,
  backendDir: string,
  options: StackOptions = {},
): Promise<BenchStack> {
  const workDir = fs.mkdtempSync(path.join(workRoot, `bench-${name}-`));
  const projectSettings: ProjectSettings & { plugins?: { providers: StackOptions["pluginProviders"] } } = {
    name: "domainapi-bench",
    runtime: "nodejs",
    backend: { url: `file://${backendDir}` },
    // The SDK's type does not name `plugins` yet; the CLI reads it from the Pulumi.yaml written.
    ...(options.pluginProviders && { plugins: { providers: options.pluginProviders } }),
  };
  const stack = await automation.LocalWorkspace.createOrSelectStack(
    { stackName: name, projectName: "domainapi-bench", program },
    {
      workDir,
      envVars: {
        PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
        PULUMI_BACKEND_URL: `file://${backendDir}`,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PULUMI_SKIP_CONFIRMATIONS: "true",
        ...options.env,
      },
      secretsProvider: "passphrase",
      projectSettings,
    },
  );
  await stack.setAllConfig(options.config ?? {});
  return { name, stack, workDir };
}

/** Destroys and removes the stacks (best effort) and their directories. */
export async function removeStacks(stacks: readonly BenchStack[], backendDir: string): Promise<void> {
  for (const s of stacks) {
    try {
      await s.stack.destroy();
      await s.stack.workspace.removeStack(s.stack.name, { force: true });
    } catch {
      // best effort: the directories go below anyway
    }
    fs.rmSync(s.workDir, { recursive: true, force: true });
  }
  fs.rmSync(backendDir, { recursive: true, force: true });
}

/** The resources of a stack's state, as `pulumi stack export` gives them. */
export async function exportedResources(s: BenchStack): Promise<Array<Record<string, unknown>>> {
  const deployment = (await s.stack.exportStack()).deployment as {
    resources?: Array<Record<string, unknown>>;
  };
  return deployment.resources ?? [];
}
