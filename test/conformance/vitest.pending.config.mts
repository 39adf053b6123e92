import { defineConfig } from "vitest/config";
import root from "../../vitest.config.mjs";

/** Runs the pending conformance pairs, which the default config leaves out (against the sandbox's source, as the default config does). */
export default defineConfig({
  resolve: root.resolve,
  test: { name: "conformance-pending", include: ["test/conformance/pending-*.test.ts"] },
});
