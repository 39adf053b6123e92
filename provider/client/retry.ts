/**
 * Every decision about a failed request, as pure functions over one table of statuses
 * ({@link STATUS_RULES}): whether to send it again and after what wait, whether the change it
 * asked for took effect, and what to advise. It knows no sockets and no clock of its own (the
 * time and the random source come in), so every rule is tested without a server:
 *
 * - what is resent: 429 and 503 (refusals: the API turned the request away before doing it);
 *   502 and 504 only for a request that is safe to repeat (a gateway may have passed it on); a
 *   connection that was never made (always); a connection lost after the request may have been
 *   written (only a request that is safe to repeat); nothing else;
 * - how long to wait: the API's Retry-After (delta-seconds or an HTTP date) plus jitter, else
 *   exponential backoff with jitter; every wait at least a floor, so that a Retry-After in the past
 *   or of zero seconds does not turn into a burst of requests;
 * - bounds: `maxRetries` resends (a 429 is the API pacing us, not a failure, so it does not count),
 *   a longest single wait (a longer Retry-After ends the retries) and a total time per request;
 * - what a failure means: its outcome (`not-applied`, `applied`, `unknown`), whether running the
 *   operation again could succeed, and the advice its message ends with.
 */

import type { RequestOutcome } from "../errors";
import { API_KEY_HINT } from "../settings/config";

/** When an answer with a given status is sent again. */
type Resend =
  /** Never: the same request would get the same answer. */
  | "never"
  /** Whatever the request: the API turned it away before doing anything. */
  | "always"
  /** Only a request that is safe to repeat: a gateway may have passed it on before it failed. */
  | "if-replayable";

/** What an answer's status means: the one table every decision below reads. */
interface StatusRule {
  resend: Resend;
  /** Whether a resend counts against `maxRetries` (a 429 is the API pacing us, not a failure). */
  counted: boolean;
  /** Whether the change may have been applied before the answer (a gateway's 502/504). */
  mayHaveApplied: boolean;
  /** Whether the answer refuses the key (401/403): never resent, and the advice names the key. */
  auth: boolean;
}

const NEVER: StatusRule = {
  resend: "never",
  // Stryker disable next-line BooleanLiteral: a status never resent is refused before `counted` is read
  counted: true,
  mayHaveApplied: false,
  auth: false,
};
const AUTH: StatusRule = { ...NEVER, auth: true };

/**
 * The statuses that mean more than "this request failed"; any status not listed is {@link NEVER}:
 * resending it would get the same answer, and nothing was applied.
 */
const STATUS_RULES: ReadonlyMap<number, StatusRule> = new Map([
  [401, AUTH],
  [403, AUTH],
  [429, { resend: "always", counted: false, mayHaveApplied: false, auth: false }],
  [502, { resend: "if-replayable", counted: true, mayHaveApplied: true, auth: false }],
  [503, { resend: "always", counted: true, mayHaveApplied: false, auth: false }],
  [504, { resend: "if-replayable", counted: true, mayHaveApplied: true, auth: false }],
]);

function statusRule(status: number): StatusRule {
  return STATUS_RULES.get(status) ?? NEVER;
}

/** The methods of the Domain Management API. */
export type HttpMethod = "GET" | "PUT" | "PATCH" | "POST";

/**
 * Whether applying a request twice has the same effect as applying it once, so that it may be
 * resent after it may have reached the API: GET, PUT, and a PATCH without adds (a second copy of
 * an add adds the record twice); never the restore POST.
 *
 * @example
 * isReplayable("PATCH", 1); // false: the add could be applied twice
 * isReplayable("PATCH", 0); // true: updates and deletes by id are idempotent
 */
export function isReplayable(method: HttpMethod, adds = 0): boolean {
  if (method === "GET" || method === "PUT") return true;
  if (method === "PATCH") return adds === 0;
  return false;
}

/**
 * Network failures that happen before the request is written: it cannot have reached the API, so
 * even a request that is not safe to repeat may be resent.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** Of those, the ones that may pass with time (a wrong host name will not). */
const NOT_SENT_TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/**
 * Failures after the request may have been written, including a body cut mid-stream or stalled:
 * retried only for requests that are safe to repeat, and then always whole (see the transport).
 */
const MAYBE_SENT_TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/**
 * Whether a network failure with this code may have happened after the request was written
 * (anything but a connection that was never made). An unknown code counts as maybe sent.
 *
 * @example
 * mayHaveBeenSent("ECONNREFUSED"); // false
 * mayHaveBeenSent("UND_ERR_SOCKET"); // true
 */
export function mayHaveBeenSent(code: string | undefined): boolean {
  return code === undefined || !NOT_SENT_CODES.has(code);
}

/** What went wrong with one attempt. */
export type RetryFailure =
  /** The API answered with a non-2xx status. */
  | { type: "status"; status: number; retryAfter?: string | readonly string[] | undefined }
  /** No (complete) answer: undici's or Node's error code, e.g. `UND_ERR_SOCKET`. */
  | { type: "network"; code: string | undefined };

/** The facts of a failed attempt that the policy decides on. */
export interface RetryContext {
  /** Whether the request is safe to send again once it may have reached the API ({@link isReplayable}). */
  replayable: boolean;
  failure: RetryFailure;
  /** The number of the attempt that failed, from 1. Drives the backoff. */
  attempt: number;
  /** How many resends so far counted against `maxRetries` (those after a 429 do not). */
  countedRetries: number;
  /** Milliseconds since the first attempt started. */
  elapsedMs: number;
  /** The current time, for a Retry-After given as an HTTP date. Default `Date.now()`. */
  now?: number;
  /** A random number in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
}

/** The bounds and steps of the policy. */
export interface RetryOptions {
  /** How many resends are allowed, 429s not counted (`domainapi:maxRetries`). */
  maxRetries: number;
  /** The longest single wait; a longer Retry-After ends the retries. */
  maxRetryWaitMs: number;
  /** The longest time one request may spend, retries and waits included. */
  maxTotalMs: number;
  /** The first backoff step when the API gives no usable Retry-After; it doubles per attempt. */
  backoffBaseMs: number;
  /** The largest backoff step. Default 10 s. */
  maxBackoffMs?: number;
  /** The shortest wait before any resend. Default {@link MIN_WAIT_MS}. */
  minWaitMs?: number;
}

/** The shortest wait before any resend, whatever the API asks: no bursts of requests. */
export const MIN_WAIT_MS = 100;
const DEFAULT_MAX_BACKOFF_MS = 10_000;

/** What the policy decided. */
export type RetryDecision =
  | {
      retry: true;
      /** How long to wait before the resend. */
      delayMs: number;
      /** Whether this resend counts against `maxRetries` (false after a 429). */
      counted: boolean;
    }
  | {
      retry: false;
      /** Why not, as a clause for an error message. */
      reason: string;
      /**
       * True when the failure is of a kind that is retried but a bound ended the retries (the
       * reason is then worth telling the user); false when it is never retried.
       */
      bounded: boolean;
    };

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** The three forms of an HTTP-date (RFC 9110, 5.6.7); anything else is not a date. */
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * Reads a Retry-After header: delta-seconds (`"120"`) or an HTTP date. Returns the wait in
 * milliseconds (0 for a date in the past), or undefined when the header is absent or is neither
 * form: `"1.5"` or `"soon"` is not a wait (a lenient date parser would read `"1.5"` as a day in
 * 2001, a wait of zero), so the caller falls back to its backoff.
 *
 * @example
 * parseRetryAfter("2"); // 2000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z")); // 60000
 * parseRetryAfter("1.5"); // undefined
 */
export function parseRetryAfter(
  header: string | readonly string[] | undefined,
  now = Date.now(),
): number | undefined {
  const value = typeof header === "string" ? header : header?.[0];
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  let date: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) date = Date.parse(text);
  else if (ASCTIME_DATE.test(text)) date = Date.parse(`${text} GMT`);
  else return undefined;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with "equal jitter": half of the step fixed, half random, so that parallel
 * requests refused together spread out, and none comes back sooner than half the step.
 *
 * @example
 * backoffMs(3, 300, 10_000, () => 0.5); // step 1200: 600 + 0.5 * 600 = 900
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return step / 2 + random() * (step / 2);
}

/**
 * Up to half the asked wait (at most 1 s) on top of a Retry-After, at random: never less than the
 * API asked for, and requests refused together do not all come back together.
 */
function retryAfterJitterMs(askedMs: number, random: () => number): number {
  return random() * Math.min(1_000, askedMs / 2 + 50);
}

/** Whether this kind of failure is ever resent for this request; the reason when it is not. */
function refusal(ctx: RetryContext): string | undefined {
  const { failure, replayable } = ctx;
  if (failure.type === "status") {
    const { status } = failure;
    const rule = statusRule(status);
    if (rule.resend === "never") return `a ${status} answer would be the same again`;
    if (rule.resend === "if-replayable" && !replayable) {
      return `the request may have been passed on before the ${status}, and repeating it could apply it twice`;
    }
    return undefined;
  }
  const { code } = failure;
  if (code !== undefined && NOT_SENT_TRANSIENT_CODES.has(code)) return undefined;
  if (code === undefined || !MAYBE_SENT_TRANSIENT_CODES.has(code)) {
    return `${code ?? "this failure"} is not a failure that passes with time`;
  }
  return replayable
    ? undefined
    : "the request may have reached the API, and repeating it could apply it twice";
}

/**
 * Decides whether to resend a request after a failed attempt, and after what wait.
 *
 * @example
 * decideRetry(
 *   { replayable: true, failure: { type: "status", status: 503 }, attempt: 1, countedRetries: 0, elapsedMs: 40 },
 *   { maxRetries: 4, maxRetryWaitMs: 60_000, maxTotalMs: 300_000, backoffBaseMs: 300 },
 * ); // { retry: true, delayMs: 150..300, counted: true }
 */
export function decideRetry(ctx: RetryContext, options: RetryOptions): RetryDecision {
  const random = ctx.random ?? Math.random;
  const floor = options.minWaitMs ?? MIN_WAIT_MS;
  const never = refusal(ctx);
  if (never !== undefined) return { retry: false, reason: never, bounded: false };

  // A 429 is the API pacing us, not failing: waiting it out is bounded by the total time, not by
  // maxRetries, or a burst of parallel Pulumi steps would give up while the API still admits
  // requests at its pace.
  const counted = ctx.failure.type !== "status" || statusRule(ctx.failure.status).counted;
  if (counted && ctx.countedRetries >= options.maxRetries) {
    return {
      retry: false,
      reason: `it was resent ${options.maxRetries} time(s), as many as domainapi:maxRetries allows`,
      bounded: true,
    };
  }
  const asked =
    ctx.failure.type === "status"
      ? parseRetryAfter(ctx.failure.retryAfter, ctx.now ?? Date.now())
      : undefined;
  if (asked !== undefined && asked > options.maxRetryWaitMs) {
    return {
      retry: false,
      reason:
        `the API asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ` +
        `${Math.round(options.maxRetryWaitMs / 1000)} s this client waits`,
      bounded: true,
    };
  }
  const wait =
    asked !== undefined
      ? asked + retryAfterJitterMs(asked, random)
      : backoffMs(ctx.attempt, options.backoffBaseMs, options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS, random);
  const delayMs = Math.round(Math.max(floor, wait));
  if (ctx.elapsedMs + delayMs > options.maxTotalMs) {
    return {
      retry: false,
      reason: `retrying would exceed the ${Math.round(options.maxTotalMs / 1000)} s bound on one request`,
      bounded: true,
    };
  }
  return { retry: true, delayMs, counted };
}

/** What a failure means for the user: the verdict its error carries. */
export interface Verdict {
  /** Whether the change the request asked for took effect. */
  outcome: RequestOutcome;
  /** Whether running the operation again could succeed. */
  retryable: boolean;
  /** The sentence the message ends with: what to do (empty when the facts say it all). */
  advice: string;
}

const ADVICE_BUSY = "The API is busy or unavailable; try again later.";
const ADVICE_UNKNOWN =
  "The request may have reached the API, so its outcome is unknown; it was not resent because " +
  "repeating it could apply it twice.";

/**
 * The verdict on a non-2xx answer. A 502/504 to a request that is not safe to repeat has an
 * `unknown` outcome and is not `retryable`, like a dropped connection: a change that may have been
 * applied is not to be repeated blindly.
 *
 * @example
 * answerVerdict(502, "POST", false); // { outcome: "unknown", retryable: false, advice: "The request may have reached…" }
 * answerVerdict(401, "GET", true).advice; // "Check the API key: set it with …"
 * @param keyAdvice where the key came from and how to change it there (settings/config.ts); both ways when not known
 */
export function answerVerdict(
  status: number,
  method: HttpMethod | string,
  replayable: boolean,
  keyAdvice: string = API_KEY_HINT,
): Verdict {
  const rule = statusRule(status);
  if (rule.auth)
    return { outcome: "not-applied", retryable: false, advice: `Check the API key: ${keyAdvice}.` };
  const outcome: RequestOutcome = rule.mayHaveApplied && method !== "GET" ? "unknown" : "not-applied";
  const retryable = rule.resend !== "never" && (outcome !== "unknown" || replayable);
  const advice = retryable ? ADVICE_BUSY : outcome === "unknown" ? ADVICE_UNKNOWN : "";
  return { outcome, retryable, advice };
}

/**
 * The verdict on a request that got no (complete) answer: nothing applied when the connection was
 * never made (or for a GET); else unknown, and worth running again only when safe to repeat.
 *
 * @example
 * networkVerdict("POST", true, false).outcome; // "unknown"
 */
export function networkVerdict(
  method: HttpMethod | string,
  maybeSent: boolean,
  replayable: boolean,
): Verdict {
  if (!maybeSent || method === "GET") {
    return {
      outcome: "not-applied",
      retryable: true,
      advice: "Nothing was changed; check that the API is reachable and try again.",
    };
  }
  if (replayable) {
    return {
      outcome: "unknown",
      retryable: true,
      advice: "The request is safe to repeat: run the operation again.",
    };
  }
  return { outcome: "unknown", retryable: false, advice: ADVICE_UNKNOWN };
}

/**
 * The verdict on a 2xx answer whose body does not fit the spec: the API said the change was made,
 * unless `outcome` says the body was the only account of what was done.
 *
 * @example
 * unreadableVerdict("PUT").outcome; // "applied"
 */
export function unreadableVerdict(method: HttpMethod | string, outcome?: RequestOutcome): Verdict {
  return {
    outcome: outcome ?? (method === "GET" ? "not-applied" : "applied"),
    retryable: false,
    advice: "The API may have changed; please report this with the debug log (pulumi up --debug).",
  };
}
