/**
 * The plugin as a Node single executable application: the built plugin and its pinned dependencies
 * bundled into one CommonJS file (esbuild), turned into a SEA blob by Node itself, and injected
 * into each platform's Node executable (postject). The blob has neither a V8 snapshot nor a code
 * cache, so one blob serves every platform.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { unsign } from "macho-unsign";
import type { PluginTarget } from "./node-binaries.ts";
import { stripPeSignature } from "./pe.ts";
import { inject } from "./postject.ts";

const execFileAsync = promisify(execFile);

/** The fuse Node looks for to know that a blob was injected (its documentation's value). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** The resource name Node reads the blob from. */
const SEA_RESOURCE = "NODE_SEA_BLOB";

/**
 * Modules that `@pulumi/pulumi` loads only to serialize closures and to compute a program's
 * package paths (TypeScript alone is 10 MB), which a provider plugin never does. They are
 * replaced by a module that fails, naming itself, if anything ever uses it.
 */
const NEVER_USED_BY_THE_PLUGIN = ["typescript", "@npmcli/arborist"];

const stubs: esbuild.Plugin = {
  name: "never-used-by-the-plugin",
  setup(build) {
    const filter = new RegExp(
      `^(${NEVER_USED_BY_THE_PLUGIN.map((m) => m.replace(/[/.]/g, "\\$&")).join("|")})$`,
    );
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "never-used" }));
    build.onLoad({ filter: /.*/, namespace: "never-used" }, (args) => ({
      loader: "js",
      contents: `const fail = () => { throw new Error(${JSON.stringify(`${args.path} is not in the domainapi plugin binary (it serves no closure serialization)`)}); };
module.exports = new Proxy({}, { get: (_, key) => (key === "__esModule" || typeof key === "symbol" ? undefined : fail()) });`,
    }));
  },
};

/**
 * The plugin's schema.json with `pluginDownloadURL` set: to where this build is published when the
 * build names it, else to the schema's own, else to `fallback` (the manifest's default), so that
 * the binary's schema always tells `pulumi plugin install` and the SDKs where to download it.
 */
function schemaWithDownloadUrl(url: string | undefined, fallback: string | undefined): esbuild.Plugin {
  return {
    name: "plugin-download-url",
    setup(build) {
      build.onLoad({ filter: /[\\/]plugin[\\/]schema\.json$/ }, (args) => {
        const schema = JSON.parse(fs.readFileSync(args.path, "utf8")) as Record<string, unknown>;
        const pluginDownloadURL = url ?? schema.pluginDownloadURL ?? fallback;
        return { loader: "json", contents: JSON.stringify({ ...schema, pluginDownloadURL }) };
      });
    },
  };
}

/** What {@link bundlePlugin} makes. */
export interface PluginBundle {
  /** The one CommonJS file. */
  code: Uint8Array;
  /** The bytes each input contributed, largest first (to see what a dependency costs). */
  inputs: Array<{ path: string; bytes: number }>;
}

/**
 * Bundles `entry` (the built plugin's main.js) with everything it requires from node_modules.
 * `download.url` is fixed into it: into the schema it serves, and wherever the code reads
 * `process.env.DOMAINAPI_PLUGIN_DOWNLOAD_URL` (the machine that later runs it has no say);
 * `download.fallback` is the schema's when neither the build nor the schema names one.
 */
export async function bundlePlugin(
  entry: string,
  repoRoot: string,
  download: { url: string | undefined; fallback: string | undefined },
): Promise<PluginBundle> {
  const result = await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    outfile: "plugin.cjs",
    write: false,
    metafile: true,
    legalComments: "none",
    logLevel: "error",
    define: {
      "process.env.DOMAINAPI_PLUGIN_DOWNLOAD_URL":
        download.url === undefined ? "undefined" : JSON.stringify(download.url),
    },
    plugins: [stubs, schemaWithDownloadUrl(download.url, download.fallback)],
  });
  const [out] = result.outputFiles;
  if (out === undefined) throw new Error("esbuild wrote no bundle");
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output?.inputs ?? {})
    .map(([p, v]) => ({ path: p, bytes: v.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return { code: out.contents, inputs };
}

/**
 * The SEA blob of `code`, made by `node` (`node --experimental-sea-config`): the blob's format is
 * that Node version's, and only a Node of the same version runs it.
 */
export async function seaBlob(code: Uint8Array, node: string): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-sea-"));
  try {
    // Relative paths: the blob records the main script's name, and a temporary path would make
    // every build's bytes different.
    fs.writeFileSync(path.join(dir, "plugin.cjs"), code);
    fs.writeFileSync(
      path.join(dir, "sea-config.json"),
      JSON.stringify({
        main: "plugin.cjs",
        output: "plugin.blob",
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
      }),
    );
    await execFileAsync(node, ["--experimental-sea-config", "sea-config.json"], { cwd: dir });
    return fs.readFileSync(path.join(dir, "plugin.blob"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `node` with `blob` injected: the executable of `target`. A macOS Node's signature is removed
 * first (injection would leave it invalid, and macOS refuses an invalid signature where it accepts
 * none on x64; arm64 needs a new one, see docs/release.md); so is a Windows Node's Authenticode
 * signature (it would no longer verify).
 */
export async function injectBlob(target: PluginTarget, node: Buffer, blob: Buffer): Promise<Buffer> {
  let base: Buffer = node;
  if (target.os === "darwin") {
    const unsigned = unsign(node);
    if (unsigned === null)
      throw new Error(`the Node executable for ${target.os}-${target.arch} has no signature to remove`);
    base = Buffer.from(unsigned);
  } else if (target.os === "windows") {
    base = stripPeSignature(node);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-inject-"));
  try {
    const file = path.join(dir, target.executable);
    fs.writeFileSync(file, base);
    await inject(file, SEA_RESOURCE, blob, {
      sentinelFuse: SEA_FUSE,
      ...(target.os === "darwin" ? { machoSegmentName: "NODE_SEA" } : {}),
    });
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
