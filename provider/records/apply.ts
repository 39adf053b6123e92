/**
 * The executor: sends ONE planned request and says how it came out. It decides nothing (what to
 * send, in which order, and what follows a refusal is the planner's and the run loop's) and folds
 * nothing (what an answer means for the held records is `fold.ts`'s, applied by `run.ts`). It knows
 * the request and nothing of the declaration it serves.
 */
import type { DomainApiClient } from "../client/api";
import { isNotFound, templateNotFound } from "../client/failures";
import { DomainApiError } from "../errors";
import { namesRecordIds, type PlannedRequest } from "./corrections";
import type { Outcome } from "./fold";

export type { Outcome } from "./fold";

/** The two requests of the API that change records. */
export type RecordsApi = Pick<DomainApiClient, "patchRecords" | "putRecords">;

/**
 * Sends `request` to template `templateId` and classifies its answer. Never throws for a failed
 * request: every failure is an {@link Outcome}. Which 404 is about the template and which about a
 * record is read from the request (whether it names record ids), not decided.
 *
 * @example
 * const outcome = await send(api, "web", plan.requests[0]!);
 * if (outcome.kind === "accepted") held = applyAccepted(held, request.corrections, outcome.ids);
 */
export async function send(api: RecordsApi, templateId: string, request: PlannedRequest): Promise<Outcome> {
  try {
    const ids =
      request.method === "PUT"
        ? await api.putRecords(templateId, request.body)
        : await api.patchRecords(templateId, request.body);
    return { kind: "accepted", ids };
  } catch (error) {
    if (isNotFound(error)) {
      return namesRecordIds(request)
        ? { kind: "refused", error }
        : { kind: "template-gone", error: templateNotFound(error, templateId) };
    }
    if (error instanceof DomainApiError && error.outcome !== "not-applied") return { kind: "unknown", error };
    return { kind: "failed", error };
  }
}
