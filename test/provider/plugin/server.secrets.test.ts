/**
 * Secrets through the plugin's gRPC service: what the engine hands it secret (the key in Configure,
 * an Invoke's argument, a record's field in Check, Diff, Create, Update and Read) comes back marked
 * secret in every answer, however the provider writes it (an IPv6 address in RFC 5952 form), and
 * never shows as plain text in an answer, a failure or a message to the engine; what is not secret
 * comes back plain. Served in this process with a stand-in for the engine's Log service on the same
 * server, called through the SDK's generated client, against the sandbox.
 */
import * as grpc from "@grpc/grpc-js";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { beforeEach, describe, expect, it } from "vitest";
import { isSecret, secret } from "../../../provider/host/secretValues";
import { TOKENS } from "../../../provider/manifest";
import { resourceProviderServer } from "../../../provider/plugin/server";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { js, type Props, struct, usePlugin } from "./harness";

const sandbox = useSandbox();
const PROVIDER_URN = "urn:pulumi:dev::p::pulumi:providers:domainapi::live";
const RECORDS_URN = `urn:pulumi:dev::p::${TOKENS.records}::web`;
/** A secret AAAA content as a program writes it; the provider stores and shows it as `STORED_V6`. */
const SECRET_V6 = "2001:DB8:0:0:0:0:0:7";
const STORED_V6 = "2001:db8::7";
const SECRET_TXT = "hush-token-3141";
const plugin = usePlugin(resourceProviderServer, { engine: true });
const { rpc, failure } = plugin;
/** Every message the stand-in engine was told, whatever its severity, one a line. */
const toldText = () => plugin.told.map((t) => t.message).join("\n");
beforeEach(async () => {
  await configure({ apiKey: secret(API_KEY), baseUrl: sandbox.url, maxRetries: 0 });
  plugin.told.length = 0;
});

const configure = (args: Props) =>
  rpc<pb.ConfigureRequest, pb.ConfigureResponse>(
    "configure",
    new pb.ConfigureRequest().setArgs(struct(args)).setUrn(PROVIDER_URN),
  );

/** What an answer shows in plain text: every secret in it written as the engine would, `[secret]`. */
function shown(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (isSecret(v)) return "[secret]";
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(value)).toLowerCase();
}
/** Whether `value` holds a secret anywhere. */
const holdsSecret = (value: unknown): boolean => shown(value).includes("[secret]");
/** Fails naming where a secret text shows in plain: in any letter case, as given or as stored. */
function expectHidden(where: string, text: string): void {
  for (const s of [API_KEY, SECRET_V6, STORED_V6, SECRET_TXT])
    expect(text.toLowerCase(), where).not.toContain(s.toLowerCase());
}
const records = (props: Props) => props.records as Record<string, Props>;

/** A template's records: two with a secret content, two plain (one of free text). */
const declared = () => [
  { name: "v6", type: "AAAA", content: secret(SECRET_V6) },
  { name: "_k", type: "TXT", content: secret(SECRET_TXT) },
  { name: "www", type: "A", content: "192.0.2.1" },
  // Free text that no call made secret (it is also the text a mutant of the codec starts with).
  { name: "note", type: "TXT", content: "Stryker was here" },
];

async function check(news: Props, olds: Props = {}): Promise<Props> {
  const resp = await rpc<pb.CheckRequest, pb.CheckResponse>(
    "check",
    new pb.CheckRequest().setUrn(RECORDS_URN).setOlds(struct(olds)).setNews(struct(news)),
  );
  expect(resp.getFailuresList().map((f) => f.getReason())).toEqual([]);
  return js(resp.getInputs());
}

/** Secret fields are secret, the rest plain, and no secret text shows anywhere. */
function expectMarked(where: string, props: Props, v6 = STORED_V6): void {
  const rs = records(props);
  expect(rs["v6/AAAA"]?.content, where).toEqual(secret(v6));
  expect(rs["_k/TXT"]?.content, where).toEqual(secret(SECRET_TXT));
  expect(rs["www/A"], where).toEqual({ name: "www", type: "A", content: "192.0.2.1" });
  expect(rs["note/TXT"], where).toEqual({ name: "note", type: "TXT", content: "Stryker was here" });
  expect(rs["v6/AAAA"]?.name, where).toBe("v6");
  expect(isSecret(props.templateId), where).toBe(false);
  expectHidden(where, shown(props));
}

describe("a record's secret field", () => {
  it("stays secret in Check, Create, Diff, Update and Read, as written and as stored, and never shows in a message", async () => {
    const inputs = await check({ templateId: "web", records: declared() });
    expectMarked("Check", inputs);

    const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    const outs = js(created.getProperties());
    expectMarked("Create", outs);
    expect(isSecret(outs.baseUrl)).toBe(false);
    expect(sandbox.templateRecords("web")?.map((r) => r.content)).toContain(STORED_V6);
    // The plan's lines name the records, their secret contents masked.
    expect(toldText()).toContain("+ CREATE v6 AAAA [secret]");
    expect(toldText()).toContain("+ CREATE www A 192.0.2.1");
    expectHidden("Create's messages", toldText());

    // The secret AAAA changes to another secret address, written otherwise than it is stored.
    const next = declared().map((r) => (r.type === "AAAA" ? { ...r, content: secret("2001:DB8::0:8") } : r));
    plugin.told.length = 0;
    const rechecked = await check({ templateId: "web", records: next }, inputs);
    expectMarked("Check of the change", rechecked, "2001:db8::8");
    const diff = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(outs))
        .setOldInputs(struct(inputs))
        .setNews(struct(rechecked)),
    );
    expect([...diff.getDetaileddiffMap().keys()]).toEqual(['records["v6/AAAA"]']);
    const updated = await rpc<pb.UpdateRequest, pb.UpdateResponse>(
      "update",
      new pb.UpdateRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(outs))
        .setNews(struct(rechecked)),
    );
    const after = js(updated.getProperties());
    expectMarked("Update", after, "2001:db8::8");
    expect(toldText()).toContain("MODIFY v6 AAAA content [secret] -> [secret]");
    for (const s of ["2001:db8::8", "2001:DB8::0:8"])
      expect(toldText().toLowerCase()).not.toContain(s.toLowerCase());
    expectHidden("Diff's and Update's messages", toldText());

    plugin.told.length = 0;
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RECORDS_URN).setId("web").setProperties(struct(after)),
    );
    expectMarked("Read", js(read.getProperties()), "2001:db8::8");
    await rpc("delete", new pb.DeleteRequest().setUrn(RECORDS_URN).setId("web").setProperties(struct(after)));
    expect(toldText()).toContain("DELETE v6 AAAA [secret]");
    expectHidden("Delete's messages", toldText());
  });

  it("the same records given plain come back with nothing marked", async () => {
    const plainRecords = declared().map((r) => ({
      ...r,
      content: isSecret(r.content) ? r.content.value : r.content,
    }));
    const inputs = await check({ templateId: "web", records: plainRecords });
    const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expect(holdsSecret(inputs)).toBe(false);
    expect(holdsSecret(js(created.getProperties()))).toBe(false);
    expect(toldText()).toContain(`+ CREATE v6 AAAA ${STORED_V6}`);
  });

  it("a failure part-way keeps the secret out of its message and marks it in the state it carries", async () => {
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 500 } });
    const inputs = await check({ templateId: "web", purge: false, records: declared() });
    const err = await failure(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expectHidden("the failure's message", err.details);
    const bin = err.metadata.get("grpc-status-details-bin")[0] as Buffer;
    const status = Status.deserializeBinary(bin);
    expectHidden("the failure's status", status.getMessage());
    const detail = pb.ErrorResourceInitFailed.deserializeBinary(
      status.getDetailsList()[0]?.getValue_asU8() ?? new Uint8Array(),
    );
    expectHidden("the failure's reasons", detail.getReasonsList().join("\n"));
    const reached = js(detail.getProperties());
    expectHidden("the state reached", shown(reached));
    const held = Object.values(records(reached));
    expect(held.length).toBeGreaterThan(0);
    for (const r of held)
      expect(isSecret(r.content), String(r.name)).toBe(r.name === "v6" || r.name === "_k");
    expectHidden("the failure's messages", toldText());
  });
});

describe("the key", () => {
  it("given secret to Configure, shows in no output, message or refusal", async () => {
    const inputs = await check({
      templateId: "web",
      records: [{ name: "www", type: "A", content: "192.0.2.1" }],
    });
    const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expectHidden("Create", shown(js(created.getProperties())));
    expectHidden("Create's messages", toldText());

    await configure({ apiKey: secret("wrong-key-2718"), baseUrl: sandbox.url, maxRetries: 0 });
    const refused = await failure(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expect(refused.details).toMatch(/401/);
    expect(refused.details).not.toContain("wrong-key-2718");
    expect(toldText()).not.toContain("wrong-key-2718");
  });

  it("CheckConfig keeps each secret setting secret, and out of the reasons of its failures", async () => {
    const checkConfig = async (news: Props) => {
      const resp = await rpc<pb.CheckRequest, pb.CheckResponse>(
        "checkConfig",
        new pb.CheckRequest().setUrn(PROVIDER_URN).setNews(struct(news)),
      );
      return {
        inputs: js(resp.getInputs()),
        failures: resp.getFailuresList().map((f) => [f.getProperty(), f.getReason()]),
      };
    };
    const hidden = await checkConfig({
      apiKey: secret("bad key-1618"),
      baseUrl: secret("ftp://hidden-host-1618"),
    });
    expect(hidden.inputs).toEqual({
      apiKey: secret("bad key-1618"),
      baseUrl: secret("ftp://hidden-host-1618"),
    });
    expect(hidden.failures.map(([p]) => p)).toEqual(["apiKey", "baseUrl"]);
    expect(hidden.failures[1]?.[1]).toMatch(/^the provider's baseUrl "\[secret\]" must use http or https/);
    expect(JSON.stringify(hidden.failures)).not.toContain("1618");
    // Given plain, the base address is quoted as it was written, and only the key is marked.
    const open = await checkConfig({ apiKey: "k", baseUrl: "ftp://open-host" });
    expect(open.inputs).toEqual({ apiKey: secret("k"), baseUrl: "ftp://open-host" });
    expect(open.failures[0]?.[1]).toMatch(
      /^the provider's baseUrl "ftp:\/\/open-host" must use http or https/,
    );
  });

  it("an older SDK's ConfigureRequest, which has no getUrn, still configures, from the stack's settings", async () => {
    // The oldest SDKs of the peer range (3.139.0 among them) generate it without the urn field.
    const request = new pb.ConfigureRequest().setArgs(
      struct({ apiKey: secret("older-key-1414"), baseUrl: sandbox.url, maxRetries: 0 }),
    );
    Object.defineProperty(request, "getUrn", { value: undefined });
    const configureHandler = resourceProviderServer("9.8.7", "{}", () => {})
      .configure as grpc.handleUnaryCall<pb.ConfigureRequest, pb.ConfigureResponse>;
    const answer = await new Promise<pb.ConfigureResponse | null | undefined>((resolve, reject) =>
      configureHandler(
        { request } as grpc.ServerUnaryCall<pb.ConfigureRequest, pb.ConfigureResponse>,
        (e, v) => (e ? reject(e) : resolve(v)),
      ),
    );
    expect(answer?.getAcceptsecrets()).toBe(true);
    // Configured: the sandbox refuses that key, and the refusal names the stack's setting, not the key.
    const inputs = await check({
      templateId: "web",
      records: [{ name: "www", type: "A", content: "192.0.2.1" }],
    });
    const refused = await failure(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expect(refused.details).toMatch(/401/);
    expect(refused.details).toContain("domainapi:apiKey");
    expect(refused.details).not.toContain("older-key-1414");
  });
});

describe("an Invoke's secret argument", () => {
  it("marks what shows it in the answer, and only that", async () => {
    const invoke = async (args: Props) => {
      const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
        "invoke",
        new pb.InvokeRequest().setTok(TOKENS.spf).setArgs(struct(args)),
      );
      expect(resp.getFailuresList().map((f) => f.getReason())).toEqual([]);
      return js(resp.getReturn());
    };
    const hidden = await invoke({ mx: true, include: [secret("_spf.hidden-3141.example")], all: "softfail" });
    expect(hidden.record).toEqual(
      secret({ name: "@", type: "TXT", content: "v=spf1 mx include:_spf.hidden-3141.example ~all" }),
    );
    expect(hidden.lookupTerms).toEqual(secret(["mx", "include:_spf.hidden-3141.example"]));
    expect(hidden.lookups).toBe(2);
    expect(shown(hidden)).not.toContain("hidden-3141");

    const open = await invoke({ mx: true, include: ["_spf.hidden-3141.example"], all: "softfail" });
    expect(holdsSecret(open)).toBe(false);
  });

  it("is masked in the reasons of a refusal that quotes it; a plain argument is quoted as written", async () => {
    const refused = async (tok: string, args: Props) => {
      const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
        "invoke",
        new pb.InvokeRequest().setTok(tok).setArgs(struct(args)),
      );
      expect(resp.hasReturn()).toBe(false);
      return resp.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    };
    const rua = await refused(TOKENS.dmarc, { policy: "none", rua: [secret("nope-hidden-2718")] });
    expect(rua).toEqual([["rua[0]", expect.stringMatching(/^rua value "\[secret\]" is not a URI/)]]);
    const include = await refused(TOKENS.spf, { include: ["_spf.example.net", secret("two Hidden-2718")] });
    expect(include).toEqual([["include[1]", '"include:[secret]" must be one term without spaces']]);
    expect(JSON.stringify([rua, include]).toLowerCase()).not.toContain("hidden-2718");
    expect(await refused(TOKENS.dmarc, { policy: "none", rua: ["nope-open"] })).toEqual([
      ["rua[0]", expect.stringMatching(/^rua value "nope-open" is not a URI/)],
    ]);
  });
});
