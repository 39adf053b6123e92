/**
 * Lifting an error rule for one resource (`liftedChecks: ["spf-lookup-limit"]`): the input read
 * and checked, and the verdict on a template's findings. A lifted error still shows, as a warning
 * that names the lift; a lift that finds nothing to lift is named too, so that none outlives its
 * reason unseen.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { type Finding, findingText, isRuleName, RULE_NAMES, RULES, type RuleName } from "./rules";

/** The input that lifts rules, as programs and the schema name it. */
export const LIFT_INPUT = "liftedChecks";

/** A problem with the lift input itself: the path of the offending value and what to write. */
export interface LiftIssue {
  readonly property: string;
  readonly reason: string;
}

/** The rules a resource can lift, as messages list them (made when asked: a refusal is rare). */
function errorRules(): string {
  return RULE_NAMES.filter((name) => RULES[name].severity === "error").join(", ");
}

/**
 * Reads the `liftedChecks` input: absent, or a list of error rules' names, each once.
 *
 * @example
 * readLiftedChecks(["spf-lookup-limit"]); // { lifted: ["spf-lookup-limit"], issues: [] }
 */
export function readLiftedChecks(
  raw: unknown,
  path: string = LIFT_INPUT,
): { lifted: RuleName[]; issues: LiftIssue[] } {
  if (raw === undefined || raw === null) return { lifted: [], issues: [] };
  if (!Array.isArray(raw)) {
    return {
      lifted: [],
      issues: [
        { property: path, reason: `expected a list of rule names, e.g. ${LIFT_INPUT}: ["spf-lookup-limit"]` },
      ],
    };
  }
  const lifted: RuleName[] = [];
  const issues: LiftIssue[] = [];
  raw.forEach((name: unknown, index) => {
    const at = `${path}[${index}]`;
    if (typeof name !== "string" || !isRuleName(name)) {
      issues.push({
        property: at,
        reason: `${JSON.stringify(name)} is not a rule; the rules that can be lifted are ${errorRules()}`,
      });
    } else if (RULES[name].severity !== "error") {
      issues.push({
        property: at,
        reason: `"${name}" only warns, so there is nothing to lift: remove it (the rules that can be lifted are ${errorRules()})`,
      });
    } else if (lifted.includes(name)) {
      issues.push({ property: at, reason: `"${name}" is listed twice; remove one` });
    } else lifted.push(name);
  });
  return { lifted, issues };
}

/** A template's findings sorted into what fails the preview and what is shown. */
export interface Verdict {
  /** Findings of error rules not lifted: the preview fails on them. */
  readonly errors: readonly Finding[];
  /** What the preview and the PR plan show, each a line a user reads. */
  readonly warnings: readonly string[];
}

/**
 * Sorts `findings` by `lifted`: errors of a lifted rule become warnings that name the lift, and a
 * lifted rule that finds nothing is a warning of its own.
 *
 * @param where what each line starts with, e.g. `template "shared"` (nothing when absent)
 * @param at how a line names the record: its path and text by default; the PR plan, whose records
 *   are in canonical order, names the record only
 * @example
 * const { errors, warnings } = verdictOf(checkTemplate(records), ["spf-lookup-limit"], 'template "shared"');
 */
export function verdictOf(
  findings: readonly Finding[],
  lifted: readonly RuleName[],
  where?: string,
  at: (f: Finding) => string = (f) => `${f.path} (${f.record})`,
): Verdict {
  const prefix = where === undefined ? "" : `${where}: `;
  const errors: Finding[] = [];
  const warnings: string[] = [];
  for (const f of findings) {
    if (f.severity === "warning") warnings.push(`${prefix}${at(f)}: ${findingText(f)}`);
    else if (lifted.includes(f.rule)) {
      warnings.push(
        `${prefix}${at(f)}: ${findingText(f)} [lifted by ${LIFT_INPUT}: not failing the preview]`,
      );
    } else errors.push(f);
  }
  for (const rule of lifted) {
    if (!findings.some((f) => f.rule === rule)) {
      warnings.push(
        `${prefix}${LIFT_INPUT} lifts "${rule}", which finds nothing here; remove it from ${LIFT_INPUT}`,
      );
    }
  }
  return { errors, warnings };
}
