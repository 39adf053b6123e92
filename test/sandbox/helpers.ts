/**
 * Kept only so that test/provider/settings-check.test.ts, which still imports this path, keeps
 * working: the sandbox's tests and their helpers live in the sandbox package (sandbox/test/).
 * Delete this file once that import reads "../../sandbox/test/helpers".
 */
export { API_KEY, useSandbox } from "../../sandbox/test/helpers";
