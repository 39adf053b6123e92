/**
 * DnsTemplateRecords' provider methods. Each one reads the same way: decode what the engine hands
 * it once (`state.ts`), ask THE planner once (`plan.ts`), hand the plan to THE run loop (`run.ts`;
 * for a create or update through `outcome.ts`, which encodes the result or the partial failure).
 * Nothing here converts records, builds a request or decides what to send:
 * whether a refusal is recovered, a missing template is done, or `read` sends anything is the plan's.
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { InputIssue } from "../dns/issues";
import { accountMove, madeOn } from "../host/account";
import { containsUnknown, unknownInputs } from "../host/engine";
import { appliedAt } from "../host/expectation";
import {
  checkSettings,
  client,
  configuredBaseUrl,
  configure as configureSession,
  dnsServersSetting,
  verifyOnRefreshSetting,
} from "../host/session";
import * as log from "../log";
import { ownerFailure } from "./checkClaims";
import { EXPECT_PLAN_ENV, type Expectation, parseExpectation } from "./digest";
import { validateTemplateRecordsInputs } from "./inputs";
import { type Consulted, consultJournal, interruptionWarning } from "./interrupted";
import {
  maskText,
  NO_SECRETS,
  planAnnouncement,
  SECRET_RECORDS_INPUT,
  type Secrets,
  secretRecordsProperty,
  secretsOf,
  unionOf,
} from "./masking";
import { carryOut, type Task } from "./outcome";
import {
  type Declaration,
  type Holding,
  interruptedHolding,
  type Plan,
  planCheck,
  planRefresh,
  planResource,
} from "./plan";
import { readVerifyDomain, refreshByDns, VERIFY_DOMAIN_INPUT, witnessOf } from "./refreshByDns";
import { converge } from "./run";
import { checkSafety, DEFAULT_SAFETY_THRESHOLD } from "./safety";
import {
  type CheckedInputs,
  decodeInputs,
  decodeOutputs,
  encodeInputs,
  encodeOutputs,
  type RecordsOutputs,
  type Settings,
} from "./state";

/** The engine's property bag, as it hands it to a method (values are checked where they are read). */
type Props = Record<string, unknown>;

const INPUTS = ["templateId", "records", "purge", "safetyThreshold", "liftedChecks", VERIFY_DOMAIN_INPUT];

/**
 * The environment variable that makes one `pulumi refresh` verify the held records. It is read from
 * the environment only: a provider cannot tell the refresh of `pulumi preview --refresh` from
 * `pulumi refresh` (the engine's Read carries no preview flag), and verification writes, so it must
 * be switched on for the one command, never for a stack.
 */
export const VERIFY_ON_REFRESH_ENV = "DOMAINAPI_VERIFY_ON_REFRESH";

/** Records the stack config of a `configure()` call. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  configureSession(req);
  warnOfVerifySetting();
}

/**
 * A `verifyOnRefresh` setting (stack config or provider input) is not read: it would also verify,
 * which writes, during `pulumi preview --refresh`. Says so, with what to do instead.
 */
export function warnOfVerifySetting(): void {
  if (verifyOnRefreshSetting() === undefined) return;
  log.warn(
    "domainapi:verifyOnRefresh is not read: a setting would also verify (a write request) during " +
      "`pulumi preview --refresh`, which a provider cannot tell from `pulumi refresh`. Remove it and run " +
      `\`${VERIFY_ON_REFRESH_ENV}=1 pulumi refresh\` when you want one refresh to verify the records.`,
  );
}

function verifyOnRefresh(): boolean {
  const value = (process.env[VERIFY_ON_REFRESH_ENV] ?? "").trim().toLowerCase();
  return value === "true" || value === "1" || value === "on" || value === "yes";
}

/**
 * A failure as the engine prints it best. The engine shows a failure's property by looking its
 * name up among the top-level inputs, so a path into the records (`records[3].content`) would
 * print as `{<nil>}`, and `records` itself as the whole record list: both go in the reason, with
 * an empty property, so the message starts with what is wrong.
 */
function checkFailure(issue: InputIssue, secrets: Secrets): pulumi.dynamic.CheckFailure {
  // Every path into the records is indexed (`records[3]...`): validateEach and the template checks name them so.
  if (issue.property === "records" || issue.property.startsWith("records[")) {
    return { property: "", reason: maskText(`${issue.property}: ${issue.reason}`, secrets) };
  }
  return { property: issue.property, reason: maskText(issue.reason, secrets) };
}

/**
 * Validates and canonicalizes the inputs; makes no request. Failures name the property path and
 * how to fix it. The records are planned once against the previous inputs: they keep the keys that
 * plan gives them (readable previews), and on an update its safety verdict applies, so a mass
 * change already stops `pulumi preview`.
 */
export async function check(
  olds: Props,
  news: Props,
  urn?: string,
): Promise<pulumi.dynamic.CheckResult<Props>> {
  const result = await checkInputs(olds, news);
  const refusal = urn === undefined ? undefined : ownerFailure(urn, result);
  if (refusal === undefined) return result;
  // The refusal quotes a record both resources declare: what is secret in it stays so.
  const reason = maskText(refusal.reason, secretsOf(result.inputs ?? news));
  return { inputs: news, failures: [{ ...refusal, reason }] };
}

async function checkInputs(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<Props>> {
  // Malformed settings fail the preview as they would fail `up`; a missing key only warns here.
  checkSettings();
  // `secretRecords` is the resource class's and the plugin's (masking.ts), not a program's to name.
  const { [SECRET_RECORDS_INPUT]: _marks, ...named } = news;
  const misnamed = unknownInputs(named, INPUTS, "DnsTemplateRecords");
  if (containsUnknown(news)) {
    // Part of the inputs is only known after other resources are created: validate the rest at
    // update time, when the engine calls check again with every value known.
    return misnamed.length > 0 ? { inputs: news, failures: misnamed } : { inputs: news };
  }
  const previous =
    olds.records !== undefined && olds.templateId === news.templateId ? decodeInputs(olds) : undefined;
  // A program gives a list; the engine may hand back exactly the keyed records check() stored.
  const restated = previous !== undefined && isDeepStrictEqual(news.records, olds.records);
  const records = restated ? previous.declared.map(({ key: _key, ...r }) => r) : news.records;
  const { inputs: valid, issues, warnings } = validateTemplateRecordsInputs({ ...news, records });
  const secrets = secretsOf(news);
  for (const warning of warnings) log.warn(maskText(warning, secrets));
  const witness = readVerifyDomain(news[VERIFY_DOMAIN_INPUT]);
  // The servers a refresh of this witness asks: malformed, they fail the preview as refresh would.
  if (witness.domain !== undefined) dnsServersSetting();
  const failures = [
    ...misnamed,
    ...[...issues, ...witness.issues].map((issue) => checkFailure(issue, secrets)),
  ];
  if (!valid || failures.length > 0) return { inputs: news, failures };

  const { records: _records, liftedChecks, ...settings } = valid;
  const { declared, plan } = planCheck(previous, valid.records, settings);
  // A create has no diff, the method that says an update's plan: what its PUT replaces is said here.
  if (Object.keys(olds).length === 0 && settings.purge) {
    log.info(`template ${settings.templateId}: ${planResource(undefined, { settings, declared }).text}`);
  }
  const refusal = plan && checkSafety(plan, settings.safetyThreshold);
  if (refusal) return { inputs: news, failures: [{ property: "", reason: refusal }] };
  const secret = secretRecordsProperty(declared, secrets);
  return {
    inputs: {
      ...encodeInputs(settings, declared),
      ...(liftedChecks ? { liftedChecks } : {}),
      ...(witness.domain ? { [VERIFY_DOMAIN_INPUT]: witness.domain } : {}),
      ...secret,
    },
  };
}

/**
 * The plan of an update, said once per command: diff is the one method a preview calls, and in an
 * `up` it runs just before the update, which then says only each correction as it is carried out.
 * What the program marked secret (in the state or now) is shown as `[secret]`.
 */
function announce(plan: Plan, secrets: Secrets): void {
  log.info(planAnnouncement(plan, secrets));
}

/** A new template is a new resource; anything else about the records is an update. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  if (movedAccount(olds)) return { changes: true };
  if (containsUnknown(news.templateId) || olds.templateId !== news.templateId) {
    return { changes: true, replaces: ["templateId"] };
  }
  // Records are checked for unknowns as they are decoded: one pass over a template's records.
  const { records: _records, ...settings } = news;
  const wanted = containsUnknown(settings) ? undefined : decodeInputs(news, containsUnknown);
  if (wanted === undefined) return { changes: true };
  const holding = decodeOutputs(olds);
  const consulted = consult("diff", _id, holding, wanted);
  const secrets = unionOf(unionOf(secretsOf(olds), secretsOf(news)), consulted.secrets);
  const plan = planResource(holding, wanted, consulted.interruption);
  sayInterruption(plan, consulted, wanted.settings.purge, secrets);
  // A record set aside (its add of unknown outcome) may be missing: every preview says so.
  if (plan.requests.length > 0 || plan.setAside.length > 0) announce(plan, secrets);
  const settingsChanged =
    holding.settings.purge !== wanted.settings.purge ||
    !isDeepStrictEqual(holding.settings.safetyThreshold, wanted.settings.safetyThreshold);
  const trackingChanged = !isDeepStrictEqual(plan.untracked, holding.untracked);
  // A new witness changes no record, but the outputs that refresh reads it from must follow.
  const witnessChanged = witnessOf(olds) !== witnessOf(news);
  return { changes: plan.requests.length > 0 || settingsChanged || trackingChanged || witnessChanged };
}

/**
 * The journal and `DOMAINAPI_REWRITE` for one operation of the resource `id` (records/interrupted.ts):
 * with purge the template id is the resource's; a create without purge is found by its records.
 */
function consult(
  operation: "diff" | "create" | "update" | "delete",
  id: string | undefined,
  holding: Holding | undefined,
  wanted: Declaration | undefined,
): Consulted {
  const settings = (wanted ?? holding)!.settings;
  const resource = id ?? (settings.purge ? settings.templateId : undefined);
  return consultJournal({ operation, settings, resource, holding, declared: wanted?.declared });
}

/** What the journal made of the plan, said before anything else. */
function sayInterruption(plan: Plan, consulted: Consulted, purge: boolean, secrets: Secrets): void {
  if (consulted.warning !== undefined) log.warn(maskText(consulted.warning, secrets));
  if (consulted.interruption !== undefined) {
    log.warn(maskText(interruptionWarning(plan, consulted.interruption, purge), secrets));
  }
}

/**
 * The reviewed plans of `DOMAINAPI_EXPECT_PLAN` for this command, which the run loop holds every
 * plan (first, recovery, verification) to, bound to the account and settings it is applied under.
 */
function reviewedPlans({ purge, safetyThreshold }: Settings): Expectation | undefined {
  const account = configuredBaseUrl();
  return appliedAt(parseExpectation(process.env[EXPECT_PLAN_ENV]), { account, purge, safetyThreshold });
}

function resourceId(settings: Settings): string {
  // With purge the resource owns its template, so the template id is the resource's identity;
  // without it several resources may share one template.
  return settings.purge ? settings.templateId : `${settings.templateId}/${randomUUID().slice(0, 8)}`;
}

/**
 * A create's or update's outputs: the run's (or its partial failure), and the API they were made
 * on; what was secret before or is now stays masked in every line.
 */
async function outputsOf(
  task: Omit<Task, "reviewed" | "secrets"> & { holding: Holding & { secrets: Secrets } },
): Promise<RecordsOutputs> {
  const secrets = unionOf(task.holding.secrets, secretsOf(task.inputs));
  const witness = witnessOf(task.inputs);
  return {
    ...(await carryOut(client(), { ...task, reviewed: reviewedPlans(task.wanted.settings), secrets })),
    ...madeOn(),
    ...(witness ? { [VERIFY_DOMAIN_INPUT]: witness } : {}),
  };
}

/** Create: the planner's plan from nothing (one PUT with purge, PATCHes without). */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult<RecordsOutputs>> {
  const wanted = decodeInputs(inputs);
  const id = resourceId(wanted.settings);
  const consulted = consult("create", undefined, undefined, wanted);
  const plan = planResource(undefined, wanted, consulted.interruption);
  sayInterruption(plan, consulted, wanted.settings.purge, unionOf(secretsOf(inputs), consulted.secrets));
  const held = interruptedHolding(undefined, wanted.settings, consulted.interruption);
  const holding = { ...held, secrets: consulted.secrets };
  // With purge a create writes the whole template, so sending it again is already its recovery:
  // it keeps an entry only to take over one it found.
  // `up`'s line of a create: what its PUT replaces (the records follow, each with its new id).
  if (plan.mode === "rewrite") log.info(`template ${plan.templateId}: ${plan.text}`);
  const journal =
    wanted.settings.purge && consulted.interruption === undefined ? undefined : consulted.journal(id);
  return { id, outs: await outputsOf({ id, plan, holding, wanted, inputs, isCreate: true, journal }) };
}

/** The move of a resource to another API, accepted for this run (host/account.ts); throws when refused. */
function movedAccount(olds: Props, deleting = false) {
  const what = `DnsTemplateRecords (template "${String(olds.templateId)}")`;
  return accountMove(olds, what, "every record it holds", deleting);
}

/** Update: the planner's minimal verified PATCH plan (or its rewrite); unchanged records keep their ids. */
export async function update(
  id: string,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.UpdateResult<RecordsOutputs>> {
  const wanted = decodeInputs(news);
  // Moved to another API: written there as a create would; what the old one holds stays there.
  const moved = movedAccount(olds) !== undefined;
  const before = moved ? undefined : decodeOutputs(olds);
  // Said by the diff that precedes every update; here only read.
  const consulted = consult(moved ? "create" : "update", id, before, wanted);
  const plan = planResource(before, wanted, consulted.interruption);
  const held = interruptedHolding(before, wanted.settings, consulted.interruption);
  const holding = { ...held, secrets: unionOf(moved ? NO_SECRETS : secretsOf(olds), consulted.secrets) };
  const journal = consulted.journal(id);
  return { outs: await outputsOf({ id, plan, holding, wanted, inputs: news, isCreate: false, journal }) };
}

/** Delete: the planner's removal of every held record (what is already gone is done). */
export async function delete_(_id: string, props: Props): Promise<void> {
  if (movedAccount(props, true)) return;
  const before = decodeOutputs(props);
  const consulted = consult("delete", _id, before, undefined);
  const plan = planResource(before, undefined, consulted.interruption);
  const secrets = unionOf(secretsOf(props), consulted.secrets);
  sayInterruption(plan, consulted, before.settings.purge, secrets);
  const holding = interruptedHolding(before, before.settings, consulted.interruption);
  const run = await converge(client(), holding, plan, {
    reviewed: reviewedPlans(before.settings),
    secrets,
    journal: consulted.journal(_id),
  });
  if (run.failure !== undefined) throw run.failure;
}
export { delete_ as delete };

/**
 * Read (`pulumi refresh`): with `DOMAINAPI_VERIFY_ON_REFRESH=1` in the environment of that one
 * command, one request re-states every held record with its values; records found gone leave the
 * state (outputs and inputs), so the next preview shows them as to be created. Otherwise the state
 * is kept and nothing is sent.
 */
export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult<Props>> {
  // With a witness domain the refresh reads what it publishes instead (refreshByDns.ts).
  const witness = witnessOf(props);
  if (witness !== undefined && !verifyOnRefresh())
    return refreshByDns(id, props, witness, dnsServersSetting());
  const holding = decodeOutputs(props);
  const plan = planRefresh(holding, verifyOnRefresh());
  if (plan.requests.length === 0) return { id, props };
  const secrets = secretsOf(props);
  const run = await converge(client(), holding, plan, { secrets, reviewed: reviewedPlans(holding.settings) });
  if (run.failure !== undefined) throw run.failure;
  if (run.vanished.length === 0) return { id, props };
  const outputs = encodeOutputs(holding.settings, run.held, String(props.lastPlan ?? ""), run.untracked);
  // The inputs follow, so that the next preview diffs against what exists and shows the vanished
  // records as to be created.
  const inputs: CheckedInputs = encodeInputs(holding.settings, run.held);
  const secret = secretRecordsProperty(run.held, secrets);
  return { id, props: { ...props, ...outputs }, inputs: { ...inputs, ...secret } };
}

/**
 * The state `pulumi import` starts from, known from the id alone (the id scheme of
 * `resourceId` above). The API has no GET for a template's records, so an imported resource holds
 * none: with `purge` (an id without `/`: the template id itself) the first `up` that declares
 * records rewrites the template with one PUT of them (`unlisted`: what it holds is not known);
 * without (`<templateId>/<suffix>`), it adds them.
 * The inputs are the schema's shape (`records` a list), so the code `pulumi import` generates
 * type-checks.
 *
 * @example
 * imported("tpl-1"); // { props: { templateId: "tpl-1", purge: true, records: {}, ids: {}, ... }, inputs: { templateId: "tpl-1", purge: true, records: [] } }
 */
export function imported(id: string): { props: Props; inputs: Props } {
  const slash = id.indexOf("/");
  const settings: Settings = {
    templateId: slash < 0 ? id : id.slice(0, slash),
    purge: slash < 0,
    safetyThreshold: { ...DEFAULT_SAFETY_THRESHOLD },
  };
  const outs = encodeOutputs(
    settings,
    [],
    "imported: the API cannot list a template's records, so none are held",
  );
  const next = settings.purge
    ? "with purge: true, the first `pulumi up` that declares records replaces whatever the template holds with exactly them (one PUT; records: [] leaves it as it is)"
    : "without purge, the next `pulumi up` adds the declared records and leaves the template's other records alone";
  log.info(
    `template ${settings.templateId} imported: the API cannot list a template's records, so the resource holds none; ${next}.`,
  );
  return {
    props: settings.purge ? { ...outs, unlisted: true } : { ...outs },
    inputs: { templateId: settings.templateId, purge: settings.purge, records: [] },
  };
}
