/**
 * The plugin's entry point as the engine starts it: flags, then the engine's address as its
 * arguments; the port on the first line of stdout; the schema and version served there; requests
 * larger than gRPC's default 4 MiB accepted (a large template); an exit, with a message, when the
 * engine goes or the port cannot be had. Run in this process (the entry point is module code), with
 * a stand-in engine on loopback and `process.exit` caught.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, describe, expect, it, vi } from "vitest";
import schema from "../../../provider/plugin/schema.json";

const argv = process.argv;
afterEach(() => {
  process.argv = argv;
  vi.restoreAllMocks();
  vi.resetModules();
});

/** Starts the entry point with `args` after the script; what it printed and the exits it asked for. */
async function start(args: string[]) {
  const printed: string[] = [];
  const errors: string[] = [];
  const exits: unknown[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void printed.push(String(line)));
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void errors.push(String(line)));
  vi.spyOn(process, "exit").mockImplementation(((code?: number) => void exits.push(code)) as never);
  process.argv = [argv[0] ?? "node", "pulumi-resource-domainapi", ...args];
  await import("../../../provider/plugin/main.js");
  return { printed, errors, exits };
}

async function until<T>(what: () => T | undefined, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = what();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function call<Req, Res>(client: ResourceProviderClient, method: string, request: Req): Promise<Res> {
  const fn = (
    client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, v: Res) => void) => void>
  )[method];
  if (fn === undefined) throw new Error(`no RPC ${method}`);
  return new Promise((resolve, reject) => fn.call(client, request, (e, v) => (e ? reject(e) : resolve(v))));
}

/** A stand-in engine on loopback: its Log service, what it was told; no health service. */
async function standInEngine(): Promise<{ address: string; server: grpc.Server; told: string[] }> {
  const told: string[] = [];
  const server = new grpc.Server();
  server.addService(EngineService, {
    log(call: grpc.ServerUnaryCall<LogRequest, Empty>, done: grpc.sendUnaryData<Empty>) {
      told.push(`${call.request.getUrn()} ${call.request.getMessage()}`);
      done(null, new Empty());
    },
    getRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
    setRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, server, told };
}

describe("pulumi-resource-domainapi", () => {
  it("prints its port, serves the schema there, logs to its engine, and exits once the engine is gone", async () => {
    const engine = await standInEngine();
    const { printed, errors, exits } = await start(["-v=9", "--logtostderr", engine.address]);
    const port = await until(() => printed[0]);
    expect(port).toMatch(/^\d+$/);
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const info = await call<Empty, PluginInfo>(client, "getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(schema.version);
      // A request above gRPC's default limit of 4 MiB: a template of many records is that large.
      const served = await call<pb.GetSchemaRequest, pb.GetSchemaResponse>(
        client,
        "getSchema",
        new pb.GetSchemaRequest(),
      );
      expect(JSON.parse(served.getSchema())).toEqual(schema);
      const settings = Struct.fromJavaScript({ apiKey: "k", baseUrl: "http://127.0.0.1:9" });
      await call(client, "configure", new pb.ConfigureRequest().setArgs(settings));
      const big = new pb.CheckRequest()
        .setUrn(`urn:pulumi:dev::p::domainapi:index:DomainRestore::r`)
        .setNews(Struct.fromJavaScript({ domain: "shop.example" }))
        .setRandomseed(new Uint8Array(5 << 20));
      const checked = await call<pb.CheckRequest, pb.CheckResponse>(client, "check", big);
      expect(checked.getInputs()?.toJavaScript()).toEqual({ domain: "shop.example" });
      // The engine is the address given, not a flag: what a call logs reaches it, under its resource.
      const urn = `urn:pulumi:dev::p::domainapi:index:DnsTemplateRecords::web`;
      await call(client, "read", new pb.ReadRequest().setUrn(urn).setId("tpl-1"));
      expect(engine.told).toEqual([
        expect.stringMatching(new RegExp(`^${urn.replace(/[$]/g, "\\$&")} template tpl-1 imported: `)),
      ]);
    } finally {
      client.close();
    }
    expect(exits).toEqual([]);
    engine.server.forceShutdown();
    await until(() => exits[0]);
    expect(exits).toEqual([1]);
    expect(errors).toEqual([
      "pulumi-resource-domainapi: the Pulumi engine is gone; exiting without sending more",
    ]);
  });

  it("started without an engine's address, it serves and watches nothing", async () => {
    const { printed, errors, exits } = await start(["--logtostderr"]);
    const port = await until(() => printed[0]);
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const info = await call<Empty, PluginInfo>(client, "getPluginInfo", new Empty());
      expect(info.getVersion()).toBe(schema.version);
    } finally {
      client.close();
    }
    expect([exits, errors]).toEqual([[], []]);
  });

  it("a port it cannot have is an exit with the reason, and no port printed", async () => {
    vi.spyOn(grpc.Server.prototype, "bindAsync").mockImplementation((_address, _creds, callback) =>
      callback(new Error("bind EADDRNOTAVAIL 127.0.0.1"), -1),
    );
    const { errors, exits } = await start([]);
    expect(exits).toEqual([1]);
    expect(errors).toEqual([
      "pulumi-resource-domainapi: cannot listen on 127.0.0.1: bind EADDRNOTAVAIL 127.0.0.1",
    ]);
  });
});
