/**
 * `domainapi-import` when the file system fails halfway through writing the program: what the user
 * finds afterwards is what was there before (their own files back in place, none of the program's,
 * no staging directory), and the message says so, exit 1. A rename that fails after others
 * succeeded cannot be made to happen by permissions when tests run as root, so Node's `rename`
 * fails here on the one move a test names; every other file operation is the real one.
 */
import * as fs from "node:fs";
import type * as fsPromises from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runImportCommand } from "../../../provider/cli/import";

/** Which rename fails (by its destination), once; undefined: none fails. */
const failing: { when?: (to: string) => boolean } = {};
/** A listing in the order a file system gives it unsorted (NTFS, some network file systems), once. */
const listing: { reversed?: boolean } = {};

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  return {
    ...real,
    rename: async (from: string, to: string): Promise<void> => {
      if (failing.when?.(to)) {
        failing.when = undefined;
        throw Object.assign(new Error(`EIO: i/o error, rename '${from}' -> '${to}'`), { code: "EIO" });
      }
      return real.rename(from, to);
    },
    readdir: async (dir: string): Promise<string[]> => {
      const names = await real.readdir(dir);
      if (!listing.reversed) return names;
      listing.reversed = undefined;
      return [...names].reverse();
    },
  };
});

const dirs: string[] = [];
afterEach(() => {
  failing.when = undefined;
  listing.reversed = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  // Real path: the command names the paths it renames with the directory's own.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-rollback-")));
  dirs.push(dir);
  return dir;
}

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runImportCommand(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** Every file under `dir` with its text (a directory as `/`): all a user would find there. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const at = path.join(dir, rel);
    out[rel] = fs.statSync(at).isDirectory() ? "/" : fs.readFileSync(at, "utf8");
  }
  return out;
}

// As BIND's named-compilezone writes a small zone.
const ZONE =
  "example.com. 3600 IN SOA ns1.example.net. hostmaster.example.com. 2024010101 7200 3600 1209600 300\n" +
  "example.com. 3600 IN NS ns1.example.net.\nwww.example.com. 300 IN A 192.0.2.1\n";

/** A directory holding the zone, and a project of the user's where the TypeScript program's files go. */
function project(): { dir: string; zone: string; out: string; before: Record<string, string> } {
  const dir = tempDir();
  const zone = path.join(dir, "example.com.zone");
  fs.writeFileSync(zone, ZONE);
  const out = path.join(dir, "project");
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\nruntime: nodejs\n");
  fs.writeFileSync(path.join(out, "index.ts"), "// the user's own program\n");
  fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
  return { dir, zone, out, before: contents(dir) };
}

/** The staging directory inside `out` (its name is random), and the part of it `sub` names. */
function staging(out: string, sub: string, name: string): (to: string) => boolean {
  const prefix = path.join(out, ".domainapi-import-");
  return (to) => to.startsWith(prefix) && to.endsWith(path.join(sub, name));
}

const NOTHING_WRITTEN = "nothing was written, and the files there are as they were\n";

describe("--force into a project whose write fails halfway: everything back as it was", () => {
  it("the user's index.ts cannot be moved aside, after their Pulumi.yaml was replaced", async () => {
    const { dir, zone, out, before } = project();
    // The TypeScript program's files go in order: Pulumi.yaml, index.ts, package.json, import-report.md.
    failing.when = staging(out, "replaced", "index.ts");
    const result = await run([zone, "--out", out, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^domainapi-import: cannot write the program into ${escapeRegExp(out)} \\(EIO: i/o error, rename '${escapeRegExp(path.join(out, "index.ts"))}' -> '[^']+'\\): ${NOTHING_WRITTEN}$`,
      ),
    );
    expect(failing.when).toBeUndefined();
    expect(contents(dir)).toEqual(before);
  });

  it("the program's index.ts cannot be moved in, after the user's two files were moved aside", async () => {
    const { dir, zone, out, before } = project();
    failing.when = (to) => to === path.join(out, "index.ts");
    const result = await run([zone, "--out", out, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\): nothing was written, and the files there are as they were\n$/);
    expect(failing.when).toBeUndefined();
    expect(contents(dir)).toEqual(before);
  });

  it("the last file cannot be moved in: the three before it are taken out again", async () => {
    const { dir, zone, out, before } = project();
    failing.when = (to) => to === path.join(out, "import-report.md");
    const result = await run([zone, "--out", out, "--force"]);
    expect(result.code).toBe(1);
    expect(failing.when).toBeUndefined();
    expect(contents(dir)).toEqual(before);
  });
});

describe("--out and symbolic links", () => {
  it("a failure under a directory reached through a link names the paths as the user gave them", async () => {
    const { dir, zone, before } = project();
    fs.symlinkSync(dir, path.join(dir, "via"));
    const out = path.join(dir, "via", "project");
    failing.when = (to) => to === path.join(out, "index.ts");
    const result = await run([zone, "--out", out, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^domainapi-import: cannot write the program into ${escapeRegExp(out)} \\(EIO: i/o error, rename '${escapeRegExp(out)}/\\.domainapi-import-[^/]+/program/index\\.ts' -> '${escapeRegExp(path.join(out, "index.ts"))}'\\): ${NOTHING_WRITTEN}$`,
      ),
    );
    fs.rmSync(path.join(dir, "via"));
    expect(contents(dir)).toEqual(before);
  });

  it("a link that leads to itself is no missing directory: the loop is named, exit 1, nothing written", async () => {
    const dir = tempDir();
    const zone = path.join(dir, "example.com.zone");
    fs.writeFileSync(zone, ZONE);
    const out = path.join(dir, "loop");
    fs.symlinkSync("loop", out);
    const result = await run([zone, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `domainapi-import: cannot write the program into ${out} (ELOOP: too many symbolic links encountered, realpath '${out}'): ${NOTHING_WRITTEN}`,
    );
    expect(fs.readdirSync(dir).sort()).toEqual(["example.com.zone", "loop"]);
  });
});

describe("a new --out whose directory cannot be moved into place", () => {
  it("leaves no temporary directory beside it, and says nothing was written", async () => {
    const dir = tempDir();
    const zone = path.join(dir, "example.com.zone");
    fs.writeFileSync(zone, ZONE);
    const before = contents(dir);
    const out = path.join(dir, "dns");
    failing.when = (to) => to === out;
    const result = await run([zone, "--lang", "yaml", "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^domainapi-import: cannot write the program into ${escapeRegExp(out)} \\(EIO: i/o error, rename '${escapeRegExp(path.join(dir, ".dns.domainapi-import-"))}[^']+' -> '${escapeRegExp(out)}'\\): ${NOTHING_WRITTEN}$`,
      ),
    );
    expect(contents(dir)).toEqual(before);
  });
});

/** `text` matched as itself in a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("an --out that is not empty, listed unsorted by its file system", () => {
  it("names its first five files sorted, as on any other file system", async () => {
    const dir = tempDir();
    const zone = path.join(dir, "example.com.zone");
    fs.writeFileSync(zone, ZONE);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    for (const name of ["a", "b", "c", "d", "e", "f"]) fs.writeFileSync(path.join(out, name), name);
    listing.reversed = true;
    const result = await run([zone, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${out} is not empty (it holds a, b, c, d, e, ...): give`);
  });
});
