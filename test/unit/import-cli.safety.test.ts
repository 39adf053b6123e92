/**
 * `domainapi-import` loses nothing: no program for a template with nothing to import (its first
 * `up` would empty the template), no file of the user's overwritten, no half-written directory,
 * no two zones onto one template, no `--origin` that a file contradicts; and it behaves as Unix
 * tools do: a closed pipe ends it quietly, an unsupported Node is named, `--help` lists every flag.
 * The process-level cases run the built command (dist/), as a shell runs it.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { IMPORT_OPTIONS } from "../../provider/cli/import";
import { ZONE_40 } from "../e2e/import-zone";
import { run, useTempDirs } from "./importCliRun";

const repoRoot = path.join(__dirname, "..", "..");
const BIN = path.join(repoRoot, "dist", "provider", "cli", "import.js");

const tempDir = useTempDirs("domainapi-import-safety-");

/** Every path under `dir`, relative, sorted: what a user would find there. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

function zoneFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Runs the built command as a shell would; `closeStdout` closes the reading end at once, as `| head -0` does. */
function runBin(
  args: string[],
  options: { cwd?: string; node?: string; nodeArgs?: string[]; closeStdout?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: options.cwd ?? repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const ONLY_HOST_RECORDS =
  "$ORIGIN example.com.\n@ 3600 IN SOA ns1.dns-host.net. hostmaster.example.com. 1 7200 3600 1209600 300\n" +
  "@ IN NS ns1.dns-host.net.\n@ IN NS ns2.dns-host.net.\nwww IN PTR host.example.net.\n";

describe("nothing is lost", () => {
  it("writes no program for a template with nothing to import, exit 2, the report on stderr", async () => {
    const dir = tempDir();
    const good = zoneFile(dir, "good.zone", "$ORIGIN good.example.\nwww A 192.0.2.1\n");
    const empty = zoneFile(dir, "empty.zone", ONLY_HOST_RECORDS);
    const out = path.join(dir, "out");
    const result = await run([good, empty, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      `domainapi-import: ${empty}: no record of template "empty" can be imported (4 skipped): its program would ` +
        "empty the template on the first `pulumi up` (purge: true), so none is written",
    );
    expect(result.stderr).toContain("# Import report");
    expect(result.stderr).toContain(
      "- line 5: `www.example.com. PTR host.example.net.`: the API has no PTR records",
    );
    expect(tree(dir)).toEqual(["empty.zone", "good.zone"]);
  });

  it("refuses an empty file and a zone of only a BOM before its SOA in the same way", async () => {
    const dir = tempDir();
    for (const text of ["", "\ufeff$ORIGIN example.com.\n@ SOA ns. h. 1 2 3 4 5\n"]) {
      const file = zoneFile(dir, "z.zone", text);
      const result = await run([file, "--origin", "example.com", "--out", path.join(dir, "out")]);
      expect(result.code, result.stderr).toBe(2);
      expect(fs.existsSync(path.join(dir, "out"))).toBe(false);
    }
  });

  it("refuses an --out that holds files, names them, and changes nothing there", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    const out = path.join(dir, "project");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "index.ts"), "// the user's own program\n");
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\n");
    const result = await run([zone, "--out", out]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe(
      `domainapi-import: --out ${out} is not empty (it holds Pulumi.yaml, index.ts): give a new or empty ` +
        "directory, or --force to write there and replace the files of the same names\n",
    );
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toBe("// the user's own program\n");
    expect(tree(dir)).toEqual(["example.com.zone", "project", "project/Pulumi.yaml", "project/index.ts"]);
  });

  it("writes into an empty --out, and with --force into one that holds files, keeping the others", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    const empty = path.join(dir, "empty");
    fs.mkdirSync(empty);
    expect((await run([zone, "--lang", "yaml", "--out", empty])).code).toBe(0);
    expect(tree(empty)).toEqual(["Pulumi.yaml", "import-report.md"]);
    const kept = path.join(dir, "kept");
    fs.mkdirSync(kept);
    fs.writeFileSync(path.join(kept, "Pulumi.yaml"), "name: old\n");
    fs.writeFileSync(path.join(kept, "Pulumi.dev.yaml"), "config: {}\n");
    const forced = await run([zone, "--lang", "yaml", "--out", kept, "--force"]);
    expect(forced.code).toBe(0);
    // The user's file that is gone is named; the ones kept are not.
    expect(forced.stdout).toContain(
      `wrote Pulumi.yaml, import-report.md to ${kept} (replacing ${kept}'s own Pulumi.yaml: --force); see import-report.md`,
    );
    expect(tree(kept)).toEqual(["Pulumi.dev.yaml", "Pulumi.yaml", "import-report.md"]);
    expect(fs.readFileSync(path.join(kept, "Pulumi.yaml"), "utf8")).toMatch(/^name: dns-templates\n/);
    expect(fs.readFileSync(path.join(kept, "Pulumi.dev.yaml"), "utf8")).toBe("config: {}\n");
    // No temporary directory is left beside the targets.
    expect(tree(dir).filter((p) => !p.includes("/"))).toEqual(["empty", "example.com.zone", "kept"]);
  });

  it("a write that cannot finish leaves nothing: not one file moved, no temporary directory", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    const out = path.join(dir, "out");
    fs.mkdirSync(path.join(out, "index.ts"), { recursive: true });
    fs.writeFileSync(path.join(out, "index.ts", "keep"), "x");
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\n");
    const result = await run([zone, "--out", out, "--force"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--out ${out} holds a directory index.ts, where the program's file index.ts goes`,
    );
    expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toBe("name: mine\n");
    expect(tree(dir)).toEqual([
      "example.com.zone",
      "out",
      "out/Pulumi.yaml",
      "out/index.ts",
      "out/index.ts/keep",
    ]);
  });

  it("writes through an --out that is a symbolic link to a directory; refuses a link to nothing", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    fs.mkdirSync(path.join(dir, "real"));
    fs.symlinkSync("real", path.join(dir, "link"));
    const written = await run([zone, "--lang", "yaml", "--out", path.join(dir, "link")]);
    expect(written.code, written.stderr).toBe(0);
    expect(fs.lstatSync(path.join(dir, "link")).isSymbolicLink()).toBe(true);
    expect(tree(path.join(dir, "real"))).toEqual(["Pulumi.yaml", "import-report.md"]);
    // A link to a directory holding files is refused as the directory itself is.
    const again = await run([zone, "--lang", "yaml", "--out", path.join(dir, "link")]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--out ${path.join(dir, "link")} is not empty`);
    fs.symlinkSync("nowhere", path.join(dir, "dangling"));
    expect(await run([zone, "--out", path.join(dir, "dangling")])).toMatchObject({
      code: 2,
      stderr: `domainapi-import: --out ${path.join(dir, "dangling")} is a symbolic link to nowhere, which does not exist: create that directory, or give another --out\n`,
    });
    // No temporary directory left beside the link or its target.
    expect(fs.readdirSync(dir).sort()).toEqual(["dangling", "example.com.zone", "link", "real"]);
  });

  // A mount point of its own (a container's volume, a disk), in a private mount namespace of an
  // unprivileged user: no rename reaches it from beside it (EXDEV, EBUSY), and a tiny one fills up.
  const canMount = spawnSync("unshare", ["-rm", "true"]).status === 0;
  function inMountedOut(dir: string, kib: number, script: string): string {
    const out = path.join(dir, "volume");
    fs.mkdirSync(out, { recursive: true });
    const result = spawnSync(
      "unshare",
      ["-rm", "sh", "-c", `mount -t tmpfs -o size=${kib}k tmpfs "$1" && cd "$1" && ${script}`, "sh", out],
      { encoding: "utf8", env: { ...process.env, NODE: process.execPath, BIN } },
    );
    if (result.status !== 0) throw new Error(result.stderr);
    return result.stdout;
  }

  it.runIf(canMount)(
    "writes into an --out that is a mount point; a disk full there changes nothing",
    () => {
      const dir = tempDir();
      const zone = zoneFile(dir, "example.com.zone", ZONE_40);
      const empty = inMountedOut(
        dir,
        256,
        `"$NODE" "$BIN" ${zone} --lang yaml --out .; echo "exit $?"; ls -A`,
      );
      expect(empty).toMatch(/exit 0\nPulumi\.yaml\nimport-report\.md\n$/);
      const forced = inMountedOut(
        dir,
        256,
        `echo mine > Pulumi.yaml && echo kept > notes.txt && "$NODE" "$BIN" ${zone} --lang yaml --out . --force; echo "exit $?"; ls -A; head -c 11 Pulumi.yaml`,
      );
      expect(forced).toMatch(/exit 0\nPulumi\.yaml\nimport-report\.md\nnotes\.txt\nname: dns-t$/);
      // Full but for a few KiB: the program cannot be written; the user's files stay as they were.
      const full = inMountedOut(
        dir,
        64,
        `echo mine > Pulumi.yaml && echo report > import-report.md && head -c 57000 /dev/zero > fill; "$NODE" "$BIN" ${zone} --lang yaml --out . --force 2>&1; echo "exit $?"; ls -A; cat Pulumi.yaml import-report.md`,
      );
      expect(full).toContain(
        "domainapi-import: cannot write the program into . (ENOSPC: no space left on device, write): nothing was written, and the files there are as they were\n",
      );
      expect(full).toMatch(/exit 1\nPulumi\.yaml\nfill\nimport-report\.md\nmine\nreport\n$/);
    },
    30_000,
  );

  it("refuses an --out that is a file or empty, naming it", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    expect(await run([zone, "--out", zone])).toMatchObject({
      code: 2,
      stderr: `domainapi-import: --out ${zone} is a file, not a directory\n`,
    });
    expect(await run([zone, "--out", ""])).toMatchObject({
      code: 2,
      stderr: "domainapi-import: --out is empty: name a directory\n",
    });
    expect(tree(dir)).toEqual(["example.com.zone"]);
  });

  it("refuses two zones onto one template: the same --template, or files of the same name", async () => {
    const dir = tempDir();
    const a = zoneFile(dir, "a/web.zone", "$ORIGIN a.example.\nwww A 192.0.2.1\n");
    const b = zoneFile(dir, "b/web.zone", "$ORIGIN b.example.\nwww A 192.0.2.2\n");
    const c = zoneFile(dir, "c.zone", "$ORIGIN c.example.\nwww A 192.0.2.3\n");
    const out = path.join(dir, "out");
    const sameName = await run([a, b, "--out", out]);
    expect(sameName.code).toBe(2);
    expect(sameName.stderr).toContain(
      `domainapi-import: ${b}: would fill template "web", as ${a} does: two zones onto one template would leave ` +
        "only the records of the last (each resource purges the template); give each file its own --template <id>",
    );
    const sameTemplate = await run([a, c, "--template", "t", "--template", "t", "--out", out]);
    expect(sameTemplate.code).toBe(2);
    expect(sameTemplate.stderr).toContain(`${c}: would fill template "t", as ${a} does`);
    expect(fs.existsSync(out)).toBe(false);
  });

  it("refuses an --origin that a file's SOA or $ORIGIN contradicts, naming both; takes it where each agrees", async () => {
    const dir = tempDir();
    const soa = zoneFile(
      dir,
      "soa.zone",
      "example.com. 3600 IN SOA ns. h. 1 2 3 4 5\nwww.example.com. A 192.0.2.1\n",
    );
    const dig = zoneFile(dir, "dig.txt", "www.example.com.\t300\tIN\tA\t192.0.2.2\n");
    const other = zoneFile(dir, "other.zone", "$ORIGIN example.org.\nwww A 192.0.2.3\n");
    const out = path.join(dir, "out");
    const typo = await run([soa, "--origin", "exmaple.com", "--out", out]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      `${soa}: --origin exmaple.com. contradicts the file, whose SOA record names example.com.`,
    );
    const several = await run([soa, dig, other, "--origin", "example.com", "--out", out]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(
      `${other}: --origin example.com. contradicts the file, whose $ORIGIN before its first record names example.org.`,
    );
    expect(fs.existsSync(out)).toBe(false);
    const agree = await run([soa, dig, "--origin", "EXAMPLE.com.", "--out", out]);
    expect(agree.code, agree.stderr).toBe(0);
  });
});

describe("as Unix tools behave", () => {
  it("--help lists every flag the command takes", async () => {
    const help = (await run(["--help"])).stdout;
    for (const [name, option] of Object.entries(IMPORT_OPTIONS)) {
      expect(help).toContain(`--${name}`);
      if ("short" in option) expect(help).toContain(`-${option.short}, --${name}`);
    }
  });

  it("writes the program into a new directory named after the first template by default", async () => {
    const dir = tempDir();
    zoneFile(dir, "example.com.zone", ZONE_40);
    fs.writeFileSync(path.join(dir, "index.ts"), "// the user's own\n");
    const first = await runBin(["example.com.zone", "--template", "web"], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(tree(path.join(dir, "web"))).toEqual([
      "Pulumi.yaml",
      "import-report.md",
      "index.ts",
      "package.json",
    ]);
    expect(fs.readFileSync(path.join(dir, "index.ts"), "utf8")).toBe("// the user's own\n");
    // A second run does not overwrite the first one's program.
    const second = await runBin(["example.com.zone", "--template", "web"], { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain("--out web is not empty");
  }, 60_000);

  it("ends quietly with exit 0 when the reader closes the pipe (| head)", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    const help = await runBin(["--help"], { closeStdout: true });
    expect(help).toMatchObject({ code: 0, stderr: "" });
    const out = path.join(dir, "out");
    const result = await runBin([zone, "--out", out], { closeStdout: true });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(tree(out)).toEqual(["Pulumi.yaml", "import-report.md", "index.ts", "package.json"]);
  }, 60_000);

  it("names the Node it needs on an older Node, before anything that Node lacks is loaded", async () => {
    const dir = tempDir();
    const zone = zoneFile(dir, "example.com.zone", ZONE_40);
    // Node 20 as the command sees it: its version, and no Map.groupBy.
    const node20 = zoneFile(
      dir,
      "node20.cjs",
      'Object.defineProperty(process.versions, "node", { value: "20.19.5" });\ndelete Map.groupBy;\n',
    );
    const result = await runBin([zone, "--out", path.join(dir, "out")], { nodeArgs: ["--require", node20] });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^domainapi-import needs Node >=22\.19; this is Node 20\.19\.5 \(/);
    expect(result.stderr).not.toContain("groupBy");
    expect(fs.existsSync(path.join(dir, "out"))).toBe(false);
    // The machine's own older Node, where it has one.
    const system = "/usr/bin/node";
    if (fs.existsSync(system) && fs.realpathSync(system) !== fs.realpathSync(process.execPath)) {
      const real = await runBin(["--help"], { node: system });
      const version = real.stderr.match(/this is Node (\d+)\./)?.[1];
      if (Number(version ?? 99) < 22) expect(real.code).toBe(1);
      else expect(real.code).toBe(0);
    }
  }, 60_000);
});
