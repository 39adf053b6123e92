/**
 * The Markdown of a plan, for a pull-request comment: per template its summary line and its
 * corrections in a `diff` block (GitHub colours `+ CREATE` green and `- DELETE` red, as dnscontrol
 * prints them), each with what happens to the record's id, and the digest `up` checks.
 *
 * It is what people approve from, so nothing from the program, the state or the engine (record
 * content, names, resource names, template ids, error text) can add a line, HTML, a mention or a
 * link: every such value is shown in code (a code span or a fence it cannot close), with line
 * breaks and other control characters as visible escapes.
 *
 * Pure: plans in, text out.
 */
import { EXPECT_PLAN_ENV, expectationAssignment } from "../records/digest";
import { commitMarker } from "./commit";
import type { NotPlannable, PlannedCorrection, PlanReason, TemplatePlan } from "./templatePlans";

/** The heading every plan starts with, so a bot can find and replace its earlier comment. */
export const PLAN_HEADING = "### DNS record plan";

/** What the plan says when no template changes. */
export const NO_CHANGES = "No DNS record changes.";

/** The first line of the section of a failed preview: a plan comment holding it is no reviewed plan. */
export const PREVIEW_FAILED =
  "**The preview failed**, so `pulumi up` would fail too; the plan below is of what was planned before the failure.";

/** What the plan says when the preview failed before it planned any template. */
export const NOTHING_PLANNED = "No DNS record changes were planned before the failure.";

/**
 * Characters that could end a line or hide text where they stand: C0 and C1 controls, the Unicode
 * line and paragraph separators, and the invisible format characters (bidirectional overrides,
 * zero-width characters) that can make a line read otherwise than it is.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `text` on one line, every control or invisible character as a visible escape (`\n`, `\r`,
 * `\u{2028}`).
 *
 * @example
 * visible("v=spf1 -all\r+ CREATE"); // "v=spf1 -all\\r+ CREATE"
 */
export function visible(text: string): string {
  return text.replace(
    INVISIBLE,
    (ch) => NAMED_ESCAPES[ch] ?? `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`,
  );
}

/** The longest run of backticks in `lines`. */
function longestTicks(lines: readonly string[]): number {
  return Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
}

/** `text` as a code span that nothing in it can close, on one line. */
function inlineCode(text: string): string {
  const shown = visible(text);
  const ticks = "`".repeat(longestTicks([shown]) + 1);
  // A space inside the delimiters keeps a leading or trailing backtick (or an empty value) apart.
  const pad = shown === "" || shown.startsWith("`") || shown.endsWith("`") ? " " : "";
  return `${ticks}${pad}${shown}${pad}${ticks}`;
}

/** A fenced block of `lines` (already one line each) whose fence no line can close. */
function fenced(info: string, lines: readonly string[]): string[] {
  const fence = "`".repeat(Math.max(3, longestTicks(lines) + 1));
  return [`${fence}${info}`, ...lines, fence];
}

function idNote(c: PlannedCorrection): string {
  switch (c.id) {
    case "kept":
      return `id ${visible(c.recordId ?? "")} kept`;
    case "removed":
      return `id ${visible(c.recordId ?? "")} removed`;
    case "new":
      return "new id";
  }
}

function correctionLines(plan: TemplatePlan): string[] {
  const lines = plan.corrections.map((c) => ({ text: visible(c.message), note: idNote(c) }));
  const aside = plan.setAside.map((r) => ({
    text: `! SET ASIDE ${visible(r)}`,
    note: "its earlier add is of unknown outcome: not sent",
  }));
  const all = [...lines, ...aside];
  const width = Math.max(...all.map((l) => l.text.length));
  return all.map((l) => `${l.text.padEnd(width)}  (${l.note})`);
}

function reasonText(reason: PlanReason): string {
  switch (reason.kind) {
    case "created":
      return "new";
    case "removed":
      return "removed from the program";
    case "replaces":
      return `moved here from template ${inlineCode(reason.templateId)}`;
    case "replacedBy":
      return `moved to template ${inlineCode(reason.templateId)}`;
    case "rewritten":
      return reason.why === "vanished"
        ? "rewritten with one PUT: records were removed outside Pulumi"
        : reason.why === "imported"
          ? "rewritten with one PUT: it was imported, and the API cannot list what it holds"
          : "rewritten with one PUT: an earlier add had an unknown outcome";
  }
}

const NOT_PLANNABLE: Readonly<Record<NotPlannable, string>> = {
  unknown: "the records depend on values known only during `pulumi up`; the plan is made then.",
  secret:
    "**not planned**: the preview shows its records only as `[secret]`, so what `pulumi up` would send " +
    'cannot be shown here. Plan it from a preview that shows secrets (see "Secret records" in the ' +
    "docs of `domainapi-plan`), or keep secrets out of the records.",
};

/** The template checks' warnings of a template, in a block nothing in them can close. */
function warningLines(plan: TemplatePlan): string[] {
  const warnings = plan.warnings ?? [];
  if (warnings.length === 0) return [];
  const count = warnings.length === 1 ? "1 warning" : `${warnings.length} warnings`;
  return [
    "",
    `Template checks: ${count} (not failing the preview)`,
    "",
    ...fenced("text", warnings.map(visible)),
  ];
}

function templateSection(plan: TemplatePlan): string[] {
  const why = plan.reason ? `, ${reasonText(plan.reason)}` : "";
  const title = `**Template ${inlineCode(plan.templateId)}** (resource ${inlineCode(plan.resource)}${why})`;
  if (plan.notPlannable) return [`${title}: ${NOT_PLANNABLE[plan.notPlannable]}`];
  const block = ["", ...fenced("diff", correctionLines(plan))];
  const digest = plan.digest ? ["", `Plan digest ${inlineCode(plan.digest)}`] : [];
  return [`${title}: ${visible(plan.summary)}`, ...block, ...digest, ...warningLines(plan)];
}

function failureSection(errors: readonly string[]): string {
  const lines = errors.flatMap((e) => e.split(/\r\n|\n/)).map(visible);
  return [PREVIEW_FAILED, "", ...fenced("text", lines)].join("\n");
}

function expectationSection(plans: readonly TemplatePlan[]): string[] {
  const unplanned = plans.filter((p) => p.notPlannable);
  if (unplanned.length > 0) {
    const names = unplanned.map((p) => inlineCode(p.templateId)).join(", ");
    return [
      `No ${inlineCode(EXPECT_PLAN_ENV)} value can be given for this preview: the plan of ${names} is not known here, ` +
        "so a reviewed `pulumi up` refuses to change it.",
    ];
  }
  const reviewed = plans.flatMap((p) => (p.digest ? [{ templateId: p.templateId, digest: p.digest }] : []));
  return [
    `To apply exactly this plan, run \`pulumi up\` with ${inlineCode(EXPECT_PLAN_ENV)} set as below: a template whose plan differs is then refused.`,
    fenced("text", [visible(expectationAssignment(reviewed))]).join("\n"),
  ];
}

/** What `planMarkdown` is told beside the plans. */
export interface PlanMarkdownOptions {
  /**
   * The commit the preview was made from (full hexadecimal SHA), shown and marked in the comment so
   * that the deployment of a merge can take the plan only from a comment about the commit merged.
   */
  commit?: string;
}

function commitSection(commit: string | undefined): string[] {
  return commit ? [`Planned from commit ${inlineCode(commit)}.`] : [];
}

/**
 * The Markdown comment for the plans of a preview, and the errors of a preview that failed.
 *
 * @example
 * const preview = parsePreview(text);
 * planMarkdown(templatePlans(preview), previewErrors(preview));
 * // ### DNS record plan
 * //
 * // **Template `web`** (resource `web`): 1 to create, 0 to update, 0 to delete, 3 unchanged (1 request)
 * //
 * // ```diff
 * // + CREATE @ AAAA 2001:db8::10  (new id)
 * // ```
 * //
 * // Plan digest `3f2a9c1e0b7d4a55`
 */
export function planMarkdown(
  plans: readonly TemplatePlan[],
  errors: readonly string[] = [],
  options: PlanMarkdownOptions = {},
): string {
  const failure = errors.length > 0 ? [failureSection(errors)] : [];
  const commit = commitSection(options.commit);
  const marker = options.commit ? [commitMarker(options.commit)] : [];
  if (plans.length === 0) {
    const nothing = errors.length > 0 ? [NOTHING_PLANNED] : [NO_CHANGES, ...expectationSection(plans)];
    return `${[PLAN_HEADING, ...commit, ...failure, ...nothing, ...marker].join("\n\n")}\n`;
  }
  const sections = plans.map((p) => templateSection(p).join("\n"));
  const expectation = errors.length > 0 ? [] : expectationSection(plans);
  const footer =
    "<sub>Made by <code>domainapi-plan</code> from <code>pulumi preview --json</code> with the provider's own " +
    "planner. Records not listed stay as they are and keep their ids.</sub>";
  return `${[PLAN_HEADING, ...commit, ...failure, ...sections, ...expectation, footer, ...marker].join("\n\n")}\n`;
}
