/**
 * The house keeps its layout (docs/development.md, "Layout"): every room of provider/ (a folder,
 * or a file at its root) stands on a floor, and an import only ever goes down to a lower floor or
 * stays inside its room. An import that runs back up, or two rooms of one floor that import each
 * other, fail here with the file, the import and the floors, so a change that blurs the layout is
 * seen in review rather than found later by a reader lost in a circle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..", "..");
const PROVIDER = join(ROOT, "provider");

/**
 * The floors, from the ground up: a room may import any room of a lower floor. Kept in step with
 * docs/development.md's table (the test below checks that each room is named there).
 */
const FLOORS: readonly (readonly string[])[] = [
  ["values.ts", "manifest.ts", "log.ts", "propertyDiff.ts", "errors"],
  ["settings"],
  ["client"],
  ["dns", "host"],
  ["checks", "contacts", "restore"],
  ["records", "import", "schema"],
  ["operations.ts", "cli"],
  ["dynamic", "plugin"],
  ["index.ts"],
];

const FLOOR_OF = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The room of a file of provider/: its first path segment under provider/. */
function roomOf(file: string): string {
  return relative(PROVIDER, file).split("/")[0] ?? "";
}

/** The relative module specifiers a source file imports, re-exports, requires or loads. */
function relativeImports(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g);
  return [...found].map((match) => match[1] ?? "");
}

interface Arrow {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

const ARROWS: Arrow[] = sourcesUnder(PROVIDER).flatMap((file) =>
  relativeImports(readFileSync(file, "utf8")).flatMap((specifier) => {
    const target = resolve(dirname(file), specifier);
    if (!target.startsWith(`${PROVIDER}/`)) return [];
    const module = existsSync(target) || target.endsWith(".ts") ? target : `${target}.ts`;
    const [from, to] = [roomOf(file), roomOf(module)];
    return from === to ? [] : [{ file: relative(ROOT, file), specifier, from, to }];
  }),
);

describe("the layout of provider/", () => {
  it("reads imports at all (the parser is not blind)", () => {
    expect(ARROWS.length).toBeGreaterThan(50);
    expect(ARROWS).toContainEqual(expect.objectContaining({ from: "records", to: "dns" }));
  });

  it("places every room on a floor", () => {
    const rooms = readdirSync(PROVIDER).filter((name) => name.endsWith(".ts") || !name.includes("."));
    expect(rooms.filter((room) => !FLOOR_OF.has(room))).toEqual([]);
  });

  it("has no import that runs back up or sideways between two rooms", () => {
    const upward = ARROWS.filter(
      ({ from, to }) => (FLOOR_OF.get(to) ?? Number.POSITIVE_INFINITY) >= (FLOOR_OF.get(from) ?? -1),
    ).map(
      ({ file, specifier, from, to }) =>
        `${file} imports ${specifier}: ${from} (floor ${FLOOR_OF.get(from)}) -> ${to} (floor ${FLOOR_OF.get(to)})`,
    );
    expect(upward).toEqual([]);
  });

  it("names every room in docs/development.md's layout", () => {
    const docs = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
    const layout = docs.slice(
      docs.indexOf("## Layout"),
      docs.indexOf("\n## ", docs.indexOf("## Layout") + 3),
    );
    const missing = [...FLOOR_OF.keys()].filter((room) => !layout.includes(`\`${room}`));
    expect(missing).toEqual([]);
  });
});
