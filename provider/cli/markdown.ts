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
import type { RewriteReason } from "../records/plan";
import { commitMarker } from "./commit";
import type { NotPlannable, PlannedCorrection, PlanReason, TemplatePlan } from "./templatePlans";

/** The heading every plan starts with, so a bot can find and replace its earlier comment. */
export const PLAN_HEADING = "### DNS record plan";

/**
 * How the section of a DomainRestore starts: its domain follows in a code span, and its name in a
 * `DOMAINAPI_EXPECT_PLAN` value is `restore/<domain>`. A template's section starts `**Template `.
 */
export const RESTORE_TITLE = "**Domain restore ";

/** What the plan says when no template changes. */
export const NO_CHANGES = "No DNS record changes.";

/** The first line of the section of a failed preview: a plan comment holding it is no reviewed plan. */
export const PREVIEW_FAILED =
  "**The preview failed**, so `pulumi up` would fail too; the plan below is of what was planned before the failure.";

/** What the plan says when the preview failed before it planned any template. */
export const NOTHING_PLANNED = "No DNS record changes were planned before the failure.";

/**
 * Characters that could end a line, or render as nothing or as a space other than U+0020, so that
 * what a reviewer reads is not what is sent. From Unicode's own properties, so that the set grows
 * with the engine's Unicode version:
 * - `Cc`: controls (they end or break a line);
 * - `Cf`: format characters (bidirectional overrides, zero-width joiners, tag characters U+E0000-E007F);
 * - `White_Space` (all of `Zs`, and the line and paragraph separators `Zl`, `Zp`, among them): every
 *   space but U+0020 (NBSP, U+2000-200A, U+3000, ...), and what breaks a line;
 * - `Default_Ignorable_Code_Point`: what a renderer shows as nothing when it cannot shape it, which
 *   takes in the invisible nonspacing marks (U+034F, U+17B4/5, the Mongolian selectors), every
 *   `Variation_Selector` (U+FE00-FE0F, U+E0100-E01EF: they only pick a glyph) and the Hangul fillers
 *   (U+115F, U+1160, U+3164, U+FFA0, the classic blank "letter"), each by Unicode's own derivation;
 * - `Cs`, `Co`, `Cn`: lone surrogates, private use and unassigned code points, which fonts render as
 *   nothing as often as a box;
 * - explicitly, the braille blank U+2800, a symbol that draws no dot.
 * Other nonspacing marks stay as they are, one on each character: they draw an accent people see
 * ({@link DRAWN_OVER} escapes the marks that draw over text instead).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cs}\p{Co}\p{Cn}\u2800]/gu;

/**
 * Marks that draw over text rather than beside it, so that a line shows other than what it says:
 * a nonspacing mark stacked on another (a pile of them draws over the lines above and below), every
 * enclosing mark (`Me`: a circle or keycap around a character), and the overlay marks (canonical
 * combining class 1: the strokes and solidi U+0334-0338, U+20D2-20D3, U+20D8-20DA, U+20E5-20E6,
 * U+20EA-20EB, U+1CD4, U+1CE2-1CE8), which strike a character through as if it were deleted.
 */
const DRAWN_OVER =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: single code points (the `u` flag), combining marks on purpose
  /(?<=[\p{Mn}\p{Me}])\p{Mn}|[\p{Me}\u0334-\u0338\u20D2\u20D3\u20D8-\u20DA\u20E5\u20E6\u20EA\u20EB\u1CD4\u1CE2-\u1CE8]/gu;

/** U+0020 is in `White_Space` and stays itself; the usual controls keep their short escapes. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", " ": " " };

/**
 * `text` on one line, every control, invisible or blank character other than U+0020, and every mark
 * drawn over text ({@link DRAWN_OVER}), as a visible escape (`\n`, `\r`, `\u{3164}`).
 *
 * @example
 * visible("v=spf1 -all\r+ CREATE"); // "v=spf1 -all\\r+ CREATE"
 * visible("a\u3164b"); // "a\\u{3164}b"
 * visible("e\u0301\u0301"); // "e\u0301\\u{0301}"
 */
export function visible(text: string): string {
  const escaped = (ch: string) =>
    NAMED_ESCAPES[ch] ?? `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;
  return text.replace(INVISIBLE, escaped).replace(DRAWN_OVER, escaped);
}

/**
 * How many characters of a line a fenced block shows before it must be scrolled: GitHub renders
 * code blocks without wrapping (`white-space: pre`, scrolled sideways), and a comment is about 100
 * characters wide on a laptop, so a line longer than this is wrapped by {@link wrapped}.
 */
export const BLOCK_WIDTH = 96;

/** The pieces of a visible line that may not be cut: an escape (`\u{3164}`, `\n`) or one code point. */
const PIECES = /\\u\{[0-9A-F]+\}|\\[nrt]|[\s\S]/gu;

/**
 * Code points a monospace block draws much wider than two columns: the Arabic ligatures U+FDFA and
 * U+FDFD, the two- and three-em dashes, cuneiform and Egyptian hieroglyphs.
 */
const EXTRA_WIDE = /[\uFDFA\uFDFD\u2E3A\u2E3B\u{12000}-\u{1254F}\u{13000}-\u{1345F}]/u;

/**
 * How many columns `piece` takes in a code block, never fewer than a browser draws: ASCII and the
 * alphabets below U+1100 take one; from U+1100 on (CJK, Hangul, fullwidth forms, emoji; `East_Asian_Width`
 * W and F are all there) two, a few extra-wide symbols four. Counting a narrow character as wide
 * only wraps sooner; counting a wide one as narrow would push a value's end off screen.
 */
function columns(piece: string): number {
  const cp = piece.codePointAt(0) ?? 0;
  // An escape starts with a backslash: counted by its characters, as are all below U+1100.
  if (cp < 0x1100) return [...piece].length;
  return EXTRA_WIDE.test(piece) ? 4 : 2;
}

/**
 * `line` (already visible) cut into lines of at most `width` columns, so that the end of a long
 * value is on screen: each continuation starts with `lead` (the diff sign, so the colour holds) and
 * `↳ `, which no value can put at the start of a line (a value is one line), and the value goes on
 * right after it. No line ends in a space, which would not be seen: the space starts the next line.
 *
 * @example
 * wrapped("+ CREATE @ TXT v=spf1 a +all", 16, "+"); // ["+ CREATE @ TXT v", "+ ↳ =spf1 a +all"]
 */
export function wrapped(line: string, width = BLOCK_WIDTH, lead = " "): string[] {
  const pieces = [...line.matchAll(PIECES)].map(([piece]) => piece);
  const prefix = `${lead} ↳ `;
  const lines: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    const size = columns(piece);
    // A line is cut only once it holds a piece: a piece wider than the line goes on a line of its own.
    if (current.length > 0 && length + size > width) {
      const spaces: string[] = [];
      while (current.length > 1 && current.at(-1) === " ") spaces.unshift(current.pop() as string);
      lines.push(current.join(""));
      current = [prefix, ...spaces];
      length = [...prefix].length + spaces.length;
    }
    current.push(piece);
    length += size;
  }
  lines.push(current.join(""));
  return lines;
}

/** The longest run of backticks in `lines`. */
function longestTicks(lines: readonly string[]): number {
  return Math.max(0, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length)));
}

/** `text` as a code span that nothing in it can close, on one line. */
export function inlineCode(text: string): string {
  const shown = visible(text);
  const ticks = "`".repeat(longestTicks([shown]) + 1);
  // A space inside the delimiters keeps a leading or trailing backtick (or an empty value) apart.
  const pad = shown === "" || shown.startsWith("`") || shown.endsWith("`") ? " " : "";
  return `${ticks}${pad}${shown}${pad}${ticks}`;
}

/** A fenced block of `lines` (already one line each) whose fence no line can close. */
export function fenced(info: string, lines: readonly string[]): string[] {
  const fence = "`".repeat(Math.max(3, longestTicks(lines) + 1));
  return [`${fence}${info}`, ...lines, fence];
}

function idNote(c: PlannedCorrection): string {
  switch (c.id) {
    case "kept":
      return `id ${visible(c.recordId)} kept`;
    case "removed":
      return `id ${visible(c.recordId)} removed`;
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
  // Notes line up, but never push a long value's end off screen: a long line is wrapped instead.
  const width = Math.min(NOTE_COLUMN, Math.max(...all.map((l) => l.text.length)));
  return all.flatMap((l) => wrapped(`${l.text.padEnd(width)}  (${l.note})`, BLOCK_WIDTH, l.text[0]));
}

/** Why a template is rewritten whole, as the reviewer reads it. */
const REWRITTEN_BECAUSE: Readonly<Record<RewriteReason, string>> = {
  create: "a create with purge owns the template, and the PUT replaces whatever it held",
  "unknown-add": "an earlier add had an unknown outcome",
  vanished: "records were removed outside Pulumi, or by an interrupted run",
  interrupted: "an interrupted run left the outcome of its last request unknown",
  requested: "DOMAINAPI_REWRITE asks for it for this run",
  imported: "it was imported, and the API cannot list what it holds",
};
/** Where the notes of short correction lines start. */
const NOTE_COLUMN = 56;

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
      return `rewritten with one PUT: ${REWRITTEN_BECAUSE[reason.why]}`;
    case "unconfirmed":
      return "asked again: the answer to the earlier restore was lost";
    case "restoredAgain":
      return "replaced: its domain or triggers changed, so it restores again";
  }
}

const NOT_PLANNABLE: Readonly<Record<NotPlannable, string>> = {
  unknown: "the records depend on values known only during `pulumi up`; the plan is made then.",
  secret:
    "**not planned**: the preview shows its records only as `[secret]`, so what `pulumi up` would send " +
    'cannot be shown here. Plan it from a preview that shows secrets (see "Secret records" in the ' +
    "docs of `domainapi-plan`), or keep secrets out of the records.",
  account:
    "**no digest**: the preview does not say which account it is sent to (no `domainapi:baseUrl` in the stack " +
    "config, no `baseUrl` input of its provider), and a plan's digest covers the account. Run `domainapi-plan` " +
    "with `DOMAINAPI_BASE_URL` set as the preview had it, or, for an explicit provider that does not change, " +
    "preview with `--show-sames` so that its step is in the preview.",
};

/** A restore whose domain the preview does not show. */
const RESTORE_NOT_PLANNABLE =
  "**not planned**: the preview does not show its domain (a secret, or a value known only during `pulumi up`), " +
  "so a reviewed `pulumi up` refuses it.";

/** The safety threshold as people read it. */
function thresholdText(threshold: NonNullable<TemplatePlan["settings"]>["safetyThreshold"]): string {
  return threshold === false
    ? "off"
    : `${threshold.maxChangePercent}% of at least ${threshold.minExistingRecords} records`;
}

/** Where and how a plan is applied (its digest covers all of it). */
function appliedLine(plan: TemplatePlan): string[] {
  if (plan.account === undefined) return [];
  const settings = plan.settings
    ? `, purge ${inlineCode(String(plan.settings.purge))}, safety threshold ${inlineCode(thresholdText(plan.settings.safetyThreshold))}`
    : "";
  return ["", `Sent to account ${inlineCode(plan.account)}${settings}.`];
}

/** The template checks' warnings of a template, in a block nothing in them can close. */
function warningLines(plan: TemplatePlan): string[] {
  const warnings = plan.warnings ?? [];
  if (warnings.length === 0) return [];
  const count = warnings.length === 1 ? "1 warning" : `${warnings.length} warnings`;
  return [
    "",
    `Template checks: ${count} (not failing the preview)`,
    "",
    ...fenced(
      "text",
      warnings.flatMap((w) => wrapped(visible(w))),
    ),
  ];
}

function templateSection(plan: TemplatePlan): string[] {
  const why = plan.reason ? `, ${reasonText(plan.reason)}` : "";
  const what =
    plan.restore !== undefined
      ? `${RESTORE_TITLE}${inlineCode(plan.restore)}**`
      : `**Template ${inlineCode(plan.templateId)}**`;
  const title = `${what} (resource ${inlineCode(plan.resource)}${why})`;
  if (plan.notPlannable && plan.notPlannable !== "account") {
    const why = plan.restore === undefined ? NOT_PLANNABLE[plan.notPlannable] : RESTORE_NOT_PLANNABLE;
    return [`${title}: ${why}`];
  }
  const block = plan.restore !== undefined ? [] : ["", ...fenced("diff", correctionLines(plan))];
  const digest = plan.digest
    ? ["", `Plan digest ${inlineCode(plan.digest)}`]
    : plan.notPlannable
      ? ["", `No plan digest: ${NOT_PLANNABLE[plan.notPlannable]}`]
      : [];
  return [
    `${title}: ${visible(plan.summary)}`,
    ...block,
    ...appliedLine(plan),
    ...digest,
    ...warningLines(plan),
  ];
}

function failureSection(errors: readonly string[]): string {
  const lines = errors.flatMap((e) => e.split(/\r\n|\n/)).flatMap((e) => wrapped(visible(e)));
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
 * // Plan digest `3f2a9c1e0b7d4a55e61f0c2d9b8a7364`
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
    "planner. An update's first request also re-states every record the resource keeps, with the values its " +
    "state holds, to prove they still exist: a record edited outside Pulumi under the same id is set back to them. " +
    "The template's other records are not sent and keep their ids, unless a plan says it rewrites the template with a PUT.</sub>";
  return `${[PLAN_HEADING, ...commit, ...failure, ...sections, ...expectation, footer, ...marker].join("\n\n")}\n`;
}
