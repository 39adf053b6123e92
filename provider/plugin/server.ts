/**
 * The plugin's gRPC service: Pulumi's ResourceProvider served by this package itself, as the SDK's
 * dynamic-provider host serves its own, over the operations of the manifest's tokens. Each RPC
 * decodes once (secrets unwrapped), asks the shared operation once and encodes once (what shows a
 * secret marked secret). Nothing of the SDK is patched: its generated stubs are the wire format.
 */
import * as grpc from "@grpc/grpc-js";
import type * as pulumi from "@pulumi/pulumi";
import { type PluginAttach, PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PartialFailure } from "../host/partialFailure";
import { markSecretSettings, type Props, plain } from "../host/secretValues";
import { diffProviderInputs, providerInputFailures, settingsSourceOf } from "../host/session";
import { about, delivered } from "../log";
import { configureProvider, functionOperations, resourceOperations as opsOf } from "../operations";
import { changedProperties, detailedDiff, engineKind } from "../propertyDiff";
import { maskText, SECRET_RECORDS_INPUT, secretsOfRecords } from "../records/masking";
import { markSecrets, secretRecordMarks } from "../records/secretMarks";

const { DIFF_SOME, DIFF_NONE, DIFF_UNKNOWN } = pb.DiffResponse.DiffChanges;
const toJs = (s: Struct | undefined): Props => (s?.toJavaScript() ?? {}) as Props;
const struct = (props: unknown): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(props ?? {})));
type Failure = { property: string; reason: string };
const failureList = (failures: readonly Failure[] = []) =>
  failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason));

/** One call's codec: what it decodes loses its secret wrappers, what it encodes gets them back. */
type Codec = ReturnType<typeof codec>;
function codec() {
  const texts: string[] = [];
  return {
    decode(s: Struct | undefined): Props {
      const { value, secretTexts } = plain(toJs(s));
      texts.push(...secretTexts);
      return value;
    },
    /** A resource's properties, plain, naming the records that arrived secret (`secretRecords`). */
    decodeResource(s: Struct | undefined): Props {
      const raw = toJs(s);
      const { value, secretTexts } = plain(raw);
      texts.push(...secretTexts);
      const marks = secretRecordMarks(raw);
      return marks.length > 0 ? { ...value, [SECRET_RECORDS_INPUT]: marks } : value;
    },
    encode: (props: unknown): Struct => struct(markSecrets((props ?? {}) as Props, texts)),
    /** Failures whose reasons quote a value (an argument, a setting) with each secret text masked. */
    masked(failures: readonly Failure[]): Failure[] {
      const secrets = secretsOfRecords(texts);
      return failures.map((f) => ({ ...f, reason: maskText(f.reason, secrets) }));
    },
  };
}

/**
 * A failure as the engine reads it: one part-way through (a {@link PartialFailure}) carries the
 * resource's id and the state reached in `grpc-status-details-bin`, so the engine records the
 * resource as it stands instead of forgetting what was done.
 */
function grpcError(err: unknown, { encode }: Codec): Partial<grpc.StatusObject> {
  const details = err instanceof Error ? err.message : String(err);
  const metadata = new grpc.Metadata();
  if (err instanceof PartialFailure) {
    const { __provider: _, ...properties } = err.properties;
    const detail = new pb.ErrorResourceInitFailed().setId(err.id).setReasonsList(err.reasons);
    const any = new Any();
    any.pack(detail.setProperties(encode(properties)).serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(details);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details, metadata };
}

/** A gRPC handler of `work`: its answer, or its failure. */
function unary<Req, Res>(work: (req: Req, codec: Codec) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const c = codec();
    // What the call logs is shown under the resource (or provider) it is about.
    const urn = (call.request as { getUrn?: () => string }).getUrn?.();
    // What the call logged reaches the engine before its answer does (log.ts, `delivered`).
    about(urn, () => work(call.request, c)).then(
      (response) => delivered().then(() => callback(null, response)),
      (err: unknown) => delivered().then(() => callback(grpcError(err, c))),
    );
  };
}

/**
 * A diff's result with the properties it replaces always listed (none: empty): its answer and its
 * detailed diff read one list.
 */
const withReplaces = (result: pulumi.dynamic.DiffResult) => ({ ...result, replaces: result.replaces ?? [] });

function diffResponse(result: { changes?: boolean; replaces: string[]; deleteBeforeReplace?: boolean }) {
  // Stryker disable next-line ConditionalExpression: every diff answers `changes` as a boolean (the records', the restore's, DiffConfig's), so no request reaches DIFF_UNKNOWN
  const changes = result.changes === true ? DIFF_SOME : result.changes === false ? DIFF_NONE : DIFF_UNKNOWN;
  const resp = new pb.DiffResponse().setChanges(changes).setReplacesList(result.replaces);
  return resp.setDeletebeforereplace(result.deleteBeforeReplace === true);
}

/**
 * The service implementation; an RPC left out (Construct, Call, Parameterize) answers UNIMPLEMENTED.
 *
 * @param attach connects engine logging, given the engine's address (from Attach)
 */
export function resourceProviderServer(
  version: string,
  schema: string,
  attach: (engine: string) => void,
): grpc.UntypedServiceImplementation {
  return {
    getPluginInfo: unary(async () => new PluginInfo().setVersion(version)),
    getSchema: unary(async () => new pb.GetSchemaResponse().setSchema(schema)),
    attach: unary(async (req: PluginAttach) => {
      attach(req.getAddress());
      return new Empty();
    }),
    cancel: unary(async () => new Empty()),
    getMapping: unary(async () => new pb.GetMappingResponse()),
    getMappings: unary(async () => new pb.GetMappingsResponse()),
    checkConfig: unary(async (req: pb.CheckRequest, { decode, masked }) => {
      const failures = providerInputFailures(decode(req.getNews()), settingsSourceOf(req.getUrn()));
      const inputs = struct(markSecretSettings(toJs(req.getNews())));
      return new pb.CheckResponse().setInputs(inputs).setFailuresList(failureList(masked(failures)));
    }),
    diffConfig: unary(async (req: pb.DiffRequest, { decode }) =>
      diffResponse(diffProviderInputs(decode(req.getOldInputs() ?? req.getOlds()), decode(req.getNews()))),
    ),
    configure: unary(async (req: pb.ConfigureRequest, { decode }) => {
      configureProvider(decode(req.getArgs()), settingsSourceOf(req.getUrn?.()), req.getUrn?.());
      return new pb.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(true);
    }),
    check: unary(async (req: pb.CheckRequest, { decodeResource: decode, encode }) => {
      const news = decode(req.getNews());
      const result = await opsOf(req.getUrn()).check(decode(req.getOlds()), news, req.getUrn());
      const resp = new pb.CheckResponse().setInputs(encode(result.inputs ?? news));
      return resp.setFailuresList(failureList(result.failures));
    }),
    diff: unary(async (req: pb.DiffRequest, { decodeResource: decode }) => {
      const news = decode(req.getNews());
      const result = withReplaces(await opsOf(req.getUrn()).diff(req.getId(), decode(req.getOlds()), news));
      const resp = diffResponse(result);
      if (result.changes !== true || req.getOldInputs() === undefined) return resp;
      // The detailed diff shows exactly what the planner changes, down to the record.
      const changes = detailedDiff(decode(req.getOldInputs()), news, result.replaces);
      const kind = (c: (typeof changes)[number]) => pb.PropertyDiff.Kind[engineKind(c)];
      for (const c of changes)
        resp.getDetaileddiffMap().set(c.path, new pb.PropertyDiff().setKind(kind(c)).setInputdiff(true));
      return resp.setHasdetaileddiff(changes.length > 0).setDiffsList(changedProperties(changes));
    }),
    create: unary(async (req: pb.CreateRequest, { decodeResource: decode, encode }) => {
      const result = await opsOf(req.getUrn()).create(decode(req.getProperties()));
      return new pb.CreateResponse().setId(result.id).setProperties(encode(result.outs));
    }),
    update: unary(async (req: pb.UpdateRequest, { decodeResource: decode, encode }) => {
      const [olds, news] = [decode(req.getOlds()), decode(req.getNews())];
      const result = await opsOf(req.getUrn()).update(req.getId(), olds, news);
      return new pb.UpdateResponse().setProperties(encode(result.outs));
    }),
    delete: unary(async (req: pb.DeleteRequest, { decodeResource: decode }) => {
      await opsOf(req.getUrn()).delete(req.getId(), decode(req.getProperties()));
      return new Empty();
    }),
    read: unary(async (req: pb.ReadRequest, { decodeResource: decode, encode }) => {
      const [ops, props, id] = [opsOf(req.getUrn()), decode(req.getProperties()), req.getId()];
      const result: pulumi.dynamic.ReadResult =
        Object.keys(props).length === 0 // `pulumi import`: no state yet, only the id
          ? ops.imported(id)
          : ops.read
            ? await ops.read(id, props)
            : { props };
      const resp = new pb.ReadResponse().setId(result.id ?? id).setProperties(encode(result.props));
      return result.inputs ? resp.setInputs(encode(result.inputs)) : resp;
    }),
    invoke: unary(async (req: pb.InvokeRequest, { decode, encode, masked }) => {
      const result = await functionOperations(req.getTok()).invoke(decode(req.getArgs()));
      const resp = new pb.InvokeResponse().setFailuresList(failureList(masked(result.failures ?? [])));
      return result.outputs ? resp.setReturn(encode(result.outputs)) : resp;
    }),
  };
}
