/**
 * CPU profiles: of this process (the Pulumi program of an inline stack runs here) through the
 * inspector, and of the engine's plugin processes through `--cpu-prof` in their environment.
 */
import * as fs from "node:fs";
import { Session } from "node:inspector/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** Runs `work` under the V8 profiler of this process and writes the profile to `file`. */
export async function withCpuProfile<T>(file: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/** Environment that makes every Node plugin process the engine starts write a profile to `dir`. */
export function pluginProfileEnv(dir: string): Record<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  const hook = path.join(path.dirname(fileURLToPath(import.meta.url)), "exit-on-signal.ts");
  return { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --import=${hook}` };
}
