/**
 * The Markdown of a plan, for a pull-request comment: per template its summary line and its
 * corrections in a `diff` block (GitHub colours `+ CREATE` green and `- DELETE` red, as dnscontrol
 * prints them), each with what happens to the record's id.
 *
 * Pure: plans in, text out.
 */
import type { PlannedCorrection, PlanReason, TemplatePlan } from "./templatePlans";

/** The heading every plan starts with, so a bot can find and replace its earlier comment. */
export const PLAN_HEADING = "### DNS record plan";

/** What the plan says when no template changes. */
export const NO_CHANGES = "No DNS record changes.";

/** What the plan says when the preview failed before it planned any template. */
export const NOTHING_PLANNED = "No DNS record changes were planned before the failure.";

/** `code` as inline code, whatever backticks it holds. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A fence longer than any run of backticks in the block, so record content cannot close it. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
  return "`".repeat(Math.max(3, longest + 1));
}

function idNote(c: PlannedCorrection): string {
  switch (c.id) {
    case "kept":
      return `id ${c.recordId} kept`;
    case "removed":
      return `id ${c.recordId} removed`;
    case "new":
      return "new id";
  }
}

function correctionLines(corrections: readonly PlannedCorrection[]): string[] {
  const width = Math.max(...corrections.map((c) => c.message.length));
  return corrections.map((c) => `${c.message.padEnd(width)}  (${idNote(c)})`);
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
      return "rewritten with one PUT: an earlier add had an unknown outcome";
  }
}

function templateSection(plan: TemplatePlan): string[] {
  const why = plan.reason ? `, ${reasonText(plan.reason)}` : "";
  const title = `**Template ${inlineCode(plan.templateId)}** (resource ${inlineCode(plan.resource)}${why})`;
  if (plan.unknown) {
    return [`${title}: the records depend on values known only during \`pulumi up\`; the plan is made then.`];
  }
  const lines = correctionLines(plan.corrections);
  const fence = fenceFor(lines);
  return [`${title}: ${plan.summary}`, "", `${fence}diff`, ...lines, fence];
}

function failureSection(errors: readonly string[]): string {
  const lines = errors.flatMap((e) => e.split("\n"));
  const fence = fenceFor(lines);
  return [
    "**The preview failed**, so `pulumi up` would fail too; the plan below is of what was planned before the failure.",
    "",
    `${fence}text`,
    ...lines,
    fence,
  ].join("\n");
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
 */
export function planMarkdown(plans: readonly TemplatePlan[], errors: readonly string[] = []): string {
  const failure = errors.length > 0 ? [failureSection(errors)] : [];
  if (plans.length === 0) {
    return `${[PLAN_HEADING, ...failure, errors.length > 0 ? NOTHING_PLANNED : NO_CHANGES].join("\n\n")}\n`;
  }
  const sections = plans.map((p) => templateSection(p).join("\n"));
  const footer =
    "<sub>Made by <code>domainapi-plan</code> from <code>pulumi preview --json</code> with the provider's own " +
    "planner. Records not listed stay as they are and keep their ids.</sub>";
  return `${[PLAN_HEADING, ...failure, ...sections, footer].join("\n\n")}\n`;
}
