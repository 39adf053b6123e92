/**
 * CPU profiles of a stack of `n` DnsTemplateRecords (10 records each): `pulumi up`, `preview` (no
 * change) and `destroy`, each with the program (this process: an inline program runs here) under
 * the inspector's profiler and the engine's dynamic-provider plugin process under `--cpu-prof`.
 * Prints where each spends its time (bench/profile-summary.ts does the same for any profile).
 *
 *   npm run build && bash scripts/with-pulumi.sh node bench/profile.ts --size 1000 --out bench/results/profiles
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { readProfile, summarize } from "./lib/cpuprofile.ts";
import { API_KEY, repoRoot } from "./lib/package.ts";
import { pluginProfileEnv, withCpuProfile } from "./lib/profile.ts";
import { table } from "./lib/report.ts";
import { startSandbox } from "./lib/sandbox.ts";
import {
  type BenchStack,
  createStack,
  newBackend,
  recordsProgram,
  removeStacks,
  templateOf,
} from "./lib/stacks.ts";

const { values } = parseArgs({
  options: {
    size: { type: "string", default: "1000" },
    out: { type: "string", default: path.join("bench", "results", "profiles") },
    top: { type: "string", default: "12" },
  },
});
const n = Number(values.size);
const outDir = path.resolve(repoRoot, values.out);

function report(file: string, title: string): string {
  const { total, functions, packages } = summarize(readProfile(file));
  const row = (s: { name: string; ms: number; share: number }): string[] => [
    `\`${s.name}\``,
    `${Math.round(s.ms)} ms`,
    `${(s.share * 100).toFixed(1)}%`,
  ];
  const top = Number(values.top);
  return [
    `#### ${title}: ${Math.round(total)} ms profiled (${path.relative(repoRoot, file)})`,
    "",
    table(["package", "self time", "share"], packages.slice(0, top).map(row)),
    "",
    table(["function", "self time", "share"], functions.slice(0, top).map(row)),
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  fs.rmSync(outDir, { recursive: true, force: true });
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < n; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = newBackend();
  const stacks: BenchStack[] = [];
  const sections: string[] = [];
  try {
    const s = await createStack(`profile-${n}`, recordsProgram(n), backendDir, {
      config: {
        "domainapi:baseUrl": { value: sandbox.url },
        "domainapi:apiKey": { value: API_KEY, secret: true },
      },
    });
    stacks.push(s);
    for (const op of ["up", "preview", "destroy"] as const) {
      // Each operation's plugin process writes its profile to a directory of its own.
      const pluginDir = path.join(outDir, `plugin-${op}`);
      Object.assign((s.stack.workspace as LocalWorkspace).envVars, pluginProfileEnv(pluginDir));
      const programFile = path.join(outDir, `program-${op}.cpuprofile`);
      const t0 = performance.now();
      await withCpuProfile(programFile, async () => {
        if (op === "up") await s.stack.up();
        else if (op === "preview") await s.stack.preview();
        else await s.stack.destroy();
      });
      const took = performance.now() - t0;
      console.error(`${op} of ${n}: ${Math.round(took)} ms`);
      sections.push(`### pulumi ${op} of ${n} DnsTemplateRecords (${Math.round(took)} ms, profiled)\n`);
      sections.push(report(programFile, "The program (Automation API inline program, this process)"));
      // Give the engine a moment to stop the plugin, which then writes its profile.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const plugin = fs.existsSync(pluginDir)
        ? fs.readdirSync(pluginDir).filter((f) => f.endsWith(".cpuprofile"))
        : [];
      for (const f of plugin)
        sections.push(report(path.join(pluginDir, f), "The dynamic-provider plugin process"));
      if (plugin.length === 0) sections.push("(the plugin process wrote no profile)\n");
    }
  } finally {
    await removeStacks(stacks, backendDir);
    await sandbox.close();
  }
  const text = sections.join("\n");
  fs.writeFileSync(path.join(outDir, "summary.md"), text);
  console.log(text);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
