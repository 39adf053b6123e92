/**
 * The Domain Management API's operations as typed methods: one method per endpoint of the spec.
 *
 * Knows the paths, which requests are safe to repeat, and what each answer must hold; leaves HTTP
 * to the transport. Request bodies are checked against their wire schemas before anything is sent,
 * and only what the schema allows goes out.
 */
import { createHash } from "node:crypto";
import { type DomainApiError, RequestBodyError } from "../errors";
import type { ClientConfig } from "../settings/config";
import { type ResponseFailure, responseError } from "./failures";
import { LruCache } from "./pool";
import { isReplayable } from "./retry";
import { Transport, type TransportOptions, type TransportResponse } from "./transport";
import {
  type ContactListPage,
  ContactListResponseSchema,
  describeIssues,
  type PatchRecordsBody,
  PatchRecordsBodySchema,
  PutRecordsBodySchema,
  type RecordIdsResponse,
  RecordIdsResponseSchema,
  URL_FORWARD_TYPES,
  type WireRecord,
} from "./wire";

/** Options of a {@link DomainApiClient}: those of its transport. */
export type DomainApiClientOptions = TransportOptions;

function recordsPath(templateId: string): string {
  return `/v2/dns/templates/${encodeURIComponent(templateId)}/records`;
}

/**
 * A client of the Domain Management API.
 *
 * @example
 * const client = new DomainApiClient(resolveConfig());
 * const ids = await client.putRecords("web", [{ name: "@", type: "A", content: "192.0.2.1" }]);
 * await client.close();
 */
export class DomainApiClient {
  readonly #transport: Transport;
  readonly #apiKey: string;

  constructor(config: ClientConfig, options?: DomainApiClientOptions) {
    this.#transport = new Transport(config, options);
    this.#apiKey = config.apiKey;
  }

  /**
   * Replaces every record of a template (`PUT /v2/dns/templates/{id}/records`) and returns the new
   * ids, one per submitted record, in the order submitted. Safe to repeat, so it is retried after
   * network failures.
   *
   * @throws RequestBodyError when a record does not fit the wire schema (nothing is sent)
   * @throws DomainApiError of kind `response` when the answer does not hold one id per record
   */
  async putRecords(templateId: string, records: WireRecord[]): Promise<string[]> {
    const parsed = PutRecordsBodySchema.safeParse({ records });
    if (!parsed.success) {
      throw new RequestBodyError(
        `Invalid records for template ${JSON.stringify(templateId)}: ${describeIssues(parsed.error)}`,
      );
    }
    const path = recordsPath(templateId);
    const answer = await this.#transport.request({
      method: "PUT",
      path,
      body: parsed.data,
      replayable: isReplayable("PUT"),
      schema: RecordIdsResponseSchema,
    });
    return this.#ids("PUT", path, answer, records.length);
  }

  /**
   * Adds, updates and deletes records of a template (`PATCH /v2/dns/templates/{id}/records`) and
   * returns the ids of the added records (none when nothing is added). A request with adds is
   * never resent once it may have reached the API: a second copy would add the records twice.
   *
   * @throws RequestBodyError when the body does not fit the wire schema or is empty (nothing is sent)
   * @throws DomainApiError of kind `response` when the answer's ids cannot be matched to the adds
   *   (more or fewer ids than adds; a URL forward added alone may name up to three, its own and those
   *   of the A and AAAA records made for it): its `outcome` is then `unknown`, since which record got
   *   which id, and what else was created, cannot be told
   */
  async patchRecords(templateId: string, body: PatchRecordsBody): Promise<string[]> {
    const parsed = PatchRecordsBodySchema.safeParse(body);
    if (!parsed.success) {
      throw new RequestBodyError(
        `Invalid record changes for template ${JSON.stringify(templateId)}: ${describeIssues(parsed.error)}`,
      );
    }
    const changes = parsed.data;
    if (!changes.add && !changes.update && !changes.del) {
      throw new RequestBodyError(
        `Empty record changes for template ${JSON.stringify(templateId)}: at least one of add, update, del must hold an item`,
      );
    }
    const path = recordsPath(templateId);
    const adds = changes.add?.length ?? 0;
    const answer = await this.#transport.request({
      method: "PATCH",
      path,
      body: changes,
      replayable: isReplayable("PATCH", adds),
      schema: RecordIdsResponseSchema,
      ...(adds > 0 ? { unreadableOutcome: "unknown" as const } : {}),
    });
    if (answer.body === undefined && adds === 0) return [];
    // A URL forward added alone may be answered with the ids of the A and AAAA records the service
    // made for it too (the spec: "an A record and an AAAA record are created for that host name").
    // Stryker disable next-line StringLiteral: with one add its type is always there (the wire schema requires it), so the fallback is never read
    const forwardAlone = adds === 1 && URL_FORWARD_TYPES.has(changes.add?.[0]?.type ?? "");
    return this.#ids("PATCH", path, answer, adds, forwardAlone ? 3 : adds);
  }

  /**
   * Fetches one page of contacts (`GET /v2/contacts`). The query is sent as given; build it with the
   * contacts query module.
   *
   * @throws DomainApiError of kind `response` when the page does not fit the spec, naming the field
   */
  async listContacts(query: URLSearchParams): Promise<ContactListPage> {
    const answer = await this.#transport.request({
      method: "GET",
      path: "/v2/contacts",
      query,
      replayable: true,
      schema: ContactListResponseSchema,
    });
    if (answer.body === undefined) {
      throw this.#responseError(
        "GET",
        "/v2/contacts",
        answer,
        "the body is empty, expected data and pagination",
      );
    }
    return answer.body;
  }

  /**
   * Takes a domain out of quarantine (`POST /v2/domains/{domain}/restore`). Never resent once it may
   * have reached the API; if no answer comes, the error's `outcome` is `unknown`.
   */
  async restoreDomain(domain: string): Promise<void> {
    await this.#transport.request({
      method: "POST",
      path: `/v2/domains/${encodeURIComponent(domain)}/restore`,
      replayable: isReplayable("POST"),
    });
  }

  /** Releases the connections (the shared pool closes with its last user). */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /**
   * Lets go of the connections but stays usable: what {@link getClient}'s cache does to a client it
   * drops, which a caller may still hold. Its agent is given back (and closed with its last user)
   * now or when the request under way ends, and is then held only during a request.
   */
  async release(): Promise<void> {
    await this.#transport.release();
  }

  #ids(
    method: string,
    path: string,
    answer: TransportResponse<RecordIdsResponse>,
    expected: number,
    atMost: number = expected,
  ): string[] {
    const ids = answer.body?.record_id;
    if (ids === undefined) {
      throw this.#responseError(
        method,
        path,
        answer,
        `record_id: expected ${expected} record id(s), got ${answer.status === 204 ? "no body (204)" : "none"}`,
      );
    }
    const tooMany = ids.length > atMost;
    if ((ids.length < expected || tooMany) && method === "PATCH") {
      // The PUT's answer replaces every record, so a wrong count there fails loudly (the records
      // are applied, and the next PUT rewrites them). A PATCH's adds join records we keep: an id we
      // cannot attribute would leave a record we do not track, or one we think we hold but do not.
      throw this.#responseError(
        method,
        path,
        answer,
        `record_id: expected ${expected} record id(s), one per added record, got ${ids.length}, which cannot be ` +
          "matched one-to-one to the added records",
        {
          outcome: "unknown",
          advice: tooMany
            ? "The service may have created more records than were added (a URL forward brings an A and an AAAA " +
              "record), so which id belongs to which record is unknown; the added records are of unknown outcome."
            : "Which of the added records exist now is unknown; the added records are of unknown outcome.",
        },
      );
    }
    if (ids.length !== expected && method === "PUT") {
      throw this.#responseError(
        method,
        path,
        answer,
        `record_id: expected ${expected} record id(s), one per submitted record, got ${ids.length}`,
      );
    }
    return ids;
  }

  #responseError(
    method: string,
    path: string,
    answer: TransportResponse<unknown>,
    problem: string,
    more: Pick<ResponseFailure, "outcome" | "advice"> = {},
  ): DomainApiError {
    const { status, attempts } = answer;
    return responseError({ method, path, status, problem, attempts, secret: this.#apiKey, ...more });
  }
}

/**
 * How many clients {@link getClient} keeps: more than the accounts and environments one program
 * or engine process uses at once, and small enough that a host serving thousands of accounts one
 * after another keeps only a few sockets and kilobytes per client it still uses.
 */
export const MAX_CACHED_CLIENTS = 32;

const clients = new LruCache<string, DomainApiClient>(MAX_CACHED_CLIENTS, (dropped) => {
  // A client that fails to close its connections must not fail the request that made room.
  dropped.release().catch(() => undefined);
});

/**
 * One client per (base URL, key, timeout, retries) in this process, so that every resource of a
 * deployment shares a connection pool; only the {@link MAX_CACHED_CLIENTS} most recently used are
 * kept, and a dropped one's connections are closed (docs/design.md, "Clients"), so a long-lived
 * process does not grow with the number of accounts it has ever served. The key is hashed before
 * it becomes part of a map key only so that the map's keys can be listed or logged without showing
 * it; the cached client itself (its transport) holds the plain key, which it must send, so a heap
 * dump does contain the key.
 *
 * @example
 * const client = getClient(resolveConfig((k) => req.config.get(`domainapi:${k}`)));
 */
export function getClient(config: ClientConfig): DomainApiClient {
  const keyHash = createHash("sha256").update(config.apiKey).digest("hex");
  // The advice is part of the key: two providers with one key name it in different places. As JSON,
  // no advice (null) stays apart from every advice text.
  const cacheKey = JSON.stringify([
    config.baseUrl,
    keyHash,
    config.timeoutMs,
    config.maxRetries,
    config.keyAdvice,
  ]);
  return clients.get(cacheKey, () => new DomainApiClient(config));
}
