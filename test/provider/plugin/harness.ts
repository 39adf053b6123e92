/**
 * The provider plugin's gRPC server served in this test file's process, called through the SDK's
 * generated client as the engine calls it; with `engine`, a stand-in engine whose Log service
 * records every message the plugin sends.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, expect } from "vitest";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";
import { attachToEngine } from "../../../provider/log";
import type { resourceProviderServer } from "../../../provider/plugin/server";

/** A property bag as the engine's Structs carry it. */
export type Props = Record<string, unknown>;

/** One message the stand-in engine was told. */
export interface Told {
  severity: number;
  message: string;
  urn: string;
}

/** The plugin of one test file: its RPCs, and what the stand-in engine was told. */
export interface Plugin {
  /** Calls one RPC; a call left unanswered fails the test within seconds instead of hanging it. */
  rpc<Req, Res>(method: string, request: Req): Promise<Res>;
  /** The error an RPC failed with (the test fails if it answered). */
  failure(method: string, request: unknown): Promise<grpc.ServiceError>;
  /** Every message the stand-in engine was told (with `engine` only); tests empty it as they need. */
  told: Told[];
}

/** How the plugin is served: what it says of itself, where an engine's address goes. */
export interface PluginOptions {
  version?: string;
  schema?: string;
  /** What the server does with the engine address Attach gives; `attachToEngine` with `engine`. */
  onAttach?: (address: string) => void;
  /** A stand-in engine the plugin logs to, and a state directory of the file's own. */
  engine?: boolean;
}

/** A Struct of `props`, as the engine sends inputs. */
export const struct = (props: Props): Struct => Struct.fromJavaScript(props as never);

/** The properties of a Struct the plugin answered (`{}` for none). */
export const js = (s: Struct | undefined): Props => (s?.toJavaScript() ?? {}) as Props;

function listen(server: grpc.Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) =>
      e ? reject(e) : resolve(port),
    ),
  );
}

function engineServer(told: Told[]): grpc.Server {
  const engine = new grpc.Server();
  engine.addService(EngineService, {
    log(call: grpc.ServerUnaryCall<LogRequest, Empty>, done: grpc.sendUnaryData<Empty>) {
      const r = call.request;
      told.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn() });
      done(null, new Empty());
    },
    getRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
    setRootResource: (_c: unknown, done: grpc.sendUnaryData<unknown>) => done(null, undefined),
  });
  return engine;
}

/**
 * Serves the plugin for the whole test file (before its first test, closed after its last). The
 * test names what it serves, so that it counts as one of that module's own tests.
 *
 * @example
 * const plugin = usePlugin(resourceProviderServer, { engine: true });
 * await plugin.rpc("configure", new pb.ConfigureRequest().setArgs(struct({ apiKey, baseUrl })));
 */
export function usePlugin(serve: typeof resourceProviderServer, options: PluginOptions = {}): Plugin {
  const told: Told[] = [];
  let server: grpc.Server | undefined;
  let engine: grpc.Server | undefined;
  let client: ResourceProviderClient | undefined;
  let state: string | undefined;

  beforeAll(async () => {
    if (options.engine) {
      state = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plugin-"));
      process.env[STATE_DIR_ENV] = state;
      engine = engineServer(told);
      attachToEngine(`127.0.0.1:${await listen(engine)}`);
    }
    const onAttach = options.onAttach ?? (options.engine ? attachToEngine : () => {});
    server = new grpc.Server();
    server.addService(
      ResourceProviderService,
      serve(options.version ?? "9.8.7", options.schema ?? "{}", onAttach),
    );
    client = new ResourceProviderClient(
      `127.0.0.1:${await listen(server)}`,
      grpc.credentials.createInsecure(),
    );
  });
  afterAll(() => {
    client?.close();
    server?.forceShutdown();
    engine?.forceShutdown();
    if (state !== undefined) {
      delete process.env[STATE_DIR_ENV];
      fs.rmSync(state, { recursive: true, force: true });
    }
  });

  function rpc<Req, Res>(method: string, request: Req): Promise<Res> {
    type Unary = (r: Req, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v: Res) => void) => void;
    const fn = (client as unknown as Record<string, Unary>)[method];
    if (fn === undefined) throw new Error(`no RPC ${method}`);
    const options = { deadline: Date.now() + 20_000 };
    return new Promise((resolve, reject) =>
      fn.call(client, request, options, (e, v) => (e ? reject(e) : resolve(v))),
    );
  }
  return {
    rpc,
    told,
    failure: (method, request) =>
      rpc(method, request).then(
        () => expect.fail(`${method} answered`),
        (e: grpc.ServiceError) => e,
      ),
  };
}
