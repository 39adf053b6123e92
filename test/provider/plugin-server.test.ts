/**
 * The plugin's own gRPC service, served in this process on loopback exactly as main.ts serves it,
 * and called through the SDK's generated client as the engine calls it: each RPC against a real
 * sandbox, counting what is sent.
 */
import * as grpc from "@grpc/grpc-js";
import { PluginAttach, type PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { describe, expect, it } from "vitest";
import { isSecret, secret } from "../../provider/host/secretValues";
import { TOKENS } from "../../provider/manifest";
import { resourceProviderServer } from "../../provider/plugin/server";
import { API_KEY, useSandbox } from "../../sandbox/test/helpers";
import { js, type Props, struct, usePlugin } from "./plugin/harness";

const sandbox = useSandbox();
const RECORDS_URN = `urn:pulumi:dev::p::${TOKENS.records}::web`;
const RESTORE_URN = `urn:pulumi:dev::p::${TOKENS.restore}::r`;
const PROVIDER_URN = "urn:pulumi:dev::p::pulumi:providers:domainapi::live";
const attached: string[] = [];
const { rpc } = usePlugin(resourceProviderServer, {
  schema: '{"name":"domainapi","version":"9.8.7"}',
  onAttach: (address) => attached.push(address),
});

async function configure(inputs: Props, urn = PROVIDER_URN): Promise<pb.ConfigureResponse> {
  return rpc("configure", new pb.ConfigureRequest().setArgs(struct(inputs)).setUrn(urn));
}

describe("the plugin's gRPC service", () => {
  it("reports its version and serves its schema", async () => {
    expect((await rpc<Empty, PluginInfo>("getPluginInfo", new Empty())).getVersion()).toBe("9.8.7");
    const schema = await rpc<pb.GetSchemaRequest, pb.GetSchemaResponse>(
      "getSchema",
      new pb.GetSchemaRequest(),
    );
    expect(JSON.parse(schema.getSchema())).toEqual({ name: "domainapi", version: "9.8.7" });
    await rpc("attach", new PluginAttach().setAddress("127.0.0.1:1"));
    expect(attached).toEqual(["127.0.0.1:1"]);
  });

  it("CheckConfig marks the key secret and names each malformed input with the provider's advice", async () => {
    const req = new pb.CheckRequest()
      .setUrn(PROVIDER_URN)
      .setNews(struct({ apiKey: "k-1", baseUrl: "ftp://x", timeoutMs: "soon", version: "1" }));
    const resp = await rpc<pb.CheckRequest, pb.CheckResponse>("checkConfig", req);
    expect(js(resp.getInputs()).apiKey).toEqual(secret("k-1"));
    const failures = resp.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    expect(failures.map(([p]) => p)).toEqual(["baseUrl", "timeoutMs"]);
    expect(failures[1]?.[1]).toContain("it comes from the explicit provider's `timeoutMs` input");
    expect(JSON.stringify(failures)).not.toContain("k-1");
  });

  it("DiffConfig replaces on a new base address (not a trailing slash), updates on a new key", async () => {
    const diff = (olds: Props, news: Props) =>
      rpc<pb.DiffRequest, pb.DiffResponse>(
        "diffConfig",
        new pb.DiffRequest()
          .setUrn(PROVIDER_URN)
          .setOldInputs(struct(olds))
          .setOlds(struct(olds))
          .setNews(struct(news)),
      );
    const moved = await diff({ apiKey: "a", baseUrl: "http://one" }, { apiKey: "a", baseUrl: "http://two" });
    expect(moved.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(moved.getReplacesList()).toEqual(["baseUrl"]);
    const rotated = await diff(
      { apiKey: "a", baseUrl: "http://one" },
      { apiKey: secret("b"), baseUrl: "http://one/" },
    );
    expect(rotated.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(rotated.getReplacesList()).toEqual([]);
    const same = await diff(
      { apiKey: "a", baseUrl: "http://one" },
      { apiKey: secret("a"), baseUrl: "http://one" },
    );
    expect(same.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("Configure accepts secrets; Check, Create, Diff, Update, Read and Delete reach the sandbox", async () => {
    const conf = await configure({ apiKey: secret(API_KEY), baseUrl: sandbox.url, maxRetries: 0 });
    expect(conf.getAcceptsecrets()).toBe(true);
    expect(conf.getAcceptresources()).toBe(true);
    const news = { templateId: "web", records: [{ name: "@", type: "TXT", content: secret("dkim=abc") }] };
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest().setUrn(RECORDS_URN).setOlds(struct({})).setNews(struct(news)),
    );
    expect(checked.getFailuresList()).toEqual([]);
    const inputs = js(checked.getInputs());
    // Secret field by field: the content stays secret, the rest of the record is plain.
    const checkedRecord = (inputs.records as Record<string, Record<string, unknown>>)["@/TXT"];
    expect(isSecret(checkedRecord?.content)).toBe(true);
    expect(checkedRecord?.name).toBe("@");
    expect(sandbox.requests).toEqual([]);

    const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    );
    expect(created.getId()).toBe("web");
    const outs = js(created.getProperties());
    expect(isSecret((outs.records as Record<string, Record<string, unknown>>)["@/TXT"]?.content)).toBe(true);
    expect(sandbox.templateRecords("web")?.map((r) => r.content)).toEqual(["dkim=abc"]);

    const next = {
      templateId: "web",
      records: [...news.records, { name: "www", type: "A", content: "192.0.2.1" }],
    };
    const rechecked = js(
      (
        await rpc<pb.CheckRequest, pb.CheckResponse>(
          "check",
          new pb.CheckRequest().setUrn(RECORDS_URN).setOlds(struct(inputs)).setNews(struct(next)),
        )
      ).getInputs(),
    );
    const diff = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(outs))
        .setOldInputs(struct(inputs))
        .setNews(struct(rechecked)),
    );
    expect(diff.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    expect([...diff.getDetaileddiffMap().keys()]).toEqual(['records["www/A"]']);
    const updated = await rpc<pb.UpdateRequest, pb.UpdateResponse>(
      "update",
      new pb.UpdateRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(outs))
        .setNews(struct(rechecked)),
    );
    expect(Object.keys(js(updated.getProperties()).ids as Props)).toHaveLength(2);
    expect(sandbox.templateRecords("web")).toHaveLength(2);

    // `pulumi import`: a Read with the id alone answers inputs of the schema's shape.
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RECORDS_URN).setId("web").setProperties(struct({})),
    );
    expect(js(read.getInputs())).toEqual({ templateId: "web", purge: true, records: [] });

    await rpc(
      "delete",
      new pb.DeleteRequest().setUrn(RECORDS_URN).setId("web").setProperties(updated.getProperties()),
    );
    expect(sandbox.templateRecords("web")).toEqual([]);
  });

  it("a failure part-way reaches the engine with the state so far, secrets marked", async () => {
    await configure({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: 0 });
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 500 } });
    const inputs = {
      templateId: "web",
      purge: false,
      records: [
        { name: "a", type: "TXT", content: secret("s1") },
        { name: "b", type: "TXT", content: "t2" },
      ],
    };
    const err = await rpc(
      "create",
      new pb.CreateRequest().setUrn(RECORDS_URN).setProperties(struct(inputs)),
    ).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    expect(err?.code).toBe(grpc.status.UNKNOWN);
    const bin = err?.metadata.get("grpc-status-details-bin")[0] as Buffer;
    const detail = pb.ErrorResourceInitFailed.deserializeBinary(
      Status.deserializeBinary(bin).getDetailsList()[0]?.getValue_asU8() ?? new Uint8Array(),
    );
    expect(detail.getId()).toMatch(/^web\//);
    const props = js(detail.getProperties());
    const reached = props.records as Record<string, Record<string, unknown>>;
    expect(isSecret(reached["a/TXT"]?.content)).toBe(true);
    expect(isSecret(reached["b/TXT"]?.content)).toBe(false);
    expect(props.__provider).toBeUndefined();
  });

  it("Invoke answers getContacts, and a bad argument as a failure naming it", async () => {
    await configure({ apiKey: API_KEY, baseUrl: sandbox.url });
    const ok = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest().setTok(TOKENS.contacts).setArgs(struct({ perPage: 5, limit: 3 })),
    );
    expect((js(ok.getReturn()).contacts as unknown[]).length).toBe(3);
    const bad = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest().setTok(TOKENS.contacts).setArgs(struct({ perPage: 500 })),
    );
    expect(bad.getFailuresList().map((f) => f.getProperty())).toEqual(["perPage"]);
    await expect(rpc("invoke", new pb.InvokeRequest().setTok("domainapi:index:nope"))).rejects.toThrow(
      /unknown function domainapi:index:nope/,
    );
  });

  it("Invoke answers each record builder with its record, which Create puts on the sandbox", async () => {
    await configure({ apiKey: API_KEY, baseUrl: sandbox.url });
    const invoke = async (tok: string, args: Props) => {
      const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
        "invoke",
        new pb.InvokeRequest().setTok(tok).setArgs(struct(args)),
      );
      expect(
        resp.getFailuresList().map((f) => f.getReason()),
        tok,
      ).toEqual([]);
      return js(resp.getReturn());
    };
    const spf = await invoke(TOKENS.spf, { mx: true, include: ["_spf.mailhost.example"], all: "softfail" });
    expect(spf).toEqual({
      record: { name: "@", type: "TXT", content: "v=spf1 mx include:_spf.mailhost.example ~all" },
      lookups: 2,
      lookupTerms: ["mx", "include:_spf.mailhost.example"],
    });
    const dmarc = await invoke(TOKENS.dmarc, {
      policy: "quarantine",
      percent: 50,
      rua: ["mailto:d@example.com"],
    });
    expect(dmarc).toEqual({
      record: {
        name: "_dmarc",
        type: "TXT",
        content: "v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com",
      },
    });
    const caa = await invoke(TOKENS.caa, { tag: "issue", value: "letsencrypt.org" });
    expect(caa).toEqual({ record: { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' } });
    expect(sandbox.requests).toEqual([]);

    const urn = `urn:pulumi:dev::p::${TOKENS.records}::mail`;
    const news = { templateId: "mail", records: [spf.record, dmarc.record, caa.record] };
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(struct(news)),
    );
    expect(checked.getFailuresList()).toEqual([]);
    await rpc("create", new pb.CreateRequest().setUrn(urn).setProperties(checked.getInputs()));
    const held = sandbox.templateRecords("mail")?.map((r) => `${r.name} ${r.type} ${r.content}`);
    expect(held?.sort()).toEqual(
      [
        '@ CAA 0 issue "letsencrypt.org"',
        "@ TXT v=spf1 mx include:_spf.mailhost.example ~all",
        "_dmarc TXT v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com",
      ].sort(),
    );
  });

  it.each([
    [TOKENS.spf, { include: ["_spf.example.net", "two words"] }, "include[1]", /without spaces/],
    [TOKENS.spf, { redirect: "_spf.example.net", all: "fail" }, "all", /RFC 7208 §6\.1/],
    [TOKENS.spf, { colour: "blue" }, "colour", /unknown argument; spf takes name, a, mx/],
    [TOKENS.dmarc, { policy: "block" }, "policy", /"none", "quarantine" or "reject"/],
    [TOKENS.dmarc, { policy: "none", percent: 150 }, "percent", /0 to 100/],
    [TOKENS.caa, { tag: "issues", value: "ca.example" }, "tag", /tag is one of issue, issuewild, iodef/],
  ])(
    "Invoke of %s with %j is a failure naming %s, and sends nothing",
    async (tok, args, property, reason) => {
      await configure({ apiKey: API_KEY, baseUrl: sandbox.url });
      const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
        "invoke",
        new pb.InvokeRequest().setTok(tok).setArgs(struct(args)),
      );
      expect(resp.getReturn()?.toJavaScript() ?? {}).toEqual({});
      const failures = resp.getFailuresList();
      expect(failures.map((f) => f.getProperty())).toEqual([property]);
      expect(failures[0]?.getReason()).toMatch(reason);
      expect(sandbox.requests).toEqual([]);
    },
  );

  it("Create of a restore that a reviewed plan does not name is refused, and nothing reaches the API", async () => {
    await configure({ apiKey: API_KEY, baseUrl: sandbox.url });
    for (const value of ["none", "web=0123456789abcdef0123456789abcdef"]) {
      process.env.DOMAINAPI_EXPECT_PLAN = value;
      try {
        const err = await rpc(
          "create",
          new pb.CreateRequest().setUrn(RESTORE_URN).setProperties(struct({ domain: "shop.example" })),
        ).then(
          () => undefined,
          (e: grpc.ServiceError) => e,
        );
        expect(err?.details).toMatch(
          /refusing to restore domain "shop\.example" from quarantine: the reviewed plan \(DOMAINAPI_EXPECT_PLAN\) does not name it/,
        );
      } finally {
        delete process.env.DOMAINAPI_EXPECT_PLAN;
      }
    }
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
  });

  it("Read of a restore keeps the state; its import is the domain", async () => {
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RESTORE_URN).setId("Shop.Example").setProperties(struct({})),
    );
    expect(js(read.getProperties())).toEqual({ domain: "shop.example" });
    expect(sandbox.requests).toEqual([]);
  });
});
