// The tests mutation testing runs (stryker.config.json): the fast projects of vitest.config.mts,
// never the end-to-end one (a mutant of provider/ would start the Pulumi engine).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Stryker's mutant in force before a test file imports provider/: see test/mutation-setup.ts.
const setupFiles = ["test/mutation-setup.ts"];

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^domainapi-sandbox$/,
        replacement: fileURLToPath(new URL("./sandbox/src/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    // Instrumented code runs slower than the code itself.
    testTimeout: 30_000,
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], setupFiles } },
      {
        test: {
          name: "sandbox",
          include: ["test/provider/**/*.test.ts", "test/conformance/**/!(pending-)*.test.ts"],
          setupFiles,
        },
      },
    ],
  },
});
