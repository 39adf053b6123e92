/**
 * `domainapi-import` as a user at a terminal or a script meets it (docs/import.md): its help, each
 * refusal of its arguments with the usage after it, exit 2 with the file (and line) for input that
 * cannot be read and for a template with nothing to import (its report on stderr), exit 1 when the
 * program cannot be written, and the summary it prints on success; each flag reaching the program
 * it writes. Run in this process, with its output captured.
 */

import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { quietOnClosedPipe, runImportCommand } from "../../../provider/cli/import";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-cli-unit-"));
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

function file(dir: string, name: string, text: string | Uint8Array): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, text);
  return at;
}

const ZONE =
  "$ORIGIN example.com.\n@ 3600 IN SOA ns1.example.net. h.example.com. 1 2 3 4 5\n@ NS ns1.example.net.\nwww 300 A 192.0.2.1\nmail.example.com. MX 10 mx.example.com.\n";
const USAGE_HEAD = "Usage: domainapi-import <zone-file>... [--template <id>]... [--origin <domain>]\n";
const USAGE_TAIL =
  "Exit status: 0 the program was written; 2 the input cannot be read (file, line and what was\n" +
  "expected are named), a template would have no record (the report is printed), the output\n" +
  "directory is taken, or the arguments are wrong. On exit 2 nothing is written.\n";

describe("help and arguments", () => {
  it("--help and -h print the usage on stdout, exit 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout.startsWith(USAGE_HEAD)).toBe(true);
      expect(result.stdout.endsWith(USAGE_TAIL)).toBe(true);
      expect(result.stdout).toContain(
        "  --lang <lang>     ts (default; the dynamic resources), yaml, python or go (the plugin's SDKs)\n",
      );
    }
  });

  it("an unknown flag, no zone file, an unknown language, more templates than files: exit 2, the usage after", async () => {
    const cases: [string[], string][] = [
      [["--bogus", "a.zone"], "Unknown option '--bogus'"],
      [["--lang"], "Option '--lang <value>' argument missing"],
      [[], "expected at least one zone file"],
      [["a.zone", "--lang", "cobol"], "--lang cobol is not one of ts, yaml, python, go"],
      [
        ["a.zone", "--template", "x", "--template", "y"],
        "2 --template values for 1 zone files: give one per file, in order",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect(result.code, message).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.startsWith(`domainapi-import: ${message}`), result.stderr).toBe(true);
      expect(result.stderr.endsWith(USAGE_TAIL)).toBe(true);
      expect(result.stderr).toContain(`\n\n${USAGE_HEAD}`);
    }
  });

  it("as many templates as files, or fewer, is fine: the rest take their file's name", async () => {
    const dir = tempDir();
    const a = file(dir, "a.zone", "$ORIGIN a.example.\nwww A 192.0.2.1\n");
    const b = file(dir, "b.zone", "$ORIGIN b.example.\nwww A 192.0.2.2\n");
    const out = path.join(dir, "out");
    const result = await run([a, b, "--template", "first", "--lang", "yaml", "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    const yaml = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    expect(yaml).toContain('templateId: "first"');
    expect(yaml).toContain('templateId: "b"');
  });
});

describe("input that cannot be read: exit 2, nothing written", () => {
  it("a missing file, or a directory, is named", async () => {
    const dir = tempDir();
    const missing = path.join(dir, "nope.zone");
    const out = path.join(dir, "out");
    expect(await run([missing, "--out", out])).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-import: ${missing}: no such file\n`,
    });
    expect(await run([dir, "--out", out])).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-import: ${dir}: cannot be read (EISDIR)\n`,
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  it("rdata of the wrong shape names the file and the line", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", "$ORIGIN example.com.\nwww A 192.0.2.1\nm MX mail.example.com.\n");
    const out = path.join(dir, "out");
    expect(await run([zone, "--out", out])).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-import: ${zone}:3: expected MX data of the form <preference> <host name>; got "mail.example.com."\n`,
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  it("a template with nothing to import writes no program, and prints its report", async () => {
    const dir = tempDir();
    const zone = file(
      dir,
      "host.zone",
      "$ORIGIN example.com.\n@ NS ns1.example.net.\nx PTR y.example.net.\n",
    );
    const out = path.join(dir, "out");
    const result = await run([zone, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^domainapi-import: ${zone.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no record of template "host" can be imported \\(2 skipped\\)[^\\n]*\\n\\n# `,
      ),
    );
    expect(result.stderr).toContain("the apex NS set is the DNS host's own");
    expect(fs.existsSync(out)).toBe(false);
  });

  it("an --out of blanks is refused", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    expect(await run([zone, "--out", "  "])).toEqual({
      code: 2,
      stdout: "",
      stderr: "domainapi-import: --out is empty: name a directory\n",
    });
  });
});

describe("the program written", () => {
  it("its files, the summary line and where they went", async () => {
    const dir = tempDir();
    const zone = file(dir, "example.com.zone", ZONE);
    const out = path.join(dir, "out");
    const result = await run([zone, "--out", out]);
    expect(result).toEqual({
      code: 0,
      stderr: "",
      stdout:
        `example.com (${zone}, domain example.com.): 2 records, 2 skipped, 1 changes, 2 TTLs dropped\n` +
        `wrote Pulumi.yaml, index.ts, package.json, import-report.md to ${out}; see import-report.md before the first \`pulumi up\`\n`,
    });
    expect(fs.readdirSync(out).sort()).toEqual([
      "Pulumi.yaml",
      "import-report.md",
      "index.ts",
      "package.json",
    ]);
    const version = JSON.parse(
      fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"),
    ).version;
    expect(
      JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")).dependencies["pulumi-domainapi"],
    ).toBe(version);
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain('content: "mx.{domainname}.",');
    expect(fs.readFileSync(path.join(out, "import-report.md"), "utf8")).toMatch(/^# /);
  });

  it("--keep-domain, --keep-apex-ns and --origin reach the program", async () => {
    const dir = tempDir();
    const zone = file(
      dir,
      "dig.txt",
      "example.com.\t300\tIN\tNS\tns1.example.net.\nwww.example.com.\t300\tIN\tCNAME\tweb.example.com.\n",
    );
    const out = path.join(dir, "out");
    const result = await run([
      zone,
      "--origin",
      "example.com",
      "--keep-domain",
      "--keep-apex-ns",
      "--lang",
      "yaml",
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const yaml = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    expect(yaml).toContain('- { name: "@", type: "NS", content: "ns1.example.net." }');
    expect(yaml).toContain('- { name: "www", type: "CNAME", content: "web.example.com." }');
    const plain = path.join(dir, "plain");
    expect((await run([zone, "--origin", "example.com", "--lang", "yaml", "--out", plain])).code).toBe(0);
    const text = fs.readFileSync(path.join(plain, "Pulumi.yaml"), "utf8");
    expect(text).not.toContain('type: "NS"');
    expect(text).toContain('content: "web.{domainname}."');
  });

  it("reads the file's bytes: a byte that is not UTF-8 skips its record, shown as \\xHH, never U+FFFD", async () => {
    const dir = tempDir();
    const zone = file(
      dir,
      "z.zone",
      Buffer.concat([
        Buffer.from('$ORIGIN example.com.\nok A 192.0.2.1\nt TXT "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"\n'),
      ]),
    );
    const out = path.join(dir, "out");
    expect((await run([zone, "--out", out])).code).toBe(0);
    const report = fs.readFileSync(path.join(out, "import-report.md"), "utf8");
    expect(report).toContain("\\xE9");
    expect(report).not.toContain("\uFFFD");
  });
});

describe("where the program goes", () => {
  it("an --out that holds many files names the first five, sorted, then ...", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    for (const name of ["f", "e", "d", "c", "b", "a"]) fs.writeFileSync(path.join(out, name), name);
    const result = await run([zone, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `domainapi-import: --out ${out} is not empty (it holds a, b, c, d, e, ...): give a new or empty directory, ` +
        "or --force to write there and replace the files of the same names\n",
    );
    fs.rmSync(path.join(out, "f"));
    expect((await run([zone, "--out", out])).stderr).toContain("(it holds a, b, c, d, e): give");
  });

  it("--force into a directory of other files replaces none of them, and says none", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "notes.txt"), "mine");
    const result = await run([zone, "--lang", "yaml", "--out", out, "--force"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`wrote Pulumi.yaml, import-report.md to ${out}; see import-report.md`);
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.yaml", "import-report.md", "notes.txt"]);
    expect(fs.readFileSync(path.join(out, "notes.txt"), "utf8")).toBe("mine");
  });

  it("--force replaces the files of the program's names, naming each, and keeps no staging directory", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: mine\n");
    fs.writeFileSync(path.join(out, "import-report.md"), "old\n");
    const result = await run([zone, "--lang", "yaml", "--out", out, "--force"]);
    expect(result.stdout).toContain(
      `to ${out} (replacing ${out}'s own Pulumi.yaml, import-report.md: --force); see import-report.md`,
    );
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.yaml", "import-report.md"]);
    expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toMatch(/^name: dns-templates\n/);
  });

  it("a new --out under a missing parent is made, with no temporary directory left beside it", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const out = path.join(dir, "a", "b", "out");
    expect((await run([zone, "--lang", "yaml", "--out", out])).code).toBe(0);
    expect(fs.readdirSync(path.join(dir, "a", "b"))).toEqual(["out"]);
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.yaml", "import-report.md"]);
  });

  it("a program that cannot be written: exit 1, the reason, nothing written", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const blocker = file(dir, "blocker", "a file where a directory must go");
    const out = path.join(blocker, "out");
    const result = await run([zone, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^domainapi-import: cannot write the program into ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\((ENOTDIR|EEXIST)[^)]*\\): nothing was written, and the files there are as they were\\n$`,
      ),
    );
    expect(fs.readFileSync(blocker, "utf8")).toBe("a file where a directory must go");
  });

  it("a file of the program's name that is a dangling link: exit 1, the other files as they were", async () => {
    const dir = tempDir();
    const zone = file(dir, "z.zone", ZONE);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    fs.symlinkSync("nowhere", path.join(out, "Pulumi.yaml"));
    fs.writeFileSync(path.join(out, "keep"), "k");
    const result = await run([zone, "--lang", "yaml", "--out", out, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^domainapi-import: cannot write the program into .*: nothing was written, and the files there are as they were\n$/,
    );
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.yaml", "keep"]);
    expect(fs.readlinkSync(path.join(out, "Pulumi.yaml"))).toBe("nowhere");
  });
});

describe("a reader that stops reading (| head)", () => {
  it("EPIPE ends the command with the code given, quietly; any other error of the stream is thrown", () => {
    const stream = new EventEmitter();
    const exits: number[] = [];
    quietOnClosedPipe(
      stream,
      () => 3,
      (code) => exits.push(code),
    );
    stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(exits).toEqual([3]);
    const other = Object.assign(new Error("write EIO"), { code: "EIO" });
    expect(() => stream.emit("error", other)).toThrow(other);
    expect(exits).toEqual([3]);
  });
});
