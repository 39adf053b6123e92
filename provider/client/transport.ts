/**
 * The one module that knows HTTP: it sends a request through the shared agent of its base URL
 * (./pool.ts), with the auth header and per-attempt timeouts, and runs the one retry loop around
 * the pure policy of ./retry.ts: send, read the whole answer, ask the policy, wait, send again.
 *
 * Why not undici's RetryAgent or retry interceptor: its `retry` callback could ask our policy,
 * but once a 2xx answer has begun it resumes a cut body with a `Range` request, which a JSON API
 * that ignores Range answers with the whole body (the handler then refuses it), and a PUT or
 * PATCH must never carry a Range header. Keeping that out needed a second interceptor and an
 * attempt state shared by both plus an outer resend loop. Here every attempt is a fresh, whole
 * request, and the attempt count, the clocks and the reason retries stopped live in one loop.
 *
 * Timeouts are undici's header and body timeouts, per attempt. undici checks them on a coarse
 * clock (about 0.5 to 1 s resolution), which is irrelevant at the default 30 s. The key is only
 * ever in the Authorization header, never in a URL.
 */

import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { ClientClosedError, ConfigError, type RequestOutcome } from "../errors";
import { redactor } from "../errors/redact";
import { API_KEY_HINT, type ClientConfig } from "../settings/config";
import { apiKeyHeaderProblem } from "../settings/headerSafe";
import { bodyStart, httpError, networkError, responseError } from "./failures";
import { type AgentLease, acquireAgent, releaseAgent } from "./pool";
import {
  decideRetry,
  type HttpMethod,
  mayHaveBeenSent,
  type RetryDecision,
  type RetryFailure,
} from "./retry";
import { attemptLine, defaultInfo, defaultLog, userAgent, waitLine } from "./sinks";
import { describeIssues } from "./wire";

export type { HttpMethod } from "./retry";

/** One request to the API, described without HTTP details. */
export interface TransportRequest<T> {
  method: HttpMethod;
  /** Path starting with `/v2`, segments already percent-encoded. */
  path: string;
  query?: URLSearchParams;
  /** Sent as JSON; omit for requests without a body. */
  body?: unknown;
  /**
   * Whether the request may be sent again after a network failure or a timeout, i.e. whether
   * applying it twice has the same effect as applying it once (see `isReplayable` in ./retry).
   */
  replayable: boolean;
  /** Schema of a 2xx body; a body that does not fit is a DomainApiError of kind `response`. */
  schema?: z.ZodType<T>;
  /**
   * The outcome of a 2xx whose body does not fit `schema`. Default: `applied` (`not-applied` for a
   * GET). `unknown` when the body is the only account of what was done (the ids of a PATCH's adds).
   */
  unreadableOutcome?: RequestOutcome;
}

/** A successful (2xx) answer: its status and its parsed body (undefined when empty, e.g. 204). */
export interface TransportResponse<T> {
  status: number;
  body: T | undefined;
  /** How many times the request was sent, so that a later error about this answer can say so. */
  attempts: number;
}

/** Options of a {@link Transport}; all have sensible defaults. */
export interface TransportOptions {
  /** Where debug lines go (one per attempt). Default: `pulumi.log.debug` (shown by `pulumi up --debug`). */
  log?: (message: string) => void;
  /**
   * Where a wait for a 429 or 503 is told, with its length and its request. Default:
   * `pulumi.log.info` (shown by `pulumi up`), so that a long run says why it waits.
   */
  info?: (message: string) => void;
  /** The longest single wait before a retry; a longer Retry-After ends the retries. Default 60 s. */
  maxRetryWaitMs?: number;
  /** The longest time one request may spend, retries and waits included. Default 5 min. */
  maxTotalMs?: number;
  /** The first backoff step when the API gives no Retry-After; it doubles per retry. Default 300 ms. */
  backoffBaseMs?: number;
}

const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
const DEFAULT_MAX_TOTAL_MS = 300_000;
const DEFAULT_BACKOFF_BASE_MS = 300;

/**
 * The timeouts that `domainapi:timeoutMs` sets. A connect timeout is not one of them: its limit is
 * fixed in ./pool.ts, and it is reported as a connection that was never made.
 */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** What one attempt came to. */
type Attempt =
  /** A whole answer: its status, its Retry-After and its body's text. */
  | { kind: "answer"; status: number; retryAfter: RetryAfter; text: string }
  /** An answer whose body was cut or stalled: its status and the error code. */
  | { kind: "cut"; status: number; retryAfter: RetryAfter; code: string | undefined; message: string }
  /** No answer at all (the connection failed or timed out before the status line). */
  | { kind: "failed"; code: string | undefined; message: string };

type RetryAfter = string | string[] | undefined;

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * What the policy judges: a refusal by its status, even when its body was cut (the status line
 * says it all); a 2xx whose body was cut, or no answer, by the network failure.
 */
function failureOf(attempt: Attempt): RetryFailure {
  if (attempt.kind === "failed" || isSuccess(attempt.status)) {
    return { type: "network", code: attempt.kind === "answer" ? undefined : attempt.code };
  }
  return { type: "status", status: attempt.status, retryAfter: attempt.retryAfter };
}

/** The attempt's outcome as the debug line shows it: a status, an error code, or a cut body's code. */
function outcomeOf(attempt: Attempt): string {
  if (attempt.kind === "failed") return attempt.code ?? "error";
  if (attempt.kind === "cut" && isSuccess(attempt.status)) return `${attempt.code ?? "error"} in the body`;
  return String(attempt.status);
}

/** The facts the loop keeps about one request across its attempts. */
interface Progress {
  /** The number of the attempt under way, from 1. */
  attempt: number;
  /** Resends that counted against maxRetries (not those after a 429). */
  countedRetries: number;
  readonly requestStart: number;
  attemptStart: number;
}

/** What undici puts on the errors it throws. */
interface UndiciFailure {
  code?: string;
  message?: string;
}

/**
 * Sends requests to the Domain Management API and turns every failure into a DomainApiError.
 *
 * @example
 * const transport = new Transport(resolveConfig());
 * const { body } = await transport.request({ method: "GET", path: "/v2/contacts", replayable: true, schema: ContactListResponseSchema });
 * await transport.close();
 */
export class Transport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #apiKey: string;
  /** The key's redaction, built at the first line that needs it and gone with this transport. */
  #hideKey: ((text: string) => string) | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #log: (message: string) => void;
  readonly #info: (message: string) => void;
  readonly #maxRetryWaitMs: number;
  readonly #maxTotalMs: number;
  readonly #backoffBaseMs: number;
  readonly #baseUrl: string;
  /** Where the key came from, for the advice of a refused key. */
  readonly #keyAdvice: string | undefined;
  /**
   * The shared agent this transport holds: taken at the first request (which loads undici), so a
   * transport that never sends makes none. The proxy variables are read then.
   */
  #lease: AgentLease | undefined;
  /** Requests under way; a released transport gives its agent back when the last one ends. */
  #inFlight = 0;
  /** Set by {@link Transport.release}: hold no agent between requests. */
  #released = false;
  #closed = false;

  /**
   * @throws ConfigError when the key cannot travel in a header (see settings/headerSafe.ts): the settings
   *   check refuses it first, and a client made by hand is refused here, before any request, rather
   *   than failing as a lost connection that looks safe to repeat
   */
  constructor(config: ClientConfig, options: TransportOptions = {}) {
    const unsendable = apiKeyHeaderProblem(config.apiKey);
    if (unsendable !== undefined)
      throw new ConfigError([`${unsendable}: ${config.keyAdvice ?? API_KEY_HINT}.`], config.apiKey);
    const url = new URL(config.baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.#apiKey = config.apiKey;
    this.#timeoutMs = config.timeoutMs;
    this.#maxRetries = config.maxRetries;
    this.#log = options.log ?? defaultLog;
    this.#info = options.info ?? defaultInfo;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.#maxTotalMs = options.maxTotalMs ?? DEFAULT_MAX_TOTAL_MS;
    this.#backoffBaseMs = options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
    this.#baseUrl = config.baseUrl;
    this.#keyAdvice = config.keyAdvice;
  }

  /**
   * Sends one request, with retries where they are safe, and returns the 2xx answer.
   *
   * @throws DomainApiError for any non-2xx answer, a network failure, a timeout, or a 2xx body that
   *   does not fit `schema`
   */
  async request<T>(req: TransportRequest<T>): Promise<TransportResponse<T>> {
    if (this.#closed) throw new ClientClosedError(req.method, req.path);
    const query = req.query?.toString() ?? "";
    const logPath = `${req.path}${query ? `?${query}` : ""}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": userAgent(),
    };
    let body: string | null = null;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    const options = { method: req.method, path: `${this.#basePath}${logPath}`, headers, body };
    const now = Date.now();
    const progress: Progress = { attempt: 1, countedRetries: 0, requestStart: now, attemptStart: now };

    this.#inFlight += 1;
    try {
      for (; ; progress.attempt += 1, progress.attemptStart = Date.now()) {
        const attempt = await this.#send(options);
        if (attempt.kind === "answer" && isSuccess(attempt.status)) {
          this.#logAttempt(req.method, logPath, String(attempt.status), progress);
          const parsed = this.#parse(req, logPath, attempt.status, attempt.text, progress.attempt);
          return { status: attempt.status, body: parsed, attempts: progress.attempt };
        }
        const failure = failureOf(attempt);
        const decision = this.#decide(req, failure, progress);
        this.#logAttempt(
          req.method,
          logPath,
          outcomeOf(attempt),
          progress,
          decision.retry ? decision.delayMs : undefined,
        );
        if (decision.retry) {
          if (failure.type === "status") {
            this.#say(
              this.#info,
              waitLine(req.method, logPath, failure.status, progress.attempt + 1, decision.delayMs),
            );
          }
          await sleep(decision.delayMs);
          if (decision.counted) progress.countedRetries += 1;
          continue;
        }
        throw this.#failure(req, logPath, attempt, decision, progress);
      }
    } finally {
      this.#inFlight -= 1;
      if (this.#released && this.#inFlight === 0) await this.#giveBack();
    }
  }

  /**
   * Lets go of the connections without closing the transport: its agent is given back (and closed
   * when no other transport uses it), and from now on it is held only while a request is under way.
   * What the client pool calls on a client it drops, which someone may still be using.
   */
  async release(): Promise<void> {
    this.#released = true;
    if (this.#inFlight === 0) await this.#giveBack();
  }

  /**
   * Closes this transport; the shared agent of its base URL closes with its last user. Closing again
   * does nothing: the agent was given back, or will be when the last request ends.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#inFlight === 0) await this.#giveBack();
    else this.#released = true;
  }

  async #giveBack(): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    if (lease !== undefined) await releaseAgent(lease);
  }

  /** One attempt: sends the request and reads the whole answer, or says how it failed. */
  async #send(options: {
    method: HttpMethod;
    path: string;
    headers: Record<string, string>;
    body: string | null;
  }): Promise<Attempt> {
    this.#lease ??= acquireAgent(this.#baseUrl);
    let status: number | undefined;
    let retryAfter: RetryAfter;
    try {
      const response = await this.#lease.agent.request({
        origin: this.#origin,
        ...options,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      status = response.statusCode;
      retryAfter = response.headers["retry-after"];
      const text = await response.body.text();
      return { kind: "answer", status, text, retryAfter };
    } catch (err) {
      const failure = err as UndiciFailure;
      const message = this.#redact(failure.message ?? String(err));
      return status === undefined
        ? { kind: "failed", code: failure.code, message }
        : { kind: "cut", status, retryAfter, code: failure.code, message };
    }
  }

  /** The error for the attempt that ended the loop. */
  #failure<T>(
    req: TransportRequest<T>,
    logPath: string,
    attempt: Attempt,
    decision: Extract<RetryDecision, { retry: false }>,
    progress: Progress,
  ): Error {
    const stopReason = decision.bounded ? decision.reason : undefined;
    if (attempt.kind === "answer" || (attempt.kind === "cut" && !isSuccess(attempt.status))) {
      return httpError({
        method: req.method,
        path: logPath,
        status: attempt.status,
        bodyText: attempt.kind === "answer" ? attempt.text : "",
        attempts: progress.attempt,
        stopReason: attempt.kind === "cut" ? (stopReason ?? "its body was cut") : stopReason,
        replayable: req.replayable,
        secret: this.#apiKey,
        keyAdvice: this.#keyAdvice,
      });
    }
    return networkError({
      method: req.method,
      path: logPath,
      networkCode: attempt.code,
      detail: attempt.message + (stopReason ? `; ${stopReason}` : ""),
      timeout: attempt.code !== undefined && TIMEOUT_CODES.has(attempt.code),
      timeoutMs: this.#timeoutMs,
      maybeSent: mayHaveBeenSent(attempt.code),
      replayable: req.replayable,
      attempts: progress.attempt,
      secret: this.#apiKey,
    });
  }

  #parse<T>(
    req: TransportRequest<T>,
    path: string,
    status: number,
    text: string,
    attempts: number,
  ): T | undefined {
    if (req.schema === undefined || text.trim() === "") return undefined;
    const fail = (problem: string) =>
      responseError({
        method: req.method,
        path,
        status,
        problem,
        attempts,
        secret: this.#apiKey,
        outcome: req.unreadableOutcome,
      });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail(`the body is not JSON (it starts with ${bodyStart(text, this.#apiKey)})`);
    }
    const result = req.schema.safeParse(json);
    if (!result.success) throw fail(describeIssues(result.error));
    return result.data;
  }

  /** Asks the policy about a failed attempt. */
  #decide<T>(req: TransportRequest<T>, failure: RetryFailure, progress: Progress): RetryDecision {
    return decideRetry(
      {
        replayable: req.replayable,
        failure,
        attempt: progress.attempt,
        countedRetries: progress.countedRetries,
        elapsedMs: Date.now() - progress.requestStart,
      },
      {
        maxRetries: this.#maxRetries,
        maxRetryWaitMs: this.#maxRetryWaitMs,
        maxTotalMs: this.#maxTotalMs,
        backoffBaseMs: this.#backoffBaseMs,
      },
    );
  }

  #logAttempt(method: string, path: string, outcome: string, progress: Progress, retryInMs?: number): void {
    const ms = Date.now() - progress.attemptStart;
    this.#say(this.#log, attemptLine(method, path, outcome, ms, progress.attempt, retryInMs));
  }

  /** Hands a line, redacted, to a sink; a failing sink must not fail the request. */
  #say(sink: (message: string) => void, line: string): void {
    try {
      sink(this.#redact(line));
    } catch {
      // Nothing to do: the line is lost, the request goes on.
    }
  }

  #redact(text: string): string {
    this.#hideKey ??= redactor(this.#apiKey);
    return this.#hideKey(text);
  }
}
