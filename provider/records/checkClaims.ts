/**
 * One template, one owner, through the plugin: the gRPC Check of each DnsTemplateRecords carries
 * its URN (the dynamic host's does not: there the resource class claims, dynamic/owners.ts), so `check()` claims the template of each checked resource in one {@link TemplateClaims}
 * for its process (the engine runs one plugin process per provider instance and deployment: one
 * account), and on the machine (host/claims.ts) for the processes of the deployment's other
 * providers, by the account's normalised base address. A claim that conflicts is a check failure
 * on `templateId`, naming both resources (and, across providers, both providers).
 */
import type * as pulumi from "@pulumi/pulumi";
import { purgeConflict, TemplateClaims } from "../checks/ownership";
import { claimOnMachine } from "../host/claims";
import { containsUnknown } from "../host/engine";
import { configuredBaseUrl, configuredProvider } from "../host/session";
import { decodeInputs } from "./state";

const claims = new TemplateClaims();

/** `urn:pulumi:dev::proj::parent$type::web` -> `web`. */
function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * The failure a checked DnsTemplateRecords earns when another resource of this deployment already
 * manages its template (see provider/checks/ownership.ts), or none. Call it with the result of the
 * records' `check()`; a result with failures, or with values not known yet, claims nothing.
 *
 * @example
 * const result = await records.check(olds, news);
 * const refusal = ownerFailure(urn, result);
 * if (refusal) return { inputs: news, failures: [refusal] };
 */
export function ownerFailure(
  urn: string,
  result: pulumi.dynamic.CheckResult,
): pulumi.dynamic.CheckFailure | undefined {
  const inputs = result.inputs as Record<string, unknown> | undefined;
  if ((result.failures ?? []).length > 0 || inputs === undefined || containsUnknown(inputs)) return undefined;
  const { settings, declared } = decodeInputs(inputs);
  const resource = resourceName(urn);
  const refusal =
    // Stryker disable next-line StringLiteral: one plugin process serves one account, so every claim's account is the same, whatever its text
    claims.claim({ resource, account: "", templateId: settings.templateId, purge: settings.purge }) ??
    claims.declareRecords(
      resource,
      declared.map(({ key: _key, ...record }) => record),
    ) ??
    acrossProviders(urn, settings.templateId, settings.purge);
  return refusal === undefined ? undefined : { property: "templateId", reason: refusal };
}

/** The refusal a claim earns from the resources of this deployment's other providers, if any. */
function acrossProviders(urn: string, templateId: string, purge: boolean): string | undefined {
  const account = configuredBaseUrl();
  // A base address not known yet (an output of another resource) is compared when it is.
  if (account === undefined) return undefined;
  const provider = configuredProvider();
  const mine = { resource: resourceName(urn), account, templateId, purge, provider };
  for (const other of claimOnMachine({ urn, account, templateId, purge, provider })) {
    const refusal = purgeConflict(mine, { ...other, resource: resourceName(other.urn) });
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}
