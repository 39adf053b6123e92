/**
 * The package boundary: the sandbox implements the spec on its own terms, so it imports nothing
 * of the provider (nor of anything outside its own src/) and depends only on what its
 * package.json declares. Its build enforces the first too (rootDir); this names the offender.
 * The other way, the provider never imports the sandbox: its package does not ship it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const PACKAGE = join(__dirname, "..");
const SOURCE = join(PACKAGE, "src");
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
};

/** Every module specifier of a TypeScript source: static and dynamic imports, re-exports, require. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [
    /^(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/gm,
    /^import\s*["']([^"']+)["']/gm,
    /\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g,
  ]) {
    for (const match of text.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

describe("the sandbox package", () => {
  const files = readdirSync(SOURCE).filter((file) => file.endsWith(".ts"));

  it("imports only its own modules, Node's and its declared dependencies", () => {
    const allowed = new Set([...Object.keys(manifest.dependencies ?? {}), ...builtinModules]);
    const outside = files.flatMap((file) =>
      specifiers(readFileSync(join(SOURCE, file), "utf8"))
        .filter((spec) =>
          spec.startsWith(".") ? !/^\.\/[^/]+$/.test(spec) : !spec.startsWith("node:") && !allowed.has(spec),
        )
        .map((spec) => `${file}: ${spec}`),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  it("depends on no provider package", () => {
    // zod for its schemas, dns-packet for the DNS server's wire format: neither is the provider's.
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["dns-packet", "zod"]);
  });

  it("is not imported by the provider, whose package does not ship it", () => {
    const provider = join(PACKAGE, "..", "provider");
    const files = readdirSync(provider, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    expect(files.length).toBeGreaterThan(10);
    const importers = files.filter((file) =>
      specifiers(readFileSync(join(provider, file), "utf8")).some(
        (spec) =>
          spec === "domainapi-sandbox" ||
          spec.startsWith("domainapi-sandbox/") ||
          spec.includes("sandbox/src"),
      ),
    );
    expect(importers).toEqual([]);
  });
});
