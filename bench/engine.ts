/**
 * The engine at scale: `pulumi up` (create), `preview` (no change) and `destroy` of stacks of `n`
 * DnsTemplateRecords (10 records each) against `n` EngineFloor resources with the same inputs (a
 * dynamic resource that does nothing, through the same require-by-name shim: what the engine alone
 * costs), side by side at each size; the time per resource above the floor, and whether it grows
 * with the stack. Also the state each resource writes and the plugin process's peak memory.
 *
 * The package runs as installed from its tarball (bench/lib/package.ts), so the state holds what
 * users' states hold: checked below, since a linked checkout would store ~2 KB of functions' text
 * per resource, twice, and the figures would measure something no user gets.
 */
import { performance } from "node:perf_hooks";
import { API_KEY } from "./lib/package.ts";
import { kib, median, mib, ms, ratio, type Section, section } from "./lib/report.ts";
import { childrenCpuMs, withPeakMemory } from "./lib/sampling.ts";
import { startSandbox } from "./lib/sandbox.ts";
import {
  type BenchStack,
  createStack,
  exportedResources,
  floorProgram,
  newBackend,
  recordsProgram,
  removeStacks,
  templateOf,
} from "./lib/stacks.ts";

const RECORDS_PER_RESOURCE = 10;
const OPS = ["up", "preview", "destroy"] as const;
type Op = (typeof OPS)[number];
type Kind = "floor" | "records";

/** What one size measured. */
interface SizeResult {
  readonly n: number;
  readonly rounds: number;
  /** Milliseconds per run, by kind and operation. */
  readonly times: Record<Kind, Record<Op, number[]>>;
  /** CPU milliseconds of the CLI, the engine and the plugin per run, by kind and operation. */
  readonly cpu: Record<Kind, Record<Op, number[]>>;
  /** Largest plugin VmHWM (KiB) seen during each kind's runs. */
  readonly peakKib: Record<Kind, number>;
  /** State bytes per resource and of the serialized provider, after an up. */
  readonly state: Record<Kind, { perResource: number; provider: number }>;
}

/** Runs `op` on `s` and checks that it did what a benchmark of it assumes. */
async function run(s: BenchStack, op: Op, n: number): Promise<void> {
  if (op === "up") {
    const up = await s.stack.up();
    if (up.summary.result !== "succeeded") throw new Error(`${s.name}: up ${up.summary.result}`);
  } else if (op === "preview") {
    const preview = await s.stack.preview();
    const same = preview.changeSummary.same ?? 0;
    const changes = Object.entries(preview.changeSummary).filter(([k, v]) => k !== "same" && (v ?? 0) > 0);
    // The stack resource itself is one of the unchanged.
    if (changes.length > 0 || same < n) {
      throw new Error(`${s.name}: a preview without change planned ${JSON.stringify(preview.changeSummary)}`);
    }
  } else {
    const destroy = await s.stack.destroy();
    if (destroy.summary.result !== "succeeded")
      throw new Error(`${s.name}: destroy ${destroy.summary.result}`);
  }
}

/**
 * What a user's state stores as DnsTemplateRecords' provider, the package being installed in the
 * program's node_modules: a `require` of its provider module by name (a few hundred bytes), not the
 * text of its functions (about 2 KB, what a linked checkout gets). Anything else means the
 * benchmark does not measure what users get.
 */
const STORED_AS_REQUIRE = /require\("pulumi-domainapi\/dynamic\/records"\)/;
const MAX_REQUIRE_BYTES = 512;

/** The state bytes per resource of `type`, and of its stored provider (`__provider`). */
async function stateOf(s: BenchStack, type: string): Promise<{ perResource: number; provider: number }> {
  const resources = (await exportedResources(s)).filter(
    (r) => r.type === `pulumi-nodejs:dynamic/domainapi:${type}`,
  );
  const bytes = resources.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
  const inputs = resources[0]?.inputs as { __provider?: unknown } | undefined;
  const provider = String(inputs?.__provider ?? "");
  if (type === "DnsTemplateRecords") {
    const stored = Buffer.byteLength(provider);
    if (!STORED_AS_REQUIRE.test(provider) || stored > MAX_REQUIRE_BYTES) {
      throw new Error(
        `${s.name}: the state stores the provider as ${stored} B of code, not a require of ` +
          `pulumi-domainapi/dynamic/records (is the package linked rather than installed?):\n${provider.slice(0, 400)}`,
      );
    }
  }
  return { perResource: bytes / resources.length, provider: Buffer.byteLength(provider) };
}

/** Measures one stack size: `rounds` rounds of up, preview and destroy, floor and records alternating. */
async function measureSize(n: number, rounds: number): Promise<SizeResult> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < n; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = newBackend();
  const stacks: BenchStack[] = [];
  const times = {
    floor: { up: [], preview: [], destroy: [] },
    records: { up: [], preview: [], destroy: [] },
  } as Record<Kind, Record<Op, number[]>>;
  const cpu = {
    floor: { up: [], preview: [], destroy: [] },
    records: { up: [], preview: [], destroy: [] },
  } as Record<Kind, Record<Op, number[]>>;
  const peakKib: Record<Kind, number> = { floor: 0, records: 0 };
  const state = {} as SizeResult["state"];
  try {
    const records = await createStack(`records-${n}`, recordsProgram(n), backendDir, {
      config: {
        "domainapi:baseUrl": { value: sandbox.url },
        "domainapi:apiKey": { value: API_KEY, secret: true },
      },
    });
    const floor = await createStack(`floor-${n}`, floorProgram(n), backendDir);
    stacks.push(records, floor);
    const byKind: Record<Kind, BenchStack> = { floor, records };
    for (let round = 0; round < rounds; round++) {
      // Which goes first alternates, so that a machine getting busier does not favour one.
      const order: Kind[] = round % 2 === 0 ? ["floor", "records"] : ["records", "floor"];
      for (const op of OPS) {
        for (const kind of order) {
          const c0 = childrenCpuMs();
          const { result, peakKib: peak } = await withPeakMemory(backendDir, async () => {
            const t0 = performance.now();
            await run(byKind[kind], op, n);
            return performance.now() - t0;
          });
          times[kind][op].push(result);
          cpu[kind][op].push(childrenCpuMs() - c0);
          peakKib[kind] = Math.max(peakKib[kind], peak);
          console.error(`  ${n} ${kind} ${op}: ${ms(result)}`);
          if (op === "up" && round === 0) {
            state[kind] = await stateOf(
              byKind[kind],
              kind === "floor" ? "EngineFloor" : "DnsTemplateRecords",
            );
          }
        }
      }
    }
    const puts = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
    if (puts !== n * rounds) throw new Error(`expected ${n * rounds} PUTs, saw ${puts}`);
    return { n, rounds, times, cpu, peakKib, state };
  } finally {
    await removeStacks(stacks, backendDir);
    await sandbox.close();
  }
}

/** Runs the engine benchmark at each size (ascending) and reports it as sections 3 and 4. */
export async function benchEngine(sizes: readonly number[] = [100, 1_000]): Promise<Section[]> {
  const results: SizeResult[] = [];
  for (const n of [...sizes].sort((a, b) => a - b)) {
    results.push(await measureSize(n, n <= 100 ? 2 : 1));
  }
  const smallest = results[0];
  const rows: string[][] = [];
  for (const r of results) {
    for (const op of OPS) {
      const floorMs = median(r.times.floor[op]);
      const recordsMs = median(r.times.records[op]);
      const above = (recordsMs - floorMs) / r.n;
      const base =
        smallest && smallest !== r
          ? (median(smallest.times.records[op]) - median(smallest.times.floor[op])) / smallest.n
          : undefined;
      rows.push([
        r.n.toLocaleString("en-US"),
        op,
        ms(floorMs),
        ms(recordsMs),
        ratio(recordsMs / floorMs),
        `${above.toFixed(1)} ms`,
        base === undefined ? "" : ratio(above / base),
        `${r.rounds}`,
        `${(median(r.cpu.floor[op]) / 1000).toFixed(1)} s / ${(median(r.cpu.records[op]) / 1000).toFixed(1)} s`,
      ]);
    }
  }
  const engine = section(
    4,
    `pulumi up, preview and destroy: n DnsTemplateRecords x ${RECORDS_PER_RESOURCE} records vs n EngineFloor`,
    "Each operation on the whole stack: up creates it, preview finds nothing to change, destroy deletes it. " +
      "EngineFloor echoes the same inputs and makes no request. Median of the rounds (2 at 100, 1 at " +
      `1,000), floor and records alternating. "Growth" is the time per resource above the floor against ` +
      `that at ${smallest?.n.toLocaleString("en-US") ?? "the smallest size"} (1.00x: it does not grow with the stack). ` +
      "CPU: of the Pulumi CLI and the processes it waits for (engine, plugin), median, from /proc/self/stat.",
    [
      "resources",
      "operation",
      "floor",
      "DnsTemplateRecords",
      "ratio to floor",
      "above floor per resource",
      "growth",
      "rounds",
      "CPU of CLI, engine, plugin: floor / ours",
    ],
    rows,
  );
  const stateRows: string[][] = [];
  for (const r of results) {
    for (const kind of ["floor", "records"] as const) {
      const s = r.state[kind];
      stateRows.push([
        r.n.toLocaleString("en-US"),
        kind === "floor" ? "EngineFloor" : "DnsTemplateRecords",
        `${s.provider} B`,
        kib(s.perResource),
        ratio(s.perResource / r.state.floor.perResource),
        mib(r.peakKib[kind]),
        kind === "floor" ? "" : `+${mib(r.peakKib.records - r.peakKib.floor)}`,
      ]);
    }
  }
  const state = section(
    3,
    "State per resource and plugin memory",
    `From \`pulumi stack export\` after the up (${RECORDS_PER_RESOURCE} records per resource); the serialized ` +
      "provider (`__provider`) is stored in the inputs and the outputs. The package is installed from its " +
      "tarball in the programs' node_modules, as users have it, so its provider is stored as a `require` of " +
      "its module (checked); the engine floor is linked, and stores its functions' text. Peak memory: the largest VmHWM of the " +
      "dynamic-provider plugin process over the up, preview and destroy, sampled every 50 ms.",
    [
      "resources",
      "resource",
      "__provider",
      "state per resource",
      "ratio to floor",
      "plugin peak RSS",
      "above floor",
    ],
    stateRows,
  );
  return [state, engine];
}
