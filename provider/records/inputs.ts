/**
 * A DnsTemplateRecords resource's inputs, checked before any request: the records one by one
 * (dns/validate.ts), the template checks across them (provider/checks), and the other inputs
 * (`templateId`, `purge`, `safetyThreshold`, `liftedChecks`).
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { readLiftedChecks, type Verdict, verdictOf } from "../checks/lift";
import { findingText, type RuleName } from "../checks/rules";
import { checkTemplate } from "../checks/template";
import type { InputIssue } from "../dns/issues";
import type { RecordSpec } from "../dns/model";
import { canonicalOrder } from "../dns/model";
import { type Indexed, validateEach, validateTemplateId } from "../dns/validate";
import { isPlainObject } from "../values";
import { type SafetyThreshold, validateSafetyThreshold } from "./safety";

function validatePurge(raw: unknown, path = "purge"): InputIssue[] {
  if (raw === undefined || raw === null || typeof raw === "boolean") return [];
  return [
    {
      property: path,
      reason: "expected true (the resource owns the whole template) or false (only its own records)",
    },
  ];
}

/** The validated inputs of a DnsTemplateRecords resource. */
export interface TemplateRecordsInputs {
  templateId: string;
  records: RecordSpec[];
  purge: boolean;
  safetyThreshold: SafetyThreshold | false;
  /** The error rules of the template checks this resource lifts for itself; absent when none. */
  liftedChecks?: RuleName[];
}

/**
 * Validates every input of a DnsTemplateRecords resource (`templateId`, `records`, `purge`,
 * `safetyThreshold`), issues in that order; other keys (such as the engine's `__provider`) are
 * left alone. `inputs` is present exactly when there are no issues; `purge` reads as
 * `purge !== false`.
 *
 * @example
 * const { inputs, issues } = validateTemplateRecordsInputs({ templateId: "42", records: [] });
 */
export function validateTemplateRecordsInputs(raw: unknown): {
  inputs?: TemplateRecordsInputs;
  issues: InputIssue[];
  /** What the template checks show without failing (provider/checks), each a line to log. */
  warnings: string[];
} {
  const props = isPlainObject(raw) ? raw : {};
  const templateIssues = validateTemplateId(props.templateId);
  const { valid, issues: recordIssues } = validateEach(props.records, "records");
  const purgeIssues = validatePurge(props.purge);
  const { threshold, issues: thresholdIssues } = validateSafetyThreshold(props.safetyThreshold);
  const { lifted, issues: liftIssues } = readLiftedChecks(props.liftedChecks);
  const issues = [...templateIssues, ...recordIssues, ...purgeIssues, ...thresholdIssues, ...liftIssues];
  if (issues.length > 0) return { issues, warnings: [] };
  const verdict = templateVerdict(valid, lifted, props.templateId as string);
  if (verdict.errors.length > 0) {
    return {
      issues: verdict.errors.map((f) => ({ property: f.path, reason: findingText(f) })),
      warnings: [...verdict.warnings],
    };
  }
  return {
    inputs: {
      templateId: props.templateId as string,
      records: canonicalOrder(valid.map((item) => item.record)),
      purge: props.purge !== false,
      safetyThreshold: threshold,
      ...(lifted.length > 0 ? { liftedChecks: lifted } : {}),
    },
    issues,
    warnings: [...verdict.warnings],
  };
}

/** The template checks (provider/checks) on records valid one by one, sorted by the lifted rules. */
function templateVerdict(
  valid: readonly Indexed[],
  lifted: readonly RuleName[],
  templateId: string,
): Verdict {
  const findings = checkTemplate(valid.map(({ index, record }) => ({ path: `records[${index}]`, record })));
  return verdictOf(findings, lifted, `template "${templateId}"`);
}
