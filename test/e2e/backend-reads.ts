/**
 * Reads what a stack's last operation left in its file backend, without starting the CLI.
 *
 * After every `up`, the Automation API runs `pulumi stack output` twice (masked, then with
 * secrets) and `pulumi stack history` once, and after `refresh` and `destroy` the history again:
 * three CLI starts that cost as much as the `up` itself on a loaded machine, to read two files
 * the CLI has just written. The tests' checks of the state (`pulumi stack export`) read the same
 * checkpoint. The harness answers those reads from the files where they hold the
 * whole answer in plain text, and leaves them to the CLI where they do not (a secret or any other
 * special value among the outputs, a stack file it cannot find).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as Automation from "@pulumi/pulumi/automation";

/** The key Pulumi marks special values with (secrets, assets, resource references) in a state file. */
const SPECIAL_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** Where a project's stack lives in a file backend (project-scoped layout, the default). */
export interface StackFiles {
  backendDir: string;
  project: string;
  stack: string;
}

function holdsSpecialValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsSpecialValue);
  if (value !== null && typeof value === "object") {
    return SPECIAL_SIGNATURE in value || Object.values(value).some(holdsSpecialValue);
  }
  return false;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * The stack outputs as `pulumi stack output --json --show-secrets` gives them, read from the
 * stack's checkpoint; undefined where only the CLI can answer (a secret among them, no stack file).
 */
export function readStackOutputs(where: StackFiles): Automation.OutputMap | undefined {
  const file = path.join(where.backendDir, ".pulumi", "stacks", where.project, `${where.stack}.json`);
  const state = readJson(file) as
    | { checkpoint?: { latest?: { resources?: { type: string; outputs?: Record<string, unknown> }[] } } }
    | undefined;
  if (state === undefined) return undefined;
  const root = state.checkpoint?.latest?.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
  const outputs = root?.outputs ?? {};
  if (holdsSpecialValue(outputs)) return undefined;
  return Object.fromEntries(Object.entries(outputs).map(([key, value]) => [key, { value, secret: false }]));
}

/**
 * The stack's deployment as `pulumi stack export --show-secrets` gives it, read from its checkpoint;
 * undefined where only the CLI can answer (a secret or other special value in it, no stack file).
 */
export function readDeployment(where: StackFiles): Automation.Deployment | undefined {
  const file = path.join(where.backendDir, ".pulumi", "stacks", where.project, `${where.stack}.json`);
  const state = readJson(file) as { version?: number; checkpoint?: { latest?: unknown } } | undefined;
  const latest = state?.checkpoint?.latest;
  if (state === undefined || latest === undefined || holdsSpecialValue(latest)) return undefined;
  return { version: state.version ?? 3, deployment: latest };
}

/**
 * The resources of the stack's deployment (those of type `type`, or all), as `pulumi stack export
 * --show-secrets` gives them; undefined where only the CLI can answer (a secret or other special
 * value in one of them, no stack file). A stack whose key is a secret of its config holds it in
 * its default provider's inputs, so reading the program's own resources is the common cheap case.
 */
export function readStateResources<T extends { type: string }>(
  where: StackFiles,
  type?: string,
): T[] | undefined {
  const file = path.join(where.backendDir, ".pulumi", "stacks", where.project, `${where.stack}.json`);
  const state = readJson(file) as { checkpoint?: { latest?: { resources?: T[] } } } | undefined;
  if (state?.checkpoint?.latest === undefined) return undefined;
  const all = state.checkpoint.latest.resources ?? [];
  const selected = type === undefined ? all : all.filter((r) => r.type === type);
  return holdsSpecialValue(selected) ? undefined : selected;
}

/** One update as the file backend records it in `.pulumi/history/<project>/<stack>/`. */
interface StoredUpdate {
  kind: Automation.UpdateKind;
  startTime: number;
  endTime: number;
  message: string;
  environment: Record<string, string>;
  /** A plain value as its text; a secret as `{ secure: ciphertext }`; an object as itself. */
  config: Record<string, unknown>;
  version?: number;
  result: Automation.UpdateResult;
  resourceChanges?: Automation.OpMap;
}

/**
 * The newest update of the stack as `pulumi stack history --json --page-size 1` gives it; undefined
 * where the backend holds no history for it. Its `config` is there only when every value of it is
 * plain text (a secret needs the CLI to decrypt): reading it otherwise throws, naming the way.
 */
export function readLatestUpdate(where: StackFiles): Automation.UpdateSummary | undefined {
  const dir = path.join(where.backendDir, ".pulumi", "history", where.project, where.stack);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(".history.json"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  // Named `<stack>-<unix nanoseconds>.history.json`: the newest has the largest number.
  const newest = names
    .map((n) => ({ n, t: BigInt(n.slice(where.stack.length + 1, -".history.json".length)) }))
    .reduce<{ n: string; t: bigint } | undefined>(
      (a, b) => (a === undefined || b.t > a.t ? b : a),
      undefined,
    );
  if (newest === undefined) return undefined;
  const stored = readJson(path.join(dir, newest.n)) as StoredUpdate;
  const summary = {
    version: stored.version ?? 0,
    kind: stored.kind,
    startTime: new Date(stored.startTime * 1000),
    endTime: new Date(stored.endTime * 1000),
    message: stored.message,
    environment: stored.environment,
    result: stored.result,
    resourceChanges: stored.resourceChanges,
  } as Omit<Automation.UpdateSummary, "config">;
  const entries = Object.entries(stored.config ?? {});
  const plain = entries.every(([, v]) => typeof v === "string");
  return Object.defineProperty(summary, "config", {
    // Not enumerable: printing or spreading a summary does not throw.
    enumerable: false,
    get(): Automation.ConfigMap {
      if (!plain) {
        throw new Error(
          "this update's config holds secrets or objects: read it with stack.history(), which decodes them",
        );
      }
      return Object.fromEntries(entries.map(([k, v]) => [k, { value: v as string, secret: false }]));
    },
  }) as Automation.UpdateSummary;
}

/** Where `stack` of `project` lives in the file backend at `backendDir`. */
export function stackFiles(stack: Automation.Stack, backendDir: string, project: string): StackFiles {
  return { backendDir, project, stack: stack.name.split("/").pop() ?? stack.name };
}

/**
 * Makes `stack.outputs()` and `stack.info()` (which `up`, `refresh` and `destroy` call when the
 * CLI has finished) and `stack.exportStack()` read the backend's files where they can, and ask the
 * CLI where they cannot.
 */
export function readResultsFromFiles(stack: Automation.Stack, where: StackFiles): void {
  const viaCli = {
    outputs: stack.outputs.bind(stack),
    info: stack.info.bind(stack),
    exportStack: stack.exportStack.bind(stack),
  };
  Object.assign(stack, {
    outputs: async () => readStackOutputs(where) ?? viaCli.outputs(),
    info: async (showSecrets?: boolean) => readLatestUpdate(where) ?? viaCli.info(showSecrets),
    exportStack: async () => readDeployment(where) ?? viaCli.exportStack(),
  });
}
