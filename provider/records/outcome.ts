/**
 * What the engine is told of a create or update once the run loop is done: the outputs, or, when
 * the run stopped part-way, a {@link PartialFailure} carrying the state reached and a message that
 * says what may have happened and what to do. The run loop decides what is sent; this module only
 * reads its result.
 */
import { DomainApiError } from "../errors";
import { PartialFailure } from "../host/partialFailure";
import * as log from "../log";
import type { Expectation } from "./digest";
import type { RunJournal } from "./interrupted";
import { maskText, type Secrets, secretRecordsProperty } from "./masking";
import type { Declaration, Holding, Plan } from "./plan";
import { type Converged, converge, type RecordsApi } from "./run";
import { encodeOutputs, type RecordsOutputs, type Settings } from "./state";

/** One create or update to carry out: the plan, what is held and wanted, the engine's inputs. */
export interface Task {
  /** The resource's id (known before the first request: a create's is made up front). */
  id: string;
  plan: Plan;
  holding: Holding;
  wanted: Declaration;
  /** The engine's inputs, handed back in a {@link PartialFailure}. */
  inputs: Record<string, unknown>;
  /** A create that did nothing at all fails plainly (there is no state to keep). */
  isCreate: boolean;
  /** The reviewed plans of `DOMAINAPI_EXPECT_PLAN`, if set. */
  reviewed: Expectation | undefined;
  /** The record fields the program made secret (held before or declared now): masked in every line. */
  secrets: Secrets;
  /** The intent journal of this operation (records/interrupted.ts). */
  journal?: RunJournal | undefined;
}

function describeFailure(err: unknown, settings: Settings): string {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof DomainApiError)) return message;
  const facts = `[${err.code}${err.status !== undefined ? `, HTTP ${err.status}` : ""}, outcome: ${err.outcome}]`;
  // Only an add makes a request of unknown outcome unsafe to repeat (a PUT, and a PATCH without
  // adds, are retryable: client/retry.ts), and only an add can have made a record that may now
  // exist twice.
  if (err.outcome === "unknown" && !err.retryable) {
    const next = settings.purge
      ? "Run `pulumi up` again: the template is then rewritten with one PUT, which removes any untracked copy."
      : "It is not added again automatically (that could add it twice): check the template, and remove a duplicate by hand if there is one.";
    return `${message} ${facts} The record being added may or may not exist in template "${settings.templateId}" now. ${next}`;
  }
  return `${message} ${facts}`;
}

/** What the outputs say was done: the plan, then each recovery the run needed. */
function whatWasDone(plan: Plan, run: Converged): string {
  return [plan.text, ...run.recoveries.map((r) => `then ${r.text}`)].join("; ");
}

/**
 * Carries `plan` out and encodes the outputs. A failure part-way becomes a {@link PartialFailure}
 * carrying the state reached (unless nothing at all was done on a create, which then simply fails).
 */
export async function carryOut(api: RecordsApi, task: Task): Promise<RecordsOutputs> {
  const { id, plan, holding, wanted, inputs, isCreate, reviewed, secrets, journal } = task;
  const run = await converge(api, holding, plan, { declaration: wanted, reviewed, secrets, journal });
  // The keys of the secret records go with the outputs, so that a later preview or destroy masks them.
  const secret = secretRecordsProperty(run.held, secrets);
  if (run.failure !== undefined) {
    const err = run.failure;
    if (isCreate && run.held.length === 0 && run.untracked.length === 0) throw err;
    const outputs = encodeOutputs(
      wanted.settings,
      run.held,
      `failed: ${whatWasDone(plan, run)}`,
      run.untracked,
    );
    const message = maskText(describeFailure(err, wanted.settings), secrets);
    throw new PartialFailure(message, id, { ...outputs, ...secret }, inputs, err);
  }
  if (run.untracked.length > 0) {
    log.warn(
      `template ${plan.templateId}: ${run.untracked.length} add(s) of unknown outcome may have created records this resource does not track: ` +
        `${maskText(run.untracked.join("; "), secrets)}. With purge: false they are never added again automatically; check the template for duplicates.`,
    );
  }
  return { ...encodeOutputs(wanted.settings, run.held, whatWasDone(plan, run), run.untracked), ...secret };
}
