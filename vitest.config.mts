import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        test: {
          name: "sandbox",
          include: ["test/sandbox/**/*.test.ts", "test/client/**/*.test.ts", "test/provider/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // The Pulumi runtime keeps process-wide state: one stack operation at a time per worker.
          pool: "forks",
          maxWorkers: 2,
        },
      },
    ],
  },
});
