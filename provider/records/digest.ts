/**
 * Applying only the reviewed plan (docs/design.md, "The reviewed-plan guard"; octoDNS's
 * `octodns-sync --checksum`): `domainapi-plan` prints a short digest of each template's plan, and
 * `up`, given the reviewed digests, refuses any template whose plan differs, recovery included.
 *
 * The digest covers exactly what is sent: the template, the mode and every request's method and
 * body, in order. Two plans with the same digest send the same bytes.
 *
 * Pure: no HTTP, no Pulumi (the caller reads the environment).
 */
import { createHash } from "node:crypto";
import { UnreviewedPlanError } from "./errors";
import type { Plan } from "./plan";

/** The environment variable that holds the reviewed digests for one `pulumi up`. */
export const EXPECT_PLAN_ENV = "DOMAINAPI_EXPECT_PLAN";

/** How many hexadecimal digits of the SHA-256 a digest keeps: short to read, long enough to trust. */
const DIGEST_LENGTH = 16;

/**
 * The digest of what a plan sends (`3f2a9c1e0b7d4a55`).
 *
 * @example
 * planDigest(planResource(holding, declaration)); // "3f2a9c1e0b7d4a55"
 */
export function planDigest(plan: Plan): string {
  const sent = plan.requests.map((r) => [r.method, r.body]);
  return createHash("sha256")
    .update(JSON.stringify([plan.templateId, plan.mode, sent]))
    .digest("hex")
    .slice(0, DIGEST_LENGTH);
}

/** One reviewed plan: the template it changes and its digest. */
export interface ReviewedPlan {
  templateId: string;
  digest: string;
}

/** The expectation of a review in which no template was to change: any change is then refused. */
const NOTHING = "none";

/**
 * The `DOMAINAPI_EXPECT_PLAN` value for reviewed plans: `templateId=digest` pairs separated by
 * spaces (template ids are single path segments without spaces; `=` may appear in them, so the
 * digest is what follows the last `=`), or `none` when nothing was to change.
 *
 * @example
 * formatExpectation([{ templateId: "web", digest: "3f2a9c1e0b7d4a55" }]); // "web=3f2a9c1e0b7d4a55"
 */
export function formatExpectation(plans: readonly ReviewedPlan[]): string {
  return plans.length === 0 ? NOTHING : plans.map((p) => `${p.templateId}=${p.digest}`).join(" ");
}

/**
 * Parses a `DOMAINAPI_EXPECT_PLAN` value (see {@link formatExpectation}); `undefined` when none is
 * set, so that every plan is allowed.
 *
 * @throws UnreviewedPlanError naming the malformed pair and the form expected
 */
export function parseExpectation(value: string | undefined): ReviewedPlan[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (value.trim() === NOTHING) return [];
  return value
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const at = pair.lastIndexOf("=");
      const digest = pair.slice(at + 1);
      if (at <= 0 || !/^[0-9a-f]{16}$/.test(digest)) {
        throw new UnreviewedPlanError(
          `${EXPECT_PLAN_ENV}: "${pair}" is not a templateId=digest pair (the digest: 16 hexadecimal digits); ` +
            "copy the value domainapi-plan printed for the reviewed plan",
        );
      }
      return { templateId: pair.slice(0, at), digest };
    });
}

/**
 * Why `plan` may not be carried out under the reviewed plans, or `undefined` when it may: a plan
 * that sends nothing is always allowed; any other must have its digest among the reviewed ones of
 * its template. `recovery` says the plan recovers from records found removed during `up`, after the
 * reviewed requests were sent.
 *
 * @example
 * refusalOf(plan, parseExpectation(process.env.DOMAINAPI_EXPECT_PLAN)); // undefined, or why not
 */
export function refusalOf(
  plan: Plan,
  reviewed: readonly ReviewedPlan[] | undefined,
  recovery = false,
): string | undefined {
  if (reviewed === undefined || plan.requests.length === 0) return undefined;
  const digest = planDigest(plan);
  const ofTemplate = reviewed.filter((r) => r.templateId === plan.templateId).map((r) => r.digest);
  if (ofTemplate.includes(digest)) return undefined;
  const was =
    ofTemplate.length === 0
      ? "no plan of this template was reviewed"
      : `the reviewed plan was ${ofTemplate.join(" or ")}`;
  return (
    `refusing to change template "${plan.templateId}": its plan is not the reviewed one ` +
    `(${EXPECT_PLAN_ENV}): it is now ${digest} (${plan.text}), ${was}. ` +
    (recovery
      ? "The reviewed requests found records removed outside Pulumi; the recovery, a plan nobody reviewed, was not sent. "
      : "Nothing was sent for this template. ") +
    "Preview again, review the new plan, and run `pulumi up` with its digest."
  );
}
