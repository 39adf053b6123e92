import { defineConfig } from "vitest/config";

/** Runs the pending conformance pairs, which the default config leaves out. */
export default defineConfig({
  test: { name: "conformance-pending", include: ["test/conformance/pending-*.test.ts"] },
});
