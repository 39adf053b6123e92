/**
 * The dynamic provider of DnsTemplateRecords, as the whole of its module's exports. Pulumi stores a
 * dynamic provider in every resource's state (twice: inputs and outputs); a provider that is the
 * exports of a module inside a program's `node_modules` is stored as a `require` of that module by
 * its exported name (about 240 bytes) instead of its functions' text (about 2 KB). In a linked
 * checkout (no `node_modules` in the real path) the functions are stored, and work the same.
 *
 * Each method requires the implementation by package name when it runs: nothing is captured, so
 * that neither form of the stored provider holds a secret, a path or a copy of our code.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as Implementation from "./impl";

type Impl = typeof Implementation;

const recordsProvider: pulumi.dynamic.ResourceProvider = {
  configure: async (...a) => (require("pulumi-domainapi/impl") as Impl).records.configure(...a),
  check: (...a) => (require("pulumi-domainapi/impl") as Impl).records.check(...a),
  diff: (...a) => (require("pulumi-domainapi/impl") as Impl).records.diff(...a),
  create: (...a) => (require("pulumi-domainapi/impl") as Impl).records.create(...a),
  update: (...a) => (require("pulumi-domainapi/impl") as Impl).records.update(...a),
  delete: (...a) => (require("pulumi-domainapi/impl") as Impl).records.delete(...a),
  read: (...a) => (require("pulumi-domainapi/impl") as Impl).records.read(...a),
};

export = recordsProvider;
