/**
 * What each step of a preview will make this provider send: for DnsTemplateRecords, the records of
 * its template, by the provider's own planner (`planResource`, the same call `pulumi up` makes with
 * the same decoded states), never a second copy of any of its decisions; for DomainRestore, its
 * restore. Each is named with the account it is sent to and its digest, as `up` computes it. This
 * module only picks the states out of the preview's steps and keeps what the Markdown shows.
 */
import { readLiftedChecks, verdictOf } from "../checks/lift";
import { checkTemplate } from "../checks/template";
import { containsUnknown } from "../host/engine";
import { DYNAMIC_TOKENS, SETTINGS, TOKENS } from "../manifest";
import type { Correction } from "../records/corrections";
import { planDigest } from "../records/digest";
import { type Plan, planResource, type RewriteReason, type Settings } from "../records/plan";
import { decodeInputs, decodeOutputs } from "../records/state";
import { restoreDigest, restoreKey } from "../restore/guard";
import { canonicalBaseUrl } from "../settings/config";
import type { PreviewDigest, PreviewStep } from "./preview";
import { holdsHiddenSecret } from "./secrets";

type Props = Record<string, unknown>;

/** The type tokens of DnsTemplateRecords: the dynamic resource's and the plugin's. */
export const TEMPLATE_RECORDS_TYPES: readonly string[] = [DYNAMIC_TOKENS.records, TOKENS.records];

/** The type tokens of DomainRestore: the dynamic resource's and the plugin's. */
export const RESTORE_TYPES: readonly string[] = [DYNAMIC_TOKENS.restore, TOKENS.restore];

/** The plugin's provider type: an explicit provider of it carries its own `baseUrl` input. */
const PLUGIN_PROVIDER_TYPE = "pulumi:providers:domainapi";

/** What happens to a record's id: an updated record keeps it, a created one gets a new one. */
export type IdFate = "kept" | "new" | "removed";

/**
 * One change of one record, with the planner's message (`~ MODIFY www A content ... -> ...`) and,
 * for a record that exists, the id it has now (`recordId`).
 */
export type PlannedCorrection =
  | { kind: "create"; message: string; id: "new"; recordId?: undefined }
  | { kind: "update"; message: string; id: "kept"; recordId: string }
  | { kind: "delete"; message: string; id: "removed"; recordId: string };

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
  | { kind: "rewritten"; why: RewriteReason }
  /** A restore whose earlier answer was lost: asked again (its refusal then confirms it). */
  | { kind: "unconfirmed" }
  /** A restore replaced: its domain or triggers changed, so it restores again. */
  | { kind: "restoredAgain" };

/** The plan of one template (or one restore), as one step of the preview changes it. */
export interface TemplatePlan {
  /** The resource's name in the program: everything after the type in its URN, whole. */
  resource: string;
  /** The template's id; for a restore, its name in the reviewed value (`restore/<domain>`). */
  templateId: string;
  /** Set for a DomainRestore: the domain it takes out of quarantine (xn-- form, as sent). */
  restore?: string;
  /** The account the plan is sent to (the normalised base address), when the preview says it. */
  account?: string;
  /** The template's `purge` and safety threshold as planned: its digest covers them. */
  settings?: Pick<Settings, "purge" | "safetyThreshold">;
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
   * `pulumi up` (`unknown`), the preview shows them only as secret (`secret`), or it does not say
   * which account they are sent to (`account`). Such a template is still listed, and no
   * `DOMAINAPI_EXPECT_PLAN` value can be given for the preview.
   */
  notPlannable?: NotPlannable;
  /** What the template checks show for the declared records (warnings, lifted errors), each a line. */
  warnings?: string[];
}

/** Why a template's plan cannot be made from a preview: see {@link TemplatePlan.notPlannable}. */
export type NotPlannable = "unknown" | "secret" | "account";

/**
 * Why a template (or, with `restore`, a restore) cannot be planned, as `domainapi-plan --expect` says it.
 *
 * @example
 * notPlannableReason("account"); // "the preview does not say which account ..."
 */
export function notPlannableReason(why: NotPlannable, restore = false): string {
  if (restore && why !== "account")
    return "its domain is not shown in the preview (a secret, or known only during `pulumi up`)";
  switch (why) {
    case "secret":
      return 'its records are secret in the preview (see "Secret records" in docs/previews.md: keep record content plain)';
    case "unknown":
      return "its records are known only during `pulumi up`";
    case "account":
      return (
        "the preview does not say which account it is sent to (no domainapi:baseUrl in the stack config, no baseUrl " +
        `input of its provider): run domainapi-plan with ${SETTINGS.baseUrl.env} set as the preview had it, or, for an ` +
        "explicit provider that does not change, preview with --show-sames so that its step is in the preview"
      );
  }
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
 * `urn:pulumi:dev::proj::parent$type::web` -> `web`. A name may itself hold `::` (`x::web`): it is
 * everything after the type, whole.
 */
function resourceName(urn: string): string {
  const parts = urn.split("::");
  return parts.length >= 4 ? parts.slice(3).join("::") : urn;
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

function shown(
  resource: string,
  plan: Plan,
  reason: PlanReason | undefined,
  settings: Settings,
  account: string | undefined,
): TemplatePlan {
  // Of the rewrites `planResource` plans, a create says "new"; the others say why (a vanished record
  // is found only during `up`).
  const why: PlanReason | undefined =
    plan.rewrite === "unknown-add" || plan.rewrite === "imported"
      ? { kind: "rewritten", why: plan.rewrite }
      : reason;
  const { purge, safetyThreshold } = settings;
  const made: TemplatePlan = {
    resource,
    templateId: plan.templateId,
    settings: { purge, safetyThreshold },
    ...(why ? { reason: why } : {}),
    summary: plan.text,
    corrections: plan.corrections.flatMap(withIdFate),
    setAside: plan.setAside,
  };
  // Without the account there is no digest `up` could match: shown, but not plannable.
  return account === undefined
    ? { ...made, notPlannable: "account" }
    : { ...made, account, digest: planDigest(plan, { account, purge, safetyThreshold }) };
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

/** What {@link templatePlans} is told beside the preview. */
export interface PlanOptions {
  /**
   * The base address the provider falls back to when neither the stack config nor an explicit
   * provider's `baseUrl` input sets one: `DOMAINAPI_BASE_URL` as the preview had it. Default: the
   * `DOMAINAPI_BASE_URL` of this process.
   */
  baseUrl?: string | undefined;
}

/** A base address as the client uses it, or undefined when it is not a plain, well-formed one. */
function accountValue(value: unknown): string | undefined {
  // A secret shows as "[secret]", which is no address.
  return typeof value === "string" ? canonicalBaseUrl(value) : undefined;
}

/**
 * The account one side of a step sends to, as `up` resolves it: an explicit provider of the plugin
 * by its own `baseUrl` input (its step must be in the preview), any other provider by the stack
 * config `domainapi:baseUrl`; either falls back to `DOMAINAPI_BASE_URL` ({@link PlanOptions}), and
 * last to the address the resource's state says it was made on (`up` refuses any other). `side`
 * says which: what is created or updated is sent by the new provider, what is removed by the old
 * one (a replacement of the provider changes it).
 */
function accountOf(
  preview: PreviewDigest,
  step: PreviewStep,
  options: PlanOptions,
  side: "new" | "old",
): string | undefined {
  const made = accountValue(step.oldState?.outputs?.baseUrl) ?? accountValue(step.oldState?.inputs?.baseUrl);
  const fallback = accountValue(options.baseUrl) ?? made;
  const state = side === "new" ? step.newState : step.oldState;
  // Stryker disable next-line StringLiteral: without a provider reference, neither "" nor any stand-in text without `::` names an explicit provider, so the stack config is read either way
  const ref = state?.provider ?? step.provider ?? "";
  const providerUrn = ref.slice(0, ref.lastIndexOf("::"));
  const providerName = providerUrn.slice(providerUrn.lastIndexOf("::") + 2);
  const explicit =
    providerUrn.includes(`::${PLUGIN_PROVIDER_TYPE}::`) &&
    providerName !== "default" &&
    !providerName.startsWith("default_");
  if (explicit) {
    // Stryker disable next-line ArrayDeclaration: `step` is one of `preview.steps`, which is never absent here
    const provider = (preview.steps ?? []).find((s) => s.urn === providerUrn);
    if (provider === undefined) return made;
    const states =
      side === "new" ? [provider.newState, provider.oldState] : [provider.oldState, provider.newState];
    const inputs = states.find((s) => s?.inputs)?.inputs ?? {};
    return inputs.baseUrl === undefined ? fallback : accountValue(inputs.baseUrl);
  }
  const configured = preview.config?.["domainapi:baseUrl"];
  return configured === undefined ? fallback : accountValue(configured);
}

/** The plans of one DomainRestore step: a create or replacement restores; so does an unconfirmed one's update. */
function restorePlansOfStep(step: PreviewStep, name: string, account: string | undefined): TemplatePlan[] {
  const news = step.newState?.inputs ?? {};
  const olds = step.oldState?.outputs ?? {};
  const restores =
    step.op === "create" || step.op === "replace" || (step.op === "update" && olds.unconfirmed === true);
  if (!restores) return [];
  const reason: PlanReason =
    step.op === "create"
      ? { kind: "created" }
      : step.op === "replace"
        ? { kind: "restoredAgain" }
        : { kind: "unconfirmed" };
  const why = notPlannableFrom({ domain: news.domain });
  if (why !== undefined || typeof news.domain !== "string") {
    const shownDomain = containsUnknown(news.domain)
      ? "(not known yet)"
      : holdsHiddenSecret(news.domain)
        ? "(secret)"
        : String(news.domain);
    return [
      {
        resource: name,
        templateId: restoreKey(shownDomain),
        restore: shownDomain,
        reason,
        summary: "",
        corrections: [],
        setAside: [],
        notPlannable: why ?? "unknown",
      },
    ];
  }
  const domain = news.domain;
  // The domain is shown in the title, as code: nothing of a value goes into prose.
  const summary =
    "restored from quarantine (1 request: POST /v2/domains/{domain}/restore; a restore cannot be undone)";
  const plan: TemplatePlan = {
    resource: name,
    templateId: restoreKey(domain),
    restore: domain,
    reason,
    summary,
    corrections: [],
    setAside: [],
  };
  return [
    account === undefined
      ? { ...plan, notPlannable: "account" }
      : { ...plan, account, digest: restoreDigest(domain, account) },
  ];
}

/**
 * The plans of one step, or none: steps of other resources, `same` steps and the engine's
 * bookkeeping steps of a replacement (`create-replacement`, `delete-replaced`: the `replace` step
 * stands for both) have none. A replacement (a new `templateId`) is two plans: the new template
 * created, the old one emptied. Each is `planResource` of the step's stored outputs (what the
 * resource holds) and checked inputs (what the program declares), as `up` decodes them.
 */
function plansOfStep(preview: PreviewDigest, step: PreviewStep, options: PlanOptions): TemplatePlan[] {
  const type = typeOf(step);
  // Stryker disable next-line ConditionalExpression: a step without a type is of neither list below, so it has no plan either way
  if (type === undefined) return [];
  const name = resourceName(step.urn);
  const account = accountOf(preview, step, options, "new");
  if (RESTORE_TYPES.includes(type)) return restorePlansOfStep(step, name, account);
  const removedFrom = accountOf(preview, step, options, "old");
  if (!TEMPLATE_RECORDS_TYPES.includes(type)) return [];
  const olds = step.oldState?.outputs ?? {};
  const news = step.newState?.inputs ?? {};
  const planned = (
    props: Props,
    reason: PlanReason | undefined,
    plan: () => [Plan, Settings],
    to: string | undefined = account,
  ) => {
    const why = notPlannableFrom(props);
    if (why) return unplannable(name, props, why, reason);
    const [made, settings] = plan();
    return shown(name, made, reason, settings, to);
  };
  const created = (reason: PlanReason) => {
    const made = planned(news, reason, () => {
      const wanted = decodeInputs(news);
      return [planResource(undefined, wanted), wanted.settings];
    });
    return made.notPlannable && made.notPlannable !== "account" ? made : withWarnings(made, news);
  };
  const removed = (reason: PlanReason) =>
    planned(
      olds,
      reason,
      () => {
        const holding = decodeOutputs(olds);
        return [planResource(holding, undefined), holding.settings];
      },
      removedFrom,
    );
  switch (step.op) {
    case "create":
      return [created({ kind: "created" })];
    case "update": {
      // The program's side first: a value known only during `up` stays so, whatever the state holds.
      const why = notPlannableFrom(news) ?? notPlannableFrom(olds);
      if (why) return [unplannable(name, news, why)];
      // Both sides are plannable here: only the account can be missing, and warnings show either way.
      const made = planned(news, undefined, () => {
        const wanted = decodeInputs(news);
        return [planResource(decodeOutputs(olds), wanted), wanted.settings];
      });
      return [withWarnings(made, news)];
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
export function templatePlans(preview: PreviewDigest, options: PlanOptions = {}): TemplatePlan[] {
  const withDefault = { ...options, baseUrl: options.baseUrl ?? process.env[SETTINGS.baseUrl.env] };
  // Stryker disable next-line ArrayDeclaration: an item in place of absent steps has no type, so no plan
  const plans = (preview.steps ?? [])
    .flatMap((step) => plansOfStep(preview, step, withDefault))
    .filter(
      (p) =>
        p.restore !== undefined ||
        (p.notPlannable !== undefined && p.notPlannable !== "account") ||
        p.corrections.length > 0 ||
        p.setAside.length > 0,
    );
  // A stable sort: the two plans of a replacement stay in their order (new template first).
  return plans.sort((a, b) => naturalOrder(a.resource, b.resource));
}
