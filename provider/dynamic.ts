/**
 * The serialized shims: the only code Pulumi stores in the state (`__provider`).
 *
 * Pulumi serializes a dynamic provider by capturing the closures of its methods. Capturing our real
 * implementation would drag zod, undici and absolute paths into the state (zod cannot even be
 * serialized: its package `exports` hide the files the serializer wants). So each method here does
 * nothing but `require()` the implementation by package name when it runs. The stored provider is a
 * few hundred bytes, holds no secret and no path, and a stack created from one checkout can be
 * updated from another, or after an upgrade of this package.
 *
 * Keep the methods free of captured variables other than `kind`, `method` and `require`: anything
 * else captured here ends up in every resource's state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as Impl from "./impl";

type Provider = pulumi.dynamic.ResourceProvider;
type Kind = "records" | "restore" | "floor";
type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

function shim(kind: Kind, methods: readonly Method[]): Provider {
  const provider: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    provider[method] = async (...args: unknown[]) => {
      const impl = require("pulumi-domainapi/impl") as typeof Impl;
      const handlers = impl[kind] as unknown as Record<Method, (...a: unknown[]) => Promise<unknown>>;
      return handlers[method](...args);
    };
  }
  return provider as unknown as Provider;
}

/**
 * The dynamic provider of {@link DnsTemplateRecords}. Exported so that tests and advanced users
 * can drive it directly (for instance to validate a record set with `check`).
 *
 * @example
 * const { failures } = await dnsTemplateRecordsProvider.check!({}, { templateId: "tpl-1", records: [] });
 */
export const dnsTemplateRecordsProvider: Provider = shim("records", [
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
]);

/**
 * The dynamic provider of {@link DomainRestore}.
 *
 * @example
 * const { failures } = await domainRestoreProvider.check!({}, { domain: "shop.example" });
 */
export const domainRestoreProvider: Provider = shim("restore", [
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "delete",
]);

/**
 * A provider that only echoes its inputs: the engine's floor. The smoke test and the benchmark that
 * compares a real stack with the cost of the engine alone use it; it goes through the same
 * require-by-name path as the real providers.
 */
export const engineFloorProvider: Provider = shim("floor", ["create", "diff"]);
