/**
 * The template checks' rules: one row per rule, with the stable name a resource uses to lift it,
 * whether it fails the preview or only warns (docs/design.md, "Template checks"), and the RFC
 * section a finding cites; and the shape of one finding.
 *
 * This module knows neither HTTP nor Pulumi.
 */

/** The stable names of the rules, as `liftedChecks` and every message name them. */
export const RULE_NAMES = [
  "spf-single-record",
  "spf-syntax",
  "spf-lookup-limit",
  "dmarc-syntax",
  "dmarc-single-record",
  "cname-loop",
  "caa-syntax",
  "target-is-cname",
  "caa-unknown-tag",
  "spf-pass-all",
] as const;

/** The name of one rule: stable across versions, since programs list them to lift them. */
export type RuleName = (typeof RULE_NAMES)[number];

/** An error fails the preview (nothing is sent); a warning is shown in the preview and the PR plan. */
export type Severity = "error" | "warning";

/** What the checks know of one rule. */
export interface Rule {
  readonly severity: Severity;
  /** The section the rule rests on, as a finding cites it: `RFC 7208 §3.2`. */
  readonly rfc: string;
}

/** Every rule; docs/design.md, "Template checks", says which are errors and which warnings. */
export const RULES: Readonly<Record<RuleName, Rule>> = {
  "spf-single-record": { severity: "error", rfc: "RFC 7208 §3.2" },
  "spf-syntax": { severity: "error", rfc: "RFC 7208 §4.6.1, §12" },
  "spf-lookup-limit": { severity: "error", rfc: "RFC 7208 §4.6.4" },
  "dmarc-syntax": { severity: "error", rfc: "RFC 7489 §6.3, §6.4" },
  "dmarc-single-record": { severity: "error", rfc: "RFC 7489 §6.6.3" },
  "cname-loop": { severity: "error", rfc: "RFC 1034 §3.6.2" },
  "caa-syntax": { severity: "error", rfc: "RFC 8659 §4.1" },
  "target-is-cname": { severity: "warning", rfc: "RFC 2181 §10.3, RFC 2782" },
  "caa-unknown-tag": { severity: "warning", rfc: "RFC 8659 §4.1, §7.2" },
  "spf-pass-all": { severity: "warning", rfc: "RFC 7208 §5.1" },
};

/**
 * One thing a rule found: where (`records[3].content`), which rule, what is wrong and how to fix it.
 * `record` names the record as messages show it (`@ TXT v=spf1 ...`), for places without paths
 * (the PR plan).
 */
export interface Finding {
  readonly rule: RuleName;
  readonly severity: Severity;
  readonly path: string;
  readonly record: string;
  readonly problem: string;
  readonly fix: string;
}

/**
 * A finding as a user reads it, with everything needed to act: rule, RFC section, problem, fix.
 *
 * @example
 * findingText(f); // "[spf-single-record, RFC 7208 §3.2] a second v=spf1 record at "@" ...; fix: merge ..."
 */
export function findingText(finding: Finding): string {
  return `[${finding.rule}, ${RULES[finding.rule].rfc}] ${finding.problem}; fix: ${finding.fix}`;
}

/** Whether `name` is a rule's name (for the input that lifts rules). */
export function isRuleName(name: string): name is RuleName {
  return (RULE_NAMES as readonly string[]).includes(name);
}
