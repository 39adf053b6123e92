/**
 * Domains and the restore operation (`POST /v2/domains/{domain}/restore`). The spec names no
 * states; the sandbox knows two: `quarantined` (restorable) and `active`.
 */

import { z } from "zod";
import { ApiError, notFound } from "./errors";

/** The states of a domain in the sandbox, as a schema (for seeds and admin bodies). */
export const DomainStatusSchema = z.enum(["quarantined", "active"], {
  error: (issue) => (issue.input === undefined ? "required" : "must be quarantined or active"),
});
/** The state of a domain in the sandbox. */
export type DomainStatus = z.infer<typeof DomainStatusSchema>;

/** Domain names are case-insensitive; the sandbox keys them in lower case. */
export function domainKey(name: string): string {
  return name.toLowerCase();
}

/**
 * Takes a quarantined domain out of quarantine.
 *
 * @throws ApiError 404 when the domain is unknown, 409 `conflict` when it is not in quarantine.
 */
export function restoreDomain(domains: Map<string, DomainStatus>, name: string): void {
  const key = domainKey(name);
  const status = domains.get(key);
  if (status === undefined) throw notFound(`domain ${name} does not exist`);
  if (status !== "quarantined") {
    throw new ApiError(
      409,
      "conflict",
      `domain ${name} is not in quarantine (it is ${status}); nothing to restore`,
    );
  }
  domains.set(key, "active");
}
