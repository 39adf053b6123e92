/**
 * DomainRestore as a program makes it, under `pulumi.runtime.setMocks`: registered under its
 * dynamic type token with the program's domain and triggers, and its outputs what the engine
 * returned; a key kept in plain text in the stack config is warned of when it is made. The SDK's
 * closure serializer is stubbed: it needs trace events, which the mutation runner's worker threads
 * do not offer, and what it would store is not this class's to say.
 */
import * as pulumi from "@pulumi/pulumi";
import * as closure from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DomainRestore } from "../../../provider/dynamic/restoreResource";

const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((r) => o.apply(r));

beforeAll(async () => {
  vi.spyOn(closure, "serializeFunction").mockResolvedValue({
    text: "exports.handler = {}",
    exportName: "handler",
    containsSecrets: false,
  });
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return {
          id: String(args.inputs.domain),
          state: { ...args.inputs, restoredAt: "2026-11-21T21:30:00Z" },
        };
      },
      call: (args) => args.inputs,
    },
    "restore-project",
    "restore-stack",
  );
});

describe("DomainRestore", () => {
  it("registers the domain and triggers under its dynamic type, and answers the engine's outputs", async () => {
    const restore = new DomainRestore("shop", { domain: "shop.example", triggers: ["v1"] });
    expect(await resolved(restore.domain)).toBe("shop.example");
    expect(await resolved(restore.restoredAt)).toBe("2026-11-21T21:30:00Z");
    expect(await resolved(restore.triggers)).toEqual(["v1"]);
    expect(await resolved(restore.id)).toBe("shop.example");
    const [made] = registered.filter((r) => r.name === "shop");
    expect(made?.type).toBe("pulumi-nodejs:dynamic/domainapi:DomainRestore");
    const { __provider: _, ...inputs } = made?.inputs ?? {};
    expect(inputs).toEqual({ domain: "shop.example", triggers: ["v1"] });
  });

  it("passes the resource options on", async () => {
    const restore = new DomainRestore("kept", { domain: "kept.example" }, { protect: true });
    expect(await resolved(restore.urn)).toMatch(/::kept$/);
    expect((restore as unknown as { __protect: boolean }).__protect).toBe(true);
  });
});

describe("DomainRestore in a stack whose domainapi:apiKey is in plain text", () => {
  it("warns, when constructed, that the key is stored unencrypted and how to set it as a secret", async () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": "sk_live_4f1c9e7a0b" });
    try {
      const restore = new DomainRestore("plain-key", { domain: "plain.example" });
      await resolved(restore.urn);
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings).toEqual([
        expect.stringContaining(
          "domainapi:apiKey is set in plain text: it is stored unencrypted in Pulumi.restore-stack.yaml",
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
