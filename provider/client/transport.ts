/**
 * The one module that knows HTTP: undici dispatchers, headers, timeouts, debug logging, and the
 * wiring of the retry policy (./retry.ts) into undici.
 *
 * Retries of a request whose answer has not begun use undici's RetryHandler (its retry
 * interceptor), whose `retry` callback asks our policy; its stock policy cannot express what we
 * need (jitter, a total time bound, 429s not counted, a floor under every wait, never resending a
 * change that may have been applied). Once a 2xx answer has begun, the RetryHandler would resume a
 * cut body with a `Range` request: a JSON API that ignores Range answers 200 with the whole body,
 * which the handler then refuses, and a PUT or PATCH must never carry a Range header anyway. So
 * our callback declines every failure after the answer began (a small handler wrapper tells it
 * when), and the transport resends such a request whole, if the policy allows it.
 *
 * Timeouts are undici's header and body timeouts, per attempt. undici checks them on a coarse
 * clock (about 0.5 to 1 s resolution), which is irrelevant at the default 30 s.
 *
 * Proxies: the dispatcher is undici's EnvHttpProxyAgent, so `HTTP_PROXY`, `HTTPS_PROXY` and
 * `NO_PROXY` (or their lower-case forms, which win) are honoured as curl and most tools do. An
 * `https:` base URL goes through the proxy in a CONNECT tunnel (the proxy sees only host and port);
 * an `http:` one is forwarded, so the proxy sees the request, headers included, as any plain-HTTP
 * hop does. The key is only ever in the Authorization header, never in a URL.
 *
 * undici is loaded when a transport sends its first request, not with this module: the engine's
 * plugin process loads the providers for every operation, and a preview (check and diff only)
 * sends nothing; loading undici costs about 4 MiB of memory and 109 modules there.
 */

import { STATUS_CODES } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type * as Undici from "undici";
import type { Dispatcher, EnvHttpProxyAgent, RetryHandler } from "undici";
import type { z } from "zod";
import type { ClientConfig } from "../config";
import { hasEngine, toEngine } from "../log";
import { ClientClosedError, type RequestOutcome } from "./errors";
import { bodyStart, httpError, networkError, responseError } from "./failures";
import { redact } from "./redact";
import { decideRetry, type HttpMethod, mayHaveBeenSent, type RetryFailure } from "./retry";
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
const CONNECTIONS_PER_BASE_URL = 8;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The timeouts that `domainapi:timeoutMs` sets. A connect timeout is not one of them: its limit is
 * the fixed CONNECT_TIMEOUT_MS, and it is reported as a connection that was never made.
 */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

let undiciModule: typeof Undici | undefined;

/** undici, loaded at first use (see the module's comment). */
function undici(): typeof Undici {
  undiciModule ??= require("undici") as typeof Undici;
  return undiciModule;
}

interface SharedAgent {
  agent: EnvHttpProxyAgent;
  users: number;
}

/**
 * One keep-alive pool per base URL and proxy setting, shared by every Transport in the process.
 * The proxy variables are part of the key because the agent reads them when it is made (NO_PROXY
 * it reads at each request).
 */
const agents = new Map<string, SharedAgent>();

function poolKey(baseUrl: string): string {
  const env = process.env;
  return JSON.stringify([
    baseUrl,
    env.http_proxy ?? env.HTTP_PROXY ?? "",
    env.https_proxy ?? env.HTTPS_PROXY ?? "",
  ]);
}

function acquireAgent(key: string): EnvHttpProxyAgent {
  let shared = agents.get(key);
  if (shared === undefined) {
    shared = {
      agent: new (undici().EnvHttpProxyAgent)({
        connections: CONNECTIONS_PER_BASE_URL,
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 60_000,
        connect: { timeout: CONNECT_TIMEOUT_MS },
      }),
      users: 0,
    };
    agents.set(key, shared);
  }
  shared.users += 1;
  return shared.agent;
}

async function releaseAgent(key: string): Promise<void> {
  const shared = agents.get(key);
  if (shared === undefined) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  agents.delete(key);
  await shared.agent.close();
}

let cachedVersion: string | undefined;

/**
 * This package's version, for the User-Agent. Read through the package's own name (Node resolves a
 * package's name from inside it, through the `./package.json` entry of its exports), so it is the
 * version of the copy that runs, from `dist/` or from source.
 */
function packageVersion(): string {
  cachedVersion ??= (require("pulumi-domainapi/package.json") as { version: string }).version;
  return cachedVersion;
}

/**
 * The default sinks: `pulumi.log` when an engine listens (through ../log, which loads the SDK only
 * then, so that plain scripts do not pay for it, and never fails a request over a message).
 * Without an engine the SDK drops debug lines and prints info on stdout: set DOMAINAPI_DEBUG=1 to
 * see the debug lines on stderr as `[domainapi] GET /v2/… -> 200 …`; waits go to stderr the same way.
 */
function defaultLog(message: string): void {
  if (process.env.DOMAINAPI_DEBUG) process.stderr.write(`[domainapi] ${message}\n`);
  toEngine("debug", `domainapi: ${message}`);
}

function defaultInfo(message: string): void {
  if (hasEngine()) toEngine("info", `domainapi: ${message}`);
  else process.stderr.write(`[domainapi] ${message}\n`);
}

interface AttemptState {
  /** The number of the attempt under way, from 1. */
  attempt: number;
  /** Resends that counted against maxRetries (not those after a 429). */
  countedRetries: number;
  requestStart: number;
  attemptStart: number;
  /** Whether the current attempt's answer has begun (headers handed on): its body may be cut. */
  answered: boolean;
  /** Why a bound ended the retries, for the error message. */
  stopReason?: string;
}

/**
 * An interceptor that only notes when an answer's headers are handed on past the RetryHandler
 * (which holds back the answers it retries), so that the policy can tell a cut body from a
 * failure before any answer. Everything else is passed through untouched.
 */
function noteAnswer(state: AttemptState): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        if (statusCode >= 200) state.answered = true;
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      onBodySent: (chunk) => handler.onBodySent?.(chunk),
      onRequestSent: () => handler.onRequestSent?.(),
    });
}

/** What undici puts on the errors it hands to the retry policy. */
interface UndiciFailure {
  code?: string;
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
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
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #log: (message: string) => void;
  readonly #info: (message: string) => void;
  readonly #maxRetryWaitMs: number;
  readonly #maxTotalMs: number;
  readonly #backoffBaseMs: number;
  readonly #baseUrl: string;
  /**
   * The pool this transport uses, and its key: taken at the first request (which loads undici),
   * so a transport that never sends makes no pool. The proxy variables are read then.
   */
  #pool: { readonly key: string; readonly agent: EnvHttpProxyAgent } | undefined;
  #closed = false;

  constructor(config: ClientConfig, options: TransportOptions = {}) {
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
    const path = `${this.#basePath}${req.path}${query ? `?${query}` : ""}`;
    const logPath = `${req.path}${query ? `?${query}` : ""}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": `pulumi-domainapi/${packageVersion()}`,
    };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    const now = Date.now();
    const state: AttemptState = {
      attempt: 1,
      countedRetries: 0,
      requestStart: now,
      attemptStart: now,
      answered: false,
    };

    let response: Dispatcher.ResponseData;
    let text: string;
    for (;;) {
      state.answered = false;
      // Per request, because the policy callback needs this request's state; the pooled Agent
      // underneath is shared.
      const dispatcher = this.#agent().compose(
        undici().interceptors.retry({ throwOnError: false, retry: this.#policy(req, logPath, state) }),
        noteAnswer(state),
      );
      let status: number | undefined;
      try {
        response = await dispatcher.request({
          origin: this.#origin,
          path,
          method: req.method,
          headers,
          body: body ?? null,
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        });
        status = response.statusCode;
        text = await response.body.text();
        break;
      } catch (err) {
        const failure = err as UndiciFailure;
        const code = failure.code;
        // The answer began and its body was cut: resend the whole request if the policy allows.
        if (state.answered && (await this.#resendWhole(req, logPath, state, code))) continue;
        this.#logAttempt(req.method, logPath, code ?? "error", state);
        if (status !== undefined && (status < 200 || status >= 300)) {
          // The status line arrived: the API refused the request, whatever became of the body.
          throw httpError({
            method: req.method,
            path: logPath,
            status,
            bodyText: "",
            attempts: state.attempt,
            stopReason: "its body was cut",
            replayable: req.replayable,
            secret: this.#apiKey,
          });
        }
        throw networkError({
          method: req.method,
          path: logPath,
          networkCode: code,
          detail:
            this.#redact(failure.message ?? String(err)) + (state.stopReason ? `; ${state.stopReason}` : ""),
          timeout: code !== undefined && TIMEOUT_CODES.has(code),
          timeoutMs: this.#timeoutMs,
          maybeSent: mayHaveBeenSent(code),
          replayable: req.replayable,
          attempts: state.attempt,
          secret: this.#apiKey,
        });
      }
    }

    const status = response.statusCode;
    this.#logAttempt(req.method, logPath, String(status), state);
    if (status < 200 || status >= 300) {
      throw httpError({
        method: req.method,
        path: logPath,
        status,
        bodyText: text,
        attempts: state.attempt,
        stopReason: state.stopReason,
        replayable: req.replayable,
        secret: this.#apiKey,
      });
    }
    return { status, body: this.#parse(req, logPath, status, text, state.attempt), attempts: state.attempt };
  }

  /** Closes this transport; the shared pool of its base URL closes with its last user. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#pool !== undefined) await releaseAgent(this.#pool.key);
  }

  /** The shared pool of this transport's base URL, joined at the first request. */
  #agent(): EnvHttpProxyAgent {
    if (this.#pool === undefined) {
      const key = poolKey(this.#baseUrl);
      this.#pool = { key, agent: acquireAgent(key) };
    }
    return this.#pool.agent;
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
        ...(req.unreadableOutcome !== undefined ? { outcome: req.unreadableOutcome } : {}),
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

  /** Asks the policy about a failed attempt; notes a bound that ended the retries, for the error. */
  #decide<T>(req: TransportRequest<T>, failure: RetryFailure, state: AttemptState) {
    const decision = decideRetry(
      {
        replayable: req.replayable,
        failure,
        attempt: state.attempt,
        countedRetries: state.countedRetries,
        elapsedMs: Date.now() - state.requestStart,
      },
      {
        maxRetries: this.#maxRetries,
        maxRetryWaitMs: this.#maxRetryWaitMs,
        maxTotalMs: this.#maxTotalMs,
        backoffBaseMs: this.#backoffBaseMs,
      },
    );
    if (!decision.retry && decision.bounded) state.stopReason = decision.reason;
    return decision;
  }

  /** Counts the resend that the policy allowed, and starts the next attempt's clock. */
  #nextAttempt(state: AttemptState, counted: boolean): void {
    state.attempt += 1;
    if (counted) state.countedRetries += 1;
    state.attemptStart = Date.now();
  }

  /**
   * After an answer whose body was cut: waits and returns true when the policy allows a resend of
   * the whole request (a fresh dispatch, so without any Range header).
   */
  async #resendWhole<T>(
    req: TransportRequest<T>,
    logPath: string,
    state: AttemptState,
    code: string | undefined,
  ): Promise<boolean> {
    const decision = this.#decide(req, { type: "network", code }, state);
    if (!decision.retry) return false;
    this.#logAttempt(req.method, logPath, `${code ?? "error"} in the body`, state, decision.delayMs);
    await sleep(decision.delayMs);
    this.#nextAttempt(state, decision.counted);
    return true;
  }

  /**
   * The retry callback handed to undici's RetryHandler: called after each failed attempt whose
   * answer has not begun, it calls `next()` to retry after the policy's delay, or `next(err)` to
   * give up (undici then hands over the last answer or error). A failure after the answer began is
   * always handed back: the RetryHandler would resume it with a Range request.
   */
  #policy<T>(req: TransportRequest<T>, logPath: string, state: AttemptState): RetryHandler.RetryCallback {
    return (err, _context, next) => {
      if (state.answered) {
        next(err);
        return;
      }
      const failure = err as UndiciFailure;
      const status = failure.statusCode;
      const code = failure.code;
      const isStatus = code === "UND_ERR_REQ_RETRY" && typeof status === "number";
      const decision = this.#decide(
        req,
        isStatus
          ? { type: "status", status, retryAfter: failure.headers?.["retry-after"] }
          : { type: "network", code },
        state,
      );
      if (!decision.retry) {
        next(err);
        return;
      }
      this.#logAttempt(
        req.method,
        logPath,
        isStatus ? String(status) : (code ?? "error"),
        state,
        decision.delayMs,
      );
      if (isStatus) this.#tellWait(req.method, logPath, status, state.attempt + 1, decision.delayMs);
      return setTimeout(() => {
        this.#nextAttempt(state, decision.counted);
        next(null);
      }, decision.delayMs);
    };
  }

  #logAttempt(method: string, path: string, outcome: string, state: AttemptState, retryInMs?: number): void {
    const ms = Date.now() - state.attemptStart;
    const retry = retryInMs === undefined ? "" : `; retrying in ${retryInMs} ms`;
    const line = `${method} ${path} -> ${outcome} in ${ms} ms (attempt ${state.attempt})${retry}`;
    try {
      this.#log(this.#redact(line));
    } catch {
      // A failing log sink must not fail the request.
    }
  }

  /**
   * Tells (at info) a wait the API asked for with a 429 or 503 (or a gateway's 502/504): a long run
   * against a rate-limited API then says why it is quiet.
   */
  #tellWait(method: string, path: string, status: number, nextAttempt: number, delayMs: number): void {
    const seconds = delayMs < 10_000 ? (delayMs / 1000).toFixed(1) : String(Math.round(delayMs / 1000));
    const statusText = STATUS_CODES[status] ?? "";
    const line =
      `${method} ${path} was answered ${status}${statusText ? ` ${statusText}` : ""}; ` +
      `waiting ${seconds} s before sending it again (attempt ${nextAttempt})`;
    try {
      this.#info(this.#redact(line));
    } catch {
      // A failing log sink must not fail the request.
    }
  }

  #redact(text: string): string {
    return redact(text, this.#apiKey);
  }
}
