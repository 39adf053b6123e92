/**
 * What the serialized shims (`dynamic.ts`) load at run time, by package name
 * (`require("pulumi-domainapi/impl")`): exactly the provider methods they call, and nothing else,
 * so that `pulumi-domainapi/impl` is no back door to the modules' other exports. Nothing here is
 * ever serialized into the state.
 */
import { attachPluginToEngine } from "./log";
import * as recordsProvider from "./records/provider";
import * as restoreProvider from "./restore/provider";

// Loaded first thing in the engine's plugin process: connect its logging to the engine.
attachPluginToEngine();

/** DnsTemplateRecords' provider methods, as the shim calls them. */
export const records = {
  configure: recordsProvider.configure,
  check: recordsProvider.check,
  diff: recordsProvider.diff,
  create: recordsProvider.create,
  update: recordsProvider.update,
  delete: recordsProvider.delete,
  read: recordsProvider.read,
};

/** DomainRestore's provider methods, as the shim calls them. */
export const restore = {
  configure: restoreProvider.configure,
  check: restoreProvider.check,
  diff: restoreProvider.diff,
  create: restoreProvider.create,
  update: restoreProvider.update,
  delete: restoreProvider.delete,
};
