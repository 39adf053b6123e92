/**
 * The plugin's own cost per RPC, without the engine: starts the release binary and the
 * npm-launched plugin side by side, configures each against one sandbox, then times Check and
 * Create of n templates (what `up` asks per resource) and Check and Diff of the same (what
 * `preview` asks), the two plugins alternating call by call. Tells the plugin's share of a
 * benchmark's time per resource from the engine's.
 *
 *   npm run build && npm run dist && bash scripts/with-pulumi.sh node bench/plugin-rpc.ts [--n 200] [--profile DIR]
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import grpcStubs from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import msg from "@pulumi/pulumi/proto/provider_pb.js";
import structPb from "google-protobuf/google/protobuf/struct_pb.js";
import { TOKENS } from "../provider/manifest.ts";
import { installPluginBinary } from "../scripts/lib/plugin-install.ts";
import { startSandbox } from "../scripts/lib/sandbox.ts";
import { median, ms, ratio, table } from "./lib/report.ts";
import { resourceRecords, templateOf } from "./lib/templates.ts";

// The generated stubs are CommonJS whose exports Node cannot name statically.
const { ResourceProviderClient } = grpcStubs;
type ResourceProviderClient = InstanceType<typeof ResourceProviderClient>;
const { Struct } = structPb;

const { values } = parseArgs({
  options: { n: { type: "string", default: "200" }, profile: { type: "string" } },
});
const N = Number(values.n);
const API_KEY = "bench-key";
const repoRoot = path.resolve(import.meta.dirname, "..");

type Call = (client: ResourceProviderClient, req: never) => Promise<unknown>;
const rpc =
  (name: "configure" | "check" | "create" | "diff"): Call =>
  (client, req) =>
    new Promise((resolve, reject) =>
      (client[name] as (r: never, cb: (e: Error | null, res: unknown) => void) => void).call(
        client,
        req,
        (e, r) => (e ? reject(e) : resolve(r)),
      ),
    );

/** Starts `command` and connects to the port it prints. */
async function connect(command: string): Promise<{ client: ResourceProviderClient; stop: () => void }> {
  // With --profile DIR, each plugin writes a CPU profile there when stopped (exit-on-signal).
  const env =
    values.profile === undefined
      ? process.env
      : {
          ...process.env,
          NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(values.profile)} --import=${path.join(import.meta.dirname, "lib", "exit-on-signal.ts")}`,
        };
  const child = spawn(command, [], { stdio: ["ignore", "pipe", "inherit"], env });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`${command} exited ${code}`)));
  });
  child.stdout.resume();
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const stop = (): void => {
    client.close();
    child.kill();
  };
  return { client, stop };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < N; i++) sandbox.seedTemplate(templateOf(i), []);
  const binary = await installPluginBinary(repoRoot);
  const plugins = [
    [
      "npm plugin",
      path.join(repoRoot, "bench", ".work", "node_modules", "pulumi-domainapi", "pulumi-resource-domainapi"),
    ],
    ["binary", binary.executable],
  ] as const;
  const conns = await Promise.all(plugins.map(([, command]) => connect(command)));
  try {
    const args = Struct.fromJavaScript({ baseUrl: sandbox.url, apiKey: API_KEY });
    for (const { client } of conns)
      await rpc("configure")(client, new msg.ConfigureRequest().setArgs(args) as never);
    const times = conns.map(() => ({ up: [] as number[], preview: [] as number[] }));
    for (let i = 0; i < N; i++) {
      const urn = `urn:pulumi:bench::domainapi-bench::${TOKENS.records}::r${i}`;
      const news = Struct.fromJavaScript(
        JSON.parse(JSON.stringify({ templateId: templateOf(i), records: resourceRecords(i) })),
      );
      for (const [k, { client }] of conns.entries()) {
        let t0 = performance.now();
        const checked = (await rpc("check")(
          client,
          new msg.CheckRequest().setUrn(urn).setNews(news).setOlds(new Struct()) as never,
        )) as msg.CheckResponse;
        const created = (await rpc("create")(
          client,
          new msg.CreateRequest().setUrn(urn).setProperties(checked.getInputs()) as never,
        )) as msg.CreateResponse;
        times[k]?.up.push(performance.now() - t0);
        t0 = performance.now();
        const rechecked = (await rpc("check")(
          client,
          new msg.CheckRequest().setUrn(urn).setNews(news).setOlds(checked.getInputs()) as never,
        )) as msg.CheckResponse;
        await rpc("diff")(
          client,
          new msg.DiffRequest()
            .setUrn(urn)
            .setId(created.getId())
            .setOlds(created.getProperties())
            .setOldInputs(checked.getInputs())
            .setNews(rechecked.getInputs()) as never,
        );
        times[k]?.preview.push(performance.now() - t0);
      }
    }
    const npm = times[0] ?? { up: [], preview: [] };
    const rows = plugins.map(([name], k) => {
      const t = times[k] ?? { up: [], preview: [] };
      return [
        name,
        ms(median(t.up)),
        ratio(median(t.up) / median(npm.up)),
        ms(median(t.preview)),
        ratio(median(t.preview) / median(npm.preview)),
      ];
    });
    console.log(
      table(
        ["plugin", "Check + Create (median)", "/ npm plugin", "Check + Diff (median)", "/ npm plugin"],
        rows,
      ),
    );
  } finally {
    for (const c of conns) c.stop();
    binary.cleanup();
    await sandbox.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
