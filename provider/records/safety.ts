/**
 * The safety threshold and its check, as octoDNS has them (`Plan.raise_if_unsafe`): an update that
 * would change or delete too large a share of a template's records is refused before any request,
 * so a mass change already stops `pulumi preview`.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { z } from "zod";
import { describeValue, type InputIssue, issuesOf, withoutUnset } from "../dns/issues";

/**
 * When an update is refused as too large: if the template holds at least `minExistingRecords`
 * records, an update that would update or delete more than `maxChangePercent` percent of them is
 * refused.
 */
export interface SafetyThreshold {
  /** Below this many existing records, any change is allowed. Default 10. */
  minExistingRecords: number;
  /** The largest share of existing records, in percent, one update may update or delete. Default 30. */
  maxChangePercent: number;
}

/** The threshold used when the program sets none: 30 % of at least 10 existing records. */
export const DEFAULT_SAFETY_THRESHOLD: Readonly<SafetyThreshold> = Object.freeze({
  minExistingRecords: 10,
  maxChangePercent: 30,
});

/**
 * The environment variable that turns the check off for one run without editing the program, as
 * octoDNS's `--force` does: `DOMAINAPI_SAFETY_THRESHOLD=off pulumi up`.
 */
export const SAFETY_OVERRIDE_ENV = "DOMAINAPI_SAFETY_THRESHOLD";

const SafetyThresholdSchema = z.strictObject({
  minExistingRecords: z
    .number({
      error: (issue) => `must be a whole number of records, e.g. 10; got ${describeValue(issue.input)}`,
    })
    .int({ error: (issue) => `must be a whole number of records, e.g. 10; got ${String(issue.input)}` })
    .min(0, { error: (issue) => `must be 0 or more; got ${String(issue.input)}` })
    .optional(),
  maxChangePercent: z
    .number({
      error: (issue) => `must be a percentage from 0 to 100, e.g. 30; got ${describeValue(issue.input)}`,
    })
    .min(0, { error: (issue) => `must be a percentage from 0 to 100; got ${String(issue.input)}` })
    .max(100, {
      error: (issue) =>
        `must be a percentage from 0 to 100; got ${String(issue.input)} (to turn the check off, set safetyThreshold: false)`,
    })
    .optional(),
});

/**
 * Validates the `safetyThreshold` input. Absent (or `true`) means {@link DEFAULT_SAFETY_THRESHOLD};
 * `false` turns the check off; an object overrides one or both fields of the default.
 *
 * @example
 * validateSafetyThreshold({ maxChangePercent: 50 });
 * // { threshold: { minExistingRecords: 10, maxChangePercent: 50 }, issues: [] }
 */
export function validateSafetyThreshold(
  raw: unknown,
  path = "safetyThreshold",
): { threshold: SafetyThreshold | false; issues: InputIssue[] } {
  if (raw === undefined || raw === null || raw === true)
    return { threshold: { ...DEFAULT_SAFETY_THRESHOLD }, issues: [] };
  if (raw === false) return { threshold: false, issues: [] };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      threshold: { ...DEFAULT_SAFETY_THRESHOLD },
      issues: [
        {
          property: path,
          reason: `expected { minExistingRecords?: number, maxChangePercent?: number } or false; got ${describeValue(raw)}`,
        },
      ],
    };
  }
  const parsed = SafetyThresholdSchema.safeParse(withoutUnset(raw as Record<string, unknown>));
  if (parsed.success) {
    return { threshold: { ...DEFAULT_SAFETY_THRESHOLD, ...withoutUnset(parsed.data) }, issues: [] };
  }
  const issues = issuesOf(
    parsed.error,
    path,
    (key) =>
      `unknown field "${key}"; a safety threshold has only minExistingRecords and maxChangePercent: remove it`,
  );
  return { threshold: { ...DEFAULT_SAFETY_THRESHOLD }, issues };
}

/**
 * What the check reads of a plan: its summary's counts of the existing records it leaves alone,
 * updates and deletes (every existing record is in exactly one of them).
 */
export interface PlannedChanges {
  summary: { unchanged: number; updates: number; deletes: number };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Whether the environment turns the check off for this run (`DOMAINAPI_SAFETY_THRESHOLD=off`, or
 * `0`, `false`, `no`).
 */
export function safetyOverridden(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[SAFETY_OVERRIDE_ENV]?.trim().toLowerCase();
  return value === "off" || value === "0" || value === "false" || value === "no";
}

/**
 * The safety check of a plan, as octoDNS's `Plan.raise_if_unsafe` reads its plan's own counts: when
 * the template holds at least `minExistingRecords` records and the plan would update or delete more
 * than `maxChangePercent` percent of them, returns a message that gives the counts, the share and
 * how to allow it (in the program, or for one run with `DOMAINAPI_SAFETY_THRESHOLD=off`); else
 * `undefined`. Creates never count: they destroy nothing. `false`, or the override in the
 * environment, turns the check off. The verdict judges the pairing the plan made, not another.
 *
 * @param plan the plan (only its summary is read)
 * @example
 * checkSafety(planCheck(previous, records, settings).plan!, DEFAULT_SAFETY_THRESHOLD);
 * // "refusing to update or delete 4 of 10 existing records (1 update, 3 deletes: 40%) ..."
 */
export function checkSafety(
  plan: PlannedChanges,
  threshold: SafetyThreshold | false,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const counts = plan.summary;
  const existing = counts.unchanged + counts.updates + counts.deletes;
  if (threshold === false || existing < threshold.minExistingRecords) return undefined;
  const changed = counts.updates + counts.deletes;
  // Compared without dividing, so that exactly 30 % of 10 records is not refused by a rounding error;
  // an empty template (0 of 0) passes here, before the divisions below.
  if (changed * 100 <= threshold.maxChangePercent * existing) return undefined;
  if (safetyOverridden(env)) return undefined;
  const share = Math.round((changed * 1000) / existing) / 10;
  const needed = Math.ceil((changed * 100) / existing);
  const allow =
    needed <= 100
      ? `set safetyThreshold.maxChangePercent to at least ${needed}, or safetyThreshold: false`
      : "set safetyThreshold: false";
  return (
    `refusing to update or delete ${changed} of ${existing} existing records ` +
    `(${plural(counts.updates, "update")}, ${plural(counts.deletes, "delete")}: ${share}%), ` +
    `more than the safety threshold of ${threshold.maxChangePercent}% ` +
    `(checked when a template holds at least ${threshold.minExistingRecords} records); ` +
    `if this is intended, ${allow}, or allow it for one run with ${SAFETY_OVERRIDE_ENV}=off`
  );
}
