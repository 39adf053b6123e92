/**
 * The modules of provider/ import one another without a circle (docs: imports point down the
 * layers): a circle makes the order of loading decide what a module sees, and hides which one
 * depends on which. Type-only imports count too, since they tie the modules as much for a reader.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const PROVIDER = path.resolve(__dirname, "..", "..", "provider");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith(".ts") ? [file] : [];
  });
}

/** The provider modules a file imports (relative specifiers, resolved as TypeScript resolves them). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const base = path.resolve(path.dirname(file), fileName.replace(/\.(ts|js)$/, ""));
    return [`${base}.ts`, path.join(base, "index.ts")].filter((f) => fs.existsSync(f)).slice(0, 1);
  });
}

/** Every circle of the graph, each as the path that closes it (`a.ts -> b.ts -> a.ts`). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      found.push([...onPath.slice(at), file].map((f) => path.relative(PROVIDER, f)).join(" -> "));
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

it("no module of provider/ imports itself through others", () => {
  const files = sources(PROVIDER);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  expect(files.length).toBeGreaterThan(50);
  expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
  expect(circles(graph)).toEqual([]);
});
