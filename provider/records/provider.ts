/**
 * DnsTemplateRecords' provider methods: wires the rules (check), the planner (update) and the
 * client (every request). It holds no HTTP and no planning logic of its own; what it adds is the
 * order of operations and what the state says after each of them, including after a failure.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { DomainApiClient } from "../client/api";
import { DomainApiError, isNotFound } from "../client/errors";
import { containsUnknown, unknownInputs } from "../engine";
import * as log from "../log";
import { PartialFailure } from "../partialFailure";
import { client } from "../session";
import { keyRecords } from "./keys";
import {
  applyStep,
  checkSafety,
  formatSummary,
  type PatchStep,
  type Plan,
  planDelete,
  planUpdate,
} from "./plan";
import {
  type RecordSpec,
  type SafetyThreshold,
  type StateRecord,
  toUpdateItem,
  toWireRecord,
  validateTemplateRecordsInputs,
} from "./rules";
import {
  type CheckedInputs,
  desiredRecords,
  type RecordsState,
  readState,
  settingsOf,
  writeOutputs,
} from "./state";

type Props = Record<string, unknown>;

export { configure } from "../session";

// ---------------------------------------------------------------------------------------------
// check

/**
 * Validates and canonicalizes the inputs; makes no request. Failures name the property path and
 * how to fix it. On an update, it also applies the safety threshold, so a mass change already
 * stops `pulumi preview`.
 */
export async function check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const misnamed = unknownInputs(
    news,
    ["templateId", "records", "purge", "safetyThreshold"],
    "DnsTemplateRecords",
  );
  if (containsUnknown(news)) {
    // Part of the inputs is only known after other resources are created: validate the rest at
    // update time, when the engine calls check again with every value known.
    return misnamed.length > 0 ? { inputs: news, failures: misnamed } : { inputs: news };
  }
  // A missing list is an error, not an empty one: with purge, "no records" would empty the template.
  const { inputs: valid, issues } = validateTemplateRecordsInputs({
    ...news,
    records: desiredFromKeyed(news.records),
  });
  const failures = [...misnamed, ...issues];
  if (!valid || failures.length > 0) return { inputs: news, failures };

  const { templateId, records, safetyThreshold } = valid;
  if (olds.records !== undefined && olds.templateId === templateId) {
    const current = desiredRecords(olds).map((r, i) => ({ ...r, recordId: `current-${i}` }));
    const plan = planUpdate(current, records);
    const refusal = checkSafety(current.length, plan.summary, safetyThreshold);
    if (refusal) return { inputs: news, failures: [{ property: "records", reason: refusal }] };
  }

  const inputs: CheckedInputs = {
    templateId,
    records: keyRecords(records),
    purge: settingsOf(news).purge,
    safetyThreshold,
  };
  return { inputs: { ...inputs } };
}

/** Records as a list: the program gives an array; stored inputs (re-checked by the engine) are keyed. */
function desiredFromKeyed(raw: unknown): unknown {
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) return Object.values(raw);
  return raw;
}

// ---------------------------------------------------------------------------------------------
// diff

function sameThreshold(a: SafetyThreshold | false, b: SafetyThreshold | false): boolean {
  if (a === false || b === false) return a === b;
  return a.minExistingRecords === b.minExistingRecords && a.maxChangePercent === b.maxChangePercent;
}

/** A new template is a new resource; anything else about the records is an update. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  if (containsUnknown(news.templateId)) return { changes: true, replaces: ["templateId"] };
  if (olds.templateId !== news.templateId) return { changes: true, replaces: ["templateId"] };
  if (containsUnknown(news)) return { changes: true };
  const state = readState(olds);
  const wanted = settingsOf(news);
  const plan = planUpdate(state.records, desiredRecords(news));
  const changes =
    plan.steps.length > 0 ||
    state.untrackedAdds ||
    state.purge !== wanted.purge ||
    !sameThreshold(state.safetyThreshold, wanted.safetyThreshold);
  return { changes };
}

// ---------------------------------------------------------------------------------------------
// create / update / delete

/** Thrown from inside the step runner; carries the state reached before the failure. */
class StepFailure extends Error {
  readonly state: StateRecord[];
  readonly untrackedAdds: boolean;
  constructor(message: string, state: StateRecord[], untrackedAdds: boolean) {
    super(message);
    this.state = state;
    this.untrackedAdds = untrackedAdds;
  }
}

function checkedInputs(inputs: Props): CheckedInputs {
  return {
    templateId: String(inputs.templateId),
    records: keyRecords(desiredRecords(inputs)),
    ...settingsOf(inputs),
  };
}

function templateGone(templateId: string): string {
  return (
    `DNS template "${templateId}" does not exist (the API answered 404). ` +
    `Recreate the template at the registrar, or point templateId at an existing template.`
  );
}

function describeFailure(err: unknown, templateId: string): string {
  if (err instanceof DomainApiError && err.outcome === "unknown") {
    return (
      `${err.message}. The record being added may or may not exist in template "${templateId}" now. ` +
      "Run `pulumi up` again: with purge (the default) the template is then rewritten with one PUT, which " +
      "removes any untracked copy; with purge: false, check the template for a duplicate first."
    );
  }
  return err instanceof Error ? err.message : String(err);
}

function singleStep(body: PatchStep["body"], parts: Partial<Omit<PatchStep, "body">>): PatchStep {
  return {
    body,
    updates: parts.updates ?? [],
    dels: parts.dels ?? [],
    ...(parts.add ? { add: parts.add } : {}),
  };
}

/**
 * Sends a plan's steps in order. A 404 on a step that deletes or updates means some record
 * vanished outside Pulumi (the API validates a PATCH as a whole); the items are then sent one at a
 * time to find which: a vanished `del` is done, a vanished `update` becomes an `add`.
 */
async function runSteps(
  api: DomainApiClient,
  templateId: string,
  current: StateRecord[],
  steps: PatchStep[],
): Promise<StateRecord[]> {
  let state = current;
  const send = async (step: PatchStep): Promise<void> => {
    const ids = await api.patchRecords(templateId, step.body);
    state = applyStep(state, step, ids);
  };
  try {
    for (const step of steps) {
      try {
        await send(step);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (step.dels.length === 0 && step.updates.length === 0) throw new Error(templateGone(templateId));
        const readd: RecordSpec[] = [];
        const vanished: string[] = [];
        for (const del of step.dels) {
          try {
            await send(singleStep({ del: [{ record_id: del.recordId }] }, { dels: [del] }));
          } catch (e) {
            if (!isNotFound(e)) throw e;
            vanished.push(`${del.name} ${del.type} ${del.content} (${del.recordId}, was to be deleted)`);
            state = state.filter((r) => r.recordId !== del.recordId);
          }
        }
        for (const upd of step.updates) {
          try {
            await send(singleStep({ update: [toUpdateItem(upd.from.recordId, upd.to)] }, { updates: [upd] }));
          } catch (e) {
            if (!isNotFound(e)) throw e;
            vanished.push(
              `${upd.from.name} ${upd.from.type} ${upd.from.content} (${upd.from.recordId}, added again)`,
            );
            state = state.filter((r) => r.recordId !== upd.from.recordId);
            readd.push(upd.to);
          }
        }
        if (vanished.length > 0) {
          const all = vanished.length === step.dels.length + step.updates.length;
          const hint = all
            ? " (none of them exists any more: the template itself may have been removed)"
            : "";
          log.warn(`template ${templateId}: records removed outside Pulumi${hint}: ${vanished.join("; ")}`);
        }
        for (const add of [...(step.add ? [step.add] : []), ...readd]) {
          try {
            await send(singleStep({ add: [toWireRecord(add)] }, { add }));
          } catch (e) {
            if (isNotFound(e)) throw new Error(templateGone(templateId));
            throw e;
          }
        }
      }
    }
  } catch (err) {
    const untracked = err instanceof DomainApiError && err.outcome === "unknown";
    throw new StepFailure(describeFailure(err, templateId), state, untracked);
  }
  return state;
}

function resourceId(inputs: CheckedInputs): string {
  // With purge the resource owns its template, so the template id is the resource's identity;
  // without it several resources may share one template.
  return inputs.purge ? inputs.templateId : `${inputs.templateId}/${randomUUID().slice(0, 8)}`;
}

async function replaceAll(
  api: DomainApiClient,
  templateId: string,
  desired: RecordSpec[],
): Promise<StateRecord[]> {
  try {
    const ids = await api.putRecords(templateId, desired.map(toWireRecord));
    return desired.map((r, i) => ({ ...r, recordId: ids[i] as string }));
  } catch (err) {
    if (isNotFound(err)) throw new Error(templateGone(templateId));
    throw err;
  }
}

function announce(templateId: string, plan: Plan): string {
  const summary = formatSummary(plan.summary);
  const lines = plan.corrections.map((c) => `  ${c.message}`);
  log.info([`template ${templateId}: ${summary}`, ...lines].join("\n"));
  return summary;
}

/**
 * What a create with purge did. Not the planner's summary: its one PUT replaces whatever the
 * template held, records made outside Pulumi included, and the API does not say how many there
 * were, so "0 to delete" would not be true.
 */
function putSummary(creates: number): string {
  return `${creates} to create (1 request: a PUT, which replaces whatever records the template held)`;
}

/** Create: one PUT of every record, or with `purge: false`, one PATCH per added record. */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const checked = checkedInputs(inputs);
  const desired = desiredRecords(inputs);
  const api = client();
  const id = resourceId(checked);
  if (checked.purge) {
    const state = await replaceAll(api, checked.templateId, desired);
    const summary = putSummary(desired.length);
    log.info(`template ${checked.templateId}: ${summary}`);
    return { id, outs: writeOutputs(checked, state, summary) };
  }
  const plan = planUpdate([], desired);
  const summary = announce(checked.templateId, plan);
  try {
    const state = await runSteps(api, checked.templateId, [], plan.steps);
    return { id, outs: writeOutputs(checked, state, summary) };
  } catch (err) {
    if (!(err instanceof StepFailure)) throw err;
    if (err.state.length === 0 && !err.untrackedAdds) throw new Error(err.message);
    const outputs = writeOutputs(checked, err.state, `failed: ${summary}`, err.untrackedAdds);
    throw new PartialFailure(err.message, id, { ...outputs }, inputs);
  }
}

/** Update: the planner's minimal PATCH plan; unchanged records keep their ids. */
export async function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const old: RecordsState = readState(olds);
  const checked = checkedInputs(news);
  const desired = desiredRecords(news);
  const api = client();
  if (old.untrackedAdds && checked.purge) {
    // An earlier add may have landed without us learning its id; only a full rewrite is sure to
    // leave the template exactly as declared.
    const state = await replaceAll(api, checked.templateId, desired);
    const summary = `${desired.length} records rewritten with one PUT after an earlier add of unknown outcome`;
    log.info(`template ${checked.templateId}: ${summary}`);
    return { outs: writeOutputs(checked, state, summary) };
  }
  const plan = planUpdate(old.records, desired);
  const summary = announce(checked.templateId, plan);
  try {
    const state = await runSteps(api, checked.templateId, old.records, plan.steps);
    return { outs: writeOutputs(checked, state, summary) };
  } catch (err) {
    if (!(err instanceof StepFailure)) throw err;
    const outputs = writeOutputs(
      checked,
      err.state,
      `failed: ${summary}`,
      err.untrackedAdds || old.untrackedAdds,
    );
    throw new PartialFailure(err.message, id, { ...outputs }, news);
  }
}

/** Delete: one PATCH removing the records this resource holds; what is already gone is skipped. */
export async function delete_(_id: string, props: Props): Promise<void> {
  const old = readState(props);
  const api = client();
  if (old.untrackedAdds && old.purge) {
    try {
      await api.putRecords(old.templateId, []);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      log.info(`template ${old.templateId} no longer exists; nothing left to remove`);
    }
    return;
  }
  const plan = planDelete(old.records);
  if (plan.steps.length === 0) return;
  try {
    await runSteps(api, old.templateId, old.records, plan.steps);
  } catch (err) {
    throw new Error(err instanceof Error ? err.message : String(err));
  }
}
export { delete_ as delete };
// No `read`: the API has no GET for records, and without one the engine keeps the state as it is.
