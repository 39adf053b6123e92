/**
 * The reviewed plans of one `pulumi up` (`DOMAINAPI_EXPECT_PLAN`), as the host's environment gives
 * them, and the short digest every reviewed change is named by. Every resource of this provider
 * that sends anything holds its plan to them (DnsTemplateRecords in records/digest.ts, DomainRestore
 * in restore/guard.ts), so the value and its parsing live below both.
 *
 * Pure: no HTTP, no Pulumi (the caller reads the environment).
 */
import { createHash } from "node:crypto";
import { UnreviewedPlanError } from "../errors";

/** The environment variable that holds the reviewed digests for one `pulumi up`. */
export const EXPECT_PLAN_ENV = "DOMAINAPI_EXPECT_PLAN";

/** How many hexadecimal digits of the SHA-256 a digest keeps: short to read, long enough to trust. */
const DIGEST_LENGTH = 32;

/**
 * The digest of a JSON-serialisable description of what is sent, where and how
 * (`3f2a9c1e0b7d4a55e61f0c2d9b8a7364`). Each kind of change starts its description with its own tag, so that two
 * kinds can never share a digest.
 *
 * @example
 * shortDigest(["DomainRestore", "https://api.example.com", "shop.example"]); // "9b1f..."
 */
export function shortDigest(description: unknown): string {
  return createHash("sha256").update(JSON.stringify(description)).digest("hex").slice(0, DIGEST_LENGTH);
}

/**
 * Where a reviewed plan is applied: the account, as the API's base address normalised as the client
 * uses it (`canonicalBaseUrl`; never the key), or undefined when it is not known. Every digest
 * covers it, so a change reviewed for one account is refused on another.
 */
export interface AppliedUnder {
  account: string | undefined;
}

/**
 * One reviewed plan: what it changes and its digest. `templateId` names a template, or a restore as
 * `restore/<domain>` (a template id never holds `/`, so the two cannot be confused).
 */
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
export type Expectation = (
  | { readonly kind: "reviewed"; readonly plans: readonly ReviewedPlan[] }
  | { readonly kind: "blank" }
) & {
  /**
   * Where this run applies what it changes, as the resource that holds its plan to the expectation
   * binds it ({@link appliedAt}): a digest is computed under it. Absent in a value only parsed.
   */
  readonly applied?: AppliedUnder;
};

/**
 * `expected` bound to where a resource applies its change (see {@link Expectation.applied}).
 *
 * @example
 * appliedAt(parseExpectation(process.env.DOMAINAPI_EXPECT_PLAN), { account: configuredBaseUrl() });
 */
export function appliedAt<A extends AppliedUnder>(
  expected: Expectation | undefined,
  applied: A,
): (Expectation & { readonly applied: A }) | undefined {
  return expected === undefined ? undefined : { ...expected, applied };
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value for reviewed plans: `templateId=digest` pairs separated by
 * spaces (template ids are single path segments without spaces; `=` may appear in them, so the
 * digest is what follows the last `=`), or `none` when nothing was to change.
 *
 * @example
 * formatExpectation([{ templateId: "web", digest: "3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }]); // "web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364"
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
 * expectationAssignment([{ templateId: "mail", digest: "0123456789abcdef0123456789abcdef" }, { templateId: "web", digest: "3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }]);
 * // "DOMAINAPI_EXPECT_PLAN='mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364'"
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
 * parseExpectation("DOMAINAPI_EXPECT_PLAN='web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364'");
 * // { kind: "reviewed", plans: [{ templateId: "web", digest: "3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }] }
 */
export function parseExpectation(value: string | undefined): Expectation | undefined {
  if (value === undefined) return undefined;
  const inner = unwrap(value);
  if (inner === "") return { kind: "blank" };
  if (inner === NOTHING) return { kind: "reviewed", plans: [] };
  const plans = inner.split(/\s+/).map((pair) => {
    const at = pair.lastIndexOf("=");
    const digest = pair.slice(at + 1);
    if (at <= 0 || !/^[0-9a-f]{32}$/.test(digest)) {
      throw new UnreviewedPlanError(
        `${EXPECT_PLAN_ENV}: "${pair}" is not a templateId=digest pair (the digest: 32 hexadecimal digits); ` +
          "copy the value domainapi-plan printed for the reviewed plan",
      );
    }
    return { templateId: pair.slice(0, at), digest };
  });
  return { kind: "reviewed", plans };
}

/**
 * The digests reviewed for `key` (a template id, or `restore/<domain>`), for a refusal to name.
 *
 * @example
 * reviewedDigests({ kind: "reviewed", plans: [{ templateId: "web", digest: "3f2a9c1e0b7d4a55e61f0c2d9b8a7364" }] }, "web"); // ["3f2a9c1e0b7d4a55e61f0c2d9b8a7364"]
 */
export function reviewedDigests(expected: Expectation, key: string): string[] {
  return expected.kind === "blank"
    ? []
    : expected.plans.filter((p) => p.templateId === key).map((p) => p.digest);
}
