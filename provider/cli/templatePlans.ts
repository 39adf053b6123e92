/**
 * What each DnsTemplateRecords step of a preview will do to the records of its template: the
 * provider's own planner (`planResource`, the same call `pulumi up` makes with the same decoded
 * states), never a second copy of any of its decisions. This module only picks the states out of
 * the preview's steps and keeps what the Markdown shows.
 */
import { readLiftedChecks, verdictOf } from "../checks/lift";
import { checkTemplate } from "../checks/template";
import { containsUnknown } from "../host/engine";
import { DYNAMIC_TOKENS, TOKENS } from "../manifest";
import type { Correction } from "../records/corrections";
import { planDigest } from "../records/digest";
import { type Plan, planResource, type RewriteReason } from "../records/plan";
import { decodeInputs, decodeOutputs } from "../records/state";
import type { PreviewDigest, PreviewStep } from "./preview";
import { holdsHiddenSecret } from "./secrets";

type Props = Record<string, unknown>;

/** The type tokens of DnsTemplateRecords: the dynamic resource's and the plugin's. */
export const TEMPLATE_RECORDS_TYPES: readonly string[] = [DYNAMIC_TOKENS.records, TOKENS.records];

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
 * `templateId` changed (`replaces` and `replacedBy` name the other template), or the planner
 * rewrites the template with one PUT.
 */
export type PlanReason =
  | { kind: "created" }
  | { kind: "removed" }
  | { kind: "replaces"; templateId: string }
  | { kind: "replacedBy"; templateId: string }
  | { kind: "rewritten"; why: RewriteReason };

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
  /** Declared records the plan sets aside (their earlier add is of unknown outcome). */
  setAside: string[];
  /** The digest of what the plan sends, for `DOMAINAPI_EXPECT_PLAN`; absent when not plannable. */
  digest?: string;
  /**
   * Why no plan can be made from this preview: the records depend on values known only during
   * `pulumi up` (`unknown`), or the preview shows them only as secret (`secret`). Such a template is
   * still listed, and no `DOMAINAPI_EXPECT_PLAN` value can be given for the preview.
   */
  notPlannable?: NotPlannable;
  /** What the template checks show for the declared records (warnings, lifted errors), each a line. */
  warnings?: string[];
}

/** Why a template's plan cannot be made from a preview: see {@link TemplatePlan.notPlannable}. */
export type NotPlannable = "unknown" | "secret";

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

/** `urn:pulumi:dev::proj::parent$type::web` -> `web`. */
function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

function typeOf(step: PreviewStep): string | undefined {
  return step.newState?.type ?? step.oldState?.type;
}

function templateIdOf(props: Props): string {
  if (containsUnknown(props.templateId)) return "(not known yet)";
  if (holdsHiddenSecret(props.templateId)) return "(secret)";
  return String(props.templateId ?? "");
}

/**
 * Why the states of one side of a step cannot be planned from, if they cannot. The serialized
 * dynamic provider (`__provider`) is no input of the plan, so a secret in it does not count.
 */
function notPlannableFrom(props: Props): NotPlannable | undefined {
  const { __provider: _provider, ...planned } = props;
  if (containsUnknown(planned)) return "unknown";
  return holdsHiddenSecret(planned) ? "secret" : undefined;
}

function shown(resource: string, plan: Plan, reason: PlanReason | undefined): TemplatePlan {
  const why: PlanReason | undefined =
    plan.rewrite === "unknown-add" || plan.rewrite === "vanished" || plan.rewrite === "imported"
      ? { kind: "rewritten", why: plan.rewrite }
      : reason;
  return {
    resource,
    templateId: plan.templateId,
    ...(why ? { reason: why } : {}),
    summary: plan.text,
    corrections: plan.corrections.flatMap(withIdFate),
    setAside: plan.setAside,
    digest: planDigest(plan),
  };
}

function unplannable(name: string, props: Props, why: NotPlannable, reason?: PlanReason): TemplatePlan {
  return {
    resource: name,
    templateId: templateIdOf(props),
    ...(reason ? { reason } : {}),
    summary: "",
    corrections: [],
    setAside: [],
    notPlannable: why,
  };
}

/**
 * The template checks' warnings on what a step declares, each naming its record (the declared
 * records are in canonical order here, so a path would not be the program's).
 */
function checkWarnings(news: Props): string[] {
  const records = decodeInputs(news).declared.map((record) => ({ path: "records", record }));
  const { lifted } = readLiftedChecks(news.liftedChecks);
  return [...verdictOf(checkTemplate(records), lifted, undefined, (f) => f.record).warnings];
}

/** `plan` with the warnings of what it declares, when there are any. */
function withWarnings(plan: TemplatePlan, news: Props): TemplatePlan {
  const warnings = checkWarnings(news);
  return warnings.length > 0 ? { ...plan, warnings } : plan;
}

/**
 * The template plans of one step, or none: steps of other resources, `same` steps and the engine's
 * bookkeeping steps of a replacement (`create-replacement`, `delete-replaced`: the `replace` step
 * stands for both) have none. A replacement (a new `templateId`) is two plans: the new template
 * created, the old one emptied. Each is `planResource` of the step's stored outputs (what the
 * resource holds) and checked inputs (what the program declares), as `up` decodes them.
 */
function plansOfStep(step: PreviewStep): TemplatePlan[] {
  const type = typeOf(step);
  if (type === undefined || !TEMPLATE_RECORDS_TYPES.includes(type)) return [];
  const name = resourceName(step.urn);
  const olds = step.oldState?.outputs ?? {};
  const news = step.newState?.inputs ?? {};
  const created = (reason: PlanReason) => {
    const why = notPlannableFrom(news);
    return why
      ? unplannable(name, news, why, reason)
      : withWarnings(shown(name, planResource(undefined, decodeInputs(news)), reason), news);
  };
  const removed = (reason: PlanReason) => {
    const why = notPlannableFrom(olds);
    return why
      ? unplannable(name, olds, why, reason)
      : shown(name, planResource(decodeOutputs(olds), undefined), reason);
  };
  switch (step.op) {
    case "create":
      return [created({ kind: "created" })];
    case "update": {
      // The program's side first: a value known only during `up` stays so, whatever the state holds.
      const why = notPlannableFrom(news) ?? notPlannableFrom(olds);
      return [
        why
          ? unplannable(name, news, why)
          : withWarnings(shown(name, planResource(decodeOutputs(olds), decodeInputs(news)), undefined), news),
      ];
    }
    case "delete":
      return [removed({ kind: "removed" })];
    case "replace": {
      const to = templateIdOf(news);
      const from = templateIdOf(olds);
      return [
        created({ kind: "replaces", templateId: from }),
        removed({ kind: "replacedBy", templateId: to }),
      ];
    }
    default:
      return [];
  }
}

/** Compares two strings as people sort names: `svc2` before `svc10`. */
const naturalOrder = new Intl.Collator("en", { numeric: true }).compare;

/**
 * The plans of every DnsTemplateRecords resource a preview changes, by resource name in natural
 * order: the engine runs independent steps in parallel, so the preview's own order changes from run
 * to run, and a comment that each push rewrites should not. A plan that sends nothing (only `purge`
 * or the safety threshold changed) is left out: there is no record change to read. A template that
 * cannot be planned from the preview (see {@link TemplatePlan.notPlannable}) is never left out.
 */
export function templatePlans(preview: PreviewDigest): TemplatePlan[] {
  const plans = (preview.steps ?? [])
    .flatMap(plansOfStep)
    .filter((p) => p.notPlannable !== undefined || p.corrections.length > 0 || p.setAside.length > 0);
  // A stable sort: the two plans of a replacement stay in their order (new template first).
  return plans.sort((a, b) => naturalOrder(a.resource, b.resource));
}
