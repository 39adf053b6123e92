/**
 * What the plugin tells the engine, as the engine receives it: the plugin's gRPC service served
 * here and a stand-in for the engine's own Log service (the one the real engine serves at the
 * address it hands the plugin). Each message of a call about a resource carries that resource's
 * URN, so the engine shows it under the resource; a create with purge says, at its Check (the one
 * call a preview makes for a create) and at Create, that its PUT replaces whatever the template
 * holds; an imported template says what the next `up` does with it.
 */
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TOKENS } from "../../provider/manifest";
import { resourceProviderServer } from "../../provider/plugin/server";
import { API_KEY, useSandbox } from "../../sandbox/test/helpers";
import { js, type Props, usePlugin } from "./plugin/harness";

const sandbox = useSandbox();
const STACK = "urn:pulumi:dev::p::";
const PROVIDER_URN = `${STACK}pulumi:providers:domainapi::live`;
const urnOf = (name: string) => `${STACK}${TOKENS.records}::${name}`;

const plugin = usePlugin(resourceProviderServer, { engine: true });
const { rpc } = plugin;
/** What the stand-in engine was told: severity, message, URN. */
const told = plugin.told;

beforeAll(async () => {
  const args = Struct.fromJavaScript({ apiKey: API_KEY, baseUrl: sandbox.url });
  await rpc("configure", new pb.ConfigureRequest().setArgs(args).setUrn(PROVIDER_URN));
});
beforeEach(() => {
  told.length = 0;
  sandbox.reset();
});

async function check(name: string, news: Props, olds: Props = {}): Promise<Props> {
  const req = new pb.CheckRequest()
    .setUrn(urnOf(name))
    .setOlds(Struct.fromJavaScript(olds as never))
    .setNews(Struct.fromJavaScript(news as never));
  const resp = await rpc<pb.CheckRequest, pb.CheckResponse>("check", req);
  expect(resp.getFailuresList().map((f) => f.getReason())).toEqual([]);
  return js(resp.getInputs());
}

const RECORDS = [
  { name: "www", type: "A", content: "192.0.2.1" },
  { name: "@", type: "TXT", content: "v=spf1 -all" },
];

describe("the plugin's messages", () => {
  it("a create with purge says at Check and at Create that its PUT replaces what the template holds, under the resource", async () => {
    sandbox.seedTemplate("tpl-new", [{ name: "old", type: "A", content: "192.0.2.9" }]);
    const inputs = await check("site", { templateId: "tpl-new", records: RECORDS });
    const atPreview = told.filter((t) => t.message.includes("replaces whatever records the template holds"));
    expect(atPreview).toEqual([
      {
        severity: 1, // INFO
        message:
          "template tpl-new: 2 to create (1 request: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown)",
        urn: urnOf("site"),
      },
    ]);
    told.length = 0;
    await rpc(
      "create",
      new pb.CreateRequest().setUrn(urnOf("site")).setProperties(Struct.fromJavaScript(inputs as never)),
    );
    expect(told[0]).toEqual({ ...atPreview[0], message: atPreview[0]?.message });
    // Every line of the create is the resource's, none the stack's.
    expect(told.length).toBeGreaterThan(1);
    expect(told.every((t) => t.urn === urnOf("site"))).toBe(true);
    expect(
      sandbox
        .templateRecords("tpl-new")
        ?.map((r) => r.name)
        .sort(),
    ).toEqual(["@", "www"]);
  });

  it("a create without purge says nothing of a PUT", async () => {
    await check("shared", { templateId: "tpl-shared", purge: false, records: RECORDS });
    expect(told.filter((t) => t.message.includes("PUT"))).toEqual([]);
  });

  it("an imported template says what the next up does, and that up rewrites it with exactly the declared records", async () => {
    sandbox.seedTemplate("tpl-imp", [
      { name: "legacy", type: "A", content: "192.0.2.7" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ]);
    const read = await rpc<pb.ReadRequest, pb.ReadResponse>(
      "read",
      new pb.ReadRequest().setUrn(urnOf("imp")).setId("tpl-imp").setProperties(new Struct()),
    );
    expect(told.map((t) => [t.urn, t.message])).toEqual([
      [
        urnOf("imp"),
        "template tpl-imp imported: the API cannot list a template's records, so the resource holds none; with purge: true, the first `pulumi up` that declares records replaces whatever the template holds with exactly them (one PUT; records: [] leaves it as it is).",
      ],
    ]);
    const olds = js(read.getProperties());
    const importedInputs = await check("imp", js(read.getInputs()), js(read.getInputs()));
    // The import itself: the inputs as imported make no change (so the import passes).
    const same = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(urnOf("imp"))
        .setId("tpl-imp")
        .setOlds(Struct.fromJavaScript(olds as never))
        .setNews(Struct.fromJavaScript(importedInputs as never)),
    );
    expect(same.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_NONE);
    // Records declared: the preview says the PUT, and up sends exactly one PUT.
    told.length = 0;
    const news = await check("imp", { templateId: "tpl-imp", records: RECORDS }, importedInputs);
    const diff = await rpc<pb.DiffRequest, pb.DiffResponse>(
      "diff",
      new pb.DiffRequest()
        .setUrn(urnOf("imp"))
        .setId("tpl-imp")
        .setOlds(Struct.fromJavaScript(olds as never))
        .setNews(Struct.fromJavaScript(news as never)),
    );
    expect(diff.getChanges()).toBe(pb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(told.map((t) => t.message)).toContainEqual(
      expect.stringMatching(
        /^template tpl-imp: 2 to create \(1 request: a PUT, which replaces whatever records the template held when it was imported: the API cannot list them\)/,
      ),
    );
    sandbox.clearRequests();
    const updated = await rpc<pb.UpdateRequest, pb.UpdateResponse>(
      "update",
      new pb.UpdateRequest()
        .setUrn(urnOf("imp"))
        .setId("tpl-imp")
        .setOlds(Struct.fromJavaScript(olds as never))
        .setNews(Struct.fromJavaScript(news as never)),
    );
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(
      sandbox
        .templateRecords("tpl-imp")
        ?.map((r) => `${r.name} ${r.type} ${r.content}`)
        .sort(),
    ).toEqual(["@ TXT v=spf1 -all", "www A 192.0.2.1"]);
    // Owned now: the next change is a plain update.
    expect(js(updated.getProperties()).unlisted).toBeUndefined();
  });

  it("getContacts reports every bad argument at once, each by name, and sends nothing", async () => {
    sandbox.clearRequests();
    const resp = await rpc<pb.InvokeRequest, pb.InvokeResponse>(
      "invoke",
      new pb.InvokeRequest()
        .setTok(TOKENS.contacts)
        .setArgs(Struct.fromJavaScript({ perPage: 500, country: "Netherlands", sort_by: "handle" })),
    );
    const failures = resp.getFailuresList().map((f) => [f.getProperty(), f.getReason()]);
    expect(failures.map(([p]) => p).sort()).toEqual(["country", "perPage", "sort_by"]);
    expect(failures.find(([p]) => p === "perPage")?.[1]).toMatch(/1 to 100|from 1 to 100/);
    expect(sandbox.requests).toEqual([]);
  });

  it.each([
    [
      "the default provider",
      `${STACK}pulumi:providers:domainapi::default_0_1_0`,
      "domainapi:apiKey is not set",
    ],
    ["an explicit provider", PROVIDER_URN, "the provider's apiKey is not set"],
  ])(
    "a missing key on %s is a warning at Check (a preview) and the error at Create",
    async (_kind, urn, said) => {
      const args = Struct.fromJavaScript({ baseUrl: sandbox.url });
      await rpc("configure", new pb.ConfigureRequest().setArgs(args).setUrn(urn));
      told.length = 0;
      const inputs = await check("keyless", { templateId: "tpl-keyless", records: RECORDS });
      expect(told.filter((t) => t.severity === 2).map((t) => t.message)).toEqual([
        expect.stringContaining(said),
      ]);
      const created = rpc(
        "create",
        new pb.CreateRequest().setUrn(urnOf("keyless")).setProperties(Struct.fromJavaScript(inputs as never)),
      );
      await expect(created).rejects.toThrow(said);
      expect(sandbox.requests).toEqual([]);
    },
  );
});
