/**
 * `npm run dist`: the provider plugin as one executable per platform, in the tarballs
 * `pulumi plugin install resource domainapi <version>` downloads, with a SHA-256 checksum file:
 *
 *   dist/plugin/pulumi-resource-domainapi-v<version>-<os>-<arch>.tar.gz   (5 platforms)
 *   dist/plugin/pulumi-resource-domainapi-v<version>-checksums.txt       (`sha256sum -c` reads it)
 *
 * The same commit gives the same bytes. Needs `npm run build` first (it bundles the built plugin).
 * A build is kept in the cache by a digest of everything that goes into it, so a second run of
 * the same commit copies instead of building; concurrent runs wait for each other.
 *
 *   node scripts/dist.ts [--plugin-download-url <url>] [--out <dir>] [--force]
 *
 * `--plugin-download-url` (or DOMAINAPI_PLUGIN_DOWNLOAD_URL) is where the release is published:
 * it is fixed into the binaries' schema (`pluginDownloadURL`) at build time.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { BLOB_MAKERS, blobMaker, nodeExecutable, PLUGIN_TARGETS, tarballName } from "./lib/node-binaries.ts";
import { bundlePlugin, injectBlob, seaBlob } from "./lib/sea.ts";
import { writeTarGz } from "./lib/tar.ts";

const repoRoot = path.resolve(import.meta.dirname, "..");
const USAGE = "usage: node scripts/dist.ts [--plugin-download-url <url>] [--out <dir>] [--force]";

/** The cache shared with scripts/ensure-pulumi.sh. */
function cacheRoot(): string {
  return (
    process.env.PULUMI_DOMAINAPI_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-domainapi")
  );
}

function fail(message: string): never {
  console.error(`dist: ${message}`);
  process.exit(1);
}

function sha256(data: Uint8Array | string): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** Holds a directory lock while `work` runs; a lock whose process is gone is taken over. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(fs.readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }));
      // No pid yet: its owner is between mkdir and writing it, unless the lock is old.
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      let alive = owner > 0 || Date.now() - since < 60_000;
      try {
        if (owner > 0) process.kill(owner, 0);
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) fail(`another build (pid ${owner}) holds ${lock} for 30 minutes`);
      else await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds every tarball and the checksum file into `dir`. */
async function build(dir: string, code: Uint8Array, version: string): Promise<void> {
  const nodeCache = path.join(cacheRoot(), "node-binaries");
  const blobs = new Map<string, Buffer>();
  const lines: string[] = [];
  for (const target of PLUGIN_TARGETS) {
    const started = Date.now();
    const { version: nodeVersion } = target.node;
    let blob = blobs.get(nodeVersion);
    if (blob === undefined) {
      blob = await seaBlob(code, await blobMaker(nodeVersion, nodeCache));
      blobs.set(nodeVersion, blob);
    }
    const node = await nodeExecutable(target, nodeCache);
    const exe = await injectBlob(target, node, blob);
    const tarball = writeTarGz([{ name: target.executable, mode: 0o755, data: exe }]);
    const name = tarballName(version, target);
    fs.writeFileSync(path.join(dir, name), tarball);
    lines.push(`${sha256(tarball)}  ${name}`);
    console.log(
      `dist: ${name} (${(tarball.length / 1e6).toFixed(1)} MB; Node ${target.node.version}; ${Date.now() - started} ms)`,
    );
  }
  fs.writeFileSync(path.join(dir, checksumsName(version)), `${lines.join("\n")}\n`);
}

/** The checksum file beside the tarballs. */
function checksumsName(version: string): string {
  return `pulumi-resource-domainapi-v${version}-checksums.txt`;
}

async function main(): Promise<void> {
  let values: { "plugin-download-url"?: string; out?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        "plugin-download-url": { type: "string" },
        out: { type: "string" },
        force: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
    devDependencies: Record<string, string>;
  };
  // The gzip stream is this Node's zlib: another Node may compress to other (equally valid) bytes.
  const pinnedNode = `v${pkg.devDependencies.node}`;
  if (process.version !== pinnedNode) {
    console.warn(
      `dist: run by Node ${process.version}, not the node devDependency's ${pinnedNode}: the tarballs may differ in bytes from a build by \`npm run dist\``,
    );
  }
  const entry = path.join(repoRoot, "dist", "provider", "plugin", "main.js");
  if (!fs.existsSync(entry))
    fail(`${path.relative(repoRoot, entry)} is missing: run \`npm run build\` first`);
  const downloadUrl = values["plugin-download-url"] ?? process.env.DOMAINAPI_PLUGIN_DOWNLOAD_URL;
  if (downloadUrl !== undefined && !/^(https?|github|gitlab):\/\/\S+$/.test(downloadUrl)) {
    fail(
      `--plugin-download-url (or DOMAINAPI_PLUGIN_DOWNLOAD_URL) must be an https://, github:// or gitlab:// address, e.g. github://api.github.com/<owner>/pulumi-domainapi; got "${downloadUrl}"`,
    );
  }

  // The default address of the releases, from the built manifest (the one place that spells it).
  const manifest = createRequire(import.meta.url)(path.join(repoRoot, "dist", "provider", "manifest.js")) as {
    DEFAULT_PLUGIN_DOWNLOAD_URL?: string;
  };
  const bundle = await bundlePlugin(path.relative(repoRoot, entry), repoRoot, {
    url: downloadUrl,
    fallback: manifest.DEFAULT_PLUGIN_DOWNLOAD_URL,
  });
  const digest = sha256(
    JSON.stringify({ version: pkg.version, bundle: sha256(bundle.code), PLUGIN_TARGETS, BLOB_MAKERS }),
  ).slice(0, 16);
  console.log(
    `dist: bundle ${(bundle.code.byteLength / 1e6).toFixed(1)} MB (largest: ${bundle.inputs
      .slice(0, 3)
      .map((i) => `${i.path} ${(i.bytes / 1e6).toFixed(1)} MB`)
      .join(", ")}); build ${digest}`,
  );

  const builds = path.join(cacheRoot(), "plugin-builds");
  fs.mkdirSync(builds, { recursive: true });
  const out = path.resolve(values.out ?? path.join(repoRoot, "dist", "plugin"));
  await withLock(path.join(builds, "lock"), async () => {
    const done = path.join(builds, digest);
    if (values.force) fs.rmSync(done, { recursive: true, force: true });
    if (!fs.existsSync(done)) {
      const started = Date.now();
      const tmp = `${done}.tmp`;
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.mkdirSync(tmp);
      await build(tmp, bundle.code, pkg.version);
      fs.renameSync(tmp, done);
      console.log(`dist: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      // Older builds (other commits) make way: each is a few hundred MB.
      for (const old of fs.readdirSync(builds)) {
        if (old !== digest && old !== "lock")
          fs.rmSync(path.join(builds, old), { recursive: true, force: true });
      }
    } else {
      console.log(`dist: build ${digest} is cached in ${done}`);
    }
    fs.mkdirSync(out, { recursive: true });
    for (const stale of fs.readdirSync(out)) {
      if (stale.startsWith("pulumi-resource-domainapi-")) fs.rmSync(path.join(out, stale));
    }
    for (const file of fs.readdirSync(done)) fs.copyFileSync(path.join(done, file), path.join(out, file));
  });
  const sums = fs.readFileSync(path.join(out, checksumsName(pkg.version)), "utf8");
  console.log(
    `dist: ${path.relative(process.cwd(), out) || "."}/${checksumsName(pkg.version)}\n${sums.trimEnd()}`,
  );
}

await main();
