/**
 * What the Pulumi Node SDK's provider host (`@pulumi/pulumi/provider`'s `main()`, 3.259) does not
 * do for a provider plugin, done here, around its gRPC service and not in node_modules:
 *
 * - `Configure`: the SDK answers without looking at the request, so an explicit provider's inputs
 *   (`new domainapi.Provider(..., { apiKey, baseUrl })`) would reach no one. Here they configure
 *   the session (provider/session.ts), which holds one client per plugin process; the engine runs
 *   one plugin process per provider instance, so two providers reach each its own API.
 * - `CheckConfig`/`DiffConfig`: unimplemented in the SDK. Here the provider's inputs are validated
 *   with up's messages, the key is marked secret (so the state holds it encrypted even when a
 *   program passes it as plain text), and a change of settings updates the provider in place
 *   instead of replacing every resource that uses it.
 * - `Diff`: the SDK's answer has no detailed diff; here it carries one (diff.ts).
 * - `Read` without properties (`pulumi import`): the SDK crashes on it; here it is answered from
 *   the id (provider.ts, importedState).
 *
 * The SDK builds its gRPC server inside `main()`; the one way in is the service implementation it
 * registers, so {@link installHostOverrides} wraps `addService` of the SDK's own grpc-js for that
 * one service. Everything else is the SDK's.
 */
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { ConfigError } from "../client/errors";
import { type ConfigKey, resolveConfig } from "../config";
import { UNKNOWN } from "../engine";
import * as records from "../records/provider";
import { detailedDiff } from "./diff";
import { importedState, typeOfUrn } from "./provider";
import { isSecret, secret, unwrapSecrets } from "./secrets";

type Props = Record<string, unknown>;

/** The provider inputs the plugin takes (schema.json's `provider.inputProperties`). */
export const PROVIDER_INPUTS = ["apiKey", "baseUrl", "timeoutMs", "maxRetries", "verifyOnRefresh"] as const;
/** One provider input's name. */
export type ProviderInput = (typeof PROVIDER_INPUTS)[number];

/**
 * The settings of a provider's inputs as text, as `configure()` of the session reads them. The
 * engine hands a default provider the stack config (strings) and an explicit one the program's
 * values (numbers and booleans too); a secret arrives wrapped.
 *
 * @example
 * settingsOf({ apiKey: secret("k"), timeoutMs: 5000 }); // { apiKey: "k", timeoutMs: "5000" }
 */
export function settingsOf(inputs: Props): Partial<Record<ProviderInput, string>> {
  const { value } = unwrapSecrets(inputs);
  const out: Partial<Record<ProviderInput, string>> = {};
  for (const key of PROVIDER_INPUTS) {
    const v = value[key];
    if (v !== undefined && v !== null && v !== "") out[key] = String(v);
  }
  return out;
}

/**
 * The `configure()` request the dynamic providers' session takes, built from a provider's inputs:
 * `domainapi:<name>` reads the input `<name>`. Unset inputs fall back to the environment there.
 */
export function configureRequestOf(
  settings: Partial<Record<ProviderInput, string>>,
): pulumi.dynamic.ConfigureRequest {
  const get = (key: string): string | undefined =>
    key.startsWith("domainapi:") ? settings[key.slice("domainapi:".length) as ProviderInput] : undefined;
  return { config: { get } as pulumi.dynamic.ConfigureRequest["config"] };
}

/**
 * Check of a provider's inputs: every malformed setting fails with the message `up` would give;
 * a missing key or base address is left to `up` (the environment may supply it, and a preview
 * runs without it). The key comes back marked secret.
 */
export function checkProviderInputs(news: Props): {
  inputs: Props;
  failures: { property: string; reason: string }[];
} {
  // A setting known only once another resource exists (a preview) is checked when it is known.
  const settings = Object.fromEntries(Object.entries(settingsOf(news)).filter(([, v]) => v !== UNKNOWN));
  const failures: { property: string; reason: string }[] = [];
  try {
    const probe: Partial<Record<ConfigKey, string>> = {
      apiKey: "probe",
      baseUrl: "http://probe.invalid",
      ...settings,
    };
    resolveConfig((k) => probe[k], {});
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const problem of err.problems) {
      const property = /^domainapi:(\w+)/.exec(problem)?.[1] ?? "";
      if ((PROVIDER_INPUTS as readonly string[]).includes(property))
        failures.push({ property, reason: problem });
    }
  }
  const inputs: Props = { ...news };
  if (inputs.apiKey !== undefined && !isSecret(inputs.apiKey)) inputs.apiKey = secret(inputs.apiKey);
  return { inputs, failures };
}

/** Whether a provider's settings changed (the key compared by value, secret or not). */
export function providerSettingsChanged(olds: Props, news: Props): boolean {
  return !isDeepStrictEqual(settingsOf(olds), settingsOf(news));
}

// ---- the gRPC side: the SDK's own grpc-js and protobuf modules, typed as far as we use them ----

interface StructLike {
  toJavaScript(): Props;
}
interface StructClass {
  fromJavaScript(value: Props): StructLike;
}
type Callback = (err: unknown, value?: unknown) => void;
interface Call<T> {
  request: T;
}
type Handler = (call: Call<never>, callback: Callback) => unknown;
type Implementation = Record<string, Handler>;
interface GrpcServer {
  addService(service: unknown, implementation: Implementation): void;
}

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi"));
const pb = sdkRequire("@pulumi/pulumi/proto/provider_pb") as typeof providerPb;
const grpcServices = sdkRequire("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderService: unknown;
};
const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb") as { Struct: StructClass };
const grpc = sdkRequire("@grpc/grpc-js") as { Server: { prototype: GrpcServer } };

const toJs = (s: StructLike | undefined): Props => s?.toJavaScript() ?? {};

function reply(callback: Callback, work: () => Promise<unknown>): void {
  work().then(
    (value) => callback(null, value),
    (err: unknown) => callback(err),
  );
}

function failureList(failures: readonly { property: string; reason: string }[]): providerPb.CheckFailure[] {
  return failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason));
}

const KIND = {
  add: [pb.PropertyDiff.Kind.ADD, pb.PropertyDiff.Kind.ADD_REPLACE],
  delete: [pb.PropertyDiff.Kind.DELETE, pb.PropertyDiff.Kind.DELETE_REPLACE],
  update: [pb.PropertyDiff.Kind.UPDATE, pb.PropertyDiff.Kind.UPDATE_REPLACE],
} as const;

function overrides(sdk: Implementation, diffOf: Diff): Implementation {
  return {
    configure(call: Call<providerPb.ConfigureRequest>, callback: Callback) {
      const req = call.request;
      let inputs = toJs(req.getArgs());
      if (!req.hasArgs()) {
        // Older engines send only the flat config map: `domainapi:config:<name>`.
        inputs = {};
        for (const [k, v] of req.getVariablesMap().entries())
          inputs[k.replace(/^domainapi:(config:)?/, "")] = v;
      }
      records.configure(configureRequestOf(settingsOf(inputs)));
      return (sdk.configure as Handler)(call as Call<never>, callback);
    },
    checkConfig(call: Call<providerPb.CheckRequest>, callback: Callback) {
      reply(callback, async () => {
        const { inputs, failures } = checkProviderInputs(toJs(call.request.getNews()));
        return new pb.CheckResponse()
          .setInputs(Struct.fromJavaScript(inputs) as never)
          .setFailuresList(failureList(failures));
      });
    },
    diffConfig(call: Call<providerPb.DiffRequest>, callback: Callback) {
      reply(callback, async () => {
        const req = call.request;
        const olds = req.getOldInputs() ? toJs(req.getOldInputs()) : toJs(req.getOlds());
        const changed = providerSettingsChanged(olds, toJs(req.getNews()));
        const changes = changed
          ? pb.DiffResponse.DiffChanges.DIFF_SOME
          : pb.DiffResponse.DiffChanges.DIFF_NONE;
        return new pb.DiffResponse().setChanges(changes);
      });
    },
    diff(call: Call<providerPb.DiffRequest>, callback: Callback) {
      reply(callback, async () => {
        const req = call.request;
        const news = toJs(req.getNews());
        const result = await diffOf(req.getId(), req.getUrn(), toJs(req.getOlds()), news);
        const resp = new pb.DiffResponse();
        const changes =
          result.changes === true
            ? pb.DiffResponse.DiffChanges.DIFF_SOME
            : result.changes === false
              ? pb.DiffResponse.DiffChanges.DIFF_NONE
              : pb.DiffResponse.DiffChanges.DIFF_UNKNOWN;
        resp.setChanges(changes);
        resp.setReplacesList(result.replaces ?? []);
        resp.setDeletebeforereplace(result.deleteBeforeReplace === true);
        if (result.changes === true && req.getOldInputs() !== undefined) {
          const oldInputs = unwrapSecrets(toJs(req.getOldInputs())).value;
          const entries = detailedDiff(oldInputs, unwrapSecrets(news).value, result.replaces ?? []);
          if (entries.length > 0) {
            resp.setHasdetaileddiff(true);
            resp.setDiffsList([...new Set(entries.map((e) => e.path.split(/[.[]/)[0] ?? e.path))]);
            const map = resp.getDetaileddiffMap();
            for (const e of entries)
              map.set(
                e.path,
                new pb.PropertyDiff().setKind(KIND[e.kind][e.replace ? 1 : 0]).setInputdiff(true),
              );
          }
        }
        return resp;
      });
    },
    read(call: Call<providerPb.ReadRequest>, callback: Callback) {
      const req = call.request;
      if (req.getProperties() !== undefined && Object.keys(toJs(req.getProperties())).length > 0) {
        return (sdk.read as Handler)(call as Call<never>, callback);
      }
      reply(callback, async () => {
        const state = importedState(typeOfUrn(req.getUrn()), req.getId());
        return new pb.ReadResponse()
          .setId(state.id)
          .setProperties(Struct.fromJavaScript(state.props) as never)
          .setInputs(Struct.fromJavaScript(state.inputs) as never);
      });
    },
  };
}

type Diff = (id: string, urn: string, olds: Props, news: Props) => Promise<pulumi.dynamic.DiffResult>;

let installed = false;

/**
 * Wraps the SDK's provider service as the module comment says. Call once, before `main()`.
 *
 * @param diff the provider's diff (the SDK's Diff handler is replaced, not wrapped)
 */
export function installHostOverrides(diff: Diff): void {
  if (installed) return;
  installed = true;
  const original = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (
    this: GrpcServer,
    service: unknown,
    implementation: Implementation,
  ) {
    if (service !== grpcServices.ResourceProviderService) return original.call(this, service, implementation);
    const sdk: Implementation = {};
    const wrapped: Implementation = Object.create(implementation) as Implementation;
    for (const name of ["configure", "read"]) {
      const handler = implementation[name];
      if (handler) sdk[name] = handler.bind(implementation);
    }
    // grpc-js binds each handler to the object it is given: the SDK's own handlers, inherited,
    // still find their provider on it.
    Object.assign(wrapped, overrides(sdk, diff));
    return original.call(this, service, wrapped);
  };
}
