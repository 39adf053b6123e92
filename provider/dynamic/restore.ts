/**
 * The dynamic provider of DomainRestore, as the whole of its module's exports, so that Pulumi stores
 * it as a `require` of this module (see `records.ts` beside it). Every change of its inputs
 * replaces; `update` only finishes a restore whose answer was lost. Its `read` is left out: the
 * default keeps the state as it is.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as Implementation from "./impl";

type Impl = typeof Implementation;

const restoreProvider: pulumi.dynamic.ResourceProvider = {
  configure: async (...a) => (require("pulumi-domainapi/impl") as Impl).restore.configure(...a),
  check: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.check(...a),
  diff: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.diff(...a),
  create: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.create(...a),
  update: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.update(...a),
  delete: (...a) => (require("pulumi-domainapi/impl") as Impl).restore.delete(...a),
};

export = restoreProvider;
