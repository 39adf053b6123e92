/**
 * The provider's four ways to the engine, side by side in one run: `pulumi up` (a create) and then
 * `pulumi preview` (nothing to change) of n templates of 10 records through each, at every size in
 * one run, the plugin process's peak memory over both, and the state each leaves per resource. The
 * same Node inline program shape drives all four, so only the provider differs:
 *
 * - floor: test/fixtures/engine-floor, a dynamic resource that echoes its inputs (the engine alone);
 * - dynamic: the package's `DnsTemplateRecords` (the dynamic-provider host, `__provider` stored);
 * - npm plugin: `domainapi:index:DnsTemplateRecords` through `pulumi-resource-domainapi` of the
 *   installed package (the launcher and the user's Node, found through `plugins.providers`);
 * - binary: the same through the release binary (dist/plugin, `npm run dist`) installed with
 *   `pulumi plugin install --file` into a PULUMI_HOME of its own.
 *
 * Rounds interleave the sizes and, within a size, the four ways, each round led by another way, so
 * that the machine's load falls on all of them alike. Every up creates a fresh stack (no destroy in
 * between: at 1,000 a destroy costs as much as the up). The results file is rewritten after every
 * round, so a run stopped early leaves what it measured, saying so.
 *
 * Also the start of each plugin on its own: from exec to the port on its first line (what the
 * engine waits for), and its resident memory then, the two plugins' starts alternating.
 *
 *   npm run build && npm run dist && bash scripts/with-pulumi.sh node bench/plugin.ts --sizes 100,1000
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { isDeepStrictEqual, parseArgs } from "node:util";
import type { ConfigMap, PulumiFn } from "@pulumi/pulumi/automation/index.js";
import { DYNAMIC_TOKENS, TOKENS } from "../provider/manifest.ts";
import { type InstalledPlugin, installPluginBinary } from "../scripts/lib/plugin-install.ts";
import { API_KEY, installedPackage, repoRoot, sdk } from "./lib/package.ts";
import { kib, median, mib, ms, ratio, table } from "./lib/report.ts";
import { childrenCpuMs, withPeakMemory } from "./lib/sampling.ts";
import { type Sandbox, startSandbox } from "./lib/sandbox.ts";
import {
  type BenchStack,
  createStack,
  exportedResources,
  floorProgram,
  newBackend,
  recordsProgram,
  resourceRecords,
  stateFloorProgram,
  templateOf,
} from "./lib/stacks.ts";

const USAGE =
  "usage: node bench/plugin.ts [--sizes 100,1000] [--rounds 3] [--rounds-large 2] [--start-runs 7] [--ways floor,state floor,dynamic,npm plugin,binary] [--out FILE]";
const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: process.env.BENCH_STACK_SIZE ?? "100,1000" },
    rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "3" },
    // At 1,000 one round of the four takes a quarter of an hour on a quiet small machine.
    "rounds-large": { type: "string", default: "2" },
    "start-runs": { type: "string", default: "7" },
    // The floor always runs (every ratio is to it); the others can be left out to look closer at one.
    ways: { type: "string", default: "floor,state floor,dynamic,npm plugin,binary" },
    out: { type: "string", default: path.join("bench", "results", "runs", "plugin-binary-1000.md") },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
const ROUNDS = Number(values.rounds);
const ROUNDS_LARGE = Number(values["rounds-large"]);
const START_RUNS = Number(values["start-runs"]);

/** Rounds at size `n`: fewer from 1,000 templates on. */
const roundsOf = (n: number): number => (n >= 1000 ? Math.min(ROUNDS, ROUNDS_LARGE) : ROUNDS);

/** The plugin's resource, registered by its type token (what a generated SDK does). */
class PluginTemplateRecords extends sdk.CustomResource {
  constructor(name: string, args: Record<string, unknown>) {
    super(TOKENS.records, name, { ...args, ids: undefined, lastPlan: undefined });
  }
}

/** `n` templates through the provider plugin, with {@link resourceRecords}. */
function pluginProgram(n: number): PulumiFn {
  return async () => {
    for (let i = 0; i < n; i++) {
      new PluginTemplateRecords(`r${i}`, { templateId: templateOf(i), records: resourceRecords(i) });
    }
    return {};
  };
}

const WAYS = ["floor", "state floor", "dynamic", "npm plugin", "binary"] as const;
type WayName = (typeof WAYS)[number];
const isWay = (w: string): w is WayName => (WAYS as readonly string[]).includes(w);
const CHOSEN = new Set(values.ways.split(",").map((w) => w.trim()));

/** One way to the engine: how to make a fresh stack of it, and what to measure of it. */
interface Way {
  readonly name: WayName;
  /** The state's type of the resources measured. */
  readonly type: string;
  /** What the plugin process's command line holds (to sample its memory). */
  readonly process: string;
  /** A fresh (empty) stack of `n` resources this way, named `stackName`. */
  readonly stack: (n: number, stackName: string) => Promise<BenchStack>;
}

/** CPU milliseconds of one operation, by process. */
interface Cpu {
  /** The Pulumi CLI and its engine (the CLI's waited-for children, less the plugin). */
  readonly engine: number;
  readonly plugin: number;
  /** This process: the inline program's registrations and the sandbox answering them. */
  readonly program: number;
}

interface Runs {
  up: number[];
  preview: number[];
  upCpu: Cpu[];
  previewCpu: Cpu[];
  peakKib: number;
  /** The stack of the last round, whose state is measured. */
  last?: BenchStack;
}

/** Everything measured at one size. */
interface SizeRun {
  readonly n: number;
  readonly sandbox: Sandbox;
  readonly backendDir: string;
  readonly ways: readonly Way[];
  readonly runs: Record<WayName, Runs>;
  readonly stacks: BenchStack[];
  rounds: number;
}

/** The sandbox, state backend and the four ways at size `n`. */
async function prepareSize(n: number, binary: InstalledPlugin): Promise<SizeRun> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < n; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = newBackend();
  const config: ConfigMap = {
    "domainapi:baseUrl": { value: sandbox.url },
    "domainapi:apiKey": { value: API_KEY, secret: true },
  };
  const ways: Way[] = [
    {
      name: "floor",
      type: "pulumi-nodejs:dynamic/domainapi:EngineFloor",
      process: "dynamic-provider",
      stack: (m, name) => createStack(name, floorProgram(m), backendDir),
    },
    {
      name: "state floor",
      type: "pulumi-nodejs:dynamic/domainapi:EngineFloor",
      process: "dynamic-provider",
      stack: (m, name) => createStack(name, stateFloorProgram(m), backendDir),
    },
    {
      name: "dynamic",
      type: DYNAMIC_TOKENS.records,
      process: "dynamic-provider",
      stack: (m, name) => createStack(name, recordsProgram(m), backendDir, { config }),
    },
    {
      name: "npm plugin",
      type: TOKENS.records,
      process: path.join("plugin", "main.js"),
      stack: (m, name) =>
        createStack(name, pluginProgram(m), backendDir, {
          config,
          pluginProviders: [{ name: "domainapi", path: installedPackage }],
        }),
    },
    {
      name: "binary",
      type: TOKENS.records,
      process: binary.executable,
      stack: (m, name) =>
        createStack(name, pluginProgram(m), backendDir, {
          config,
          env: { PULUMI_HOME: binary.env.PULUMI_HOME },
        }),
    },
  ];
  const empty = (): Runs => ({ up: [], preview: [], upCpu: [], previewCpu: [], peakKib: 0 });
  const runs: Record<WayName, Runs> = {
    floor: empty(),
    "state floor": empty(),
    dynamic: empty(),
    "npm plugin": empty(),
    binary: empty(),
  };
  const chosen = ways.filter((w) => w.name === "floor" || CHOSEN.has(w.name));
  return { n, sandbox, backendDir, ways: chosen, runs, stacks: [], rounds: 0 };
}

/** One round at one size: each way's up (a create on a fresh stack) and preview, led by way `round`. */
async function runRound(size: SizeRun, round: number): Promise<void> {
  const { ways, n } = size;
  const start = round % ways.length;
  for (const way of [...ways.slice(start), ...ways.slice(0, start)]) {
    const stack = await way.stack(n, `${way.name.replace(" ", "-")}-${n}-${round}`);
    size.stacks.push(stack);
    const mine = size.runs[way.name];
    const up = await measured(size.backendDir, way.process, async () => {
      const result = await stack.stack.up();
      if (result.summary.result !== "succeeded") throw new Error(`${way.name}: up ${result.summary.result}`);
    });
    const preview = await measured(size.backendDir, way.process, async () => {
      const changed = Object.entries((await stack.stack.preview()).changeSummary).filter(
        ([op, count]) => op !== "same" && count > 0,
      );
      if (changed.length > 0)
        throw new Error(`${way.name}: the preview after up changes ${JSON.stringify(changed)}`);
    });
    mine.up.push(up.ms);
    mine.upCpu.push(up.cpu);
    mine.preview.push(preview.ms);
    mine.previewCpu.push(preview.cpu);
    mine.peakKib = Math.max(mine.peakKib, up.peakKib, preview.peakKib);
    mine.last = stack;
  }
  size.rounds = round + 1;
  if (round === 0) await checkStateFloor(size);
  // Every way but the floors sent one PUT per template and up (the create).
  const puts = size.sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
  const expected = ways.filter((w) => !w.name.includes("floor")).length * n * size.rounds;
  if (puts !== expected) throw new Error(`expected ${expected} PUTs, saw ${puts}`);
}

/**
 * Fails the run if the state floor's stored inputs are not the real resource's: the first
 * template's inputs, exported from the last stacks of the two (the state floor's without its
 * `__provider`), with the same keys and values.
 */
async function checkStateFloor(size: SizeRun): Promise<void> {
  const shaped = size.runs["state floor"].last;
  const real = size.ways.find((w) => w.type === TOKENS.records || w.type === DYNAMIC_TOKENS.records);
  const realStack = real && size.runs[real.name].last;
  if (shaped === undefined || real === undefined || realStack === undefined) return;
  const first = async (s: BenchStack, type: string): Promise<unknown> => {
    const r = (await exportedResources(s)).find((x) => x.type === type && String(x.urn).endsWith("::r0"));
    const { __provider: _, ...inputs } = (r?.inputs ?? {}) as Record<string, unknown>;
    return inputs;
  };
  const floorType = size.ways.find((w) => w.name === "state floor")?.type ?? "";
  const [mine, theirs] = [await first(shaped, floorType), await first(realStack, real.type)];
  if (!isDeepStrictEqual(mine, theirs)) {
    throw new Error(
      `the state floor's inputs differ from ${real.name}'s: ${JSON.stringify({ mine, theirs })}`,
    );
  }
}

/** One engine operation's wall time, CPU by process and the plugin's peak memory. */
async function measured(
  backendDir: string,
  plugin: string,
  work: () => Promise<void>,
): Promise<{ ms: number; cpu: Cpu; peakKib: number }> {
  const [children0, own0, t0] = [childrenCpuMs(), process.cpuUsage(), performance.now()];
  const { peakKib, pluginCpuMs } = await withPeakMemory(backendDir, work, plugin);
  const took = performance.now() - t0;
  const own = process.cpuUsage(own0);
  const children = childrenCpuMs() - children0;
  const cpu = {
    engine: children - pluginCpuMs,
    plugin: pluginCpuMs,
    program: (own.user + own.system) / 1000,
  };
  return { ms: took, cpu, peakKib };
}

/** The median over rounds of `xs[i] / base[i]`: each round set against the same round's baseline. */
function roundRatio(xs: readonly number[], base: readonly number[]): number {
  return median(xs.map((x, i) => x / (base[i] ?? Number.NaN)));
}

/** {@link roundRatio} as a cell, or "-" when the baseline way was left out of the run. */
const ratioCell = (xs: readonly number[], base: readonly number[]): string =>
  base.length === 0 ? "-" : ratio(roundRatio(xs, base));

/** Median CPU seconds of `cpus` by process, and their sum. */
function cpuCells(cpus: readonly Cpu[]): string[] {
  const s = (pick: (c: Cpu) => number): string => `${(median(cpus.map(pick)) / 1000).toFixed(1)} s`;
  return [
    s((c) => c.engine),
    s((c) => c.plugin),
    s((c) => c.program),
    s((c) => c.engine + c.plugin + c.program),
  ];
}

/** Where the CPU of one size's operations went, by process, way by way. */
function cpuTable(size: SizeRun): string {
  const rows = size.ways.map((way) => {
    const r = size.runs[way.name];
    return [way.name, ...cpuCells(r.upCpu), ...cpuCells(r.previewCpu)];
  });
  return [
    `CPU of the same operations by process (median of the rounds): the Pulumi CLI with its engine; the plugin (sampled every 50 ms, so up to 50 ms short); this process, i.e. the inline program's registrations and the sandbox answering the PUTs. On ${size.n.toLocaleString("en")} templates the machine's two cores are the limit, so CPU anywhere is wall time.`,
    "",
    table(
      [
        "way",
        "up: engine",
        "up: plugin",
        "up: program + sandbox",
        "up: all",
        "preview: engine",
        "preview: plugin",
        "preview: program",
        "preview: all",
      ],
      rows,
    ),
  ].join("\n");
}

/** Object keys in `value`, at every depth. */
function keysIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((k: number, v) => k + keysIn(v), 0);
  if (typeof value !== "object" || value === null) return 0;
  return Object.values(value).reduce((k: number, v) => k + 1 + keysIn(v), 0);
}

/**
 * One resource of `way` in the last stack's `pulumi stack export`: its bytes, and the keys of its
 * inputs and outputs. The engine rewrites the whole state after every step, and its Go serializer
 * pays per key (a map built, sorted and encoded for each object) as well as per byte.
 */
async function statePerResource(way: Way, runs: Runs): Promise<{ bytes: number; keys: number }> {
  if (runs.last === undefined) return { bytes: Number.NaN, keys: Number.NaN };
  const mine = (await exportedResources(runs.last)).filter((r) => r.type === way.type);
  const per = (f: (r: Record<string, unknown>) => number): number =>
    mine.reduce((k, r) => k + f(r), 0) / Math.max(mine.length, 1);
  return {
    bytes: per((r) => Buffer.byteLength(JSON.stringify(r))),
    keys: per((r) => keysIn(r.inputs) + keysIn(r.outputs)),
  };
}

/** The table of one size, from the rounds run so far. */
async function reportSize(size: SizeRun): Promise<string> {
  const { n, runs } = size;
  const floor = runs.floor;
  const dynamic = runs.dynamic;
  const floorState = await statePerResource(size.ways[0] as Way, floor);
  const rows: string[][] = [];
  for (const way of size.ways) {
    const r = runs[way.name];
    const state = await statePerResource(way, r);
    rows.push([
      way.name,
      `${ms(median(r.up))} (${r.up.map((x) => Math.round(x)).join(", ")})`,
      ratio(roundRatio(r.up, floor.up)),
      ratioCell(r.up, dynamic.up),
      `${ms(median(r.preview))} (${r.preview.map((x) => Math.round(x)).join(", ")})`,
      ratio(roundRatio(r.preview, floor.preview)),
      ratioCell(r.preview, dynamic.preview),
      `${((median(r.up) - median(floor.up)) / n).toFixed(1)} ms`,
      mib(r.peakKib),
      kib(state.bytes),
      ratio(state.bytes / floorState.bytes),
      `${state.keys.toFixed(0)} (${ratio(state.keys / floorState.keys)})`,
    ]);
  }
  return [
    `### pulumi up and preview of ${n} templates x 10 records: release binary, npm plugin, dynamic resources, engine floor`,
    "",
    `${size.rounds} round(s) of ${roundsOf(n)}. Each round: a create (up) on a fresh stack, then a preview with nothing to change, way after way, each round led by another way. Times: median, runs in brackets (in round order). Ratios: the median of each round's ratio to the same round's floor (or dynamic resources). Peak RSS: the provider's plugin process over up and preview (VmHWM, sampled every 50 ms), the largest of the rounds. State: bytes of one resource in \`pulumi stack export\`, and the keys of its inputs and outputs at every depth.`,
    "",
    table(
      [
        "way",
        "up (runs)",
        "up / engine floor",
        "up / dynamic",
        "preview (runs)",
        "preview / engine floor",
        "preview / dynamic",
        "up above floor per resource",
        "plugin peak RSS",
        "state per resource",
        "state / floor",
        "state keys per resource (/ floor)",
      ],
      rows,
    ),
    "",
    cpuTable(size),
  ].join("\n");
}

/** Issue 31's target at the largest size: the binary at or below the dynamic floor, met or not, with its figures. */
function targetLine(size: SizeRun): string {
  const { runs, n } = size;
  if (runs.binary.up.length === 0) return "Target: the binary was left out of this run (`--ways`).";
  const up = roundRatio(runs.binary.up, runs.floor.up);
  const preview = roundRatio(runs.binary.preview, runs.floor.preview);
  const upDyn = roundRatio(runs.binary.up, runs.dynamic.up);
  const previewDyn = roundRatio(runs.binary.preview, runs.dynamic.preview);
  const verdict = (x: number): string => (x <= 1 ? "met" : "not met");
  return [
    `**Target at ${n.toLocaleString("en")} (${size.rounds} round(s)): the binary at or below the dynamic floor.**`,
    `Against the engine floor (= the dynamic floor, the strict reading): up ${ratio(up)} (${ms(median(runs.binary.up))} vs ${ms(median(runs.floor.up))}): **${verdict(up)}**; preview ${ratio(preview)} (${ms(median(runs.binary.preview))} vs ${ms(median(runs.floor.preview))}): **${verdict(preview)}**.`,
    runs["state floor"].up.length === 0
      ? "The state floor was left out of this run (`--ways`)."
      : `Against the state floor (the engine's cost of the same state, no provider work): up ${ratio(roundRatio(runs.binary.up, runs["state floor"].up))}, preview ${ratio(roundRatio(runs.binary.preview, runs["state floor"].preview))}.`,
    runs.dynamic.up.length === 0
      ? "The dynamic resources were left out of this run (`--ways`)."
      : `Against the dynamic resources (the lenient reading): up ${ratio(upDyn)}: **${verdict(upDyn)}**; preview ${ratio(previewDyn)}: **${verdict(previewDyn)}**.`,
  ].join("\n");
}

/** What the results file says the two floors are. */
const FLOORS = [
  "**The engine floor** (`floor`): n `EngineFloor` resources (test/fixtures/engine-floor), a dynamic resource whose provider echoes its inputs (the same 10 records per resource) and sends no request, run by Pulumi's Node dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) from the same installed SDK. It measures what every provider of this stack pays whatever it does: the Go engine's steps and its checkpoint writes (the file backend rewrites the whole state after each step), the program's resource registrations through the Node SDK, and one plugin process's gRPC round trips and protobuf (de)serialization of the inputs, with no provider work.",
  "",
  "**The state floor** (`state floor`): the same `EngineFloor`, given the checked inputs DnsTemplateRecords stores (records keyed `name/type`, settings with their defaults) and adding to its outputs what DnsTemplateRecords adds (an id per record, the plan's summary, the API's URL): the state of the real resource, checked equal to it (its inputs, from the export), with no provider work. The engine rewrites the whole state after every step and its Go serializer pays per key as well as per byte, so the floor's echo of 10 records in an array is cheaper to store than a resource whose outputs hold its records keyed and their ids; this way tells that cost of the state from the provider's own.",
  "",
  "**The dynamic floor** (issue 31's target): the same measurement. A dynamic resource can only reach the engine through the dynamic-provider host, so the `EngineFloor` stack is the least any dynamic resource costs: the dynamic path's floor. The binary does not go through that host (it serves the ResourceProvider gRPC itself, and its state stores no `__provider`), so it can go below it. The target is read strictly: binary / engine floor at most 1.00x. The lenient reading, the binary at or below the package's dynamic resources (`dynamic`), is given beside it.",
].join("\n");

/** Starts `command` as the engine would (no engine address needed to serve) until it prints its port. */
async function startOnce(command: string): Promise<{ ms: number; rssKib: number }> {
  const t0 = performance.now();
  const child = spawn(command, [], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  try {
    const elapsed = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (/^\d+\n/.test(out)) resolve(performance.now() - t0);
      });
      child.on("exit", (code) =>
        reject(new Error(`${command} exited ${code} before its port:\n${out}${stderr}`)),
      );
    });
    // The process the engine talks to: the launcher's Node replaces the shell (exec), same pid.
    const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
    return { ms: elapsed, rssKib: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) };
  } finally {
    child.kill();
  }
}

/** Each plugin's start: median time to its port and resident memory then, over `runs` alternating starts. */
async function benchStart(binary: InstalledPlugin, runs: number): Promise<string> {
  const commands: Array<[string, string]> = [
    ["npm plugin (launcher + Node)", path.join(installedPackage, "pulumi-resource-domainapi")],
    ["binary", binary.executable],
  ];
  const starts = commands.map(() => [] as Array<{ ms: number; rssKib: number }>);
  for (const [, command] of commands) await startOnce(command); // warm the page cache
  for (let i = 0; i < runs; i++) {
    for (const [k, [, command]] of commands.entries()) starts[k]?.push(await startOnce(command));
  }
  const npm = starts[0] ?? [];
  const rows = commands.map(([name, command], k) => {
    const mine = starts[k] ?? [];
    return [
      name,
      `${ms(median(mine.map((s) => s.ms)))} (${mine.map((s) => Math.round(s.ms)).join(", ")})`,
      ratio(median(mine.map((s, i) => s.ms / (npm[i]?.ms ?? Number.NaN)))),
      mib(median(mine.map((s) => s.rssKib))),
      ratio(median(mine.map((s) => s.rssKib)) / median(npm.map((s) => s.rssKib))),
      `${(fs.statSync(fs.realpathSync(command)).size / 2 ** 20).toFixed(0)} MiB`,
    ];
  });
  return [
    "### The plugin's start: exec to its port, and its memory then",
    "",
    `${runs} starts each after one to warm the page cache, the two plugins alternating; median, runs in brackets. Ratio: the median of each pair's ratio. RSS: VmHWM when the port is printed. Size: the file the engine executes (the npm plugin's is its launcher; it also needs Node, about 120 MB).`,
    "",
    table(
      ["plugin", "start (runs)", "start / npm plugin", "peak RSS at start", "RSS / npm plugin", "executable"],
      rows,
    ),
  ].join("\n");
}

/** The results file: how it was run, the floors, the target, each size's table, the start. */
async function writeResults(
  sizes: readonly SizeRun[],
  start: string,
  begun: Date,
  complete: boolean,
): Promise<string> {
  const largest = sizes.reduce<SizeRun | undefined>(
    (a, s) => (a === undefined || s.n > a.n ? s : a),
    undefined,
  );
  const done = sizes.map((s) => `${s.rounds} of ${roundsOf(s.n)} round(s) at ${s.n}`).join(", ");
  const text = [
    `# bench/plugin.ts at ${sizes.map((s) => s.n.toLocaleString("en")).join(" and ")} templates`,
    "",
    `Run from ${begun.toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/plugin.ts ${process.argv.slice(2).join(" ")}\` (node ${process.version}, Pulumi CLI of scripts/with-pulumi.sh); ${complete ? `complete: ${done}` : `**partial** (written after each round): ${done}`}. Read the ratios; the milliseconds only say what this shared machine did.`,
    "",
    FLOORS,
    "",
    largest !== undefined && largest.rounds > 0
      ? targetLine(largest)
      : "Target: no round at the largest size yet.",
    "",
    start,
    "",
    ...(await Promise.all(sizes.filter((s) => s.rounds > 0).map((s) => reportSize(s)))).flatMap((t) => [
      t,
      "",
    ]),
  ].join("\n");
  const file = path.resolve(repoRoot, values.out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return text;
}

async function main(): Promise<void> {
  if (
    ![...CHOSEN].every(isWay) ||
    SIZES.some((n) => !Number.isInteger(n) || n < 1) ||
    ![ROUNDS, ROUNDS_LARGE, START_RUNS].every((x) => Number.isInteger(x) && x >= 1)
  ) {
    throw new Error(USAGE);
  }
  const begun = new Date();
  const binary = await installPluginBinary(repoRoot);
  const sizes: SizeRun[] = [];
  try {
    const start = await benchStart(binary, START_RUNS);
    console.log(start);
    for (const n of SIZES) sizes.push(await prepareSize(n, binary));
    // Round r of every size before round r + 1 of any: the sizes share the machine's moods too.
    for (let round = 0; round < Math.max(...sizes.map((s) => roundsOf(s.n))); round++) {
      for (const size of sizes) {
        if (round >= roundsOf(size.n)) continue;
        await runRound(size, round);
        const t = await writeResults(sizes, start, begun, false);
        console.log(`\n[${new Date().toISOString()}] round ${round + 1} at ${size.n} done\n${t}`);
      }
    }
    await writeResults(sizes, start, begun, true);
    console.log(`\nWritten to ${values.out}`);
  } finally {
    // No destroy: the sandbox goes with the run, and at 1,000 a destroy takes as long as the up.
    for (const size of sizes) {
      for (const s of size.stacks) fs.rmSync(s.workDir, { recursive: true, force: true });
      fs.rmSync(size.backendDir, { recursive: true, force: true });
      await size.sandbox.close();
    }
    binary.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
