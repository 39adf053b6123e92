/**
 * What the README's "Unit tests of your own program" promises: a user's program that uses these
 * resources can be tested with `pulumi.runtime.setMocks`, no engine, no API. The mock sees each
 * resource under its dynamic type token and with the program's inputs; the ids and outputs the
 * mock returns are what the program's outputs then resolve to.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { DnsTemplateRecords, DomainRestore } from "../../provider";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

/** Resolves an Output in a mocked run (the documented way: through apply and a promise). */
function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

describe("a program under pulumi.runtime.setMocks", () => {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource(args) {
          registered.push({ type: args.type, name: args.name, inputs: args.inputs });
          if (args.type === "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords") {
            // The declared records, each given the id the API would assign.
            const records = (args.inputs.records as object[]).map((r, i) => ({
              ...r,
              recordId: `rec-${i + 1}`,
            }));
            return { id: String(args.inputs.templateId), state: { ...args.inputs, records } };
          }
          return { id: `${args.name}-id`, state: { ...args.inputs, restoredAt: "2026-01-01T00:00:00Z" } };
        },
        call: (args) => args.inputs,
      },
      "mocked-project",
      "mocked-stack",
    );
  });

  it("registers each resource under its dynamic type token, with the program's inputs", async () => {
    const web = new DnsTemplateRecords("web", {
      templateId: "tpl-1",
      records: [
        { name: "@", type: "A", content: "192.0.2.10" },
        { name: "www", type: "CNAME", content: "{domainname}." },
      ],
      purge: false,
    });
    const restore = new DomainRestore("restore", { domain: "shop.example" });

    expect(await resolved(web.templateId)).toBe("tpl-1");
    expect(await resolved(restore.domain)).toBe("shop.example");
    expect(await resolved(restore.restoredAt)).toBe("2026-01-01T00:00:00Z");

    const byName = new Map(registered.map((r) => [r.name, r]));
    expect(byName.get("web")?.type).toBe("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
    expect(byName.get("restore")?.type).toBe("pulumi-nodejs:dynamic/domainapi:DomainRestore");
    expect(byName.get("web")?.inputs).toMatchObject({
      templateId: "tpl-1",
      purge: false,
      records: [
        { name: "@", type: "A", content: "192.0.2.10" },
        { name: "www", type: "CNAME", content: "{domainname}." },
      ],
    });
    expect(byName.get("restore")?.inputs).toMatchObject({ domain: "shop.example" });
  });

  it("resolves the records and their ids from what the mock returned", async () => {
    const mail = new DnsTemplateRecords("mail", {
      templateId: "tpl-2",
      records: [{ name: "@", type: "MX", content: "mx.example.net", priority: 10 }],
    });
    expect(await resolved(mail.recordIds)).toEqual(["rec-1"]);
    expect(await resolved(mail.records)).toEqual([
      {
        name: "@",
        type: "MX",
        content: "mx.example.net",
        priority: 10,
        recordId: "rec-1",
        recordIds: ["rec-1"],
      },
    ]);
  });

  it("does not validate records: the provider's check() runs under the engine, not under mocks", async () => {
    const bad = new DnsTemplateRecords("bad", {
      templateId: "tpl-3",
      records: [{ name: "@", type: "A", content: "not-an-address" }],
    });
    expect(await resolved(bad.recordIds)).toEqual(["rec-1"]);
    expect(registered.find((r) => r.name === "bad")?.inputs).toMatchObject({
      records: [{ content: "not-an-address" }],
    });
  });
});
