/**
 * DnsTemplateRecords as a program makes it, under `pulumi.runtime.setMocks`: what it registers (its
 * inputs, and `secretRecords` naming the records and fields the program made secret, never their
 * values), and its `records` and `recordIds` in the documented array shape from the keyed state the
 * provider keeps. The SDK's closure serializer is stubbed: it needs trace events, which the mutation
 * runner's worker threads do not offer, and what it would store is not this class's to say.
 */
import * as pulumi from "@pulumi/pulumi";
import * as closure from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DnsTemplateRecords } from "../../../provider/dynamic/recordsResource";

type Props = Record<string, unknown>;
const registered = new Map<string, { type: string; inputs: Props }>();
const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((r) => o.apply(r));
const A = { name: "@", type: "A" as const, content: "192.0.2.1" };
const WWW = { name: "www", type: "CNAME" as const, content: "{domainname}." };

beforeAll(async () => {
  vi.spyOn(closure, "serializeFunction").mockResolvedValue({
    text: "exports.handler = {}",
    exportName: "handler",
    containsSecrets: false,
  });
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.set(args.name, { type: args.type, inputs: args.inputs });
        // The state as the provider keeps it: records keyed, their ids beside them.
        // A secret list arrives wrapped as the engine's secret value.
        const given = (args.inputs.records ?? []) as Props[] | { value: Props[] };
        const records = Array.isArray(given) ? given : given.value;
        const keyed = Object.fromEntries(records.map((r) => [`${r.name}/${r.type}`, r]));
        const ids = Object.fromEntries(records.map((r, i) => [`${r.name}/${r.type}`, `rec-${i + 1}`]));
        return { id: String(args.inputs.templateId), state: { ...args.inputs, records: keyed, ids } };
      },
      call: (args) => args.inputs,
    },
    "records-project",
    "records-stack",
  );
});

/** The inputs registered for `name`, once its registration is done. */
async function inputsOf(resource: DnsTemplateRecords, name: string): Promise<Props> {
  await resolved(resource.urn);
  const { __provider: _, ...inputs } = registered.get(name)?.inputs ?? {};
  return inputs;
}

describe("DnsTemplateRecords", () => {
  it("registers its inputs under its dynamic type, and no secret record", async () => {
    const web = new DnsTemplateRecords("web", {
      templateId: "tpl-1",
      records: [A, WWW],
      purge: false,
      safetyThreshold: { maxChangePercent: 50 },
      liftedChecks: ["spf-lookup-limit"],
      verifyDomain: "shop.example",
    });
    expect(await inputsOf(web, "web")).toEqual({
      templateId: "tpl-1",
      records: [A, WWW],
      purge: false,
      safetyThreshold: { maxChangePercent: 50 },
      liftedChecks: ["spf-lookup-limit"],
      verifyDomain: "shop.example",
      secretRecords: [],
    });
    expect(registered.get("web")?.type).toBe("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
  });

  it("names a secret field by record and field, a secret record by its index, a secret list by every index", async () => {
    const fields = new DnsTemplateRecords("fields", {
      templateId: "tpl-2",
      records: [A, { name: "@", type: "TXT", content: pulumi.secret("dkim=k") }],
    });
    expect((await inputsOf(fields, "fields")).secretRecords).toEqual(["1:content"]);
    const whole = new DnsTemplateRecords("whole", {
      templateId: "tpl-3",
      records: [pulumi.secret({ name: "@", type: "TXT" as const, content: "k" }), WWW],
    });
    expect((await inputsOf(whole, "whole")).secretRecords).toEqual([0]);
    const later = new DnsTemplateRecords("later", {
      templateId: "tpl-7",
      records: [A, Promise.resolve({ name: "@", type: "TXT" as const, content: pulumi.secret("k") })],
    });
    expect((await inputsOf(later, "later")).secretRecords).toEqual([1]);
    const list = new DnsTemplateRecords("list", { templateId: "tpl-4", records: pulumi.secret([A, WWW]) });
    expect((await inputsOf(list, "list")).secretRecords).toEqual([0, 1]);
    const plain = new DnsTemplateRecords("plain", { templateId: "tpl-5", records: pulumi.output([A]) });
    expect((await inputsOf(plain, "plain")).secretRecords).toEqual([]);
  });

  it("names no record given as a plain Output or Promise: only a secret one is shown as [secret]", async () => {
    const given = new DnsTemplateRecords("given", {
      templateId: "tpl-8",
      records: [pulumi.output(A), Promise.resolve(WWW)],
    });
    const inputs = await inputsOf(given, "given");
    expect(inputs.records).toEqual([A, WWW]);
    expect(inputs.secretRecords).toEqual([]);
  });

  it("shows the kept records as a list in canonical order, each with its ids, and every id in that order", async () => {
    const web = new DnsTemplateRecords("shown", { templateId: "tpl-6", records: [WWW, A] });
    expect(await resolved(web.records)).toEqual([
      { ...A, recordId: "rec-2", recordIds: ["rec-2"] },
      { ...WWW, recordId: "rec-1", recordIds: ["rec-1"] },
    ]);
    expect(await resolved(web.recordIds)).toEqual(["rec-2", "rec-1"]);
    // Made once, when first read, and listed among the resource's properties.
    expect(web.records).toBe(web.records);
    expect(web.recordIds).toBe(web.recordIds);
    expect(Object.keys(web)).toEqual(expect.arrayContaining(["records", "recordIds"]));
  });

  it("refuses, on the second resource, a template another resource of the same run owns", async () => {
    const refusals: unknown[] = [];
    const onRejection = (reason: unknown) => void refusals.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      await pulumi.runtime.runInPulumiStack(async () => {
        new DnsTemplateRecords("first", { templateId: "shared", records: [A] });
        new DnsTemplateRecords("second", { templateId: "shared", records: [WWW], purge: false });
        return {};
      });
    } catch (err) {
      refusals.push(err);
    }
    await new Promise((r) => setTimeout(r, 50));
    process.off("unhandledRejection", onRejection);
    expect(String(refusals[0])).toMatch(/shared/);
    expect(registered.has("first")).toBe(true);
    expect(registered.has("second")).toBe(false);
  });

  it("shows the refusal on the resource that lost the claim, without a stack trace", async () => {
    const refusals: unknown[] = [];
    const onRejection = (reason: unknown) => void refusals.push(reason);
    process.on("unhandledRejection", onRejection);
    let loser: DnsTemplateRecords | undefined;
    try {
      await pulumi.runtime.runInPulumiStack(async () => {
        new DnsTemplateRecords("owner", { templateId: "taken", records: [A] });
        loser = new DnsTemplateRecords("loser", { templateId: "taken", records: [WWW] });
        return {};
      });
    } catch (err) {
      refusals.push(err);
    }
    await new Promise((r) => setTimeout(r, 50));
    process.off("unhandledRejection", onRejection);
    const [refusal] = refusals;
    // The engine reports a ResourceError against its resource's URN: the user sees which one.
    expect(refusal).toBeInstanceOf(pulumi.ResourceError);
    expect((refusal as pulumi.ResourceError).resource).toBe(loser);
    expect((refusal as pulumi.ResourceError).hideStack).toBe(true);
    expect(String(refusal)).toMatch(/taken/);
  });
});

describe("DnsTemplateRecords in a stack whose domainapi:apiKey is in plain text", () => {
  it("warns, when constructed, that the key is stored unencrypted and how to set it as a secret", async () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": "sk_live_4f1c9e7a0b" });
    try {
      const web = new DnsTemplateRecords("plain-key", { templateId: "tpl-9", records: [A] });
      await resolved(web.urn);
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings).toEqual([
        expect.stringContaining(
          "domainapi:apiKey is set in plain text: it is stored unencrypted in Pulumi.records-stack.yaml",
        ),
      ]);
      expect(warnings[0]).toContain("pulumi config set --secret domainapi:apiKey <key>");
      expect(warnings.join("\n")).not.toContain("sk_live_4f1c9e7a0b");
    } finally {
      pulumi.runtime.setAllConfig({});
      warn.mockRestore();
    }
  });
});
