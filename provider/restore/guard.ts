/**
 * DomainRestore under the reviewed-plan guard (docs/design.md, "The reviewed-plan guard"): a
 * restore cannot be undone, so with `DOMAINAPI_EXPECT_PLAN` set one is sent only when the reviewed
 * plan names it, as `restore/<domain>=<digest>`, the digest covering the account and the domain
 * (the request is `POST /v2/domains/{domain}/restore`, without a body). `domainapi-plan` lists the
 * restores of a preview and gives their digests.
 *
 * Pure: no HTTP, no Pulumi (the caller reads the environment).
 */
import { EXPECT_PLAN_ENV, type Expectation, reviewedDigests, shortDigest } from "../host/expectation";

/**
 * The name of a restore in a `DOMAINAPI_EXPECT_PLAN` value: `restore/<domain>` (a template id never
 * holds `/`, so it cannot be taken for one).
 *
 * @example
 * restoreKey("shop.example"); // "restore/shop.example"
 */
export function restoreKey(domain: string): string {
  return `restore/${domain}`;
}

/**
 * The digest of the restore of `domain` (its xn-- form, as sent) on `account` (the normalised base
 * address; never the key).
 *
 * @example
 * restoreDigest("shop.example", "https://api.example.com"); // 32 hexadecimal digits
 */
export function restoreDigest(domain: string, account: string | undefined): string {
  return shortDigest(["DomainRestore", account ?? null, "POST", domain]);
}

/**
 * Why the restore of `domain` may not be sent under the reviewed plans, or `undefined` when it
 * may: with `DOMAINAPI_EXPECT_PLAN` set (`none` and blank included), only a restore the reviewed
 * plan names, for this account, is sent.
 *
 * @param expected the reviewed plans, bound to the account the restore would be sent to
 * @example
 * restoreRefusal("shop.example", appliedAt(parseExpectation(env), { account: configuredBaseUrl() }));
 */
export function restoreRefusal(domain: string, expected: Expectation | undefined): string | undefined {
  if (expected === undefined) return undefined;
  const account = expected.applied?.account;
  const digest = restoreDigest(domain, account);
  const reviewed = reviewedDigests(expected, restoreKey(domain));
  if (reviewed.includes(digest)) return undefined;
  const why =
    expected.kind === "blank"
      ? `${EXPECT_PLAN_ENV} is set but empty, so no change is a reviewed one`
      : reviewed.length === 0
        ? `the reviewed plan (${EXPECT_PLAN_ENV}) does not name it`
        : `the reviewed restore was ${reviewed.join(" or ")}, and this one is ${digest} (a digest covers the account: ` +
          `this one is for ${account ?? "(an account not known)"})`;
  return (
    `refusing to restore domain "${domain}" from quarantine: ${why}. A restore cannot be undone; nothing was sent. ` +
    "To have it reviewed, preview the program, let domainapi-plan list the restore in the pull-request plan, and run " +
    `\`pulumi up\` with the ${EXPECT_PLAN_ENV} value of that plan (it holds ${restoreKey(domain)}=${digest}).`
  );
}
