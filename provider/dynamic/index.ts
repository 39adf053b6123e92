/**
 * The Node program's side of the dynamic provider: the resource classes a program makes
 * (`recordsResource.ts`, `restoreResource.ts`, with the program-side claim of a template in
 * `owners.ts`), the serialized shims that Pulumi stores in their state (`__provider`), and the
 * implementation the shims load by package name (`impl.ts`, over the operations table).
 *
 * Pulumi serializes a dynamic provider by capturing the closures of its methods, unless the
 * provider is the whole exports of a module it can `require` by name from a program's
 * `node_modules`: then it stores that `require` (about 240 bytes). Each provider is therefore the
 * exports of a module of its own (`dynamic/records.ts`, `dynamic/restore.ts`), listed in the
 * package's `exports`. Capturing our real implementation would drag zod, undici and absolute paths
 * into the state, so each method does nothing but `require()` the implementation by package name
 * when it runs: the stored provider holds no secret and no path, and a stack created from one
 * checkout can be updated from another, or after an upgrade of this package.
 */
import type * as pulumi from "@pulumi/pulumi";

import recordsProvider from "./records";
import restoreProvider from "./restore";

/**
 * The dynamic provider of {@link DnsTemplateRecords}. Exported so that tests and advanced users
 * can drive it directly (for instance to validate a record set with `check`).
 *
 * @example
 * const { failures } = await dnsTemplateRecordsProvider.check!({}, { templateId: "tpl-1", records: [] });
 */
export const dnsTemplateRecordsProvider: pulumi.dynamic.ResourceProvider = recordsProvider;

/**
 * The dynamic provider of {@link DomainRestore}. Every change of its inputs replaces; `update` only
 * finishes a restore whose answer was lost.
 *
 * @example
 * const { failures } = await domainRestoreProvider.check!({}, { domain: "shop.example" });
 */
export const domainRestoreProvider: pulumi.dynamic.ResourceProvider = restoreProvider;
