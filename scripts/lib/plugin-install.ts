/**
 * The plugin binary as a user without Node has it: the release tarball of this machine's platform
 * (dist/plugin, by scripts/dist.ts) installed with `pulumi plugin install resource domainapi
 * <version> --file <tarball>` into a PULUMI_HOME of its own, and a PATH that holds the Pulumi CLI
 * and the language hosts asked for, and no Node. Shared by the end-to-end test of the binary and
 * the benchmarks.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** An installed plugin binary. */
export interface InstalledPlugin {
  /** The plugin's version (the package's). */
  version: string;
  /** The executable inside PULUMI_HOME, as the engine starts it. */
  executable: string;
  /** PULUMI_HOME and PATH for every `pulumi` run that should use it. */
  env: { PULUMI_HOME: string; PATH: string };
  /** Removes PULUMI_HOME and the PATH directory. */
  cleanup(): void;
}

/** Where `pulumi` is on the current PATH (the pinned CLI under scripts/with-pulumi.sh). */
function which(command: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Installs the linux-amd64 (this machine's) tarball of `repoRoot`'s dist/plugin.
 *
 * @param tools executables to put on the node-free PATH besides `pulumi` (`pulumi-language-yaml`),
 *   by their full paths
 * @throws Error naming the fix when the tarball has not been built or Node would be on PATH
 */
export async function installPluginBinary(
  repoRoot: string,
  tools: readonly string[] = [],
): Promise<InstalledPlugin> {
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
  };
  const tarball = path.join(
    repoRoot,
    "dist",
    "plugin",
    `pulumi-resource-domainapi-v${version}-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}.tar.gz`,
  );
  if (!fs.existsSync(tarball)) {
    throw new Error(`${tarball} is missing: run \`npm run build && npm run dist\` first`);
  }
  const pulumi = which("pulumi", process.env.PATH ?? "");
  if (pulumi === undefined) throw new Error("no pulumi on PATH: run through scripts/with-pulumi.sh");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-pulumi-home-"));
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-no-node-bin-"));
  for (const tool of [pulumi, ...tools]) fs.symlinkSync(tool, path.join(bin, path.basename(tool)));
  const env = { PULUMI_HOME: home, PATH: bin };
  if (which("node", env.PATH) !== undefined) throw new Error(`node is on the PATH ${env.PATH}`);
  await execFileAsync(pulumi, ["plugin", "install", "resource", "domainapi", version, "--file", tarball], {
    env: {
      ...env,
      HOME: process.env.HOME ?? home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    },
    maxBuffer: 16 << 20,
  });
  const executable = path.join(
    home,
    "plugins",
    `resource-domainapi-v${version}`,
    "pulumi-resource-domainapi",
  );
  if (!fs.existsSync(executable)) throw new Error(`pulumi plugin install left no ${executable}`);
  return {
    version,
    executable,
    env,
    cleanup() {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(bin, { recursive: true, force: true });
    },
  };
}
