/**
 * The provider plugin against the dynamic resources and the engine's floor, side by side in one run:
 * `pulumi up` (a create) of 100 templates of 10 records through each, and the state each leaves per
 * resource. The same Node inline program shape drives all three, so only the provider differs:
 *
 * - plugin: `domainapi:index:DnsTemplateRecords` through `pulumi-resource-domainapi` (one process
 *   for the provider, found through `plugins.providers` as a YAML program finds it);
 * - dynamic: the package's `DnsTemplateRecords` (the dynamic-provider host, `__provider` stored);
 * - floor: test/fixtures/engine-floor, a dynamic resource that echoes its inputs.
 *
 *   npm run build && bash scripts/with-pulumi.sh node bench/plugin.ts
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { engineFloor, linkPackage, repoRoot } from "../scripts/link-package.ts";

type Pulumi = typeof import("@pulumi/pulumi");
type Automation = typeof import("@pulumi/pulumi/automation/index.js");
type Stack = import("@pulumi/pulumi/automation/index.js").Stack;
type ConfigValue = import("@pulumi/pulumi/automation/index.js").ConfigValue;
type ProjectSettings = import("@pulumi/pulumi/automation/index.js").ProjectSettings;

const workRoot = path.join(repoRoot, "test", ".work");
linkPackage(workRoot);
linkPackage(workRoot, engineFloor, "domainapi-engine-floor");
const load = createRequire(path.join(workRoot, "program.js"));

type ResourceClass = new (name: string, args: Record<string, unknown>) => unknown;
const pulumi = load("@pulumi/pulumi") as Pulumi;
const automation = load("@pulumi/pulumi/automation") as Automation;
const domainapi = load("pulumi-domainapi") as { DnsTemplateRecords: ResourceClass };
const { EngineFloor } = load("domainapi-engine-floor") as { EngineFloor: ResourceClass };
const { startSandbox } = load("domainapi-sandbox") as typeof import("domainapi-sandbox");

const API_KEY = "bench-plugin-key-3c7d";
const STACK_SIZE = Number(process.env.BENCH_STACK_SIZE ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function resourceRecords(i: number): Record<string, unknown>[] {
  return [
    { name: "@", type: "A", content: `192.0.2.${(i % 250) + 1}` },
    { name: "@", type: "AAAA", content: `2001:db8::${i.toString(16)}` },
    { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
    { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
    { name: "@", type: "TXT", content: `v=spf1 include:_spf${i}.example.net -all` },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "api", type: "A", content: `198.51.100.${(i % 250) + 1}` },
    { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=quarantine" },
    { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
    { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  ];
}
const templateOf = (i: number) => `bench-${String(i).padStart(3, "0")}`;

/** The plugin's resource, registered by its type token (what a generated SDK does). */
class PluginTemplateRecords extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>) {
    super("domainapi:index:DnsTemplateRecords", name, { ...args, ids: undefined, lastPlan: undefined });
  }
}

interface Variant {
  name: string;
  /** The state's type of the resources measured. */
  type: string;
  make: (i: number) => void;
  config: Record<string, ConfigValue>;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < STACK_SIZE; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-bench-plugin-"));
  const settings = {
    "domainapi:baseUrl": { value: sandbox.url },
    "domainapi:apiKey": { value: API_KEY, secret: true },
  };
  const variants: Variant[] = [
    {
      name: "floor",
      type: "pulumi-nodejs:dynamic/domainapi:EngineFloor",
      make: (i) => new EngineFloor(`r${i}`, { records: resourceRecords(i) }),
      config: {},
    },
    {
      name: "dynamic",
      type: "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords",
      make: (i) =>
        new domainapi.DnsTemplateRecords(`r${i}`, { templateId: templateOf(i), records: resourceRecords(i) }),
      config: settings,
    },
    {
      name: "plugin",
      type: "domainapi:index:DnsTemplateRecords",
      make: (i) =>
        new PluginTemplateRecords(`r${i}`, { templateId: templateOf(i), records: resourceRecords(i) }),
      config: settings,
    },
  ];
  const stacks: { variant: Variant; stack: Stack; workDir: string }[] = [];
  try {
    for (const variant of variants) {
      const workDir = fs.mkdtempSync(path.join(workRoot, `bench-plugin-${variant.name}-`));
      const stack = await automation.LocalWorkspace.createOrSelectStack(
        {
          stackName: variant.name,
          projectName: "domainapi-bench-plugin",
          program: async () => {
            for (let i = 0; i < STACK_SIZE; i++) variant.make(i);
            return {};
          },
        },
        {
          workDir,
          envVars: {
            PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
            PULUMI_BACKEND_URL: `file://${backendDir}`,
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          },
          secretsProvider: "passphrase",
          // The plugin found as a YAML program finds it (the SDK's type does not name `plugins` yet).
          projectSettings: {
            name: "domainapi-bench-plugin",
            runtime: "nodejs",
            backend: { url: `file://${backendDir}` },
            plugins: { providers: [{ name: "domainapi", path: repoRoot }] },
          } as ProjectSettings,
        },
      );
      await stack.setAllConfig(variant.config);
      stacks.push({ variant, stack, workDir });
    }

    const runs: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another variant, so that none always runs on a cold or a warm machine.
      for (const { variant, stack } of [
        ...stacks.slice(round % stacks.length),
        ...stacks.slice(0, round % stacks.length),
      ]) {
        const t0 = performance.now();
        const up = await stack.up();
        if (up.summary.result !== "succeeded") throw new Error(`${variant.name}: up ${up.summary.result}`);
        runs[variant.name]?.push(performance.now() - t0);
        if (round < ROUNDS - 1) await stack.destroy();
      }
    }
    const puts = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
    if (puts !== 2 * STACK_SIZE * ROUNDS)
      throw new Error(`expected ${2 * STACK_SIZE * ROUNDS} PUTs, saw ${puts}`);

    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(s.length / 2);
      return (s.length % 2 ? s[mid] : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2) ?? 0;
    };
    const floorMs = median(runs.floor ?? []);
    const rows: string[][] = [];
    let floorBytes = 0;
    for (const { variant, stack } of stacks) {
      const resources = ((await stack.exportStack()).deployment.resources ?? []) as { type: string }[];
      const mine = resources.filter((r) => r.type === variant.type);
      const bytes =
        mine.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0) / Math.max(mine.length, 1);
      if (variant.name === "floor") floorBytes = bytes;
      const upMs = median(runs[variant.name] ?? []);
      // Each round's ratio to that round's floor: robust to the machine's load drifting between rounds.
      const roundRatios = (runs[variant.name] ?? []).map((x, r) => x / (runs.floor?.[r] ?? x));
      rows.push([
        variant.name,
        `${Math.round(upMs)} ms`,
        (runs[variant.name] ?? []).map((x) => `${Math.round(x)}`).join(", "),
        `${(upMs / floorMs).toFixed(2)}x`,
        `${median(roundRatios).toFixed(2)}x`,
        `${((upMs - floorMs) / STACK_SIZE).toFixed(1)} ms`,
        `${(bytes / 1024).toFixed(2)} KiB`,
        `${(bytes / floorBytes).toFixed(2)}x`,
      ]);
    }
    const header = [
      "provider",
      "up (median)",
      "runs (ms)",
      "ratio to floor",
      "median of per-round ratios",
      "above floor per resource",
      "state per resource",
      "state ratio to floor",
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    console.log(
      [
        `### pulumi up of ${STACK_SIZE} templates x 10 records: plugin, dynamic resources, engine floor`,
        "",
        `A create of each stack, ${ROUNDS} rounds, each starting with another variant (destroy in between), median shown. State: bytes of one resource in \`pulumi stack export\`.`,
        "",
        line(header),
        `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
        ...rows.map(line),
      ].join("\n"),
    );
  } finally {
    for (const { stack, workDir } of stacks) {
      try {
        await stack.destroy();
        await stack.workspace.removeStack(stack.name, { force: true });
      } catch {
        // best effort
      }
      fs.rmSync(workDir, { recursive: true, force: true });
    }
    fs.rmSync(backendDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
