/**
 * The code cites only what a reader of the repository can open: no file under provider/, sandbox/,
 * scripts/, bench/ or docs/ (nor the tests) refers to a document kept outside it, every relative
 * Markdown link there resolves to a file of the repository, and every `docs/design.md, "Section"`
 * citation names a section that docs/design.md has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..", "..");
const TREES = ["provider", "sandbox", "scripts", "bench", "docs", "test"];
const SKIP = new Set(["node_modules", "dist", ".tsbuildinfo"]);
const TEXT = /\.(ts|mts|js|cjs|mjs|md|json|sh|ya?ml|go|py|txt)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || name.startsWith(".")) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return TEXT.test(name) ? [path] : [];
  });
}

const FILES = TREES.flatMap((tree) => filesUnder(join(ROOT, tree)));

/**
 * Documents that live beside the repository, not in it: the notes the project was planned from
 * and the API specification's file. This test names them, so it is the one file allowed to.
 */
const OUTSIDE = [
  /\bDECISIONS(\.md)?\b/,
  /\bARCHITECTURE\.md\b/,
  /\bspec\/000_[0-9a-f]+\.txt\b/,
  /\/work\/shared\//,
];

const SELF = relative(ROOT, __filename);

describe("citations stay inside the repository", () => {
  it("scans the trees it guards", () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.map((f) => relative(ROOT, f))).toContain("docs/design.md");
  });

  it("no file cites a document outside the repository", () => {
    const found: string[] = [];
    for (const file of FILES) {
      const path = relative(ROOT, file);
      if (path === SELF) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const pattern of OUTSIDE)
            if (pattern.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("every relative link of a Markdown file resolves to a file of the repository", () => {
    const broken: string[] = [];
    for (const file of [...FILES.filter((f) => f.endsWith(".md")), join(ROOT, "README.md")]) {
      // Code is not a link: fenced blocks and inline code spans (a regex such as `[ \t](.*)`) are left out.
      const text = readFileSync(file, "utf8")
        .replace(/```[\s\S]*?```/g, "")
        .replace(/`[^`\n]+`/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^([a-z]+:|#|mailto:)/i.test(target)) continue;
        const path = resolve(dirname(file), decodeURIComponent(target.replace(/#.*$/, "")));
        const inside = !relative(ROOT, path).startsWith("..");
        if (!inside || !existsSync(path)) broken.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every `docs/design.md, "Section"` citation names a section of docs/design.md', () => {
    const sections = new Set(
      [...readFileSync(join(ROOT, "docs/design.md"), "utf8").matchAll(/^##+ (.+)$/gm)].map((m) => m[1]),
    );
    const cited: string[] = [];
    const missing: string[] = [];
    for (const file of FILES) {
      if (relative(ROOT, file) === SELF) continue;
      const text = readFileSync(file, "utf8").replace(/\n\s*(\*|\/\/|#)?\s*/g, " ");
      for (const [, section] of text.matchAll(/docs\/design\.md,? \\?"([^"\\]+)\\?"/g)) {
        cited.push(section!);
        if (!sections.has(section)) missing.push(`${relative(ROOT, file)}: "${section}"`);
      }
    }
    expect(cited.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
