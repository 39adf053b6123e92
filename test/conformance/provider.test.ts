/**
 * The provider against every sandbox personality: the cases of cases.ts that pass today. The
 * pairs listed in pending.ts fail until the provider handles that answer; they run from
 * pending-provider.test.ts, outside the default include (see test/conformance/README.md).
 */
import { defineConformance, pairName } from "./cases";
import { PENDING } from "./pending";

defineConformance((personality, testCase) => !PENDING.has(pairName(personality, testCase)));
