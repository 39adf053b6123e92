/**
 * This checkout as npm packs it, and that tarball installed as a user's project installs it. Shared
 * by the e2e test of the packed package (test/e2e/consumer.test.ts) and the benchmarks
 * (bench/lib/package.ts), so that both run the files the registry would get, from a real
 * `node_modules`: only there does Pulumi store a dynamic provider as a `require` of its module
 * rather than its functions' text, which is what users' states hold.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../link-package.ts";

const execFileAsync = promisify(execFile);
const require = createRequire(import.meta.url);

/** How long one npm command may take: installs from the cache take seconds, from the registry more. */
const NPM_TIMEOUT_MS = 240_000;

/** What `npm pack --json` reports of the package it packed. */
export interface PackResult {
  /** The tarball's file name, in the pack destination. */
  filename: string;
  /** Its integrity (sha512), as the registry would record it. */
  integrity: string;
  /** Every file in it, by path inside the package. */
  files: Array<{ path: string }>;
}

/**
 * Runs `npm <args>` in `cwd` and resolves with its standard output; rejects when npm fails. The
 * update notifier is off: it would reach for the registry and print into the output we parse.
 *
 * @example await npm(["ls", "@pulumi/pulumi", "--all", "--parseable"], program)
 */
export async function npm(args: readonly string[], cwd: string, timeoutMs = NPM_TIMEOUT_MS): Promise<string> {
  const { stdout } = await execFileAsync("npm", [...args], {
    cwd,
    env: { ...process.env, npm_config_update_notifier: "false" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: timeoutMs,
  });
  return stdout;
}

/**
 * The result in the output of `npm pack --json` (or `npm publish --dry-run --json`'s packing),
 * which prints it after whatever the lifecycle scripts printed.
 *
 * @throws Error when the output holds no result
 */
export function packJson(stdout: string): PackResult {
  const [result] = JSON.parse(stdout.slice(stdout.indexOf("["))) as PackResult[];
  if (!result) throw new Error(`npm pack printed no result: ${stdout}`);
  return result;
}

/** Options of {@link packCheckout}. */
export interface PackOptions {
  /** Packs this workspace package (e.g. `domainapi-sandbox`) instead of the provider. */
  workspace?: string;
  /**
   * Skips the lifecycle scripts (`prepare` builds dist/ again). Default true: callers pack a
   * checkout already built, and a rebuild would replace dist/ under the feet of whatever runs
   * from it meanwhile (tests beside the caller, the benchmark's other modules).
   */
  ignoreScripts?: boolean;
}

/**
 * Packs this checkout (`npm pack`) into `destination` and returns the tarball's path with what npm
 * reported of it.
 *
 * @example const { tarball } = await packCheckout(scratch);
 */
export async function packCheckout(
  destination: string,
  options: PackOptions = {},
): Promise<{ tarball: string; pack: PackResult }> {
  const args = ["pack", "--json", "--pack-destination", destination];
  if (options.ignoreScripts ?? true) args.push("--ignore-scripts");
  if (options.workspace !== undefined) args.push("--workspace", options.workspace);
  const pack = packJson(await npm(args, repoRoot));
  return { tarball: path.join(destination, pack.filename), pack };
}

/** The parts of this repository's package.json and package-lock.json read here. */
interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
interface Lockfile {
  packages: Record<string, { version?: string }>;
}

/**
 * Installs `tarball` (this checkout packed) into `root/node_modules` as a user's project has it: a
 * directory of its own, not a link, with `@pulumi/pulumi` (its peer) installed beside it. Returns
 * the installed package's directory.
 *
 * The SDK must sit beside the package, not only above it: Pulumi's closure serializer stores a
 * provider as a `require` of its module only when it can resolve the package's name from the SDK's
 * own directory; otherwise it stores the module's path, which the package's `exports` refuse. So
 * `root` gets its own SDK, and everything (the program, the Automation API, the plugin process
 * started under `root`, the `extras`) must load that one copy; see {@link sdkEntry}.
 *
 * The package's dependencies and peers are installed at the versions of this repository's
 * lockfile (those the tests run), not the newest the registry has; theirs as npm resolves them.
 * Whatever `root/node_modules` held goes first, so that no file of an earlier tarball survives.
 *
 * @param extras packages installed beside it, by name, from directories of this repository; as
 *   copies (`--install-links`), so that they too resolve the SDK from `root/node_modules`
 * @example const installed = await installTarball(workRoot, tarball, { "domainapi-engine-floor": engineFloor });
 */
export async function installTarball(
  root: string,
  tarball: string,
  extras: Readonly<Record<string, string>> = {},
): Promise<string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Manifest;
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as Lockfile;
  const names = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ];
  const pinned = names.map((name) => {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (version === undefined) throw new Error(`package-lock.json holds no ${name}: run npm ci`);
    return [name, version] as const;
  });
  fs.mkdirSync(root, { recursive: true });
  fs.rmSync(path.join(root, "node_modules"), { recursive: true, force: true });
  fs.rmSync(path.join(root, "package-lock.json"), { force: true });
  const program = {
    name: "domainapi-installed",
    version: "0.0.0",
    private: true,
    dependencies: {
      [manifest.name]: `file:${tarball}`,
      ...Object.fromEntries(pinned),
      ...Object.fromEntries(Object.entries(extras).map(([name, dir]) => [name, `file:${dir}`])),
    },
  };
  fs.writeFileSync(path.join(root, "package.json"), `${JSON.stringify(program, null, 2)}\n`);
  // No install scripts: the package has none to run at install, and the SDK's tree needs none.
  await npm(
    [
      "install",
      "--no-package-lock",
      "--install-links",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
    ],
    root,
  );
  for (const name of [manifest.name, ...Object.keys(extras)]) {
    const dir = path.join(root, "node_modules", name);
    if (fs.lstatSync(dir).isSymbolicLink()) throw new Error(`${dir} is a link, not an install`);
  }
  return path.join(root, "node_modules", manifest.name);
}

/**
 * The file `require("@pulumi/pulumi")` loads from `dir` (its real path): what a module in `dir`,
 * or a process started there, gets as the Pulumi SDK.
 *
 * @example sdkEntry(installedPackageDir) === sdkEntry(workRoot) // one SDK
 */
export function sdkEntry(dir: string): string {
  return fs.realpathSync(require.resolve("@pulumi/pulumi", { paths: [dir] }));
}
