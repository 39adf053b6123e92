/**
 * The messages of failed requests: each builder takes the plain facts the transport saw (status,
 * method, path, body text, error code), asks ./retry.ts for the verdict (outcome, whether to try
 * again, advice) and ./body.ts for the API's words, and returns the {@link DomainApiError} the user
 * reads. The key is redacted from every fact before anything is quoted or cut, and again by the
 * error itself. This module knows neither HTTP libraries nor Pulumi.
 */
import { STATUS_CODES } from "node:http";
import { DomainApiError, NetworkCause, type RequestOutcome, TemplateNotFoundError } from "../errors";
import { quote, redact } from "../errors/redact";
import { extractApiMessage } from "./body";
import { answerVerdict, networkVerdict, unreadableVerdict } from "./retry";

/** Ends `text` with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** " advice" or nothing. */
function then(advice: string): string {
  return advice === "" ? "" : ` ${advice}`;
}

/** The facts of a non-2xx answer, as the transport saw them. */
export interface HttpFailure {
  method: string;
  path: string;
  status: number;
  bodyText: string;
  attempts: number;
  /** Why the transport stopped retrying early, e.g. a Retry-After longer than it waits. */
  stopReason?: string | undefined;
  /** Whether the request is safe to send again (see `isReplayable` in ./retry). */
  replayable: boolean;
  secret: string;
  /** Where the key came from and how to change it there, for a refused key's advice. */
  keyAdvice?: string | undefined;
}

/**
 * Builds the error for a non-2xx answer: `auth` for 401/403 (naming the settings that supply the
 * key), `http` otherwise; outcome, retryable and advice as ./retry.ts's {@link answerVerdict} says.
 *
 * @example
 * httpError({ method: "GET", path: "/v2/contacts", status: 503, bodyText: "", attempts: 5, replayable: true, secret: key });
 */
export function httpError(f: HttpFailure): DomainApiError {
  const apiMessage = extractApiMessage(f.bodyText, f.status, f.secret);
  const statusText = STATUS_CODES[f.status] ?? "";
  const head = `${f.method} ${f.path} returned ${f.status}${statusText ? ` ${statusText}` : ""}`;
  const verdict = answerVerdict(f.status, f.method, f.replayable, f.keyAdvice);
  const auth = f.status === 401 || f.status === 403;
  const tries = f.attempts > 1 ? ` (after ${f.attempts} attempts)` : "";
  const stopped = f.stopReason ? ` Not resent: ${f.stopReason}.` : "";
  const message = auth
    ? `Authentication failed: ${head}: ${sentence(apiMessage)}${then(verdict.advice)}`
    : `${head}${tries}: ${sentence(apiMessage)}${stopped}${then(verdict.advice)}`;
  return new DomainApiError({
    message,
    kind: auth ? "auth" : "http",
    method: f.method,
    path: f.path,
    status: f.status,
    apiMessage,
    retryable: verdict.retryable,
    outcome: verdict.outcome,
    attempts: f.attempts,
    secret: f.secret,
  });
}

/** The facts of a request that got no (complete) answer. */
export interface NetworkFailure {
  method: string;
  path: string;
  /** undici's error code, e.g. `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`, `ECONNREFUSED`. */
  networkCode: string | undefined;
  /** undici's description, e.g. `other side closed`. */
  detail: string;
  timeout: boolean;
  timeoutMs: number;
  /** False when the connection was never made, so the request cannot have been sent. */
  maybeSent: boolean;
  replayable: boolean;
  attempts: number;
  secret: string;
}

/**
 * Builds the error for a request that got no answer. For a request that is not safe to repeat and
 * may have reached the API, the outcome is `unknown` and the message says what to do.
 */
export function networkError(f: NetworkFailure): DomainApiError {
  const detail = redact(f.detail, f.secret);
  const what = f.timeout
    ? `got no response within ${f.timeoutMs} ms (domainapi:timeoutMs)`
    : `lost the connection (${detail}${f.networkCode ? `, ${f.networkCode}` : ""})`;
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : "";
  const verdict = networkVerdict(f.method, f.maybeSent, f.replayable);
  return new DomainApiError({
    message: `${f.method} ${f.path} ${what}${tries}.${then(verdict.advice)}`,
    kind: f.timeout ? "timeout" : "network",
    method: f.method,
    path: f.path,
    retryable: verdict.retryable,
    outcome: verdict.outcome,
    attempts: f.attempts,
    ...(f.networkCode !== undefined ? { networkCode: f.networkCode } : {}),
    cause: new NetworkCause(detail, f.networkCode, f.secret),
    secret: f.secret,
  });
}

/** The facts of a 2xx answer whose body does not fit the schema. */
export interface ResponseFailure {
  method: string;
  path: string;
  status: number;
  /** What is wrong, naming the field, e.g. `pagination.total_pages: expected number`. */
  problem: string;
  attempts: number;
  secret: string;
  /**
   * Set to `unknown` when the answer does not say what was done: a PATCH whose ids cannot be
   * matched one-to-one to its adds. Default: `applied` for a change, `not-applied` for a GET.
   */
  outcome?: RequestOutcome;
  /** Replaces the default advice (report the API change) when the cause is known. */
  advice?: string;
}

/**
 * Builds the error for a 2xx answer that does not fit what the spec promises. The change (if any)
 * was applied: the API said so, unless `outcome` says otherwise.
 */
export function responseError(f: ResponseFailure): DomainApiError {
  const verdict = unreadableVerdict(f.method, f.outcome);
  return new DomainApiError({
    message:
      `${f.method} ${f.path} returned ${f.status} with a body that does not fit the API's specification: ` +
      `${f.problem}. ${f.advice ?? verdict.advice}`,
    kind: "response",
    method: f.method,
    path: f.path,
    status: f.status,
    retryable: verdict.retryable,
    outcome: verdict.outcome,
    attempts: f.attempts,
    secret: f.secret,
  });
}

/**
 * The start of a body that is not JSON, as a message shows it: redacted, then cut to 60 characters.
 *
 * @example
 * bodyStart("<html>…", key); // '"<html>…"'
 */
export function bodyStart(text: string, secret: string): string {
  return quote(text, secret, 60);
}

/**
 * Whether `err` is the API's 404 (an unknown template, record id or domain).
 *
 * @example
 * try { await client.patchRecords("web", body); } catch (err) { if (isNotFound(err)) { ... } }
 */
export function isNotFound(err: unknown): err is DomainApiError {
  return err instanceof DomainApiError && err.status === 404;
}

/**
 * The error for a template found missing, from the 404 that showed it: the same as
 * `new TemplateNotFoundError(notFound, templateId)`.
 */
export function templateNotFound(notFound: DomainApiError, templateId: string): TemplateNotFoundError {
  return new TemplateNotFoundError(notFound, templateId);
}
