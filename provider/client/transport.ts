/**
 * The one module that knows HTTP: undici dispatchers, headers, timeouts, retries, debug logging.
 *
 * Retries use undici's RetryHandler (through a RetryAgent) rather than a loop of our own. We give
 * it our own `retry` policy callback, because the stock policy cannot express four things we need:
 * jitter on the exponential backoff (so that parallel Pulumi steps that hit a 503 together do not
 * come back together), a bound on the total time spent retrying, refusing rather than shortening a
 * Retry-After wait that is longer than we are willing to wait, and a debug line per failed attempt.
 * Because that callback needs per-request state (attempt number, start time), each request gets
 * its own light RetryAgent over the shared, pooled Agent of its base URL. undici's own retry
 * options (maxRetries, methods, statusCodes) are read only by its stock policy, so none are given.
 *
 * Timeouts are undici's header and body timeouts, per attempt. undici checks them on a coarse
 * clock (about 0.5 to 1 s resolution), which is irrelevant at the default 30 s.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Agent, type Dispatcher, RetryAgent, type RetryHandler } from "undici";
import type { z } from "zod";
import type { ClientConfig } from "../config";
import { httpError, isRefusalStatus, isTransientStatus, networkError, redact, responseError } from "./errors";
import { describeIssues } from "./wire";

/** The methods the Domain Management API uses. */
export type HttpMethod = "GET" | "PUT" | "PATCH" | "POST";

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
   * applying it twice has the same effect as applying it once (GET, PUT, PATCH without adds).
   */
  replayable: boolean;
  /** Schema of a 2xx body; a body that does not fit is a DomainApiError of kind `response`. */
  schema?: z.ZodType<T>;
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
  /** Where debug lines go. Default: `pulumi.log.debug` (shown by `pulumi up --debug`). */
  log?: (message: string) => void;
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
const MAX_BACKOFF_MS = 10_000;
const CONNECTIONS_PER_BASE_URL = 8;
const CONNECT_TIMEOUT_MS = 10_000;

/** Network failures that happen before the request is written: it cannot have reached the API. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** Of those, the ones that may pass (a wrong host name will not). */
const NOT_SENT_TRANSIENT_CODES = new Set(["ECONNREFUSED", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);
/**
 * Failures after the request may have been written: retried only for replayable requests. A body
 * timeout is left out on purpose: it comes after the headers, and undici would resume such a
 * response with a Range request, which a JSON API answers with the whole body again (an error).
 */
const MAYBE_SENT_TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
]);
/**
 * The timeouts that `domainapi:timeoutMs` sets. A connect timeout is not one of them: its limit is
 * the fixed CONNECT_TIMEOUT_MS, and it is reported as a connection that was never made.
 */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

interface SharedAgent {
  agent: Agent;
  users: number;
}

/** One keep-alive pool per base URL, shared by every Transport in the process. */
const agents = new Map<string, SharedAgent>();

function acquireAgent(baseUrl: string): Agent {
  let shared = agents.get(baseUrl);
  if (shared === undefined) {
    shared = {
      agent: new Agent({
        connections: CONNECTIONS_PER_BASE_URL,
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 60_000,
        connect: { timeout: CONNECT_TIMEOUT_MS },
      }),
      users: 0,
    };
    agents.set(baseUrl, shared);
  }
  shared.users += 1;
  return shared.agent;
}

async function releaseAgent(baseUrl: string): Promise<void> {
  const shared = agents.get(baseUrl);
  if (shared === undefined) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  agents.delete(baseUrl);
  await shared.agent.close();
}

let cachedVersion: string | undefined;

/** This package's version, for the User-Agent; found by walking up to our package.json. */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  cachedVersion = "0.0.0";
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === "pulumi-domainapi" && typeof pkg.version === "string") {
        cachedVersion = pkg.version;
        break;
      }
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return cachedVersion;
}

/**
 * The default debug sink: `pulumi.log.debug`, loaded lazily so that plain scripts do not pay for
 * the Pulumi SDK, and guarded so that logging never fails a request. Without an engine the SDK
 * drops debug lines; set DOMAINAPI_DEBUG=1 to see them on stderr.
 */
function defaultLog(message: string): void {
  if (process.env.DOMAINAPI_DEBUG) process.stderr.write(`[domainapi] ${message}\n`);
  try {
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    void pulumi.log.debug(message).catch(() => undefined);
  } catch {
    // Logging is best effort.
  }
}

/**
 * Parses a Retry-After header: delay-seconds or an HTTP date. Returns the wait in milliseconds,
 * or undefined when the header is absent or unreadable.
 *
 * @example
 * retryAfterMs("2"); // 2000
 * retryAfterMs(new Date(Date.now() + 3000).toUTCString()); // about 3000
 */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

interface AttemptState {
  attempt: number;
  requestStart: number;
  attemptStart: number;
  /** Why the last retry was refused, for the error message. */
  stopReason?: string;
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
  readonly #baseUrl: string;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #log: (message: string) => void;
  readonly #maxRetryWaitMs: number;
  readonly #maxTotalMs: number;
  readonly #backoffBaseMs: number;
  readonly #agent: Agent;
  #closed = false;

  constructor(config: ClientConfig, options: TransportOptions = {}) {
    const url = new URL(config.baseUrl);
    this.#baseUrl = config.baseUrl;
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.#apiKey = config.apiKey;
    this.#timeoutMs = config.timeoutMs;
    this.#maxRetries = config.maxRetries;
    this.#log = options.log ?? defaultLog;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.#maxTotalMs = options.maxTotalMs ?? DEFAULT_MAX_TOTAL_MS;
    this.#backoffBaseMs = options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
    this.#agent = acquireAgent(config.baseUrl);
  }

  /**
   * Sends one request, with retries where they are safe, and returns the 2xx answer.
   *
   * @throws DomainApiError for any non-2xx answer, a network failure, a timeout, or a 2xx body that
   *   does not fit `schema`
   */
  async request<T>(req: TransportRequest<T>): Promise<TransportResponse<T>> {
    if (this.#closed) throw new Error("Transport is closed");
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
    const state: AttemptState = { attempt: 1, requestStart: now, attemptStart: now };
    const dispatcher = new RetryAgent(this.#agent, {
      throwOnError: false,
      retry: this.#policy(req, logPath, state),
    });

    let response: Dispatcher.ResponseData;
    let text: string;
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
      text = await response.body.text();
    } catch (err) {
      const failure = err as UndiciFailure;
      const code = failure.code;
      this.#logAttempt(req.method, logPath, code ?? "error", state);
      throw networkError({
        method: req.method,
        path: logPath,
        networkCode: code,
        detail:
          this.#redact(failure.message ?? String(err)) + (state.stopReason ? `; ${state.stopReason}` : ""),
        timeout: code !== undefined && TIMEOUT_CODES.has(code),
        timeoutMs: this.#timeoutMs,
        maybeSent: code === undefined || !NOT_SENT_CODES.has(code),
        replayable: req.replayable,
        attempts: state.attempt,
        secret: this.#apiKey,
      });
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
    await releaseAgent(this.#baseUrl);
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
      responseError({ method: req.method, path, status, problem, attempts, secret: this.#apiKey });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail(`the body is not JSON (it starts with ${JSON.stringify(text.slice(0, 60))})`);
    }
    const result = req.schema.safeParse(json);
    if (!result.success) throw fail(describeIssues(result.error));
    return result.data;
  }

  /**
   * The retry policy handed to undici's RetryHandler: called after each failed attempt, it calls
   * `next()` to retry after a delay, or `next(err)` to give up (undici then hands over the last
   * answer or error).
   */
  #policy<T>(req: TransportRequest<T>, logPath: string, state: AttemptState): RetryHandler.RetryCallback {
    return (err, _context, next) => {
      const failure = err as UndiciFailure;
      const status = failure.statusCode;
      const code = failure.code;
      const isStatus = code === "UND_ERR_REQ_RETRY" && typeof status === "number";
      let allowed: boolean;
      if (isStatus) {
        // A refusal cannot have applied anything; a gateway's 502/504 may come after it did.
        allowed = isTransientStatus(status) && (req.replayable || isRefusalStatus(status));
      } else if (code !== undefined && NOT_SENT_TRANSIENT_CODES.has(code)) {
        allowed = true;
      } else {
        allowed = req.replayable && code !== undefined && MAYBE_SENT_TRANSIENT_CODES.has(code);
      }
      if (!allowed) {
        next(err);
        return;
      }
      // A 429 is the API pacing us, not failing: waiting it out is bounded by the total time, not
      // by maxRetries, or a burst of parallel Pulumi steps would give up while the API still admits
      // twenty requests a second.
      const rateLimited = isStatus && status === 429;
      if (!rateLimited && state.attempt > this.#maxRetries) {
        next(err);
        return;
      }
      const asked = isStatus ? retryAfterMs(failure.headers?.["retry-after"]) : undefined;
      if (asked !== undefined && asked > this.#maxRetryWaitMs) {
        state.stopReason = `the API asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ${Math.round(this.#maxRetryWaitMs / 1000)} s this client waits`;
        next(err);
        return;
      }
      // Jitter on top of Retry-After too: requests refused together must not all come back together.
      const delay = asked !== undefined ? asked + this.#jitter(asked) : this.#backoff(state.attempt);
      const elapsed = Date.now() - state.requestStart;
      if (elapsed + delay > this.#maxTotalMs) {
        state.stopReason = `retrying would exceed the ${Math.round(this.#maxTotalMs / 1000)} s bound on one request`;
        next(err);
        return;
      }
      this.#logAttempt(req.method, logPath, isStatus ? String(status) : (code ?? "error"), state, delay);
      return setTimeout(() => {
        state.attempt += 1;
        state.attemptStart = Date.now();
        next(null);
      }, delay);
    };
  }

  /** Up to half the asked wait (at most 1 s) more, at random: never less than the API asked for. */
  #jitter(askedMs: number): number {
    return Math.round(Math.random() * Math.min(1_000, askedMs / 2 + 50));
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, so the waits spread out. */
  #backoff(attempt: number): number {
    const ceiling = Math.min(MAX_BACKOFF_MS, this.#backoffBaseMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  #logAttempt(method: string, path: string, outcome: string, state: AttemptState, retryInMs?: number): void {
    const ms = Date.now() - state.attemptStart;
    const retry = retryInMs === undefined ? "" : `; retrying in ${retryInMs} ms`;
    const line = `domainapi: ${method} ${path} -> ${outcome} in ${ms} ms (attempt ${state.attempt})${retry}`;
    try {
      this.#log(this.#redact(line));
    } catch {
      // A failing log sink must not fail the request.
    }
  }

  #redact(text: string): string {
    return redact(text, this.#apiKey);
  }
}
