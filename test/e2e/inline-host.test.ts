/**
 * A test file runs many inline programs in one process. The Pulumi
 * SDK leaks each run's gRPC clients, and grpc-js shares connections between clients by address, so
 * a run whose engine got a loopback port that an earlier, dead engine had used could fail at once
 * with `14 UNAVAILABLE: No connection established. Last error: null` (seen once in CI, in the fault
 * matrix). This reproduces that sequence with two real gRPC servers on one port and checks that a
 * client made with the SDK's options, as isolated by the harness, is not affected.
 */
import { afterEach, describe, expect, it } from "vitest";
import { requireFromWork } from "./harness";

type GrpcJs = typeof import("@grpc/grpc-js");
const grpc = requireFromWork<GrpcJs>("@grpc/grpc-js");
const settings = requireFromWork<{ grpcClientOptions: Record<string, unknown> }>(
  "@pulumi/pulumi/runtime/settings",
);

const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer): unknown => JSON.parse(bytes.toString()),
};
const service = {
  ping: {
    path: "/test.Engine/Ping",
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
} as const;
const EngineClient = grpc.makeGenericClientConstructor(service, "Engine");
type Client = InstanceType<typeof EngineClient>;

const servers: import("@grpc/grpc-js").Server[] = [];
const clients: Client[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) s.forceShutdown();
});

function serve(port: number): Promise<{ server: import("@grpc/grpc-js").Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = new grpc.Server();
    server.addService(service, {
      ping: (_call: unknown, done: (e: null, r: object) => void) => done(null, {}),
    });
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => {
      if (err) return reject(err);
      servers.push(server);
      resolve({ server, port: bound });
    });
  });
}

function client(port: number, options: Record<string, unknown>): Client {
  const c = new EngineClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), options);
  clients.push(c);
  return c;
}

function ping(c: Client): Promise<string> {
  return new Promise((resolve) => {
    (c as unknown as { ping(req: object, cb: (err: Error | null) => void): void }).ping({}, (err) =>
      resolve(err ? err.message : "ok"),
    );
  });
}

/** One "run": an engine on `port`, a client that talks to it, then the engine goes away. */
async function deadRun(options: Record<string, unknown>): Promise<number> {
  const { server, port } = await serve(0);
  const leaked = client(port, options);
  expect(await ping(leaked)).toBe("ok");
  server.forceShutdown();
  // A late call on the leaked client, after its engine exited, leaves its connection backing off.
  expect(await ping(leaked)).toMatch(/UNAVAILABLE/);
  return port;
}

describe("inline programs in one process (harness: isolateInlineProgramChannels)", () => {
  it("gives the SDK's clients their own connections", () => {
    expect(settings.grpcClientOptions["grpc.use_local_subchannel_pool"]).toBe(1);
  });

  it("a new engine on a reused port is reachable by a client made with the SDK's options", async () => {
    const port = await deadRun(settings.grpcClientOptions);
    await serve(port);
    expect(await ping(client(port, settings.grpcClientOptions))).toBe("ok");
  });

  it("without the isolation, the same sequence fails (the reason it exists)", async () => {
    // If grpc-js stops handing out backing-off shared connections, this fails and the workaround
    // in harness.ts can go.
    const port = await deadRun({});
    await serve(port);
    expect(await ping(client(port, {}))).toMatch(
      /14 UNAVAILABLE: No connection established\. Last error: null/,
    );
  });
});
