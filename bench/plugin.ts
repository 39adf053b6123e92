/**
 * The provider's four ways to the engine, side by side in one run: `pulumi up` (a create) and then
 * `pulumi preview` (nothing to change) of n templates of 10 records through each, the plugin
 * process's peak memory over both, and the state each leaves per resource. The same Node inline
 * program shape drives all four, so only the provider differs:
 *
 * - floor: test/fixtures/engine-floor, a dynamic resource that echoes its inputs (the engine alone);
 * - dynamic: the package's `DnsTemplateRecords` (the dynamic-provider host, `__provider` stored);
 * - npm plugin: `domainapi:index:DnsTemplateRecords` through `pulumi-resource-domainapi` of the
 *   installed package (the launcher and the user's Node, found through `plugins.providers`);
 * - binary: the same through the release binary (dist/plugin, `npm run dist`) installed with
 *   `pulumi plugin install --file` into a PULUMI_HOME of its own.
 *
 * Also the start of each plugin on its own: from exec to the port on its first line (what the
 * engine waits for), and its resident memory then.
 *
 *   npm run build && npm run dist && bash scripts/with-pulumi.sh node bench/plugin.ts --sizes 100,1000
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { ConfigMap, PulumiFn } from "@pulumi/pulumi/automation/index.js";
import { DYNAMIC_TOKENS, TOKENS } from "../provider/manifest.ts";
import { type InstalledPlugin, installPluginBinary } from "../scripts/lib/plugin-install.ts";
import { API_KEY, installedPackage, repoRoot, sdk } from "./lib/package.ts";
import { kib, median, mib, ms, ratio, table } from "./lib/report.ts";
import { withPeakMemory } from "./lib/sampling.ts";
import { startSandbox } from "./lib/sandbox.ts";
import {
  type BenchStack,
  createStack,
  exportedResources,
  floorProgram,
  newBackend,
  recordsProgram,
  removeStacks,
  resourceRecords,
  templateOf,
} from "./lib/stacks.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: process.env.BENCH_STACK_SIZE ?? "100" },
    rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "3" },
    "start-runs": { type: "string", default: "7" },
  },
});
const SIZES = values.sizes.split(",").map((s) => Number(s.trim()));
const ROUNDS = Number(values.rounds);
const START_RUNS = Number(values["start-runs"]);

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

type VariantName = "floor" | "dynamic" | "npm plugin" | "binary";

interface Variant {
  readonly name: VariantName;
  /** The state's type of the resources measured. */
  readonly type: string;
  /** What the plugin process's command line holds (to sample its memory). */
  readonly process: string;
  readonly stack: BenchStack;
}

interface Runs {
  up: number[];
  preview: number[];
  peakKib: number;
}

/** One stack size: every variant's up and preview, `rounds` times, each round led by another variant. */
async function benchSize(n: number, rounds: number, binary: InstalledPlugin): Promise<string> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < n; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = newBackend();
  const config: ConfigMap = {
    "domainapi:baseUrl": { value: sandbox.url },
    "domainapi:apiKey": { value: API_KEY, secret: true },
  };
  const variants: Variant[] = [];
  try {
    variants.push(
      {
        name: "floor",
        type: "pulumi-nodejs:dynamic/domainapi:EngineFloor",
        process: "dynamic-provider",
        stack: await createStack("floor", floorProgram(n), backendDir),
      },
      {
        name: "dynamic",
        type: DYNAMIC_TOKENS.records,
        process: "dynamic-provider",
        stack: await createStack("dynamic", recordsProgram(n), backendDir, { config }),
      },
      {
        name: "npm plugin",
        type: TOKENS.records,
        process: path.join("plugin", "main.js"),
        stack: await createStack("npm-plugin", pluginProgram(n), backendDir, {
          config,
          pluginProviders: [{ name: "domainapi", path: installedPackage }],
        }),
      },
      {
        name: "binary",
        type: TOKENS.records,
        process: binary.executable,
        stack: await createStack("binary", pluginProgram(n), backendDir, {
          config,
          env: { PULUMI_HOME: binary.env.PULUMI_HOME },
        }),
      },
    );

    const runs: Record<VariantName, Runs> = {
      floor: { up: [], preview: [], peakKib: 0 },
      dynamic: { up: [], preview: [], peakKib: 0 },
      "npm plugin": { up: [], preview: [], peakKib: 0 },
      binary: { up: [], preview: [], peakKib: 0 },
    };
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another variant, so that none always runs on a cold or a warm machine.
      const start = round % variants.length;
      for (const { name, stack, process: match } of [...variants.slice(start), ...variants.slice(0, start)]) {
        const mine = runs[name];
        const { peakKib } = await withPeakMemory(
          backendDir,
          async () => {
            let t0 = performance.now();
            const up = await stack.stack.up();
            if (up.summary.result !== "succeeded") throw new Error(`${name}: up ${up.summary.result}`);
            mine.up.push(performance.now() - t0);
            t0 = performance.now();
            const preview = await stack.stack.preview();
            mine.preview.push(performance.now() - t0);
            const changed = Object.entries(preview.changeSummary).filter(
              ([op, count]) => op !== "same" && count > 0,
            );
            if (changed.length > 0)
              throw new Error(`${name}: the preview after up changes ${JSON.stringify(changed)}`);
          },
          match,
        );
        mine.peakKib = Math.max(mine.peakKib, peakKib);
        if (round < rounds - 1) await stack.stack.destroy();
      }
    }
    // Every variant but the floor sent one PUT per template and up (the create).
    const puts = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
    if (puts !== 3 * n * rounds) throw new Error(`expected ${3 * n * rounds} PUTs, saw ${puts}`);

    const floor = runs.floor;
    const rows: string[][] = [];
    let floorBytes = 0;
    for (const { name, type, stack } of variants) {
      const mine = (await exportedResources(stack)).filter((r) => r.type === type);
      const bytes =
        mine.reduce((k, r) => k + Buffer.byteLength(JSON.stringify(r)), 0) / Math.max(mine.length, 1);
      if (name === "floor") floorBytes = bytes;
      const r = runs[name];
      // Each round's ratio to that round's floor: robust to the machine's load drifting between rounds.
      const upRatio = median(r.up.map((x, i) => x / (floor.up[i] ?? x)));
      const previewRatio = median(r.preview.map((x, i) => x / (floor.preview[i] ?? x)));
      rows.push([
        name,
        `${ms(median(r.up))} (${r.up.map((x) => Math.round(x)).join(", ")})`,
        ratio(upRatio),
        `${ms(median(r.preview))} (${r.preview.map((x) => Math.round(x)).join(", ")})`,
        ratio(previewRatio),
        `${((median(r.up) - median(floor.up)) / n).toFixed(1)} ms`,
        mib(r.peakKib),
        kib(bytes),
        ratio(bytes / floorBytes),
      ]);
    }
    return [
      `### pulumi up and preview of ${n} templates x 10 records: release binary, npm plugin, dynamic resources, engine floor`,
      "",
      `A create (up) then a preview with nothing to change, ${rounds} round(s), each led by another variant (destroy in between); median, runs in brackets. Ratios: the median of each round's ratio to that round's floor. Peak RSS: the provider's plugin process over up and preview (VmHWM, sampled every 50 ms). State: bytes of one resource in \`pulumi stack export\`.`,
      "",
      table(
        [
          "provider",
          "up (runs, ms)",
          "up / floor",
          "preview (runs, ms)",
          "preview / floor",
          "up above floor per resource",
          "plugin peak RSS",
          "state per resource",
          "state / floor",
        ],
        rows,
      ),
    ].join("\n");
  } finally {
    await removeStacks(
      variants.map((v) => v.stack),
      backendDir,
    );
    await sandbox.close();
  }
}

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

/** Each plugin's start: median time to its port and resident memory then, over `runs` starts. */
async function benchStart(binary: InstalledPlugin, runs: number): Promise<string> {
  const commands: Array<[string, string]> = [
    ["npm plugin (launcher + Node)", path.join(installedPackage, "pulumi-resource-domainapi")],
    ["binary", binary.executable],
  ];
  const rows: string[][] = [];
  let npmMs = 0;
  for (const [name, command] of commands) {
    await startOnce(command); // warm the page cache
    const starts: Array<{ ms: number; rssKib: number }> = [];
    for (let i = 0; i < runs; i++) starts.push(await startOnce(command));
    const t = median(starts.map((s) => s.ms));
    if (npmMs === 0) npmMs = t;
    rows.push([
      name,
      ms(t),
      ratio(t / npmMs),
      mib(median(starts.map((s) => s.rssKib))),
      `${(fs.statSync(fs.realpathSync(command)).size / 2 ** 20).toFixed(0)} MiB`,
    ]);
  }
  return [
    "### The plugin's start: exec to its port, and its memory then",
    "",
    `${runs} starts each after one to warm the page cache, median. RSS: VmHWM when the port is printed. Size: the file the engine executes (the npm plugin's is its launcher; it also needs Node, about 120 MB).`,
    "",
    table(["plugin", "start", "ratio to npm plugin", "peak RSS at start", "executable"], rows),
  ].join("\n");
}

async function main(): Promise<void> {
  if (SIZES.some((n) => !Number.isInteger(n) || n < 1) || !(ROUNDS >= 1) || !(START_RUNS >= 1)) {
    throw new Error("usage: node bench/plugin.ts [--sizes 100,1000] [--rounds 3] [--start-runs 7]");
  }
  const binary = await installPluginBinary(repoRoot);
  try {
    const sections = [await benchStart(binary, START_RUNS)];
    console.log(sections[0]);
    for (const n of SIZES) {
      // At 1,000 one round of the four takes most of an hour on a small machine.
      const section = await benchSize(n, n >= 1000 ? 1 : ROUNDS, binary);
      console.log(`\n${section}`);
    }
  } finally {
    binary.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
