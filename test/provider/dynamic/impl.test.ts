/**
 * What the dynamic shims load (`pulumi-domainapi/impl`): each resource's provider methods and
 * nothing else, and, loaded in the engine's dynamic-provider process (its script and the engine's
 * address as arguments), its logs sent to that engine and a watch of it that exits once it is
 * gone. Loaded in this process with `process.argv` set as the engine sets it, stand-in engines on
 * loopback, `process.exit` caught.
 */
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterEach, describe, expect, it, vi } from "vitest";

const argv = process.argv;
const SCRIPT = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";
afterEach(() => {
  process.argv = argv;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

/**
 * A stand-in engine that answers health checks, counting them, and takes log messages, each
 * answered (and then counted as told) after `logDelayMs`.
 */
async function standInEngine(logDelayMs = 0) {
  let checks = 0;
  const told: string[] = [];
  const server = new grpc.Server();
  const bytes = (b: Buffer) => b;
  server.addService(
    {
      check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: bytes,
        requestDeserialize: bytes,
        responseSerialize: bytes,
        responseDeserialize: bytes,
      },
    },
    {
      check: (_call: unknown, done: grpc.sendUnaryData<Buffer>) => {
        checks += 1;
        done(null, Buffer.alloc(0));
      },
    },
  );
  server.addService(EngineService, {
    log(call: grpc.ServerUnaryCall<LogRequest, Empty>, done: grpc.sendUnaryData<Empty>) {
      setTimeout(() => {
        told.push(call.request.getMessage());
        done(null, new Empty());
      }, logDelayMs);
    },
    getRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
    setRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    checks: () => checks,
    told: () => [...told],
    stop: () => server.forceShutdown(),
  };
}

/** Loads the implementation afresh as a process started with `args` would. */
async function load(args: string[]): Promise<typeof import("../../../provider/dynamic/impl")> {
  vi.resetModules();
  process.argv = [argv[0] ?? "node", ...args];
  return import("../../../provider/dynamic/impl.js");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("pulumi-domainapi/impl", () => {
  it("offers each resource's dynamic provider methods, and nothing else of the modules", async () => {
    const impl = await load(["/p/program.js"]);
    expect(Object.keys(impl.records).sort()).toEqual(
      ["check", "configure", "create", "delete", "diff", "read", "update"].sort(),
    );
    // A restore has no read: the dynamic host keeps the state as it is on refresh.
    expect(Object.keys(impl.restore).sort()).toEqual(
      ["check", "configure", "create", "delete", "diff", "update"].sort(),
    );
    vi.stubEnv("DOMAINAPI_API_KEY", "k");
    vi.stubEnv("DOMAINAPI_BASE_URL", "http://127.0.0.1:9");
    const checked = await impl.restore.check({}, { domain: "Shop.Example", colour: "blue" });
    expect(checked.failures?.map((f) => f.property)).toEqual(["colour"]);
    await expect(
      impl.restore.diff("shop.example", { domain: "a.example" }, { domain: "b.example" }),
    ).resolves.toEqual({
      changes: true,
      replaces: ["domain"],
      deleteBeforeReplace: true,
    });
  });

  it("answers a call only once what it logged has reached the engine", async () => {
    const engine = await standInEngine(200);
    const impl = await load(["/p/program.js"]);
    const log = await import("../../../provider/log.js");
    log.attachToEngine(engine.address);
    await impl.restore.delete("shop.example", { domain: "shop.example" });
    expect(engine.told()).toEqual([
      "DomainRestore shop.example: a restore cannot be undone; removing it from the stack leaves the domain as it is",
    ]);
    engine.stop();
  });

  it("in the engine's dynamic-provider process, logs to the engine at its address, and exits once it is gone", async () => {
    const exits: unknown[] = [];
    vi.spyOn(process, "exit").mockImplementation(((code?: number) => void exits.push(code)) as never);
    const engine = await standInEngine();
    // The process starts with no engine set in the SDK: only its arguments name it.
    pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, "", "", false, "");
    const impl = await load([SCRIPT, engine.address]);
    await impl.restore.delete("host.example", { domain: "host.example" });
    // Shown by `pulumi up` as the engine's own warning, not lost in the plugin's output.
    expect(engine.told()).toEqual([
      "DomainRestore host.example: a restore cannot be undone; removing it from the stack leaves the domain as it is",
    ]);
    // Other processes (a program, a host given no or a malformed address) watch nothing.
    await load(["/p/program.js", "127.0.0.1:1"]);
    await load([SCRIPT, "127.0.0.1:1x"]);
    await load([SCRIPT, "no such host:1"]);
    await load([SCRIPT]);
    await sleep(1_300);
    expect(engine.checks()).toBeGreaterThan(0);
    expect(exits).toEqual([]);
    engine.stop();
    for (let waited = 0; exits.length === 0 && waited < 5_000; waited += 50) await sleep(50);
    expect(exits).toEqual([1]);
  });
});
