/**
 * Applying only the reviewed plan (docs/design.md, "The reviewed-plan guard"; octoDNS's
 * `octodns-sync --checksum`): `domainapi-plan` prints a short digest of each template's plan, and
 * `up`, given the reviewed digests, refuses any template whose plan differs, recovery included.
 *
 * The digest covers exactly what is sent, where and how: the account (the base address, never the
 * key), the template, the mode, every request's method and body in order, and the settings that
 * decide what `up` may do beyond the plan (`purge`: whether a recovery rewrites the template;
 * the safety threshold). Two plans with the same digest send the same bytes to the same API.
 *
 * Pure: no HTTP, no Pulumi (the caller reads the environment).
 */
import {
  type AppliedUnder,
  EXPECT_PLAN_ENV,
  type Expectation,
  reviewedDigests,
  shortDigest,
} from "../host/expectation";
import type { Plan } from "./plan";
import type { SafetyThreshold } from "./safety";

export {
  EXPECT_PLAN_ENV,
  type Expectation,
  expectationAssignment,
  formatExpectation,
  parseExpectation,
  type ReviewedPlan,
} from "../host/expectation";

/** Where and how a template's plan is applied: the account, `purge` and the safety threshold. */
export interface TemplateApplied extends AppliedUnder {
  purge: boolean;
  safetyThreshold: SafetyThreshold | false;
}

/** The threshold in one fixed form, whatever order its fields were given in. */
function thresholdOf(t: SafetyThreshold | false): [number, number] | false {
  return t === false ? false : [t.minExistingRecords, t.maxChangePercent];
}

/**
 * The digest of what a plan sends, where and how (`3f2a9c1e0b7d4a55e61f0c2d9b8a7364`).
 *
 * @example
 * planDigest(planResource(holding, declaration), { account: "https://api.example.com", ...declaration.settings });
 * // "3f2a9c1e0b7d4a55e61f0c2d9b8a7364"
 */
export function planDigest(plan: Plan, applied: TemplateApplied): string {
  const sent = plan.requests.map((r) => [r.method, r.body]);
  return shortDigest([
    // Stryker disable next-line StringLiteral: any tag apart from DomainRestore's does; a restore's description is shorter, so none collides
    "DnsTemplateRecords",
    applied.account ?? null,
    plan.templateId,
    plan.mode,
    sent,
    applied.purge,
    thresholdOf(applied.safetyThreshold),
  ]);
}

/** The template settings an expectation was bound to by the resource that holds its plan to it. */
function templateApplied(expected: Expectation): TemplateApplied {
  const applied = expected.applied as Partial<TemplateApplied> | undefined;
  if (applied === undefined || applied.purge === undefined || applied.safetyThreshold === undefined) {
    throw new TypeError("refusalOf: bind the expectation to where the plan applies (appliedAt)");
  }
  return applied as TemplateApplied;
}

/** Why an empty expectation refuses: the likely cause and the two ways on. */
function blankRefusal(plan: Plan, digest: string): string {
  return (
    `refusing to change template "${plan.templateId}": ${EXPECT_PLAN_ENV} is set but empty, so no plan is a reviewed one ` +
    `(its plan now is ${digest}: ${plan.text}). An empty value is what a failed \`domainapi-plan --expect\` leaves ` +
    "in `$(...)` (the preview failed, a plan is known only during `pulumi up`, or a template's records are secret in the preview). " +
    "Nothing was sent for this template. Set it to the reviewed value, or unset it to apply without a reviewed plan."
  );
}

/** A verification (`pulumi refresh` with verification on): it re-states records, and no review shows it. */
function verificationRefusal(plan: Plan): string {
  return (
    `refusing to verify template "${plan.templateId}" under ${EXPECT_PLAN_ENV}: a verification re-states every held record ` +
    "(a record edited outside Pulumi under the same id is set back), and no reviewed plan shows it. Nothing was sent. " +
    `Run the verifying \`pulumi refresh\` on its own, without ${EXPECT_PLAN_ENV}.`
  );
}

/** Where and how, as a refusal names it. */
function describeApplied(applied: TemplateApplied): string {
  const threshold =
    applied.safetyThreshold === false
      ? "off"
      : `${applied.safetyThreshold.maxChangePercent}% of at least ${applied.safetyThreshold.minExistingRecords}`;
  return `account ${applied.account ?? "(not known)"}, purge ${applied.purge}, safety threshold ${threshold}`;
}

/**
 * Why `plan` may not be carried out under the reviewed plans, or `undefined` when it may: a plan
 * that sends nothing is always allowed; any other must have its digest, under the account and
 * settings the expectation is bound to ({@link appliedAt}), among the reviewed ones of its
 * template, and none may under a blank expectation. A verification is never a reviewed plan.
 * `recovery` says the plan recovers from records found removed during `up`, after the reviewed
 * requests were sent.
 *
 * @throws TypeError when `expected` is not bound to where the plan applies (a programming error)
 * @example
 * refusalOf(plan, appliedAt(parseExpectation(process.env.DOMAINAPI_EXPECT_PLAN), { account, ...settings }));
 * // undefined, or why not
 */
export function refusalOf(
  plan: Plan,
  expected: Expectation | undefined,
  recovery = false,
): string | undefined {
  if (expected === undefined || plan.requests.length === 0) return undefined;
  // Only a verification has this policy (records found gone leave the state; a template gone fails it).
  if (plan.onRefusal.vanished === "drop" && plan.onRefusal.templateGone === "fail")
    return verificationRefusal(plan);
  const applied = templateApplied(expected);
  const digest = planDigest(plan, applied);
  if (expected.kind === "blank") return blankRefusal(plan, digest);
  const ofTemplate = reviewedDigests(expected, plan.templateId);
  if (ofTemplate.includes(digest)) return undefined;
  const was =
    ofTemplate.length === 0
      ? "no plan of this template was reviewed"
      : `the reviewed plan was ${ofTemplate.join(" or ")} (a digest covers the plan's requests and ${describeApplied(applied)}: ` +
        "a plan reviewed for another account or with other settings is another plan)";
  return (
    `refusing to change template "${plan.templateId}": its plan is not the reviewed one ` +
    `(${EXPECT_PLAN_ENV}): it is now ${digest} (${plan.text}), ${was}. ` +
    (recovery
      ? "The reviewed requests found records removed outside Pulumi; the recovery, a plan nobody reviewed, was not sent. "
      : "Nothing was sent for this template. ") +
    "Preview again, review the new plan, and run `pulumi up` with its digest."
  );
}
