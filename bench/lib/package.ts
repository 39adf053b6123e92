/**
 * The package under test, as a user's program has it: this checkout packed (`npm pack` of the
 * build; `npm run bench` builds first) and installed from that tarball into the work root's
 * `node_modules`, a directory of its own, not a link to the checkout, with `@pulumi/pulumi` beside
 * it. Stacks' work directories lie under the same root, so the engine's dynamic-provider plugin
 * process, which starts there, loads the package and the SDK from that install too; and Pulumi
 * stores each resource's provider as a `require` of its module, as it does in users' states (from a
 * linked checkout it would store the functions' text). Benchmarks use only the public entry points
 * and bins.
 *
 * Importing this module packs and installs afresh (several seconds), so one benchmark runs at a
 * time: two would replace each other's install.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as Pulumi from "@pulumi/pulumi";
import type * as Automation from "@pulumi/pulumi/automation/index.js";
import type * as DomainApi from "pulumi-domainapi";
import { installTarball, packCheckout, sdkEntry } from "../../scripts/lib/pack.ts";
import { engineFloor, repoRoot } from "../../scripts/link-package.ts";

export { repoRoot };

/** Where the package is installed, and stacks' work directories go. */
export const workRoot = path.join(repoRoot, "bench", ".work");

/** The engine floor's package name (test/fixtures/engine-floor), installed beside the package. */
const FLOOR = "domainapi-engine-floor";

/** Fails when there is no build to pack, and says so when the build is older than the source. */
function checkBuild(): void {
  const built = path.join(repoRoot, "dist", "provider", "index.js");
  if (!fs.existsSync(built)) throw new Error(`no build at ${built}: run \`npm run build\` first`);
  const builtAt = fs.statSync(built).mtimeMs;
  const newer = fs
    .readdirSync(path.join(repoRoot, "provider"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && fs.statSync(path.join(repoRoot, "provider", f)).mtimeMs > builtAt);
  if (newer.length > 0) {
    console.error(`bench: provider/${newer[0]} is newer than dist/: the build measured may be stale`);
  }
}

checkBuild();
fs.mkdirSync(workRoot, { recursive: true });
const { tarball } = await packCheckout(workRoot);

/** The installed package's directory: `<workRoot>/node_modules/pulumi-domainapi`. */
export const installedPackage = await installTarball(workRoot, tarball, { [FLOOR]: engineFloor });

/** `require` as a program under the work root has it. */
const load = createRequire(path.join(workRoot, "program.js"));

/**
 * Checks that everything runs the one install: the package's entry points resolve into it (in a
 * `node_modules`, so that its provider is stored as a `require`), and the program and the
 * Automation API (this process), the package, the engine floor and the plugin process (which
 * resolves `@pulumi/pulumi/cmd/dynamic-provider` from a work directory under the root) share one
 * copy of the SDK: two would be two runtimes, and resources registered through the package's copy
 * would not belong to the program's stack.
 */
function checkResolution(): void {
  const modules = fs.realpathSync(path.join(workRoot, "node_modules"));
  const inside = (file: string, dir: string): boolean =>
    !path.relative(dir, fs.realpathSync(file)).startsWith("..");
  for (const entry of ["pulumi-domainapi", "pulumi-domainapi/impl", "pulumi-domainapi/dynamic/records"]) {
    const file = load.resolve(entry);
    if (!inside(file, fs.realpathSync(installedPackage))) {
      throw new Error(`${entry} resolves to ${file}, not the install`);
    }
  }
  const sdk = sdkEntry(workRoot);
  if (!inside(sdk, modules)) throw new Error(`the SDK resolves to ${sdk}, not ${modules}`);
  const floor = path.dirname(load.resolve(FLOOR));
  for (const dir of [installedPackage, floor]) {
    if (sdkEntry(dir) !== sdk) throw new Error(`two @pulumi/pulumi: ${sdk} and ${sdkEntry(dir)} (${dir})`);
  }
}
checkResolution();

/** The public API: `require("pulumi-domainapi")`. */
export const domainapi = load("pulumi-domainapi") as typeof DomainApi;

/** The Pulumi SDK the package uses (for resources of other providers, registered by type token). */
export const sdk = load("@pulumi/pulumi") as typeof Pulumi;

/** The Automation API of the same `@pulumi/pulumi` instance the package uses. */
export const automation = load("@pulumi/pulumi/automation") as typeof Automation;

/** Constructor of the test-only resource that does nothing: what the engine alone costs. */
export type EngineFloorClass = new (name: string, args: Record<string, unknown>) => unknown;

/** The engine floor (test/fixtures/engine-floor), loaded by name like the package. */
export const EngineFloor = (load(FLOOR) as { EngineFloor: EngineFloorClass }).EngineFloor;

/** The API key every benchmark's sandbox accepts. */
export const API_KEY = "bench-key-5e1f";

/**
 * Runs `work` with the provider's log lines silenced: outside the engine they go to the console,
 * and they are not results.
 */
export async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const { log, warn, error, info } = console;
  const silent = (): void => undefined;
  Object.assign(console, { log: silent, warn: silent, error: silent, info: silent });
  try {
    return await work();
  } finally {
    Object.assign(console, { log, warn, error, info });
  }
}
