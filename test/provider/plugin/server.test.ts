/**
 * The plugin's gRPC service as the engine sees its answers, beyond the round trip of
 * plugin-server.test.ts: a refresh and an import (Read), a diff with and without the old inputs or
 * of drift alone, a restore's replacement (delete before replace), a plain failure (its message,
 * nothing more), the type of a partial failure's detail, and what a refused invoke leaves out.
 * Served in this process, called through the SDK's generated client, against the sandbox.
 */
import * as grpc from "@grpc/grpc-js";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { beforeEach, describe, expect, it } from "vitest";
import { isSecret, secret } from "../../../provider/host/secretValues";
import { TOKENS } from "../../../provider/manifest";
import { resourceProviderServer } from "../../../provider/plugin/server";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { js, type Props, struct, usePlugin } from "./harness";

const sandbox = useSandbox();
const RECORDS_URN = `urn:pulumi:dev::p::${TOKENS.records}::web`;
const RESTORE_URN = `urn:pulumi:dev::p::${TOKENS.restore}::r`;
const PROVIDER_URN = "urn:pulumi:dev::p::pulumi:providers:domainapi::live";
const { DIFF_SOME, DIFF_NONE } = pb.DiffResponse.DiffChanges;
const { rpc, failure } = usePlugin(resourceProviderServer, { version: "1.2.3" });
beforeEach(async () => {
  await rpc(
    "configure",
    new pb.ConfigureRequest()
      .setArgs(struct({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: 0 }))
      .setUrn(PROVIDER_URN),
  );
});

/** Checks and creates a template of `records` through the plugin; its checked inputs and outputs. */
async function created(records: Props[], templateId = "web"): Promise<{ inputs: Props; outs: Props }> {
  const urn = `urn:pulumi:dev::p::${TOKENS.records}::${templateId}`;
  const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
    "check",
    new pb.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(struct({ templateId, records })),
  );
  expect(checked.getFailuresList()).toEqual([]);
  const inputs = js(checked.getInputs());
  const resp = await rpc<pb.CreateRequest, pb.CreateResponse>(
    "create",
    new pb.CreateRequest().setUrn(urn).setProperties(struct(inputs)),
  );
  return { inputs, outs: js(resp.getProperties()) };
}

describe("Read", () => {
  it("`pulumi import` of a template sends no properties at all: the id alone gives the schema's inputs", async () => {
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RECORDS_URN).setId("tpl-7/site"),
    );
    expect(read.getId()).toBe("tpl-7/site");
    expect(js(read.getInputs())).toEqual({ templateId: "tpl-7", purge: false, records: [] });
    expect(sandbox.requests).toEqual([]);
  });

  it("a refresh of a template keeps its state and sends nothing", async () => {
    const { outs } = await created([{ name: "@", type: "A", content: "192.0.2.1" }]);
    sandbox.reset();
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RECORDS_URN).setId("web").setProperties(struct(outs)),
    );
    expect(read.getId()).toBe("web");
    expect(js(read.getProperties())).toEqual(outs);
    expect(read.hasInputs()).toBe(false);
    expect(sandbox.requests).toEqual([]);
  });

  it("a refresh of a restore keeps its state under its id (the API cannot show a restore)", async () => {
    const state = { domain: "shop.example", restoredAt: "2026-11-21T21:30:00Z" };
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(RESTORE_URN).setId("shop.example").setProperties(struct(state)),
    );
    expect(read.getId()).toBe("shop.example");
    expect(js(read.getProperties())).toEqual(state);
    expect(read.hasInputs()).toBe(false);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("Check and Diff", () => {
  it("Check of a restore answers the domain as sent, with no failure, and sends nothing", async () => {
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest().setUrn(RESTORE_URN).setNews(struct({ domain: "Shop.Example" })),
    );
    expect(checked.getFailuresList()).toEqual([]);
    expect(js(checked.getInputs())).toEqual({ domain: "shop.example" });
    expect(sandbox.requests).toEqual([]);
  });

  it("Check's failures name the property and the fix", async () => {
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest().setUrn(RESTORE_URN).setNews(struct({ domain: "shop.example." })),
    );
    const failures = checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    expect(failures).toEqual([["domain", 'drop the trailing dot: "shop.example"']]);
  });

  it("Check refuses a name in Unicode that the URL host parser behind its mapping would cut", async () => {
    // Mapped as written, "bücher.example#x" would be restored as "xn--bcher-kva.example".
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest().setUrn(RESTORE_URN).setNews(struct({ domain: "bücher.example#x" })),
    );
    const failures = checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    expect(failures).toEqual([
      [
        "domain",
        `"bücher.example#x" is not a domain name: "#" has no place in one (Node's url.domainToASCII would cut the name there, ` +
          'and another domain would be restored); use letters, digits and inner hyphens, or an internationalized name such as "bücher.example"',
      ],
    ]);
  });

  it("a new domain replaces a restore, deleting the old one first; the same domain is no change", async () => {
    const olds = { domain: "shop.example", restoredAt: "2026-11-21T21:30:00Z", baseUrl: sandbox.url };
    const diff = (news: Props, oldInputs?: Props) => {
      const req = new pb.DiffRequest().setUrn(RESTORE_URN).setId("shop.example").setOlds(struct(olds));
      if (oldInputs) req.setOldInputs(struct(oldInputs));
      return rpc<pb.DiffRequest, pb.DiffResponse>("diff", req.setNews(struct(news)));
    };
    const moved = await diff({ domain: "other.example" }, { domain: "shop.example" });
    expect(moved.getChanges()).toBe(DIFF_SOME);
    expect(moved.getReplacesList()).toEqual(["domain"]);
    expect(moved.getDeletebeforereplace()).toBe(true);
    expect(moved.getHasdetaileddiff()).toBe(true);
    expect(moved.getDiffsList()).toEqual(["domain"]);
    const domain = moved.getDetaileddiffMap().get("domain");
    expect(domain?.getKind()).toBe(pb.PropertyDiff.Kind.UPDATE_REPLACE);
    expect(domain?.getInputdiff()).toBe(true);

    const same = await diff({ domain: "shop.example" }, { domain: "shop.example" });
    expect(same.getChanges()).toBe(DIFF_NONE);
    expect(same.getReplacesList()).toEqual([]);
    expect(same.getHasdetaileddiff()).toBe(false);
    expect(same.getDetaileddiffMap().getLength()).toBe(0);
  });

  it("no change is answered without a detailed diff, even where the old inputs differ from the state", async () => {
    const resp = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(RESTORE_URN)
        .setId("shop.example")
        .setOlds(struct({ domain: "shop.example", baseUrl: sandbox.url }))
        .setOldInputs(struct({ domain: "old.example" }))
        .setNews(struct({ domain: "shop.example" })),
    );
    expect(resp.getChanges()).toBe(DIFF_NONE);
    expect(resp.getHasdetaileddiff()).toBe(false);
    expect(resp.getDetaileddiffMap().getLength()).toBe(0);
    expect(resp.getDiffsList()).toEqual([]);
  });

  it("without the old inputs (an engine that sends none) a change is answered without a detailed diff", async () => {
    const { inputs, outs } = await created([{ name: "@", type: "A", content: "192.0.2.1" }]);
    const news = { ...inputs, purge: false };
    const resp = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest().setUrn(RECORDS_URN).setId("web").setOlds(struct(outs)).setNews(struct(news)),
    );
    expect(resp.getChanges()).toBe(DIFF_SOME);
    expect(resp.getReplacesList()).toEqual([]);
    expect(resp.getDeletebeforereplace()).toBe(false);
    expect(resp.getHasdetaileddiff()).toBe(false);
    expect(resp.getDetaileddiffMap().getLength()).toBe(0);
    expect(resp.getDiffsList()).toEqual([]);
  });

  it("drift alone (the program unchanged, a record changed elsewhere) is a change with no detailed diff", async () => {
    const { inputs, outs } = await created([{ name: "@", type: "A", content: "192.0.2.1" }]);
    // What a refresh leaves in the state when the record was edited outside Pulumi.
    const records = outs.records as Record<string, Props>;
    const refreshed = {
      ...outs,
      records: { ...records, "@/A": { ...records["@/A"], content: "192.0.2.9" } },
    };
    const resp = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(refreshed))
        .setOldInputs(struct(inputs))
        .setNews(struct(inputs)),
    );
    // The planner corrects the record, but no input changed: none is named to the engine.
    expect(resp.getChanges()).toBe(DIFF_SOME);
    expect(resp.getReplacesList()).toEqual([]);
    expect(resp.getHasdetaileddiff()).toBe(false);
    expect(resp.getDetaileddiffMap().getLength()).toBe(0);
    expect(resp.getDiffsList()).toEqual([]);
  });

  it("a new record is an added key of the detailed diff, and a changed one an update", async () => {
    const { inputs, outs } = await created([
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ]);
    const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
      "check",
      new pb.CheckRequest()
        .setUrn(RECORDS_URN)
        .setOlds(struct(inputs))
        .setNews(
          struct({
            templateId: "web",
            records: [
              { name: "@", type: "A", content: "192.0.2.2" },
              { name: "www", type: "CNAME", content: "{domainname}." },
              { name: "@", type: "TXT", content: "hello" },
            ],
          }),
        ),
    );
    const resp = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(RECORDS_URN)
        .setId("web")
        .setOlds(struct(outs))
        .setOldInputs(struct(inputs))
        .setNews(checked.getInputs()),
    );
    const kinds = Object.fromEntries(
      [...resp.getDetaileddiffMap().entries()].map(([path, d]) => [path, [d.getKind(), d.getInputdiff()]]),
    );
    expect(kinds).toEqual({
      'records["@/A"]': [pb.PropertyDiff.Kind.UPDATE, true],
      'records["@/TXT"]': [pb.PropertyDiff.Kind.ADD, true],
    });
    expect(resp.getDiffsList()).toEqual(["records"]);
    expect(resp.getHasdetaileddiff()).toBe(true);
  });

  it("DiffConfig reads the old settings from the olds when an engine sends no old inputs", async () => {
    const diff = (olds: Props, news: Props) =>
      rpc<pb.DiffRequest, pb.DiffResponse>(
        "diffConfig",
        new pb.DiffRequest().setUrn(PROVIDER_URN).setOlds(struct(olds)).setNews(struct(news)),
      );
    const settings = { apiKey: "a", baseUrl: "http://one" };
    expect((await diff(settings, settings)).getChanges()).toBe(DIFF_NONE);
    const moved = await diff(settings, { ...settings, baseUrl: "http://two" });
    expect(moved.getReplacesList()).toEqual(["baseUrl"]);
    expect(moved.getDeletebeforereplace()).toBe(false);
  });
});

describe("failures", () => {
  it("a plain failure is its message alone, with no resource state attached", async () => {
    const err = await failure("invoke", new pb.InvokeRequest().setTok("domainapi:index:nope"));
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toBe(
      "unknown function domainapi:index:nope: the domainapi plugin serves domainapi:index:getContacts, domainapi:index:spf, domainapi:index:dmarc, domainapi:index:caa",
    );
    expect(err.metadata.get("grpc-status-details-bin")).toEqual([]);
  });

  it("a token naming what every object has (constructor) is refused by name, not with a TypeError", async () => {
    const invoked = await failure("invoke", new pb.InvokeRequest().setTok("constructor"));
    expect(invoked.details).toMatch(/^unknown function constructor: the domainapi plugin serves /);
    const checked = await failure(
      "check",
      new pb.CheckRequest().setUrn("urn:pulumi:dev::p::toString::n").setNews(struct({})),
    );
    expect(checked.details).toMatch(/^unknown resource type toString: the domainapi plugin serves /);
  });

  it("a resource type the plugin does not serve is refused by name, for every resource call", async () => {
    const urn = "urn:pulumi:dev::p::domainapi:index:Nope::n";
    const err = await failure("create", new pb.CreateRequest().setUrn(urn).setProperties(struct({})));
    expect(err.details).toBe(
      "unknown resource type domainapi:index:Nope: the domainapi plugin serves domainapi:index:DnsTemplateRecords, domainapi:index:DomainRestore",
    );
  });

  it("a restore whose answer is lost is recorded as unconfirmed: its detail is typed for the engine to decode", async () => {
    sandbox.addFault({ method: "POST", drop: "after" });
    const err = await failure(
      "create",
      new pb.CreateRequest().setUrn(RESTORE_URN).setProperties(struct({ domain: "shop.example" })),
    );
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toMatch(/The restore of "shop\.example" may or may not have happened/);
    const status = Status.deserializeBinary(err.metadata.get("grpc-status-details-bin")[0] as Buffer);
    expect(status.getMessage()).toBe(err.details);
    const [any] = status.getDetailsList();
    expect(any?.getTypeUrl()).toBe("type.googleapis.com/pulumirpc.ErrorResourceInitFailed");
    const detail = pb.ErrorResourceInitFailed.deserializeBinary(any?.getValue_asU8() ?? new Uint8Array());
    expect(detail.getId()).toBe("shop.example");
    expect(detail.getReasonsList()).toEqual([err.details]);
    expect(js(detail.getProperties())).toMatchObject({ domain: "shop.example", unconfirmed: true });
  });
});

describe("Create, Update and Invoke answers", () => {
  it("a restore's outputs say when, and keep a secret trigger secret", async () => {
    const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
      "create",
      new pb.CreateRequest()
        .setUrn(RESTORE_URN)
        .setProperties(struct({ domain: "shop.example", triggers: [secret("t-1")] })),
    );
    expect(created.getId()).toBe("shop.example");
    const outs = js(created.getProperties());
    expect(outs.restoredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(isSecret(outs.triggers)).toBe(true);
    expect(isSecret(outs.domain)).toBe(false);
    expect(sandbox.domainStatus("shop.example")).toBe("active");
  });

  it("an Update of a confirmed restore sends nothing and answers the state without the provider", async () => {
    const olds = { domain: "shop.example", restoredAt: "2026-11-21T21:30:00Z" };
    const updated = await rpc<pb.UpdateRequest, pb.UpdateResponse>(
      "update",
      new pb.UpdateRequest()
        .setUrn(RESTORE_URN)
        .setId("shop.example")
        .setOlds(struct({ ...olds, __provider: "p" }))
        .setNews(struct({ domain: "shop.example" })),
    );
    expect(js(updated.getProperties())).toEqual(olds);
    expect(sandbox.requests).toEqual([]);
  });

  it("a refused invoke answers its failures and no return value at all", async () => {
    const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest().setTok(TOKENS.dmarc).setArgs(struct({ policy: "block" })),
    );
    expect(resp.hasReturn()).toBe(false);
    expect(resp.getFailuresList().map((f) => f.getProperty())).toEqual(["policy"]);
    const ok = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest().setTok(TOKENS.dmarc).setArgs(struct({ policy: "none" })),
    );
    expect(ok.getFailuresList()).toEqual([]);
    expect(js(ok.getReturn())).toEqual({
      record: { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=none" },
    });
  });

  it("the optional calls answer empty: Cancel, GetMapping(s)", async () => {
    await expect(rpc("cancel", new Empty())).resolves.toBeDefined();
    const mapping = await rpc<pb.GetMappingRequest, pb.GetMappingResponse>(
      "getMapping",
      new pb.GetMappingRequest().setKey("terraform"),
    );
    expect(mapping.getProvider()).toBe("");
    expect(mapping.getData_asU8()).toHaveLength(0);
    const mappings = await rpc<pb.GetMappingsRequest, pb.GetMappingsResponse>(
      "getMappings",
      new pb.GetMappingsRequest().setKey("terraform"),
    );
    expect(mappings.getProvidersList()).toEqual([]);
  });
});
