/**
 * One template, one owner: two resources that manage the same template on the same account in one
 * deployment may do so only when neither has `purge: true` (a create with purge replaces every
 * record of the template with one PUT, so each would erase the other's records), and then never
 * both declare the same record (each would add it: the template would hold it twice, or one
 * resource would delete the other's).
 *
 * {@link TemplateClaims} keeps the claims of one deployment; the caller scopes it (one per program
 * run, one per plugin process) and names the resources (a program's resource name, a URN's last part).
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { describeRecord, identityOf, type RecordSpec } from "../dns/model";

/** What a resource claims: a template of an account, as sole owner (`purge`) or not. */
export interface TemplateClaim {
  /** The resource's name, as the refusal names it. */
  readonly resource: string;
  /** The account the template belongs to (its API's base URL); resources on other accounts never meet. */
  readonly account: string;
  readonly templateId: string;
  readonly purge: boolean;
  /** The provider the resource uses, as the refusal names it (`"live"`); absent when all share one. */
  readonly provider?: string;
}

function sameTemplate(a: TemplateClaim, b: TemplateClaim): boolean {
  return a.account === b.account && a.templateId === b.templateId && a.resource !== b.resource;
}

/** `"web"`, or `"web" (provider "live")` when the claim names its provider. */
function named(claim: TemplateClaim): string {
  return claim.provider === undefined
    ? `"${claim.resource}"`
    : `"${claim.resource}" (provider ${claim.provider})`;
}

/**
 * Why `claim` and `other`, which manage the same template, cannot both stand when either has
 * `purge: true`, naming both (and their providers, when the claims say them); undefined when
 * neither has.
 *
 * @example
 * purgeConflict({ resource: "b", account: "a", templateId: "t", purge: false }, { resource: "a", account: "a", templateId: "t", purge: true });
 * // 'DnsTemplateRecords "a" and "b" both manage template "t", and "a" has purge: true ...'
 */
export function purgeConflict(claim: TemplateClaim, other: TemplateClaim): string | undefined {
  if (!claim.purge && !other.purge) return undefined;
  const owner = claim.purge && other.purge ? "both have" : `"${(claim.purge ? claim : other).resource}" has`;
  const where = claim.account === "" ? "" : ` of ${claim.account}`;
  return (
    `DnsTemplateRecords ${named(other)} and ${named(claim)} both manage template "${claim.templateId}"${where}, ` +
    `and ${owner} purge: true (a resource with purge owns the whole template: its create replaces every record with one PUT, ` +
    `which would erase the other's records, and the state of one would then list records that do not exist). ` +
    `Give each resource its own template, merge their records into one resource, or set purge: false on both ` +
    `(then each adds and removes only its own records).`
  );
}

/**
 * The claims of one deployment, and the refusals they earn. A resource that claims again (a second
 * check of the same resource) replaces its own claim.
 *
 * @example
 * const claims = new TemplateClaims();
 * claims.claim({ resource: "web", account: "", templateId: "shared", purge: true }); // undefined
 * claims.claim({ resource: "mail", account: "", templateId: "shared", purge: false });
 * // 'DnsTemplateRecords "web" and "mail" both manage template "shared", and "web" has purge: true ...'
 */
export class TemplateClaims {
  private readonly claims = new Map<string, TemplateClaim>();
  private readonly records = new Map<string, readonly RecordSpec[]>();

  /** Records `claim`; returns why it is refused (naming both resources), or `undefined`. */
  claim(claim: TemplateClaim): string | undefined {
    this.claims.set(claim.resource, claim);
    for (const other of this.claims.values()) {
      if (sameTemplate(claim, other) && (claim.purge || other.purge)) return purgeConflict(claim, other);
    }
    return this.overlap(claim.resource);
  }

  /**
   * Records the records `resource` declares (once they are known; its claim may come before or
   * after); returns why they are refused, or `undefined`.
   */
  declareRecords(resource: string, records: readonly RecordSpec[]): string | undefined {
    this.records.set(resource, records);
    return this.overlap(resource);
  }

  /** A record that `resource` and another resource sharing its template both declare. */
  private overlap(resource: string): string | undefined {
    const claim = this.claims.get(resource);
    const mine = this.records.get(resource);
    if (claim === undefined || mine === undefined) return undefined;
    const identities = new Map(mine.map((r) => [identityOf(r), r]));
    for (const other of this.claims.values()) {
      if (!sameTemplate(claim, other)) continue;
      const shared = (this.records.get(other.resource) ?? []).find((r) => identities.has(identityOf(r)));
      if (shared === undefined) continue;
      return (
        `DnsTemplateRecords "${other.resource}" and "${resource}" share template "${claim.templateId}" (purge: false) ` +
        `and both declare the record ${describeRecord(shared)}: each would add it, so the template would hold it twice, ` +
        `and removing it from one would delete the other's. Declare it in one of them only.`
      );
    }
    return undefined;
  }
}
