/**
 * One template, one owner, through the plugin: the gRPC Check of each DnsTemplateRecords carries
 * its URN (the dynamic host's does not: there the resource class claims, dynamic/owners.ts), so `check()` claims the template of each checked resource in one {@link TemplateClaims}
 * for its process (the engine runs one plugin process per provider instance and deployment: one
 * account). A claim that conflicts is a check failure on `templateId`, naming both resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import { TemplateClaims } from "../checks/ownership";
import { containsUnknown } from "../host/engine";
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
    );
  return refusal === undefined ? undefined : { property: "templateId", reason: refusal };
}
