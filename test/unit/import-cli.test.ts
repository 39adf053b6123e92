/**
 * The `domainapi-import` command (provider/cli/import.ts) as scripts and CI call it: the files it
 * writes per language, the template id from `--template` or the file name, the summary it prints,
 * and exit 2 with file, line and what was expected when the input cannot be read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ZONE_40 } from "../e2e/import-zone";
import { run, useTempDirs } from "./importCliRun";

const tempDir = useTempDirs("domainapi-import-cli-");

describe("domainapi-import", () => {
  it("writes each language's files and import-report.md, exit 0, and sums up on the terminal", async () => {
    const dir = tempDir();
    const zone = path.join(dir, "example.com.zone");
    fs.writeFileSync(zone, ZONE_40);
    const expected: Record<string, string[]> = {
      ts: ["Pulumi.yaml", "import-report.md", "index.ts", "package.json"],
      yaml: ["Pulumi.yaml", "import-report.md"],
      python: ["Pulumi.yaml", "__main__.py", "import-report.md", "requirements.txt"],
      go: ["Pulumi.yaml", "go.mod", "import-report.md", "main.go"],
    };
    for (const [lang, files] of Object.entries(expected)) {
      const out = path.join(dir, lang);
      const result = await run([zone, "--lang", lang, "--out", out]);
      expect(result.code, result.stderr).toBe(0);
      expect(fs.readdirSync(out).sort()).toEqual(files);
      expect(result.stdout).toContain(
        `example.com (${zone}, domain example.com.): 40 records, 8 skipped, 21 changes, 4 TTLs dropped`,
      );
    }
    const ts = fs.readFileSync(path.join(dir, "ts", "index.ts"), "utf8");
    expect(ts).toContain('templateId: "example.com"');
    expect(
      JSON.parse(fs.readFileSync(path.join(dir, "ts", "package.json"), "utf8")).dependencies[
        "pulumi-domainapi"
      ],
    ).toBe(JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")).version);
  });

  it("takes one --template per file, in order, and --origin for dig output", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.zone");
    const b = path.join(dir, "b.txt");
    // Both of one domain: one --origin serves several files only where each agrees with it.
    fs.writeFileSync(a, "$ORIGIN b.example.\nwww A 192.0.2.1\n");
    fs.writeFileSync(b, "b.example.\t300\tIN\tA\t192.0.2.2\n");
    const result = await run([
      a,
      b,
      "--template",
      "tpl-a",
      "--template",
      "tpl-b",
      "--origin",
      "b.example",
      "--lang",
      "yaml",
      "--out",
      path.join(dir, "out"),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const yaml = fs.readFileSync(path.join(dir, "out", "Pulumi.yaml"), "utf8");
    expect(yaml).toContain('templateId: "tpl-a"');
    expect(yaml).toContain('templateId: "tpl-b"');
  });

  it("exits 2 naming file, line and what was expected", async () => {
    const dir = tempDir();
    const bad = path.join(dir, "bad.zone");
    fs.writeFileSync(bad, '$ORIGIN example.com.\nok A 192.0.2.1\nt TXT "no end\n');
    const out = path.join(dir, "out");
    const result = await run([bad, "--out", out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `domainapi-import: ${bad}:3: expected a closing quote (") before the end of the line\n`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it("exits 2 for a missing file, wrong arguments, and a zone without a domain", async () => {
    const dir = tempDir();
    expect((await run([path.join(dir, "none.zone")])).stderr).toContain("none.zone: no such file");
    expect((await run([])).code).toBe(2);
    const zone = path.join(dir, "z.zone");
    fs.writeFileSync(zone, "www.example.com. A 192.0.2.1\n");
    expect(await run([zone, "--lang", "rust"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--lang rust is not one of ts, yaml, python, go"),
    });
    expect(await run([zone, "--template", "a", "--template", "b"])).toMatchObject({ code: 2 });
    expect(await run([zone, "--out", path.join(dir, "out")])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("give --origin <domain>"),
    });
    expect(await run([zone, "--bogus"])).toMatchObject({ code: 2 });
  });
});
