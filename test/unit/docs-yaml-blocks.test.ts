/**
 * Every ```yaml block of the README and of docs/*.md parses as YAML (with the `yaml` package, the
 * YAML 1.2 parser), so a reader who copies one into Pulumi.yaml gets no syntax error. A block
 * that shows a fragment still has to be well-formed on its own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";

const repoRoot = path.resolve(__dirname, "..", "..");
const files = [
  path.join(repoRoot, "README.md"),
  ...fs
    .readdirSync(path.join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join(repoRoot, "docs", f)),
];

/** The ```yaml blocks of a Markdown file, each with where it starts (`docs/plugin.md:42`). */
function yamlBlocks(file: string): { where: string; text: string }[] {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const blocks: { where: string; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```(yaml|yml)\s*$/.test(lines[i] ?? "")) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? "")) end++;
    blocks.push({
      where: `${path.relative(repoRoot, file)}:${start}`,
      text: lines.slice(start, end).join("\n"),
    });
    i = end;
  }
  return blocks;
}

const blocks = files.flatMap(yamlBlocks);

describe("YAML blocks of the README and docs", () => {
  it("there are some (docs/plugin.md shows Pulumi YAML programs)", () => {
    expect(blocks.length).toBeGreaterThan(1);
  });

  it.each(blocks.map((b) => [b.where, b.text] as const))("%s parses", (_where, text) => {
    const doc = parseDocument(text, { prettyErrors: true });
    expect(doc.errors.map((e) => e.message)).toEqual([]);
  });
});
