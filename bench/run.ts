/**
 * The benchmarks of pulumi-domainapi, measured side by side in one run and reported as ratios
 * (absolute timings on a small shared machine are noisy; ratios taken minutes apart in one process
 * are not). Prints one markdown table per benchmark and writes them to bench/results/latest.md.
 *
 *   npm run bench                                   # every benchmark, the engine at 100 and 1,000
 *   npm run bench -- contacts planner               # some of them
 *   npm run bench -- engine --sizes 100 --out bench/results/quick.md
 *
 * Each benchmark is a module of its own (bench/<name>.ts); bench/lib holds what they share.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { benchContacts } from "./contacts.ts";
import { benchEngine } from "./engine.ts";
import { benchImport } from "./import.ts";
import { repoRoot } from "./lib/package.ts";
import type { Section } from "./lib/report.ts";
import { benchMemory } from "./memory.ts";
import { benchPlanner } from "./planner.ts";
import { benchRequests } from "./requests.ts";
import { benchVanished } from "./vanished.ts";
import { benchVerified } from "./verified.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sizes: { type: "string", default: "100,1000" },
    out: { type: "string", default: path.join("bench", "results", "latest.md") },
    help: { type: "boolean", short: "h" },
  },
});

const sizes = values.sizes.split(",").map((s) => Number(s.trim()));
const BENCHMARKS: Record<string, () => Promise<Section[]>> = {
  contacts: benchContacts,
  requests: benchRequests,
  planner: benchPlanner,
  verified: benchVerified,
  vanished: benchVanished,
  import: () => benchImport(),
  memory: benchMemory,
  // Last: the longest, and the one most disturbed by a busy machine.
  engine: () => benchEngine(sizes),
};

async function main(): Promise<number> {
  if (values.help) {
    console.log(
      `Usage: node bench/run.ts [${Object.keys(BENCHMARKS).join(" ")}] [--sizes 100,1000] [--out FILE]`,
    );
    return 0;
  }
  const unknown = positionals.filter((p) => !(p in BENCHMARKS));
  if (unknown.length > 0)
    throw new Error(`unknown benchmark ${unknown.join(", ")}: ${Object.keys(BENCHMARKS).join(", ")}`);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes: ${values.sizes}`);
  const chosen = positionals.length > 0 ? positionals : Object.keys(BENCHMARKS);

  const started = new Date();
  const t0 = performance.now();
  let pulumiVersion = "unknown";
  try {
    pulumiVersion = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
  } catch {
    // reported as unknown
  }
  const machine = `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ""}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
  console.log(`pulumi-domainapi benchmarks, node ${process.version}, pulumi ${pulumiVersion}, ${machine}`);

  const sections: Section[] = [];
  for (const name of chosen) sections.push(...(await (BENCHMARKS[name] as () => Promise<Section[]>)()));

  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  const command = ["node bench/run.ts", ...process.argv.slice(2)].join(" ");
  const out = [
    "# Benchmark results",
    "",
    `Run on ${started.toISOString().replace(/\.\d+Z$/, "Z")} with \`${command}\` ` +
      `(node ${process.version}, pulumi ${pulumiVersion}, ${machine}); took ${seconds} s.`,
    "",
    ...sections.sort((a, b) => a.order - b.order).map((s) => s.text),
  ].join("\n");
  const file = path.resolve(repoRoot, values.out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, out);
  console.log(`\nWritten to ${path.relative(repoRoot, file)} (${seconds} s).`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
