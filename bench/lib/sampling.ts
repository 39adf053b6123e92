/**
 * Peak memory of the engine's plugin processes (the dynamic-provider host by default, or any
 * provider plugin named by its command line), sampled from /proc. Only the processes whose
 * environment names the benchmark's own state backend are counted, so other Pulumi runs on the
 * machine are not.
 */
import * as fs from "node:fs";

/** The plugin processes started for `backendDir` whose command line holds `match`, by pid. */
export function providerProcesses(backendDir: string, match = "dynamic-provider"): string[] {
  const pids: string[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(match)) continue;
      const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.includes(`file://${backendDir}`)) pids.push(entry);
    } catch {
      // the process ended meanwhile, or is not ours to read
    }
  }
  return pids;
}

/** What {@link withPeakMemory} measured. */
export interface Sampled<T> {
  readonly result: T;
  /** The largest VmHWM (KiB) of any plugin process seen. */
  readonly peakKib: number;
  /** CPU milliseconds of the plugin processes seen, at their last sample (up to 50 ms short of their end). */
  readonly pluginCpuMs: number;
}

/** User and system CPU (ms) of process `pid` so far, from `/proc/<pid>/stat` (clock ticks of 1/100 s). */
function processCpuMs(pid: string): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Samples the peak resident set (VmHWM) and the CPU time of the plugin processes every 50 ms while
 * `work` runs.
 *
 * @param match what the plugin's command line holds (default: the dynamic-provider host)
 */
export async function withPeakMemory<T>(
  backendDir: string,
  work: () => Promise<T>,
  match?: string,
): Promise<Sampled<T>> {
  let peakKib = 0;
  const cpuByPid = new Map<string, number>();
  const sample = (): void => {
    for (const pid of providerProcesses(backendDir, match)) {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKib = Math.max(peakKib, Number(hwm[1]));
        cpuByPid.set(pid, processCpuMs(pid));
      } catch {
        // ended between listing and reading
      }
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    const pluginCpuMs = [...cpuByPid.values()].reduce((a, b) => a + b, 0);
    return { result, peakKib, pluginCpuMs };
  } finally {
    clearInterval(timer);
  }
}

/**
 * CPU time (ms) of the child processes this process has waited for, and of theirs: the Pulumi CLI
 * that the Automation API runs, with the engine and the plugin processes it waits for. Linux only
 * (`/proc/self/stat`, clock ticks of 1/100 s).
 */
export function childrenCpuMs(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces): state is the 3rd field; cutime and
  // cstime are the 16th and 17th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
