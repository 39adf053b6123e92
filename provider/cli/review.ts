/**
 * The pull-request plan for programs that drive Pulumi from code (the Automation API), where no
 * `pulumi preview --json` is printed: the same Markdown and the same reviewed digests as
 * `domainapi-plan`, from the engine events of a preview or from a preview document.
 */
import { formatExpectation } from "../records/digest";
import { planMarkdown } from "./markdown";
import { type PreviewDigest, previewErrors, previewFromEngineEvents } from "./preview";
import { templatePlans } from "./templatePlans";

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
 * writes it.
 *
 * @example
 * const events: EngineEvent[] = [];
 * await stack.preview({ onEvent: (e) => events.push(e) });
 * const comment = planComment(events);
 */
export function planComment(preview: PreviewSource): string {
  const digest = digestOf(preview);
  return planMarkdown(templatePlans(digest), previewErrors(digest));
}

/**
 * The `DOMAINAPI_EXPECT_PLAN` value of a preview's plans: given to `pulumi up`, it applies exactly
 * these plans and refuses any template whose plan differs. Empty when nothing is to change;
 * `undefined` when a plan cannot be known before `up` (values unknown in the preview) or the
 * preview failed.
 *
 * @example
 * await stack.up({ envVars: { DOMAINAPI_EXPECT_PLAN: planExpectation(events) ?? "" } });
 */
export function planExpectation(preview: PreviewSource): string | undefined {
  const digest = digestOf(preview);
  if (previewErrors(digest).length > 0) return undefined;
  const plans = templatePlans(digest);
  if (plans.some((p) => p.unknown || p.digest === undefined)) return undefined;
  return formatExpectation(plans.map((p) => ({ templateId: p.templateId, digest: p.digest as string })));
}
