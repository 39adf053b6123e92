/**
 * The executor: carries a plan out against the API and folds each answer into the records the
 * resource holds, so that after every accepted request they are exactly what the template holds,
 * and a failure part-way leaves a state that says what exists.
 *
 * It decides nothing: the requests, the probes after a 404 (`vanished.ts`) and the plan that
 * follows them (`planRecovery`) come from the planner. What it adds is what each answer means for
 * the held records, and a progress line per correction as it is carried out.
 */
import type { DomainApiClient } from "../client/api";
import { DomainApiError } from "../client/errors";
import { isNotFound, templateNotFound } from "../client/failures";
import * as log from "../log";
import {
  applyAccepted,
  applyPut,
  type Correction,
  type HeldRecord,
  idsOf,
  type KeyedRecord,
  namesRecordIds,
  type PlannedRequest,
  requestOf,
  withoutVanished,
} from "./corrections";
import { RecoveryLimitError, UnattributableAnswerError } from "./errors";
import { describeRecord } from "./model";
import { type Declaration, type Holding, type Plan, planRecovery } from "./plan";
import { searchVanished, type VanishedSearch } from "./vanished";

/** The two requests of the API that change records. */
export type RecordsApi = Pick<DomainApiClient, "patchRecords" | "putRecords">;

/**
 * Asked before a plan that the planner made during the run (a recovery after a 404) is carried
 * out; throws to refuse it (an unreviewed plan under `DOMAINAPI_EXPECT_PLAN`).
 */
export type PlanGuard = (plan: Plan, recovery: boolean) => void;

/** How many recoveries one run may plan before it gives up: records vanishing while we recover. */
const MAX_RECOVERIES = 3;

function describeVanished(c: Correction): string {
  if (c.kind === "delete") return `${describeRecord(c.record)} (${c.record.recordId}, was to be deleted)`;
  if (c.kind === "create") return describeRecord(c.record);
  return `${describeRecord(c.from)} (${c.from.recordId})`;
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
 * The held records of one resource while plans are carried out, and the requests that change them.
 *
 * @example
 * const run = new Execution(api, holding);
 * await run.carryOut(plan, declaration);
 * return encodeOutputs(settings, run.held, plan.text, run.untracked);
 */
export class Execution {
  /** The records the template holds for this resource, as far as the answers so far prove. */
  held: HeldRecord[];
  /** Adds of unknown outcome (as they read in messages): the record may exist without us knowing its id. */
  untracked: string[];
  /** The plans carried out after the first one (recoveries), for the summary. */
  readonly recoveries: Plan[] = [];
  readonly #api: RecordsApi;
  readonly #templateId: string;

  constructor(api: RecordsApi, holding: Holding) {
    this.#api = api;
    this.#templateId = holding.settings.templateId;
    this.held = [...holding.held];
    this.untracked = [...holding.untracked];
  }

  /**
   * Sends the plan's requests in order. A PATCH refused with 404 that names record ids means some
   * held record vanished outside Pulumi: the planner's probes find which, and the planner's
   * recovery plan is carried out in turn (after `guard` allowed it). A refused request that names
   * no id means the template is gone.
   *
   * @throws TemplateNotFoundError when the template itself is gone; any other error of the API
   *   as it came (the held records then say what was done before it)
   */
  async carryOut(plan: Plan, declaration: Declaration, guard: PlanGuard = () => {}): Promise<void> {
    this.untracked = [...plan.untracked];
    for (const request of plan.requests) {
      try {
        await this.#send(request);
      } catch (err) {
        if (!isNotFound(err) || request.method !== "PATCH") throw err;
        if (!namesRecordIds(request)) throw templateNotFound(err, this.#templateId);
        const search = await this.#search(request.corrections, { purge: declaration.settings.purge });
        const next = planRecovery(this.held, plan, declaration, search);
        if (this.recoveries.length >= MAX_RECOVERIES) {
          throw new RecoveryLimitError(this.#templateId, MAX_RECOVERIES, err);
        }
        guard(next, true);
        this.recoveries.push(next);
        // Said only once the recovery may be sent: a refused one would make this untrue.
        const why = search.rewrite
          ? "a record this resource keeps was removed outside Pulumi; the template is rewritten with one PUT (purge: true)"
          : "recovering from records removed outside Pulumi";
        log.warn(`template ${this.#templateId}: ${why}: ${next.text}`);
        await this.carryOut(next, declaration, guard);
        return;
      }
    }
  }

  /**
   * Sends a verification (what `pulumi refresh` does when verification is on) and drops the held
   * records that vanished.
   *
   * @returns the vanished records, as they read in messages
   */
  async verify(plan: Plan): Promise<string[]> {
    const vanished: string[] = [];
    for (const request of plan.requests) {
      try {
        await this.#send(request);
      } catch (err) {
        if (!isNotFound(err) || request.method !== "PATCH") throw err;
        const search = await this.#search(request.corrections, { purge: false });
        vanished.push(...search.vanished.map(describeVanished));
      }
    }
    return vanished;
  }

  /** Removes the held records; a record already gone is done. */
  async remove(plan: Plan): Promise<void> {
    for (const request of plan.requests) {
      try {
        await this.#send(request);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (request.method === "PUT" || !namesRecordIds(request))
          throw templateNotFound(err, this.#templateId);
        await this.#search(request.corrections, { purge: false });
      }
    }
  }

  async #send(request: PlannedRequest): Promise<void> {
    if (request.method === "PUT") {
      await this.#put(request);
      return;
    }
    let ids: string[];
    try {
      ids = await this.#api.patchRecords(this.#templateId, request.body);
    } catch (err) {
      // An add that may have reached the API without its id coming back: never resent blindly.
      const add = request.corrections.find((c) => c.kind === "create");
      if (add && err instanceof DomainApiError && err.outcome === "unknown") {
        this.untracked.push(describeRecord(add.record));
      }
      throw err;
    }
    try {
      this.held = applyAccepted(this.held, request.corrections, ids);
    } catch (err) {
      // The request applied, but its new ids cannot be told apart: the adds are of unknown outcome.
      for (const c of request.corrections) {
        if (c.kind === "create") this.untracked.push(describeRecord(c.record));
      }
      this.held = applyAccepted(
        this.held,
        request.corrections.filter((c) => c.kind !== "create"),
        [],
      );
      throw err;
    }
    this.#progress(request.corrections);
  }

  async #put(request: Extract<PlannedRequest, { method: "PUT" }>): Promise<void> {
    let ids: string[];
    try {
      ids = await this.#api.putRecords(this.#templateId, request.body);
    } catch (err) {
      if (isNotFound(err)) {
        this.held = [];
        this.untracked = [];
        throw templateNotFound(err, this.#templateId);
      }
      if (err instanceof DomainApiError && err.outcome !== "not-applied")
        this.#putOfUnknownOutcome(request.records);
      throw err;
    }
    try {
      this.held = applyPut(request.records, ids);
    } catch (err) {
      if (err instanceof UnattributableAnswerError) this.#putOfUnknownOutcome(request.records);
      throw err;
    }
    this.untracked = [];
    log.info(
      `template ${this.#templateId}: wrote ${request.records.length} record(s) with one PUT (every record id is new)`,
    );
  }

  /** A PUT that may have applied: none of the old ids exists any more, and no new one is known. */
  #putOfUnknownOutcome(records: readonly KeyedRecord[]): void {
    this.held = [];
    this.untracked = records.map(describeRecord);
  }

  /**
   * One message per request, a line per correction: each message costs the engine a call and the
   * plugin process memory until the engine has taken it (a destroy of 1,000 templates sends 1,000
   * requests of ten deletes each).
   */
  #progress(corrections: readonly Correction[]): void {
    const lines = corrections.flatMap((c) =>
      c.kind === "verify" ? [] : [`template ${this.#templateId}: ${c.message}${idNote(c, this.held)}`],
    );
    if (lines.length > 0) log.info(lines.join("\n"));
  }

  /** Runs the planner's probes; accepted probes are applied, vanished records leave the held ones. */
  async #search(refused: Correction[], options: { purge: boolean }): Promise<VanishedSearch> {
    const search = searchVanished(refused, options);
    let step = search.next();
    while (!step.done) {
      let accepted = true;
      try {
        await this.#send(requestOf(step.value));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        accepted = false;
      }
      step = search.next(accepted);
    }
    const found = step.value;
    this.held = withoutVanished(this.held, found.vanished);
    if (found.vanished.length > 0) {
      log.warn(
        `template ${this.#templateId}: records removed outside Pulumi: ${found.vanished.map(describeVanished).join("; ")}`,
      );
    }
    return found;
  }
}
