/**
 * The package under test, loaded by name as a user's program loads it: from a work root whose
 * `node_modules/pulumi-domainapi` links to this checkout (the engine's plugin process resolves
 * `pulumi-domainapi/impl` the same way). Benchmarks use only the public entry points and bins.
 */
import type * as Automation from "@pulumi/pulumi/automation/index.js";
import type * as DomainApi from "pulumi-domainapi";
import { consumerRequire as load, consumerRoot as workRoot } from "../../scripts/lib/consumer.ts";
import { engineFloor, linkPackage, repoRoot } from "../../scripts/link-package.ts";

export { repoRoot, workRoot };

linkPackage(workRoot, engineFloor, "domainapi-engine-floor");

/** The public API: `require("pulumi-domainapi")`. */
export const domainapi = load("pulumi-domainapi") as typeof DomainApi;

/** The Automation API of the same `@pulumi/pulumi` instance the package uses. */
export const automation = load("@pulumi/pulumi/automation") as typeof Automation;

/** Constructor of the test-only resource that does nothing: what the engine alone costs. */
export type EngineFloorClass = new (name: string, args: Record<string, unknown>) => unknown;

/** The engine floor (test/fixtures/engine-floor), loaded by name like the package. */
export const EngineFloor = (load("domainapi-engine-floor") as { EngineFloor: EngineFloorClass }).EngineFloor;

/** The API key every benchmark's sandbox accepts. */
export const API_KEY = "bench-key-5e1f";

/**
 * Runs `work` with the provider's log lines silenced: outside the engine they go to the console,
 * and they are not results.
 */
export async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const { log, warn, error, info } = console;
  const silent = (): void => undefined;
  Object.assign(console, { log: silent, warn: silent, error: silent, info: silent });
  try {
    return await work();
  } finally {
    Object.assign(console, { log, warn, error, info });
  }
}
