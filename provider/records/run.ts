/**
 * THE run loop: the one place that carries plans out. It holds what is planned, sent, learnt and
 * re-planned: it sends each planned request through the executor (`apply.ts`, one request, one
 * outcome), folds each outcome into the records the resource holds (`fold.ts`), and on a 404 that
 * names record ids turns the probes `vanished.ts` chooses into requests, then does what the plan's
 * refusal policy says: a create or update is planned anew from what exists (`planRecovery`), within
 * a cap and only when the reviewed plans allow it; a removal or a verification lets the vanished
 * records go and goes on. Nothing else loops, and nothing else decides what is sent after a plan.
 *
 * It says what it does, once: each correction as it is carried out, with its id; a recovery when
 * it is about to be sent. The plan itself is announced by whoever shows it to the user first (the
 * preview's `diff`), not here.
 */

import { assertEngineAlive, engineGone } from "../host/lifeline";
import * as log from "../log";
import { type RecordsApi, send } from "./apply";
import { type Correction, type HeldRecord, idsOf, type PlannedRequest, requestOf } from "./corrections";
import { EXPECT_PLAN_ENV, type Expectation, refusalOf } from "./digest";
import { RecoveryLimitError, UnreviewedPlanError } from "./errors";
import { foldOutcome, type Outcome, type Tracked, withoutVanished } from "./fold";
import { type RunJournal, rewriteCommand } from "./interrupted";
import { describeMasked, maskedMessage, maskText, NO_SECRETS, type Secrets } from "./masking";
import { type Declaration, type Holding, type Plan, planRecovery } from "./plan";
import { searchVanished, type VanishedSearch } from "./vanished";

export type { RecordsApi } from "./apply";

/** How many recoveries one run may plan before it gives up: records vanishing while we recover. */
export const MAX_RECOVERIES = 3;

/** What a run needs besides its first plan. */
export interface RunOptions {
  /** What the program declares: the target of a recovery (a plan whose policy is `recover`). */
  declaration?: Declaration | undefined;
  /**
   * The reviewed plans (`DOMAINAPI_EXPECT_PLAN`), if set: a plan, first or recovery, whose digest is
   * not among them (or any plan, when the value is blank) is refused before anything is sent for it.
   */
  reviewed?: Expectation | undefined;
  /** What the program marked secret: every line the run says shows it as `[secret]` (masking.ts). */
  secrets?: Secrets | undefined;
  /**
   * The intent journal of this operation: written before each request, cleared when the run ends
   * (the provider then answers the engine). A run stopped because the engine is gone leaves it.
   */
  journal?: RunJournal | undefined;
}

/** What a run reached: the records held after it, and what it learnt on the way. */
export interface Converged extends Tracked {
  /** The plans the run made after the first one (recoveries), for the summary. */
  recoveries: Plan[];
  /** The held records found removed outside Pulumi, as they read in messages. */
  vanished: string[];
  /**
   * Why the run stopped before its plan was carried out (the API's error, an answer that cannot be
   * attributed, a refused recovery, the recovery cap); `held` and `untracked` then say what exists.
   */
  failure?: unknown;
}

function describeVanished(c: Correction, secrets: Secrets): string {
  if (c.kind === "delete")
    return `${describeMasked(c.record, secrets)} (${c.record.recordId}, was to be deleted)`;
  if (c.kind === "create") return describeMasked(c.record, secrets);
  return `${describeMasked(c.from, secrets)} (${c.from.recordId})`;
}

function idNote(c: Correction, held: readonly HeldRecord[]): string {
  switch (c.kind) {
    case "create": {
      const made = held.find((r) => r.key === c.record.key);
      return made ? ` (id ${idsOf(made).join(", ")})` : "";
    }
    case "update":
      return ` (id ${c.from.recordId} kept)`;
    case "delete":
      return ` (id ${c.record.recordId} removed)`;
    default:
      return "";
  }
}

/**
 * Throws the refusal of `plan` under the reviewed plans, if any: nothing has been sent for it.
 *
 * @throws UnreviewedPlanError naming the template, the digest it has and the one reviewed
 */
function refuseUnreviewed(plan: Plan, reviewed: RunOptions["reviewed"], recovery: boolean): void {
  const refusal = refusalOf(plan, reviewed, recovery);
  if (!refusal) return;
  if (plan.interrupted === undefined) throw new UnreviewedPlanError(refusal);
  throw new UnreviewedPlanError(
    `${refusal} This plan recovers from an interrupted run (${plan.interrupted}), which only this machine's journal knows: ` +
      `a plan reviewed elsewhere cannot include it. Preview on this machine and review that plan, or run one \`pulumi up\` ` +
      `without ${EXPECT_PLAN_ENV}; the journal entry stays until then.`,
  );
}

/**
 * Carries `plan` out against the template, from what `holding` says the resource holds, and
 * re-plans as the answers require (see the module comment).
 *
 * @returns what the template holds for the resource after the run, with `failure` set when it
 *   stopped part-way (never thrown: the caller keeps the state reached)
 * @throws UnreviewedPlanError when the first plan is not a reviewed one: then nothing was sent
 * @example
 * const run = await converge(client(), holding, planResource(holding, wanted), { declaration: wanted });
 * if (run.failure) throw run.failure;
 * return encodeOutputs(wanted.settings, run.held, plan.text, run.untracked);
 */
export async function converge(
  api: RecordsApi,
  holding: Holding,
  plan: Plan,
  options: RunOptions = {},
): Promise<Converged> {
  const run = new Run(api, holding, options);
  refuseUnreviewed(plan, options.reviewed, false);
  for (const gone of plan.forgotten) {
    log.warn(
      `template ${plan.templateId}: no longer declared, so no longer tracked: ${maskText(gone, options.secrets ?? NO_SECRETS)}. ` +
        "Its add's outcome was never known: if the record exists in the template, remove it by hand.",
    );
  }
  try {
    await run.carryOut(plan);
  } catch (failure) {
    clearUnlessEngineGone(options.journal);
    return { ...run.result(), failure };
  }
  clearUnlessEngineGone(options.journal);
  return run.result();
}

/**
 * The provider answers the engine now, which then holds the outcome: the journal entry goes. Not
 * when the engine is gone (killed while the request was out): then the entry is the only record.
 */
function clearUnlessEngineGone(journal: RunJournal | undefined): void {
  if (!engineGone()) journal?.clear();
}

/** One run's state: what is held, and the loop over the plans it carries out. */
class Run {
  #tracked: Tracked;
  readonly #recoveries: Plan[] = [];
  readonly #vanished: string[] = [];
  readonly #api: RecordsApi;
  readonly #templateId: string;
  readonly #options: RunOptions;
  readonly #secrets: Secrets;
  // Stryker disable next-line StringLiteral: carryOut sets it before the first request, and only a request reads it
  #planText = "";

  constructor(api: RecordsApi, holding: Holding, options: RunOptions) {
    this.#api = api;
    this.#templateId = holding.settings.templateId;
    this.#tracked = { held: [...holding.held], untracked: [...holding.untracked] };
    this.#options = options;
    this.#secrets = options.secrets ?? NO_SECRETS;
  }

  result(): Converged {
    return { ...this.#tracked, recoveries: [...this.#recoveries], vanished: [...this.#vanished] };
  }

  /** Sends the plan's requests in order, and each recovery's after a refusal: the loop. */
  async carryOut(first: Plan): Promise<void> {
    let plan = first;
    this.#planText = plan.text;
    this.#tracked = { ...this.#tracked, untracked: [...plan.untracked] };
    for (let i = 0; i < plan.requests.length; i++) {
      const request = plan.requests[i]!;
      const outcome = await this.#send(request);
      if (outcome.kind === "accepted") continue;
      if (outcome.kind === "template-gone") {
        if (plan.onRefusal.templateGone === "fail") throw outcome.error;
        log.info(`template ${this.#templateId} no longer exists; nothing left to remove`);
        return;
      }
      // A 404 to a request naming record ids (a PATCH): at least one of them vanished outside Pulumi.
      // Stryker disable next-line ConditionalExpression: only a request naming record ids is answered `refused` (apply.ts), and a PUT names none
      if (request.method !== "PATCH") throw outcome.error;
      const recover = plan.onRefusal.vanished === "recover";
      const declaration = this.#options.declaration;
      if (recover && declaration === undefined) {
        throw new TypeError("converge: a plan that recovers from a refusal needs the declaration");
      }
      // With purge a recovery rewrites the whole template, so which records vanished need not be
      // found; under a reviewed plan it is found all the same (the probes change nothing that was
      // not reviewed): the recovery is refused there, and the state written with the refusal must
      // say what vanished, or the next preview would plan the same refused requests again.
      const rewrite = recover && declaration!.settings.purge && this.#options.reviewed === undefined;
      const search = await this.#search(request.corrections, rewrite);
      if (!recover) continue;
      const next = planRecovery(this.#tracked.held, plan, declaration!, search);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: unreachable today: after the search every held record is as declared, so a recovery plan names no record id, is never refused, and no run reaches a second recovery; the cap guards a future planner
      if (this.#recoveries.length >= MAX_RECOVERIES) {
        // Stryker disable next-line all: unreachable today, as the cap above
        throw new RecoveryLimitError(this.#templateId, MAX_RECOVERIES, outcome.error);
      }
      refuseUnreviewed(next, this.#options.reviewed, true);
      this.#recoveries.push(next);
      // Said only once the recovery may be sent: a refused one would make this untrue.
      const why = search.rewrite
        ? "a record this resource keeps was removed outside Pulumi or by an interrupted run; the template is rewritten with one PUT (purge: true)"
        : "recovering from records removed outside Pulumi or by an interrupted run";
      log.warn(`template ${this.#templateId}: ${why}: ${next.text}`);
      plan = next;
      this.#planText = next.text;
      this.#tracked = { ...this.#tracked, untracked: [...plan.untracked] };
      i = -1;
    }
  }

  /**
   * Sends one request and folds its outcome into the held records; says each correction it carried
   * out. Returns an accepted, refused or template-gone outcome; throws what stops the run.
   */
  async #send(request: PlannedRequest): Promise<Outcome> {
    // Nothing is sent once the engine that would hold its outcome is gone.
    assertEngineAlive();
    this.#options.journal?.sending(this.#tracked, request, this.#planText, this.#secrets);
    const outcome = await send(this.#api, this.#templateId, request);
    const { state, failure } = foldOutcome(this.#tracked, request, outcome);
    this.#tracked = state;
    if (failure) throw failure;
    if (outcome.kind === "unknown" || outcome.kind === "failed") throw outcome.error;
    if (outcome.kind === "accepted") this.#progress(request);
    return outcome;
  }

  /**
   * One message per request, a line per correction: each message costs the engine a call and the
   * plugin process memory until the engine has taken it (a destroy of 1,000 templates sends 1,000
   * requests of ten deletes each).
   */
  #progress(request: PlannedRequest): void {
    const { held } = this.#tracked;
    if (request.method === "PUT") {
      const made = new Map(held.map((r) => [r.key, r.recordId]));
      const lines = request.records.map(
        (r) =>
          `template ${this.#templateId}: + CREATE ${describeMasked(r, this.#secrets)}${made.has(r.key) ? ` (id ${made.get(r.key)})` : ""}`,
      );
      log.info(
        [
          `template ${this.#templateId}: wrote ${request.records.length} record(s) with one PUT (every record id is new)`,
          ...lines,
        ].join("\n"),
      );
      return;
    }
    const lines = request.corrections.flatMap((c) =>
      c.kind === "verify"
        ? []
        : [`template ${this.#templateId}: ${maskedMessage(c, this.#secrets)}${idNote(c, held)}`],
    );
    if (lines.length > 0) log.info(lines.join("\n"));
  }

  /**
   * Turns the probes of `vanished.ts` into requests until it knows which of the refused
   * corrections name a vanished record; accepted probes are applied, vanished records leave the
   * held ones.
   */
  async #search(refused: Correction[], purge: boolean): Promise<VanishedSearch> {
    const search = searchVanished(refused, { purge });
    let step = search.next();
    while (!step.done) {
      const outcome = await this.#send(requestOf(step.value));
      step = search.next(outcome.kind === "accepted");
    }
    const found = step.value;
    this.#tracked = { ...this.#tracked, held: withoutVanished(this.#tracked.held, found.vanished) };
    if (found.vanished.length > 0) {
      const described = found.vanished.map((c) => describeVanished(c, this.#secrets));
      this.#vanished.push(...described);
      log.warn(
        `template ${this.#templateId}: records removed outside Pulumi or by an interrupted run: ${described.join("; ")}. ` +
          `A run interrupted after an add may also have left a copy that no request can find: with purge: true, ` +
          `\`${rewriteCommand(this.#templateId)}\` rewrites the template exactly with one PUT.`,
      );
    }
    return found;
  }
}
