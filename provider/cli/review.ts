/**
 * The pull-request plan for programs that drive Pulumi from code (the Automation API), where no
 * `pulumi preview --json` is printed: the same Markdown and the same reviewed digests as
 * `domainapi-plan`, from the engine events of a preview or from a preview document.
 */
import { formatExpectation } from "../records/digest";
import { type PlanMarkdownOptions, planMarkdown } from "./markdown";
import { type PreviewDigest, previewErrors, previewFromEngineEvents } from "./preview";
import { notPlannableReason, templatePlans } from "./templatePlans";

/** A preview: the document `pulumi preview --json` prints (parsed), or the engine events of one. */
export type PreviewSource = PreviewDigest | Iterable<unknown>;

function digestOf(preview: PreviewSource): PreviewDigest {
  // A preview document is a plain object; engine events come as an array or another iterable.
  return Symbol.iterator in Object(preview)
    ? previewFromEngineEvents(preview as Iterable<unknown>)
    : (preview as PreviewDigest);
}

/**
 * The Markdown of the plan of a preview, for a pull-request comment, exactly as `domainapi-plan`
 * writes it (`options.commit` as its `--commit`).
 *
 * @example
 * const events: EngineEvent[] = [];
 * await stack.preview({ onEvent: (e) => events.push(e) });
 * const comment = planComment(events);
 */
export function planComment(preview: PreviewSource, options: PlanMarkdownOptions = {}): string {
  const digest = digestOf(preview);
  return planMarkdown(templatePlans(digest), previewErrors(digest), options);
}

/** The reviewed-plan value of a preview, or why it has none. */
export type ExpectationResult = { ok: true; value: string } | { ok: false; reason: string };

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of a preview, or why there is none: the preview failed, or a
 * template's plan is not known in it (values known only during `up`, records shown only as secret),
 * each such template named.
 *
 * @example
 * planExpectationResult(parsePreview(text)); // { ok: false, reason: "template `web`: ... secret ..." }
 */
export function planExpectationResult(preview: PreviewSource): ExpectationResult {
  const digest = digestOf(preview);
  if (previewErrors(digest).length > 0) return { ok: false, reason: "the preview failed" };
  const plans = templatePlans(digest);
  // A plan without a digest is one whose notPlannable says why (templatePlans makes no other).
  const unplanned = plans.filter((p) => p.digest === undefined);
  if (unplanned.length > 0) {
    const why = unplanned.map(
      (p) =>
        `template ${JSON.stringify(p.templateId)} (resource ${JSON.stringify(p.resource)}): ` +
        notPlannableReason(p.notPlannable ?? "unknown", p.restore !== undefined),
    );
    return { ok: false, reason: `no plan can be reviewed for ${why.join("; ")}` };
  }
  return {
    ok: true,
    value: formatExpectation(plans.map((p) => ({ templateId: p.templateId, digest: p.digest as string }))),
  };
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of a preview's plans: given to `pulumi up`, it applies exactly
 * these plans and refuses any template whose plan differs. `none` when nothing is to change;
 * `undefined` when the preview failed or a plan cannot be known from it (see
 * {@link planExpectationResult} for which template and why).
 *
 * @example
 * const expected = planExpectation(events);
 * if (expected === undefined) throw new Error("no plan to review");
 * stack.workspace.envVars.DOMAINAPI_EXPECT_PLAN = expected;
 */
export function planExpectation(preview: PreviewSource): string | undefined {
  const result = planExpectationResult(preview);
  return result.ok ? result.value : undefined;
}
