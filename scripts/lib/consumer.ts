/**
 * The package as a user's project has it: `require` from a directory whose
 * `node_modules/pulumi-domainapi` links to this checkout, and the package's bins by the names its
 * package.json gives them. Scripts and benchmarks reach the package only this way, never by a path
 * into its build output.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { linkPackage, repoRoot } from "../link-package.ts";

/** A directory that resolves the package through a link, as a user's project does. */
export const consumerRoot = path.join(repoRoot, "test", ".work");
linkPackage(consumerRoot);

/** `require` as a program under {@link consumerRoot} has it. */
export const consumerRequire = createRequire(path.join(consumerRoot, "program.js"));

/**
 * The file of bin `bin` of package `pkg`, as its package.json declares it (what `npx bin` runs).
 *
 * @example binPath("pulumi-domainapi", "domainapi-plan")
 */
export function binPath(pkg: string, bin: string): string {
  const manifestFile = consumerRequire.resolve(`${pkg}/package.json`);
  const manifest = consumerRequire(manifestFile) as { bin?: string | Record<string, string> };
  const file = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin];
  if (file === undefined) throw new Error(`${pkg} declares no bin ${bin}`);
  return path.join(path.dirname(manifestFile), file);
}
