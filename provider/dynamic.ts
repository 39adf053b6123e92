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
 * Keep the methods free of captured variables other than `require`: anything else captured here
 * ends up in every resource's state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as Implementation from "./impl";

type Provider = pulumi.dynamic.ResourceProvider;
type Impl = typeof Implementation;

// Each method requires the implementation itself: a helper function shared by the methods would be
// serialized too, and each serialized function costs about 200 bytes of wrapper. Methods whose
// default behaviour is what we want are left out (DomainRestore's read: keep the state as it is).

/**
 * The dynamic provider of {@link DnsTemplateRecords}. Exported so that tests and advanced users
 * can drive it directly (for instance to validate a record set with `check`).
 *
 * @example
 * const { failures } = await dnsTemplateRecordsProvider.check!({}, { templateId: "tpl-1", records: [] });
 */
export const dnsTemplateRecordsProvider: Provider = {
  configure: async (...a) => (require("pulumi-domainapi/impl") as Impl).records.configure(...a),
  check: (...a) => (require("pulumi-domainapi/impl") as Impl).records.check(...a),
  diff: (...a) => (require("pulumi-domainapi/impl") as Impl).records.diff(...a),
  create: (...a) => (require("pulumi-domainapi/impl") as Impl).records.create(...a),
  update: (...a) => (require("pulumi-domainapi/impl") as Impl).records.update(...a),
  delete: (...a) => (require("pulumi-domainapi/impl") as Impl).records.delete(...a),
  read: (...a) => (require("pulumi-domainapi/impl") as Impl).records.read(...a),
};

/**
 * The dynamic provider of {@link DomainRestore}. Every change of its inputs replaces; `update` only
 * finishes a restore whose answer was lost.
 *
 * @example
 * const { failures } = await domainRestoreProvider.check!({}, { domain: "shop.example" });
 */
export const domainRestoreProvider: Provider = {
  configure: async (...a) => (require("pulumi-domainapi/impl") as Impl).restore.configure(...a),
  check: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.check(...a),
  diff: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.diff(...a),
  create: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.create(...a),
  update: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.update(...a),
  delete: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.delete(...a),
};
