/**
 * Carries a plan out against the API and records what happened: after every accepted request the
 * held records are exactly what the template holds, so that a failure part-way leaves a state that
 * says what exists, and the next `pulumi up` resumes from there.
 *
 * It makes no decision of its own about what to send: requests, probes after a 404 and their order
 * come from the planner; what it adds is what each answer means for the held records, and the one
 * rule of recovery the planner cannot know in advance (after a refused request, with `purge`, one
 * PUT of the whole declared set; without it, re-add the vanished records one by one).
 */
import type { DomainApiClient } from "../client/api";
import { DomainApiError, isNotFound, templateNotFound } from "../client/errors";
import * as log from "../log";
import { describeRecord, toWireRecord } from "./model";
import {
  applyAccepted,
  type Correction,
  createCorrection,
  findVanished,
  type HeldRecord,
  type KeyedRecord,
  namesRecordIds,
  type Plan,
  type PlannedRequest,
  requestOf,
  withoutVanished,
} from "./plan";

/** The two requests of the API that change records. */
export type RecordsApi = Pick<DomainApiClient, "patchRecords" | "putRecords">;

function describeVanished(c: Correction): string {
  if (c.kind === "delete") return `${describeRecord(c.record)} (${c.record.recordId}, was to be deleted)`;
  if (c.kind === "create") return describeRecord(c.record);
  return `${describeRecord(c.from)} (${c.from.recordId})`;
}

/**
 * The held records of one resource while a plan is carried out, and the requests that change them.
 *
 * @example
 * const run = new Execution(api, "web", held, []);
 * await run.carryOut(plan, declared, { purge: true });
 * return encodeOutputs(settings, run.held, summary, run.untracked);
 */
export class Execution {
  /** The records the template holds for this resource, as far as the answers so far prove. */
  held: HeldRecord[];
  /** Adds of unknown outcome (as they read in messages): the record may exist without us knowing its id. */
  untracked: string[];
  /** Set when a recovery rewrote the whole template: what happened, for the summary. */
  rewritten?: string;
  readonly #api: RecordsApi;
  readonly #templateId: string;

  constructor(
    api: RecordsApi,
    templateId: string,
    held: readonly HeldRecord[],
    untracked: readonly string[],
  ) {
    this.#api = api;
    this.#templateId = templateId;
    this.held = [...held];
    this.untracked = [...untracked];
  }

  /**
   * Sends the plan's requests in order. A request refused with 404 that names record ids means some
   * held record vanished outside Pulumi: the planner's probes find which; then, with `purge`, one
   * PUT of the whole declared set, else the vanished records still declared are added again, each
   * alone, and the plan's remaining adds follow. A refused add-only request means the template is gone.
   *
   * @throws TemplateNotFoundError when the template itself is gone; any other error of the API
   *   as it came (the held records then say what was done before it)
   */
  async carryOut(plan: Plan, declared: readonly KeyedRecord[], options: { purge: boolean }): Promise<void> {
    for (const [index, request] of plan.requests.entries()) {
      try {
        await this.#send(request);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (!namesRecordIds(request)) throw templateNotFound(err, this.#templateId);
        const add = request.corrections.find((c) => c.kind === "create");
        // An API that applies part of a refused request may have made it: the PUT below erases it.
        if (add) this.untracked.push(describeRecord(add.record));
        const vanished = await this.#findVanished(request.corrections.filter((c) => c.kind !== "create"));
        if (options.purge) {
          await this.rewrite(declared, "to restore what was removed outside Pulumi");
          return;
        }
        const readds = vanished.flatMap((c) => (c.kind === "update" || c.kind === "verify" ? [c.to] : []));
        const later = plan.requests.slice(index + 1).flatMap((r) => r.corrections);
        for (const c of [...readds.map(createCorrection), ...later]) await this.#sendAlone(c);
        return;
      }
    }
  }

  /**
   * Verifies every held record with one request (what `pulumi refresh` does when verification is
   * on) and drops those that vanished.
   *
   * @returns the vanished records, as they read in messages
   */
  async verify(request: PlannedRequest): Promise<string[]> {
    try {
      await this.#send(request);
      return [];
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return (await this.#findVanished(request.corrections)).map(describeVanished);
    }
  }

  /** Removes the held records with one request; a record already gone is done. */
  async remove(plan: Plan): Promise<void> {
    for (const request of plan.requests) {
      try {
        await this.#send(request);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await this.#findVanished(request.corrections);
      }
    }
  }

  /**
   * Replaces every record of the template with the declared ones (one PUT): every id is new, and
   * any add of unknown outcome is erased. With a `reason` (a recovery, not a plain create), the
   * rewrite is logged as a warning and kept in {@link Execution.rewritten} for the summary.
   *
   * @param reason why the template is rewritten, e.g. "to restore what was removed outside Pulumi"
   */
  async rewrite(declared: readonly KeyedRecord[], reason?: string): Promise<void> {
    let ids: string[];
    try {
      ids = await this.#api.putRecords(this.#templateId, declared.map(toWireRecord));
    } catch (err) {
      if (isNotFound(err)) {
        this.held = [];
        this.untracked = [];
        throw templateNotFound(err, this.#templateId);
      }
      throw err;
    }
    this.held = declared.map((r, i) => ({ ...r, recordId: ids[i]! }));
    this.untracked = [];
    if (reason === undefined) return;
    this.rewritten = `all ${declared.length} records rewritten with one PUT ${reason} (every record id is new)`;
    log.warn(
      `template ${this.#templateId}: rewrote all ${declared.length} declared records with one PUT ${reason} ` +
        "(the resource owns the template, purge: true): every record id is new",
    );
  }

  async #send(request: PlannedRequest): Promise<void> {
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
    this.held = applyAccepted(this.held, request.corrections, ids);
  }

  async #sendAlone(c: Correction): Promise<void> {
    try {
      await this.#send(requestOf([c]));
    } catch (err) {
      if (isNotFound(err)) throw templateNotFound(err, this.#templateId);
      throw err;
    }
  }

  /** Runs the planner's probes; accepted probes are applied, vanished records leave the held ones. */
  async #findVanished(refused: Correction[]): Promise<Correction[]> {
    const search = findVanished(refused);
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
    const { vanished } = step.value;
    this.held = withoutVanished(this.held, vanished);
    if (vanished.length > 0) {
      const all = vanished.length === refused.length && refused.length > 1;
      log.warn(
        `template ${this.#templateId}: records removed outside Pulumi${all ? " (none of them exists any more: the template itself may have been removed)" : ""}: ` +
          vanished.map(describeVanished).join("; "),
      );
    }
    return vanished;
  }
}
