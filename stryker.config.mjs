// Mutation testing of provider/ (docs/development.md, "Mutation testing"):
// `npm run mutate` (all of provider/), `npm run mutate -- --mutate 'provider/checks/**'` (a folder).
// The incremental report is committed: a run re-tests only the mutants of changed code or tests.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  // The fast projects only (vitest.mutation.config.mts); `related` runs the tests that import a file.
  vitest: { configFile: "vitest.mutation.config.mts", related: true },
  // A mutant that does not type-check is no bug a user could ship: the checker discards it.
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.mutation.json",
  // `// @ts-nocheck` atop the mutated modules only: the templates' programs are read as text by tests.
  disableTypeChecks: "provider/**/*.ts",
  coverageAnalysis: "perTest",
  // Generated files (plugin/schema.json) are not TypeScript and so not mutated.
  mutate: ["provider/**/*.ts", "!provider/**/*.d.ts"],
  ignorePatterns: ["test/.work", "bench/.work", "bench/results", ".stryker-tmp"],
  incremental: true,
  incrementalFile: "bench/results/mutation/stryker-incremental.json",
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "test/.work/mutation/report.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // Two type checkers and two test runners: the tests wait on timers and loopback more than they compute.
  concurrency: 4,
  // Added to 1.5 times a test's own time from the dry run: room for a loaded machine, while a mutant
  // that loops forever (it counts as detected) costs 15 s, not a minute.
  timeoutMS: 15_000,
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
