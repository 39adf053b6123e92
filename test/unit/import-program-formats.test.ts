/**
 * The programs `domainapi-import` writes, as their languages' tools see them: Go as `gofmt` leaves
 * it, TypeScript as Biome (the repository's formatter) leaves it, Python as Black leaves it; values
 * that a language or Pulumi YAML would interpret, or that a reader cannot see, written as escapes;
 * the dependency on this package pinned to the version that wrote the program.
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { importProgram, NothingToImportError, type ProgramLanguage } from "../../provider/import";
import { ZONE_40 } from "../e2e/import-zone";

const run = promisify(execFile);
const repoRoot = path.join(__dirname, "..", "..");
const version = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }
).version;

/** A zone whose values hold what languages interpret and what readers cannot see. */
const HOSTILE = [
  "$ORIGIN example.com.",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation, on purpose
  '@ TXT "t=1 $${env} ${x} $$ $ \\"quoted\\" \'single\' back\\\\slash"',
  'bom TXT "a\\239\\187\\191b"', // U+FEFF between a and b
  'bidi TXT "x\\226\\128\\174y\\226\\129\\166z"', // U+202E, U+2066
  'nonchar TXT "n\\239\\191\\190n\\239\\183\\144"', // U+FFFE, U+FDD0
  'more TXT "\\"\\"\\"\'"', // more double quotes than single: Biome and Black pick single quotes
  // Past the line width: Biome breaks the property after its colon, Black and gofmt leave the line.
  `long TXT "${"a".repeat(101)}"`,
  `long TXT "${"a".repeat(102)}"`,
  `cjk TXT "${"漢".repeat(51)}"`,
  `cjk TXT "${"漢é\\204\\129".repeat(40)}"`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation, on purpose
  "go URLFWD https://example.org/$${a}?q=${b}",
  "",
].join("\n");

const sources = [
  { text: ZONE_40, file: "example.com.zone", templateId: "web" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation, on purpose
  { text: HOSTILE, file: "hostile$${x}.zone", templateId: "hostile-${x}" },
  {
    text: "$ORIGIN example.org.\nwww A 192.0.2.1\n",
    file: "long.zone",
    templateId: `long-${"x".repeat(90)}`,
  },
];
const files = (lang: ProgramLanguage) => importProgram(sources, lang).files;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function written(lang: ProgramLanguage): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `domainapi-import-${lang}-`));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files(lang))) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function onPath(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const BLACK_STRINGS = path.join(repoRoot, "test", "fixtures", "import-programs", "black_strings.py");

describe("each program as its tools see it", () => {
  it("Go: gofmt leaves main.go as written", async () => {
    const dir = written("go");
    const { stdout } = await run("gofmt", ["-l", dir]);
    expect(stdout).toBe("");
  }, 60_000);

  it("TypeScript: Biome, the repository's formatter, leaves index.ts as written", () => {
    const code = files("ts")["index.ts"] ?? "";
    const biome = path.join(repoRoot, "node_modules", ".bin", "biome");
    const formatted = execFileSync(biome, ["format", "--stdin-file-path=imported/index.ts"], {
      cwd: repoRoot,
      input: code,
      encoding: "utf8",
    });
    expect(formatted).toBe(code);
  }, 60_000);

  it("Python: quoted as Black quotes, and Black leaves it as written where Black is installed", async () => {
    const dir = written("python");
    const main = path.join(dir, "__main__.py");
    const { stdout } = await run("python3", [BLACK_STRINGS, main]);
    expect(stdout.trim()).toBe("");
    // Black is not on the CI image (no package index there): its style's value-dependent parts are checked above.
    if (onPath("black")) await run("black", ["--check", "--quiet", main]);
  }, 60_000);

  it("the checker of Black's quotes refuses what Black would change", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-black-"));
    dirs.push(dir);
    const file = path.join(dir, "x.py");
    fs.writeFileSync(file, "a = 'plain'\nb = \"\\\"\\\"'\"\nc = \"\\uFEFF\"\nd = 'it\\'s'\n");
    const { stdout } = await run("python3", [BLACK_STRINGS, file]);
    expect(stdout.trim().split("\n")).toEqual([
      "quotes: 'plain'",
      'quotes: "\\"\\"\'"',
      'upper-case hex: "\\uFEFF"',
      "quotes: 'it\\'s'",
    ]);
  }, 60_000);

  it("writes invisible characters as escapes, so a diff reads as the value", () => {
    for (const lang of ["ts", "yaml", "python", "go"] as ProgramLanguage[]) {
      const text = Object.values(files(lang)).join("\n");
      expect(text, lang).not.toMatch(/[\ufeff\u202e\u2066\ufffe\ufdd0]/u);
      for (const written of ["\\ufeff", "\\u202e", "\\u2066", "\\ufffe", "\\ufdd0"]) {
        expect(text, `${lang} ${written}`).toContain(written);
      }
    }
  });

  it("YAML: every $ doubled, which Pulumi YAML reads back as one", () => {
    const yaml = files("yaml")["Pulumi.yaml"] ?? "";
    expect(yaml).toContain('content: "t=1 $$$${env} $${x} $$$$ $$ \\"quoted\\" \'single\' back\\\\slash"');
    expect(yaml).toContain('templateId: "hostile-$${x}"');
    expect(yaml).toContain('content: "https://example.org/$$$${a}?q=$${b}"');
  });

  it("pins the dependency on this package to the version that wrote it, and says where it comes from", () => {
    const pkg = JSON.parse(files("ts")["package.json"] ?? "") as { dependencies: Record<string, string> };
    expect(pkg.dependencies["pulumi-domainapi"]).toBe(version);
    for (const lang of ["yaml", "python", "go"] as ProgramLanguage[]) {
      expect(files(lang)["Pulumi.yaml"], lang).toContain(
        `    - name: domainapi\n      path: ./node_modules/pulumi-domainapi\n      version: ${version}\n`,
      );
    }
    expect(files("python")["requirements.txt"]).toContain(
      `pulumi_domainapi @ git+https://github.com/pulumi-domainapi/pulumi-domainapi@v${version}#subdirectory=sdk/python\n`,
    );
    expect(files("go")["go.mod"]).toContain(`\tgithub.com/pulumi-domainapi/sdk/go/domainapi v${version}\n`);
  });

  it("writes no program for a template with nothing to import: it would empty the template", () => {
    const empty = {
      text: "$ORIGIN example.com.\n@ SOA ns. h. 1 2 3 4 5\n@ NS ns1.example.net.\n",
      file: "e.zone",
    };
    let thrown: unknown;
    try {
      importProgram([sources[0] as (typeof sources)[0], empty], "yaml");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NothingToImportError);
    expect((thrown as Error).message).toBe(
      'e.zone: no record of template "e" can be imported (2 skipped): its program would empty the template ' +
        "on the first `pulumi up` (purge: true), so none is written; the report below says why each record was skipped",
    );
    expect((thrown as NothingToImportError).report).toContain("the apex NS set is the DNS host's own");
  });
});
