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
 * What a `DOMAINAPI_EXPECT_PLAN` that is set says: the reviewed plans (none at all for `none`), or
 * nothing usable because it is empty. An empty value is what a failed
 * `$(domainapi-plan --expect ...)` leaves, so it refuses every change instead of meaning "no guard".
 */
export type Expectation =
  | { readonly kind: "reviewed"; readonly plans: readonly ReviewedPlan[] }
  | { readonly kind: "blank" };

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
 * The line people copy from a plan: the variable and its value in single quotes, so that pasted in
 * front of `pulumi up` the shell keeps every pair (unquoted, it keeps only the first), and pasted
 * whole as a CI variable's value {@link parseExpectation} still reads it.
 *
 * @example
 * expectationAssignment([{ templateId: "mail", digest: "0123456789abcdef" }, { templateId: "web", digest: "3f2a9c1e0b7d4a55" }]);
 * // "DOMAINAPI_EXPECT_PLAN='mail=0123456789abcdef web=3f2a9c1e0b7d4a55'"
 */
export function expectationAssignment(plans: readonly ReviewedPlan[]): string {
  return `${EXPECT_PLAN_ENV}='${formatExpectation(plans).replaceAll("'", "'\\''")}'`;
}

/**
 * The value inside what people paste: without a leading `DOMAINAPI_EXPECT_PLAN=` and without the
 * quotes around it (single quotes as {@link expectationAssignment} writes them, or double quotes).
 */
function unwrap(value: string): string {
  let inner = value.trim();
  if (inner.startsWith(`${EXPECT_PLAN_ENV}=`)) inner = inner.slice(EXPECT_PLAN_ENV.length + 1).trim();
  const quote = inner[0];
  if ((quote === "'" || quote === '"') && inner.length >= 2 && inner.endsWith(quote)) {
    inner = inner.slice(1, -1);
    inner = quote === "'" ? inner.replaceAll("'\\''", "'") : inner.replace(/\\(["$`\\])/g, "$1");
  }
  return inner.trim();
}

/**
 * Parses a `DOMAINAPI_EXPECT_PLAN` value (see {@link formatExpectation}), as the shell leaves it or
 * as pasted whole from a plan (`DOMAINAPI_EXPECT_PLAN='web=...'`). `undefined` when the variable is
 * not set: every plan is allowed. Set but empty or blank (`""`, `''`, spaces): `blank`, which
 * refuses every change (see {@link refusalOf}).
 *
 * @throws UnreviewedPlanError naming the malformed pair and the form expected
 * @example
 * parseExpectation("DOMAINAPI_EXPECT_PLAN='web=3f2a9c1e0b7d4a55'");
 * // { kind: "reviewed", plans: [{ templateId: "web", digest: "3f2a9c1e0b7d4a55" }] }
 */
export function parseExpectation(value: string | undefined): Expectation | undefined {
  if (value === undefined) return undefined;
  const inner = unwrap(value);
  if (inner === "") return { kind: "blank" };
  if (inner === NOTHING) return { kind: "reviewed", plans: [] };
  const plans = inner.split(/\s+/).map((pair) => {
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
  return { kind: "reviewed", plans };
}

/** Why an empty expectation refuses: the likely cause and the two ways on. */
function blankRefusal(plan: Plan): string {
  return (
    `refusing to change template "${plan.templateId}": ${EXPECT_PLAN_ENV} is set but empty, so no plan is a reviewed one ` +
    `(its plan now is ${planDigest(plan)}: ${plan.text}). An empty value is what a failed \`domainapi-plan --expect\` leaves ` +
    "in `$(...)` (the preview failed, a plan is known only during `pulumi up`, or a template's records are secret in the preview). " +
    "Nothing was sent for this template. Set it to the reviewed value, or unset it to apply without a reviewed plan."
  );
}

/**
 * Why `plan` may not be carried out under the reviewed plans, or `undefined` when it may: a plan
 * that sends nothing is always allowed; any other must have its digest among the reviewed ones of
 * its template, and none may under a blank expectation. `recovery` says the plan recovers from records found removed during `up`, after the
 * reviewed requests were sent.
 *
 * @example
 * refusalOf(plan, parseExpectation(process.env.DOMAINAPI_EXPECT_PLAN)); // undefined, or why not
 */
export function refusalOf(
  plan: Plan,
  expected: Expectation | undefined,
  recovery = false,
): string | undefined {
  if (expected === undefined || plan.requests.length === 0) return undefined;
  if (expected.kind === "blank") return blankRefusal(plan);
  const digest = planDigest(plan);
  const ofTemplate = expected.plans.filter((r) => r.templateId === plan.templateId).map((r) => r.digest);
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
