/**
 * Every module-level Map, Set or WeakMap of `provider/` that can grow says what bounds it
 * (docs/design.md, "Clients"): a process that serves many accounts must not grow with the number
 * it has served. A collection filled once with constants (typed Readonly…) cannot grow and needs no
 * word. The rule is read from the code, so a new cache without its bound fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const PROVIDER = join(ROOT, "provider");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

interface Collection {
  file: string;
  line: number;
  text: string;
  comment: string;
}

/** Top-level `const|let x = new Map|Set|WeakMap(...)` that may grow, with the comment above it. */
function growableCollections(file: string): Collection[] {
  const source = readFileSync(file, "utf8");
  const lines = source.split("\n");
  const found: Collection[] = [];
  lines.forEach((text, i) => {
    const name = /^(?:export )?(?:const|let) (\w+)(?:: [^=]+)? = new (?:Map|Set|WeakMap)\b/.exec(text)?.[1];
    if (name === undefined) return;
    if (/: Readonly(Set|Map)</.test(text)) return;
    // Never added to after it is made: a constant, which cannot grow either.
    if (!new RegExp(`\\b${name}\\.(add|set)\\(`).test(source)) return;
    let j = i - 1;
    const comment: string[] = [];
    while (j >= 0 && /^\s*(\/\*\*|\*|\/\/|\*\/)/.test(lines[j] ?? "")) comment.unshift(lines[j--] ?? "");
    found.push({ file: relative(ROOT, file), line: i + 1, text, comment: comment.join("\n") });
  });
  return found;
}

describe("module-level collections of provider/", () => {
  const all = sources(PROVIDER).flatMap(growableCollections);

  it("are found (the scan reads the code)", () => {
    expect(all.map((c) => c.file)).toContain("provider/client/pool.ts");
  });

  it.each(all.map((c) => [`${c.file}:${c.line}`, c] as const))("%s says what bounds it", (_, c) => {
    expect(
      c.comment,
      `${c.file}:${c.line} ${c.text}\nneeds a comment with "Bound:" saying what bounds it`,
    ).toMatch(/Bound:/);
  });
});
