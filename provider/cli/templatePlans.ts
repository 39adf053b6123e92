/**
 * What each DnsTemplateRecords step of a preview will do to the records of its template, computed
 * by the provider's own pure planner (the same call `pulumi up` makes), never by a second copy.
 *
 * Every call into the planner goes through {@link plannedCorrections}: the one adapter between the
 * shape the provider stores and the shape this command shows.
 */
import { containsUnknown } from "../engine";
import { type Correction, formatSummary, planDelete, planUpdate } from "../records/plan";
import { decode } from "../records/state";
import type { PreviewDigest, PreviewStep } from "./preview";

type Props = Record<string, unknown>;

/** The type token of DnsTemplateRecords in the state (dynamic resources are all `pulumi-nodejs:dynamic`). */
export const TEMPLATE_RECORDS_TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

/** What happens to a record's id: an updated record keeps it, a created one gets a new one. */
export type IdFate = "kept" | "new" | "removed";

/** One change of one record, with the planner's message (`~ MODIFY www A content ... -> ...`). */
export interface PlannedCorrection {
  kind: "create" | "update" | "delete";
  message: string;
  id: IdFate;
  /** The id the record has now: absent for a record not created yet. */
  recordId?: string;
}

/**
 * Why a template changes other than by an update of its records: the resource is new or gone, its
 * `templateId` changed (`replaces` and `replacedBy` name the other template), or an earlier add of
 * unknown outcome makes the provider rewrite the template with one PUT.
 */
export type PlanReason =
  | { kind: "created" }
  | { kind: "removed" }
  | { kind: "replaces"; templateId: string }
  | { kind: "replacedBy"; templateId: string }
  | { kind: "rewritten" };

/** The plan of one template, as one step of the preview changes it. */
export interface TemplatePlan {
  /** The resource's name in the program (the last part of its URN). */
  resource: string;
  templateId: string;
  /** Why this template changes, when it is not a plain update of its records. */
  reason?: PlanReason;
  /** The planner's summary: `1 to create, 1 to update, 1 to delete, 3 unchanged (2 requests)`. */
  summary: string;
  corrections: PlannedCorrection[];
  /** The records depend on values not known before `pulumi up`: no plan can be made yet. */
  unknown?: boolean;
}

function withIdFate(c: Correction): PlannedCorrection[] {
  switch (c.kind) {
    case "create":
      return [{ kind: c.kind, message: c.message, id: "new" }];
    case "update":
      return [{ kind: c.kind, message: c.message, id: "kept", recordId: c.from.recordId }];
    case "delete":
      return [{ kind: c.kind, message: c.message, id: "removed", recordId: c.record.recordId }];
    default:
      // A verification re-states an unchanged record; it changes nothing, so it is no line here.
      return [];
  }
}

/**
 * THE adapter to the provider's planner: from what a resource holds (its stored outputs; `{}` when
 * it is new) and what the program declares (its checked inputs; `undefined` when the resource goes
 * away), the corrections the provider will make and their summary, each correction with what
 * happens to its id. It plans exactly as the provider's update and delete do.
 *
 * @example
 * plannedCorrections(step.oldState.outputs, step.newState.inputs).summary;
 * // "1 to create, 1 to update, 1 to delete, 3 unchanged (1 request)"
 */
export function plannedCorrections(
  heldProps: Props,
  declaredProps: Props | undefined,
): { summary: string; corrections: PlannedCorrection[] } {
  const { held } = decode(heldProps);
  let plan: ReturnType<typeof planUpdate>;
  if (declaredProps === undefined) plan = planDelete(held);
  else {
    const wanted = decode(declaredProps);
    plan = planUpdate(held, wanted.declared, wanted.settings);
  }
  return { summary: formatSummary(plan.summary), corrections: plan.corrections.flatMap(withIdFate) };
}

/** `urn:pulumi:dev::proj::parent$type::web` -> `web`. */
function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function typeOf(step: PreviewStep): string | undefined {
  return step.newState?.type ?? step.oldState?.type;
}

function templateIdOf(props: Props): string {
  return containsUnknown(props.templateId) ? "(not known yet)" : String(props.templateId ?? "");
}

/**
 * A create with purge sends ONE PUT, which replaces whatever the template held (records made outside
 * Pulumi too, which no state knows), so the planner's per-record count of requests would not be true.
 */
function putSummary(creates: number): string {
  return `${creates} to create (1 request: a PUT, which replaces whatever records the template held)`;
}

/**
 * After an add of unknown outcome the provider rewrites a template it owns with one PUT (every id
 * new), and removes its records with one PUT of nothing: only then is the template surely as declared.
 */
function rewritesWithPut(held: Props): boolean {
  const { settings, untracked } = decode(held);
  return untracked.length > 0 && settings.purge;
}

function created(name: string, news: Props, reason: PlanReason): TemplatePlan {
  const { summary, corrections } = plannedCorrections({}, news);
  return {
    resource: name,
    templateId: templateIdOf(news),
    reason,
    summary: decode(news).settings.purge ? putSummary(corrections.length) : summary,
    corrections,
  };
}

function deleted(name: string, olds: Props, reason: PlanReason): TemplatePlan {
  const { summary, corrections } = plannedCorrections(olds, undefined);
  return {
    resource: name,
    templateId: templateIdOf(olds),
    reason,
    summary: rewritesWithPut(olds)
      ? `${corrections.length} to delete (1 request: a PUT of no records)`
      : summary,
    corrections,
  };
}

function updated(name: string, olds: Props, news: Props): TemplatePlan {
  if (rewritesWithPut(olds)) {
    const { corrections } = plannedCorrections({}, news);
    return {
      resource: name,
      templateId: templateIdOf(news),
      reason: { kind: "rewritten" },
      summary: `${corrections.length} to create (1 request: a PUT of every record; every id is new)`,
      corrections,
    };
  }
  return { resource: name, templateId: templateIdOf(news), ...plannedCorrections(olds, news) };
}

function unknownPlan(name: string, news: Props): TemplatePlan {
  return { resource: name, templateId: templateIdOf(news), summary: "", corrections: [], unknown: true };
}

/**
 * The template plans of one step, or none: steps of other resources, `same` steps and the engine's
 * bookkeeping steps of a replacement (`create-replacement`, `delete-replaced`: the `replace` step
 * stands for both) have none. A replacement (a new `templateId`) is two plans: the new template
 * created, the old one emptied.
 */
export function plansOfStep(step: PreviewStep): TemplatePlan[] {
  if (typeOf(step) !== TEMPLATE_RECORDS_TYPE) return [];
  const name = resourceName(step.urn);
  const olds = step.oldState?.outputs ?? {};
  const news = step.newState?.inputs ?? {};
  switch (step.op) {
    case "create":
      return [containsUnknown(news) ? unknownPlan(name, news) : created(name, news, { kind: "created" })];
    case "update":
      return [containsUnknown(news) ? unknownPlan(name, news) : updated(name, olds, news)];
    case "delete":
      return [deleted(name, olds, { kind: "removed" })];
    case "replace": {
      const to = templateIdOf(news);
      const from = templateIdOf(olds);
      if (containsUnknown(news)) {
        return [unknownPlan(name, news), deleted(name, olds, { kind: "replacedBy", templateId: to })];
      }
      return [
        created(name, news, { kind: "replaces", templateId: from }),
        deleted(name, olds, { kind: "replacedBy", templateId: to }),
      ];
    }
    default:
      return [];
  }
}

/**
 * The plans of every DnsTemplateRecords resource a preview changes, by resource name: the engine
 * runs independent steps in parallel, so the preview's own order changes from run to run, and a
 * comment that each push rewrites should not. A plan with no correction (only `purge` or the safety
 * threshold changed) is left out: there is no record change to read.
 */
export function templatePlans(preview: PreviewDigest): TemplatePlan[] {
  const plans = (preview.steps ?? [])
    .flatMap(plansOfStep)
    .filter((p) => p.unknown || p.corrections.length > 0);
  // A stable sort: the two plans of a replacement stay in their order (new template first).
  return plans.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}
