/**
 * The serialized shims: the only code Pulumi stores in the state (`__provider`).
 *
 * Pulumi serializes a dynamic provider by capturing the closures of its methods. Capturing our real
 * implementation would drag zod, undici and absolute paths into the state (zod cannot even be
 * serialized: its package `exports` hide the files the serializer wants). So each method here does
 * nothing but `require()` the implementation by package name when it runs. The stored provider is
 * under 2 KB, holds no secret and no path, and a stack created from one checkout can be
 * updated from another, or after an upgrade of this package.
 *
 * Keep the methods free of captured variables other than the small `records` / `restore`
 * functions and `require`: anything else captured here ends up in every resource's state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as Impl from "./impl";

type Provider = pulumi.dynamic.ResourceProvider;
type Handlers = Record<string, (...args: unknown[]) => Promise<never>>;

// One small function per resource kind does the require; the methods only name themselves. Each
// serialized function costs about 150 bytes of wrapper, so methods whose default behaviour is what
// we want are left out (DomainRestore's read: keep the state as it is).
const records = (method: string, args: unknown[]) =>
  ((require("pulumi-domainapi/impl") as typeof Impl).records as unknown as Handlers)[method]!(...args);
const restore = (method: string, args: unknown[]) =>
  ((require("pulumi-domainapi/impl") as typeof Impl).restore as unknown as Handlers)[method]!(...args);

/**
 * The dynamic provider of {@link DnsTemplateRecords}. Exported so that tests and advanced users
 * can drive it directly (for instance to validate a record set with `check`).
 *
 * @example
 * const { failures } = await dnsTemplateRecordsProvider.check!({}, { templateId: "tpl-1", records: [] });
 */
export const dnsTemplateRecordsProvider: Provider = {
  configure: (...a) => records("configure", a),
  check: (...a) => records("check", a),
  diff: (...a) => records("diff", a),
  create: (...a) => records("create", a),
  update: (...a) => records("update", a),
  delete: (...a) => records("delete", a),
  read: (...a) => records("read", a),
};

/**
 * The dynamic provider of {@link DomainRestore}. Every change of its inputs replaces; `update` only
 * finishes a restore whose answer was lost.
 *
 * @example
 * const { failures } = await domainRestoreProvider.check!({}, { domain: "shop.example" });
 */
export const domainRestoreProvider: Provider = {
  configure: (...a) => restore("configure", a),
  check: (...a) => restore("check", a),
  diff: (...a) => restore("diff", a),
  create: (...a) => restore("create", a),
  update: (...a) => restore("update", a),
  delete: (...a) => restore("delete", a),
};
