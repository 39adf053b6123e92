/**
 * Mutation runs only (vitest.mutation.config.mts): activates Stryker's mutant before any test file
 * imports provider/, so that a mutant of module-level code (a constant, a pattern) is in force when
 * the module is evaluated. Stryker's own setup activates it in `beforeAll` when it filters tests
 * (`--testFiles`), after the imports: such "static" mutants were counted as survivors though the
 * tests fail on them.
 */
import { inject } from "vitest";

// Stryker provides these keys to the workers; they are not in vitest's ProvidedContext type.
const provided = inject as unknown as (key: string) => unknown;
if (provided("mode") === "mutant") {
  const name = String(provided("globalNamespace"));
  const scope = globalThis as unknown as Record<string, { activeMutant?: unknown } | undefined>;
  const ns = scope[name] ?? {};
  scope[name] = ns;
  ns.activeMutant = provided("activeMutant");
}
