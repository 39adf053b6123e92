#!/usr/bin/env node
/**
 * Runs a Pulumi program directory (a `Pulumi.yaml` and its entry, usually `index.ts`) under the real
 * Pulumi engine, as an Automation API inline program, on a local file state backend.
 *
 * Why a runner: a plain `pulumi up` needs the CLI's Node.js language host, which cannot be built on
 * every machine (see README, "Development"). An inline program needs none: this Node process is the
 * program's language runtime, and the CLI, the engine, the state, the secrets and the dynamic
 * provider plugin are the real ones. Node 24 loads the `.ts` entry itself (it strips types), so
 * programs must use erasable TypeScript only (no enums, namespaces or parameter properties).
 *
 * The program's own `@pulumi/pulumi` is used (resolved from the entry), so a consumer directory runs
 * on the copy it installed, not on this repository's.
 *
 *   node scripts/run-program.ts examples/quickstart --base-url http://127.0.0.1:8080 --api-key k
 *   node scripts/run-program.ts . --op up+destroy --config domain=shop.example
 *
 * Also a module: `import { runProgram } from "./run-program.ts"` (used by scripts/demo.ts).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type * as Automation from "@pulumi/pulumi/automation/index.js";
import { linkPackage, repoRoot } from "./link-package.ts";

export { repoRoot };

/** Passphrase of the local secrets provider when PULUMI_CONFIG_PASSPHRASE is not set. */
export const DEFAULT_PASSPHRASE = "pulumi-domainapi-local";

/** The operations the runner runs. */
export const OPS = ["up", "preview", "destroy", "up+destroy"] as const;
/** One of {@link OPS}. */
export type Op = (typeof OPS)[number];

/** Program entries this process has run (a destroy does not run the program). */
const programsRun = new Set<string>();

/** Reads a top-level scalar (`name:`, `main:`) from a Pulumi.yaml without a YAML library. */
function topLevelScalar(text: string, key: string): string | undefined {
  const match = new RegExp(`^${key}:[ \\t]*(.*)$`, "m").exec(text);
  if (!match) return undefined;
  const value = (match[1] ?? "").replace(/\s+#.*$/, "").trim();
  return value.replace(/^(["'])(.*)\1$/, "$2") || undefined;
}

/** Where a program directory's project file and entry are, and the project's name. */
export interface ProgramFiles {
  projectDir: string;
  projectFile: string;
  name: string;
  entry: string;
}

/**
 * Where a program directory's project file, entry and stack files are.
 *
 * @param dir a directory holding Pulumi.yaml
 */
export function describeProgram(dir: string): ProgramFiles {
  const projectDir = path.resolve(dir);
  const projectFile = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(projectDir, f)).find(fs.existsSync);
  if (!projectFile)
    throw new Error(`${projectDir} has no Pulumi.yaml: give the directory of a Pulumi program`);
  const text = fs.readFileSync(projectFile, "utf8");
  const name = topLevelScalar(text, "name");
  if (!name) throw new Error(`${projectFile}: the project has no name`);
  const main = topLevelScalar(text, "main");
  const mainPath = main ? path.resolve(projectDir, main) : projectDir;
  let entry = mainPath;
  if (fs.existsSync(mainPath) && fs.statSync(mainPath).isDirectory()) {
    const pkgFile = path.join(mainPath, "package.json");
    const pkgMain = fs.existsSync(pkgFile)
      ? (JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { main?: string }).main
      : undefined;
    const candidates = [pkgMain, "index.ts", "index.mts", "index.js", "index.mjs"].filter(
      (c): c is string => typeof c === "string" && c !== "",
    );
    entry =
      candidates.map((c) => path.resolve(mainPath, c)).find(fs.existsSync) ?? path.join(mainPath, "index.ts");
  }
  if (!fs.existsSync(entry)) throw new Error(`${projectFile}: the program's entry ${entry} does not exist`);
  return { projectDir, projectFile, name, entry };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function onPath(command: string, pathValue: string | undefined): boolean {
  return (pathValue ?? "").split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, command)));
}

/** Puts the pinned Pulumi CLI on PATH when none is there (scripts/ensure-pulumi.sh builds or finds it). */
function ensurePulumiOnPath(): void {
  if (onPath("pulumi", process.env.PATH)) return;
  const script = path.join(repoRoot, "scripts", "ensure-pulumi.sh");
  if (!fs.existsSync(script)) {
    throw new Error("the Pulumi CLI is not on PATH: install it (https://www.pulumi.com/docs/install/)");
  }
  const bin = execFileSync("bash", [script], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  process.env.PATH = [bin, process.env.PATH].join(path.delimiter);
}

function checkNodeForTypeScript(entry: string): void {
  if (!/\.[mc]?ts$/.test(entry)) return;
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return;
  throw new Error(
    `Node ${process.versions.node} cannot load ${path.basename(entry)} by itself (Node 22.18 or newer strips ` +
      "TypeScript types); run through `npx` or `bash scripts/with-pulumi.sh`, which use the project's Node 24",
  );
}

/**
 * Runs `load` without Node's MODULE_TYPELESS_PACKAGE_JSON warning. The warning says that an entry
 * with `import` syntax in a package without `"type"` is parsed twice; that is how this runner loads
 * programs whose package.json must stay CommonJS for `ts-node` under a real `pulumi up`, so it is
 * noise to the user. Every other warning passes.
 */
async function withoutTypelessWarning<T>(load: () => Promise<T>): Promise<T> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(warning: string | Error, ...rest: unknown[]): void {
    const code =
      typeof rest[0] === "object" && rest[0] !== null ? (rest[0] as { code?: string }).code : rest[1];
    if (code === "MODULE_TYPELESS_PACKAGE_JSON") return;
    (emitWarning as (w: string | Error, ...r: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

function plainOutputs(outputs: Automation.OutputMap | undefined): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, { value, secret }] of Object.entries(outputs ?? {}))
    plain[key] = secret ? "[secret]" : value;
  return plain;
}

/** Options of {@link runProgram}. */
export interface RunOptions {
  /** Program directory (holds Pulumi.yaml). */
  dir: string;
  /** Default "up". */
  op?: string;
  /** Stack name, default "dev"; Pulumi.<stack>.yaml of the program is its config. */
  stack?: string;
  /** File state backend; default a fresh temp directory. */
  backendDir?: string;
  /** Pulumi work directory; default a fresh one under <entry dir>/.pulumi-run. */
  workDir?: string;
  /** Sets domainapi:baseUrl. */
  baseUrl?: string;
  /** Sets domainapi:apiKey (as a secret). */
  apiKey?: string;
  /** More stack config; keys without a namespace get the project's. */
  config?: Record<string, string>;
  /** More stack config, stored as secrets. */
  secrets?: Record<string, string>;
  /** Engine output; default: written to stdout. */
  onOutput?: (text: string) => void;
  /** After a destroy, remove the stack and the runner-made directories (default true). */
  cleanup?: boolean;
}

/** What {@link runProgram} did (also what `--json` writes). */
export interface RunResult {
  op: Op;
  project: string;
  stack: string;
  entry: string;
  workDir: string;
  backendDir: string;
  passphrase: string;
  outputs: Record<string, unknown>;
  summary?: {
    result?: string;
    resourceChanges?: Record<string, number>;
    changeSummary?: Record<string, number>;
  };
  destroySummary?: { result?: string; resourceChanges?: Record<string, number> };
  removed?: boolean;
}

function isOp(op: string): op is Op {
  return (OPS as readonly string[]).includes(op);
}

/** Runs one operation of a program directory. */
export async function runProgram(options: RunOptions): Promise<RunResult> {
  const op = options.op ?? "up";
  if (!isOp(op)) throw new Error(`--op: expected one of ${OPS.join(", ")}, got "${op}"`);
  const program = describeProgram(options.dir);
  const { entry, name: project } = program;
  if (op !== "destroy") {
    // Node evaluates an ES module once per process: a second run would get the cached module,
    // register no resources, and the engine would plan to delete every one of them.
    if (programsRun.has(entry)) {
      throw new Error(
        `runProgram: ${entry} already ran in this process, and Node will not run it again; ` +
          "run each up or preview in a process of its own (node scripts/run-program.ts ...)",
      );
    }
    programsRun.add(entry);
  }
  checkNodeForTypeScript(entry);
  // The in-repo examples resolve `pulumi-domainapi` by name, through examples/node_modules.
  if (isInside(entry, path.join(repoRoot, "examples"))) linkPackage(path.join(repoRoot, "examples"));
  ensurePulumiOnPath();

  // Everything the program and the engine use comes from the program's own dependencies.
  const load = createRequire(entry);
  let pulumiPackage: string;
  try {
    pulumiPackage = load.resolve("@pulumi/pulumi/package.json");
    load.resolve("pulumi-domainapi");
  } catch (err) {
    throw new Error(
      `${path.dirname(entry)} cannot resolve its dependencies (${(err as Error).message.split("\n")[0]}): ` +
        "run `npm install` there (and `npm run build` in a checkout of pulumi-domainapi)",
    );
  }
  const automation = load("@pulumi/pulumi/automation") as typeof Automation;

  const stackName = options.stack ?? "dev";
  const ownsBackend = options.backendDir === undefined;
  const backendDir = path.resolve(
    options.backendDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-state-")),
  );
  fs.mkdirSync(backendDir, { recursive: true });
  const ownsWorkDir = options.workDir === undefined;
  const runRoot = path.join(path.dirname(entry), ".pulumi-run");
  if (ownsWorkDir) fs.mkdirSync(runRoot, { recursive: true });
  const workDir = path.resolve(options.workDir ?? fs.mkdtempSync(path.join(runRoot, `${stackName}-`)));
  fs.mkdirSync(workDir, { recursive: true });
  // The program's stack config (Pulumi.<stack>.yaml) goes with it, once: after that the work
  // directory's copy also holds the salt of the stack's secrets.
  for (const ext of ["yaml", "yml"]) {
    const from = path.join(program.projectDir, `Pulumi.${stackName}.${ext}`);
    const to = path.join(workDir, `Pulumi.${stackName}.yaml`);
    if (fs.existsSync(from) && !fs.existsSync(to)) fs.copyFileSync(from, to);
  }

  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE ?? DEFAULT_PASSPHRASE;
  // The dynamic-provider plugin (pulumi-resource-pulumi-nodejs) ships in @pulumi/pulumi. The
  // official CLI has a copy beside the `pulumi` binary (then the CLI uses it without a warning);
  // otherwise the program's copy goes on PATH. The plugin runs on this Node either way.
  const plugin = "pulumi-resource-pulumi-nodejs";
  const cliDir = (process.env.PATH ?? "")
    .split(path.delimiter)
    .find((d) => d && fs.existsSync(path.join(d, "pulumi")));
  const bundled =
    cliDir !== undefined &&
    fs.existsSync(path.join(path.dirname(fs.realpathSync(path.join(cliDir, "pulumi"))), plugin));
  const pathValue = [
    ...(bundled ? [] : [path.dirname(pulumiPackage)]),
    path.dirname(process.execPath),
    process.env.PATH,
  ].join(path.delimiter);
  process.env.PATH = pathValue;
  const env = {
    PATH: pathValue,
    PULUMI_BACKEND_URL: pathToFileURL(backendDir).href,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
  };

  const inline = async (): Promise<Record<string, unknown>> => {
    const mod = (await withoutTypelessWarning(() => import(pathToFileURL(entry).href))) as Record<
      string,
      unknown
    >;
    const outputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(mod)) {
      if (key !== "default" && key !== "module.exports") outputs[key] = value;
    }
    // `export default async () => ({ ... })` is Pulumi's other way to declare outputs.
    if (typeof mod.default === "function") Object.assign(outputs, (await mod.default()) ?? {});
    return outputs;
  };

  const stack = await automation.LocalWorkspace.createOrSelectStack(
    { stackName, projectName: project, program: inline },
    {
      workDir,
      envVars: env,
      secretsProvider: "passphrase",
      projectSettings: { name: project, runtime: "nodejs", backend: { url: env.PULUMI_BACKEND_URL } },
    },
  );
  const withNamespace = (key: string): string => (key.includes(":") ? key : `${project}:${key}`);
  if (options.baseUrl !== undefined) await stack.setConfig("domainapi:baseUrl", { value: options.baseUrl });
  if (options.apiKey !== undefined)
    await stack.setConfig("domainapi:apiKey", { value: options.apiKey, secret: true });
  for (const [key, value] of Object.entries(options.config ?? {})) {
    await stack.setConfig(withNamespace(key), { value });
  }
  for (const [key, value] of Object.entries(options.secrets ?? {})) {
    await stack.setConfig(withNamespace(key), { value, secret: true });
  }

  const onOutput = options.onOutput ?? ((text: string) => process.stdout.write(text));
  const result: RunResult = {
    op,
    project,
    stack: stackName,
    entry,
    workDir,
    backendDir,
    passphrase,
    outputs: {},
  };
  if (op === "up" || op === "up+destroy") {
    const up = await stack.up({ onOutput });
    result.outputs = plainOutputs(up.outputs);
    result.summary = { result: up.summary.result, resourceChanges: up.summary.resourceChanges };
  }
  if (op === "preview") {
    const preview = await stack.preview({ onOutput });
    result.summary = { changeSummary: preview.changeSummary as Record<string, number> };
  }
  if (op === "destroy" || op === "up+destroy") {
    const destroy = await stack.destroy({ onOutput });
    result.destroySummary = {
      result: destroy.summary.result,
      resourceChanges: destroy.summary.resourceChanges,
    };
    if (options.cleanup !== false) {
      await stack.workspace.removeStack(stackName);
      if (ownsWorkDir) {
        fs.rmSync(workDir, { recursive: true, force: true });
        removeIfEmpty(runRoot);
      }
      if (ownsBackend) fs.rmSync(backendDir, { recursive: true, force: true });
      result.removed = true;
    }
  }
  return result;
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty (another run's work directory), or already gone
  }
}

function parseKeyValues(list: readonly string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf("=");
    if (at <= 0) throw new Error(`--${flag}: expected key=value, got "${item}"`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

const USAGE = `Usage: node scripts/run-program.ts <program-dir> [options]

Runs a Pulumi program (Pulumi.yaml + index.ts) as an Automation API inline program on a local state backend.

Options:
  --op OP               up (default), preview, destroy, or up+destroy
  --stack NAME          stack name (default dev); the program's Pulumi.<stack>.yaml is its config
  --backend DIR         file state backend (default: a fresh temp dir)
  --work-dir DIR        Pulumi work dir (default: a fresh one under <program>/.pulumi-run/)
  --base-url URL        sets domainapi:baseUrl
  --api-key KEY         sets domainapi:apiKey (a secret)
  --config KEY=VALUE    more stack config (repeatable)
  --secret KEY=VALUE    more stack config, stored encrypted (repeatable)
  --json FILE           also write the result (outputs, summary, directories) to FILE as JSON
  --quiet               do not print the engine's output
Environment: PULUMI_CONFIG_PASSPHRASE (default "${DEFAULT_PASSPHRASE}"), DOMAINAPI_* settings.`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      op: { type: "string" },
      stack: { type: "string" },
      backend: { type: "string" },
      "work-dir": { type: "string" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      config: { type: "string", multiple: true },
      secret: { type: "string", multiple: true },
      json: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const result = await runProgram({
    dir: positionals[0] as string,
    op: values.op,
    stack: values.stack,
    backendDir: values.backend,
    workDir: values["work-dir"],
    baseUrl: values["base-url"],
    apiKey: values["api-key"],
    config: parseKeyValues(values.config, "config"),
    secrets: parseKeyValues(values.secret, "secret"),
    onOutput: values.quiet ? () => {} : undefined,
  });
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  if (!result.removed) {
    process.stdout.write(`\nState: ${result.backendDir}\nWork dir: ${result.workDir}\n`);
  }
  process.stdout.write(`\nOutputs (JSON):\n${JSON.stringify(result.outputs, null, 2)}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    // The program's API client keeps connections alive for a while: do not wait for them.
    (code: number) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`run-program: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
