/**
 * The provider plugin against the dynamic resources and the engine's floor, side by side in one run:
 * `pulumi up` (a create) of 100 templates of 10 records through each, and the state each leaves per
 * resource. The same Node inline program shape drives all three, so only the provider differs:
 *
 * - plugin: `domainapi:index:DnsTemplateRecords` through `pulumi-resource-domainapi` of the
 *   installed package (one process for the provider, found through `plugins.providers` as a YAML
 *   program finds it);
 * - dynamic: the package's `DnsTemplateRecords` (the dynamic-provider host, `__provider` stored);
 * - floor: test/fixtures/engine-floor, a dynamic resource that echoes its inputs.
 *
 * The package, the stacks and the records are those of the engine benchmark (bench/lib).
 *
 *   npm run build && bash scripts/with-pulumi.sh node bench/plugin.ts
 */
import { performance } from "node:perf_hooks";
import type { ConfigMap, PulumiFn } from "@pulumi/pulumi/automation/index.js";
import { DYNAMIC_TOKENS, TOKENS } from "../provider/manifest.ts";
import { API_KEY, installedPackage, sdk } from "./lib/package.ts";
import { kib, median, ms, ratio, table } from "./lib/report.ts";
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

const STACK_SIZE = Number(process.env.BENCH_STACK_SIZE ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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

interface Variant {
  readonly name: "floor" | "dynamic" | "plugin";
  /** The state's type of the resources measured. */
  readonly type: string;
  readonly stack: BenchStack;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < STACK_SIZE; i++) sandbox.seedTemplate(templateOf(i), []);
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
        stack: await createStack("floor", floorProgram(STACK_SIZE), backendDir),
      },
      {
        name: "dynamic",
        type: DYNAMIC_TOKENS.records,
        stack: await createStack("dynamic", recordsProgram(STACK_SIZE), backendDir, { config }),
      },
      {
        name: "plugin",
        type: TOKENS.records,
        stack: await createStack("plugin", pluginProgram(STACK_SIZE), backendDir, {
          config,
          pluginProviders: [{ name: "domainapi", path: installedPackage }],
        }),
      },
    );

    const runs: Record<Variant["name"], number[]> = { floor: [], dynamic: [], plugin: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another variant, so that none always runs on a cold or a warm machine.
      const start = round % variants.length;
      for (const { name, stack } of [...variants.slice(start), ...variants.slice(0, start)]) {
        const t0 = performance.now();
        const up = await stack.stack.up();
        if (up.summary.result !== "succeeded") throw new Error(`${name}: up ${up.summary.result}`);
        runs[name].push(performance.now() - t0);
        if (round < ROUNDS - 1) await stack.stack.destroy();
      }
    }
    const puts = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
    if (puts !== 2 * STACK_SIZE * ROUNDS)
      throw new Error(`expected ${2 * STACK_SIZE * ROUNDS} PUTs, saw ${puts}`);

    const floorMs = median(runs.floor);
    const rows: string[][] = [];
    let floorBytes = 0;
    for (const { name, type, stack } of variants) {
      const mine = (await exportedResources(stack)).filter((r) => r.type === type);
      const bytes =
        mine.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0) / Math.max(mine.length, 1);
      if (name === "floor") floorBytes = bytes;
      const upMs = median(runs[name]);
      // Each round's ratio to that round's floor: robust to the machine's load drifting between rounds.
      const roundRatios = runs[name].map((x, r) => x / (runs.floor[r] ?? x));
      rows.push([
        name,
        ms(upMs),
        runs[name].map((x) => `${Math.round(x)}`).join(", "),
        ratio(upMs / floorMs),
        ratio(median(roundRatios)),
        `${((upMs - floorMs) / STACK_SIZE).toFixed(1)} ms`,
        kib(bytes),
        ratio(bytes / floorBytes),
      ]);
    }
    console.log(
      [
        `### pulumi up of ${STACK_SIZE} templates x 10 records: plugin, dynamic resources, engine floor`,
        "",
        `A create of each stack, ${ROUNDS} rounds, each starting with another variant (destroy in between), median shown. State: bytes of one resource in \`pulumi stack export\`.`,
        "",
        table(
          [
            "provider",
            "up (median)",
            "runs (ms)",
            "ratio to floor",
            "median of per-round ratios",
            "above floor per resource",
            "state per resource",
            "state ratio to floor",
          ],
          rows,
        ),
      ].join("\n"),
    );
  } finally {
    await removeStacks(
      variants.map((v) => v.stack),
      backendDir,
    );
    await sandbox.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
