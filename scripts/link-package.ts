/**
 * Makes `<dir>/node_modules/pulumi-domainapi` a link to a checkout of this package, so that a
 * program under `dir`, and the engine's dynamic-provider plugin process it starts, resolve
 * `require("pulumi-domainapi/impl")` by name exactly as in a user's project. Shared by the e2e
 * harness, the benchmarks and scripts/run-program.ts, so that none replaces a link another made.
 *
 * The link is relative (a checkout can be moved with its links). Parallel test workers may make the
 * same link at once: an existing link to the same place is fine.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** This repository's root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The test-only engine-floor resource, linked beside the package where tests and benchmarks run. */
export const engineFloor = path.join(repoRoot, "test", "fixtures", "engine-floor");

/**
 * Links `<dir>/node_modules/<name>` to `target` and returns the link's path.
 *
 * @param dir the directory whose `node_modules` gets the link
 * @param target the checkout to link to (default: this repository)
 * @param name the package name the link stands for (default: pulumi-domainapi)
 * @example linkPackage(path.join(repoRoot, "examples"));
 * @example linkPackage(workRoot, engineFloor, "domainapi-engine-floor");
 */
export function linkPackage(dir: string, target: string = repoRoot, name = "pulumi-domainapi"): string {
  const modules = path.join(dir, "node_modules");
  const link = path.join(modules, name);
  fs.mkdirSync(modules, { recursive: true });
  const linksToTarget = (): boolean => fs.realpathSync(link) === fs.realpathSync(target);
  try {
    if (linksToTarget()) return link;
  } catch {
    // no link yet, or one whose checkout is gone
  }
  fs.rmSync(link, { force: true, recursive: true });
  try {
    fs.symlinkSync(path.relative(modules, target), link, "dir");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !linksToTarget()) throw err;
  }
  return link;
}
