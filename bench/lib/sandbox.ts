/** The sandbox for the benchmarks: the scripts' one module that names it. */
export {
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  startSandboxProcess,
  stopSandboxProcess,
} from "../../scripts/lib/sandbox.ts";
