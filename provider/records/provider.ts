/**
 * DnsTemplateRecords' provider methods. Each one reads the same way: decode what the engine hands
 * it once (`state.ts`), plan once (`plan.ts`, with `safety.ts`), carry the plan out (`apply.ts`
 * through the client), encode the result once. Nothing here converts records or builds a request.
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { DomainApiError } from "../client/errors";
import { containsUnknown, unknownInputs } from "../engine";
import * as log from "../log";
import { PartialFailure } from "../partialFailure";
import { client, configure as configureSession } from "../session";
import { Execution } from "./apply";
import { describeRecord } from "./model";
import { formatSummary, type KeyedRecord, type Plan, planDelete, planUpdate, planVerify } from "./plan";
import { checkSafety } from "./safety";
import { type Decoded, decode, encodeInputs, encodeOutputs, keyDeclared, type Settings } from "./state";
import { validateTemplateRecordsInputs } from "./validate";

type Props = Record<string, unknown>;

const INPUTS = ["templateId", "records", "purge", "safetyThreshold"];

/** The setting that makes `pulumi refresh` verify the held records (a write request: off by default). */
export const VERIFY_ON_REFRESH = { config: "domainapi:verifyOnRefresh", env: "DOMAINAPI_VERIFY_ON_REFRESH" };

let verifyOnRefreshConfig: string | undefined;

/** Records the stack config of a `configure()` call: the client's settings and the refresh switch. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  configureSession(req);
  verifyOnRefreshConfig = req.config.get(VERIFY_ON_REFRESH.config);
}

function verifyOnRefresh(): boolean {
  const value = (verifyOnRefreshConfig ?? process.env[VERIFY_ON_REFRESH.env] ?? "").trim().toLowerCase();
  return value === "true" || value === "1" || value === "on" || value === "yes";
}

/**
 * Validates and canonicalizes the inputs; makes no request. Failures name the property path and
 * how to fix it. Records keep the keys they had in the previous inputs (readable previews), and on
 * an update the safety threshold applies, so a mass change already stops `pulumi preview`.
 */
export async function check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const misnamed = unknownInputs(news, INPUTS, "DnsTemplateRecords");
  if (containsUnknown(news)) {
    // Part of the inputs is only known after other resources are created: validate the rest at
    // update time, when the engine calls check again with every value known.
    return misnamed.length > 0 ? { inputs: news, failures: misnamed } : { inputs: news };
  }
  const previous =
    olds.records !== undefined && olds.templateId === news.templateId ? decode(olds) : undefined;
  // A program gives a list; the engine may hand back exactly the keyed records check() stored.
  const restated = previous !== undefined && isDeepStrictEqual(news.records, olds.records);
  const records = restated ? previous.declared.map(({ key: _key, ...r }) => r) : news.records;
  const { inputs: valid, issues } = validateTemplateRecordsInputs({ ...news, records });
  const failures = [...misnamed, ...issues];
  if (!valid || failures.length > 0) return { inputs: news, failures };

  const { declared, changes } = keyDeclared(valid.records, previous?.declared ?? []);
  if (previous !== undefined) {
    const refusal = checkSafety(previous.declared.length, changes, valid.safetyThreshold);
    if (refusal) return { inputs: news, failures: [{ property: "records", reason: refusal }] };
  }
  const { records: _records, ...settings } = valid;
  return { inputs: { ...encodeInputs(settings, declared) } };
}

/** A new template is a new resource; anything else about the records is an update. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  if (containsUnknown(news.templateId) || olds.templateId !== news.templateId) {
    return { changes: true, replaces: ["templateId"] };
  }
  if (containsUnknown(news)) return { changes: true };
  const old = decode(olds);
  const wanted = decode(news);
  if (old.untracked.length > 0 && wanted.settings.purge) {
    log.info(`template ${wanted.settings.templateId}: ${rewriteSummary(wanted)}`);
    return { changes: true };
  }
  const plan = planUpdate(old.held, unknownAddsAside(old, wanted).declared, wanted.settings);
  // The preview shows the plan as `up` will carry it out: diff is the one method a preview calls.
  if (plan.requests.length > 0) announce(wanted.settings.templateId, plan);
  const settingsChanged =
    old.settings.purge !== wanted.settings.purge ||
    !isDeepStrictEqual(old.settings.safetyThreshold, wanted.settings.safetyThreshold);
  return { changes: plan.requests.length > 0 || old.untracked.length > 0 || settingsChanged };
}

/**
 * Without purge, a declared record whose add is of unknown outcome is not planned again: it may
 * exist, and adding it again could make a duplicate. It stays listed as untracked (and each update
 * says so) for as long as it is declared; once it is not, it is forgotten with a last warning.
 */
function unknownAddsAside(
  old: Decoded,
  wanted: Decoded,
): { declared: KeyedRecord[]; untracked: string[]; forgotten: string[] } {
  if (wanted.settings.purge || old.untracked.length === 0) {
    return { declared: wanted.declared, untracked: old.untracked, forgotten: [] };
  }
  const unknown = new Set(old.untracked);
  const declared = wanted.declared.filter((r) => !unknown.has(describeRecord(r)));
  const stillDeclared = new Set(wanted.declared.map(describeRecord));
  return {
    declared,
    untracked: old.untracked.filter((u) => stillDeclared.has(u)),
    forgotten: old.untracked.filter((u) => !stillDeclared.has(u)),
  };
}

function announce(templateId: string, plan: Plan): void {
  const lines = plan.corrections.map((c) => `  ${c.message}`);
  log.info([`template ${templateId}: ${formatSummary(plan.summary)}`, ...lines].join("\n"));
}

function rewriteSummary(wanted: Decoded): string {
  return `${wanted.declared.length} records rewritten with one PUT after an earlier add of unknown outcome`;
}

/**
 * What a create with purge did. Not the planner's summary: its one PUT replaces whatever the
 * template held, records made outside Pulumi included, and the API does not say how many there
 * were, so "0 to delete" would not be true.
 */
function putSummary(creates: number): string {
  return `${creates} to create (1 request: a PUT, which replaces whatever records the template held)`;
}

function resourceId(settings: Settings): string {
  // With purge the resource owns its template, so the template id is the resource's identity;
  // without it several resources may share one template.
  return settings.purge ? settings.templateId : `${settings.templateId}/${randomUUID().slice(0, 8)}`;
}

/**
 * The error the engine shows for a failure part-way: the API's error (status, outcome, its words)
 * with what to do next, the state reached so far, and the API's error as its `cause`.
 */
function partialFailure(
  err: unknown,
  id: string,
  run: Execution,
  settings: Settings,
  summary: string,
  inputs: Props,
) {
  const outputs = encodeOutputs(settings, run.held, `failed: ${summary}`, run.untracked);
  return new PartialFailure(describeFailure(err, settings), id, { ...outputs }, inputs, err);
}

function describeFailure(err: unknown, settings: Settings): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof DomainApiError)) return message;
  const facts = `[${err.code}${err.status !== undefined ? `, HTTP ${err.status}` : ""}, outcome: ${err.outcome}]`;
  if (err.outcome === "unknown" && err.method === "PATCH") {
    const next = settings.purge
      ? "Run `pulumi up` again: the template is then rewritten with one PUT, which removes any untracked copy."
      : "It is not added again automatically (that could add it twice): check the template, and remove a duplicate by hand if there is one.";
    return `${message} ${facts} The record being added may or may not exist in template "${settings.templateId}" now. ${next}`;
  }
  return `${message} ${facts}`;
}

/** Create: one PUT of every record, or with `purge: false`, one PATCH per added record. */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const { settings, declared } = decode(inputs);
  const id = resourceId(settings);
  const run = new Execution(client(), settings.templateId, [], []);
  if (settings.purge) {
    await run.rewrite(declared);
    const summary = putSummary(declared.length);
    log.info(`template ${settings.templateId}: ${summary}`);
    return { id, outs: encodeOutputs(settings, run.held, summary) };
  }
  const plan = planUpdate([], declared, settings);
  const summary = formatSummary(plan.summary);
  announce(settings.templateId, plan);
  try {
    await run.carryOut(plan, declared, settings);
  } catch (err) {
    if (run.held.length === 0 && run.untracked.length === 0) throw err;
    throw partialFailure(err, id, run, settings, summary, inputs);
  }
  return { id, outs: encodeOutputs(settings, run.held, summary, run.untracked) };
}

/** Update: the planner's minimal PATCH plan, verified; unchanged records keep their ids. */
export async function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const old = decode(olds);
  const wanted = decode(news);
  const { settings, declared } = wanted;
  // An earlier add may have landed without us learning its id; with purge, only a full rewrite is
  // sure to leave the template exactly as declared.
  const rewrite = old.untracked.length > 0 && settings.purge;
  const aside = unknownAddsAside(old, wanted);
  if (aside.forgotten.length > 0) {
    log.warn(
      `template ${settings.templateId}: no longer declared, so no longer tracked: ${aside.forgotten.join("; ")}. ` +
        "Its add's outcome was never known: if the record exists in the template, remove it by hand.",
    );
  }
  const run = new Execution(
    client(),
    settings.templateId,
    old.held,
    rewrite ? old.untracked : aside.untracked,
  );
  const plan = rewrite ? undefined : planUpdate(old.held, aside.declared, settings);
  const summary = plan ? formatSummary(plan.summary) : rewriteSummary(wanted);
  try {
    if (plan) await run.carryOut(plan, declared, settings);
    else await run.rewrite(declared, "after an earlier add of unknown outcome");
  } catch (err) {
    throw partialFailure(err, id, run, settings, summary, news);
  }
  if (run.untracked.length > 0) {
    log.warn(
      `template ${settings.templateId}: ${run.untracked.length} add(s) of unknown outcome may have created records this resource does not track: ` +
        `${run.untracked.join("; ")}. With purge: false they are never added again automatically; check the template for duplicates.`,
    );
  }
  const done = plan && run.rewritten ? `${summary}; then ${run.rewritten}` : summary;
  return { outs: encodeOutputs(settings, run.held, done, run.untracked) };
}

/** Delete: one PATCH removing the records this resource holds; what is already gone is done. */
export async function delete_(_id: string, props: Props): Promise<void> {
  const { settings, held, untracked } = decode(props);
  const run = new Execution(client(), settings.templateId, held, untracked);
  if (untracked.length > 0 && settings.purge) {
    // Only emptying the template removes a record whose add's answer was lost.
    await run.rewrite([]).catch((err: unknown) => {
      if (!(err instanceof DomainApiError && err.code === "DOMAINAPI_TEMPLATE_NOT_FOUND")) throw err;
      log.info(`template ${settings.templateId} no longer exists; nothing left to remove`);
    });
    return;
  }
  await run.remove(planDelete(held));
}
export { delete_ as delete };

/**
 * Read (`pulumi refresh`): with `domainapi:verifyOnRefresh` on, one request re-states every held
 * record with its values; records found gone leave the state (outputs and inputs), so the next
 * preview shows them as to be created. Off (the default), the state is kept and nothing is sent.
 */
export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  if (!verifyOnRefresh()) return { id, props };
  const { settings, held, untracked } = decode(props);
  const run = new Execution(client(), settings.templateId, held, untracked);
  const [request] = planVerify(held).requests;
  if (request === undefined) return { id, props };
  const vanished = await run.verify(request);
  if (vanished.length === 0) return { id, props };
  const outputs = encodeOutputs(settings, run.held, String(props.lastPlan ?? ""), run.untracked);
  // The inputs follow, so that the next preview diffs against what exists and shows the vanished
  // records as to be created (hosts older than the `inputs` of ReadResult keep the old inputs; the
  // next up restores the records all the same).
  return { id, props: { ...props, ...outputs }, inputs: { ...encodeInputs(settings, run.held) } };
}
