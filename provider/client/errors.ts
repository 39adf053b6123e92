/**
 * The errors of the Domain Management API client, and the redaction that keeps the API key out of
 * them.
 *
 * Every message is built here, from plain facts the transport hands over (status, method, path,
 * body text, error code), and every message goes through {@link redact} before it becomes part of
 * an `Error`: the stack trace, `String(err)`, `JSON.stringify(err)` and `util.inspect(err)` are all
 * derived from what is stored, so redacting at construction covers them all. The error never holds
 * the client configuration, the request headers or the undici error object (whose fields we do not
 * control), only strings and numbers; its `cause` is a {@link NetworkCause} (undici's code and
 * redacted message) or the error it diagnoses.
 *
 * As undici does, every class carries a stable `code` (`DOMAINAPI_*`, see {@link DomainApiErrorCode})
 * to tell failures apart, and `instanceof` is the one way to test for a class: it holds across two
 * copies of this package (the dynamic provider loads it by name, a program may load it by path).
 *
 * This module knows neither HTTP libraries nor Pulumi.
 */
import { STATUS_CODES } from "node:http";

/** The text that replaces a secret wherever it would appear. */
export const REDACTED = "[redacted]";

/** How an error body's message is cut, so that an HTML error page does not flood the terminal. */
const MAX_API_MESSAGE_CHARS = 500;

/** The two ways to supply the key, named in every message about a missing or refused key. */
export const API_KEY_HINT =
  "set it with `pulumi config set --secret domainapi:apiKey <key>` or the DOMAINAPI_API_KEY environment variable";

const patterns = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * One character of the secret in every form an API may echo it: as is, backslash-escaped (PHP's
 * `json_encode` writes `/` as `\/`), as a JSON `\uXXXX` escape, or percent-encoded (a query value
 * echoed back). Each character may take a different form, so a partly escaped echo is caught too.
 */
function charPattern(char: string): string {
  const forms = [escapeRegExp(char), `\\\\${escapeRegExp(char)}`];
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xffff) forms.push(`\\\\u${code.toString(16).padStart(4, "0")}`);
  forms.push(escapeRegExp(encodeURIComponent(char)));
  if (/[-_.!~*'()a-z0-9]/i.test(char)) forms.push(`%${code.toString(16).padStart(2, "0")}`);
  return `(?:${forms.join("|")})`;
}

/** The pattern that finds `secret` in any of its echoed forms (cached: built once per key). */
function secretPattern(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (pattern === undefined) {
    // Case-insensitive for the hex digits of the escapes; a case variant of the key is redacted too.
    pattern = new RegExp(Array.from(secret, charPattern).join(""), "gi");
    patterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * Replaces every occurrence of `secret` in `text` with `[redacted]`: the exact key, and the key as
 * an API may echo it, escaped for JSON (`\/`, `\u0073`) or percent-encoded (`%2F`), in any mix.
 *
 * Used on every message this package builds, because an API may echo the credential back (in an
 * error body, say) and a message must never carry it on. Run it on whole texts, before any cut: a
 * key cut in half is no longer found. Short secrets (under 4 characters) are still redacted: a key
 * that short is a configuration mistake, not a reason to leak it.
 *
 * @example
 * redact("bad key abc123", "abc123"); // "bad key [redacted]"
 * redact('{"key":"sk\\/1"}', "sk/1"); // '{"key":"[redacted]"}'
 */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.replace(secretPattern(secret), REDACTED);
}

/**
 * The stable `code` of every error this package throws, one per class or kind, like undici's
 * `UND_ERR_*`: test `err.code` rather than the message, which may be reworded.
 */
export type DomainApiErrorCode =
  /** {@link DomainApiError} of kind `http`: a non-2xx answer other than 401/403. */
  | "DOMAINAPI_HTTP"
  /** {@link DomainApiError} of kind `auth`: the API refused the key (401/403). */
  | "DOMAINAPI_AUTH"
  /** {@link DomainApiError} of kind `network`: the connection failed before a full answer. */
  | "DOMAINAPI_NETWORK"
  /** {@link DomainApiError} of kind `timeout`: no answer within `domainapi:timeoutMs`. */
  | "DOMAINAPI_TIMEOUT"
  /** {@link DomainApiError} of kind `response`: a 2xx whose body does not fit the spec. */
  | "DOMAINAPI_RESPONSE"
  /** {@link TemplateNotFoundError}: the DNS template itself is gone. */
  | "DOMAINAPI_TEMPLATE_NOT_FOUND"
  /** {@link DomainNotInAccountError}: a restore answered 404. */
  | "DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT"
  /** {@link ConfigError}: the provider's settings are missing or invalid. */
  | "DOMAINAPI_CONFIG"
  /** {@link RequestBodyError}: a request body was refused before it was sent. */
  | "DOMAINAPI_REQUEST_BODY";

/** What kind of failure a {@link DomainApiError} reports. */
export type DomainApiErrorKind =
  /** The API answered with a non-2xx status other than 401/403. */
  | "http"
  /** The API refused the key (401 or 403). */
  | "auth"
  /** The connection failed (refused, reset, closed) before a full answer came. */
  | "network"
  /** No answer came within `domainapi:timeoutMs`. */
  | "timeout"
  /** The API answered 2xx, but with a body that does not fit what the spec promises. */
  | "response";

const CODE_OF_KIND: Readonly<Record<DomainApiErrorKind, DomainApiErrorCode>> = {
  http: "DOMAINAPI_HTTP",
  auth: "DOMAINAPI_AUTH",
  network: "DOMAINAPI_NETWORK",
  timeout: "DOMAINAPI_TIMEOUT",
  response: "DOMAINAPI_RESPONSE",
};

/**
 * Whether the change a request asked for took effect.
 *
 * - `not-applied`: the API refused it, or it never reached the API.
 * - `applied`: the API accepted it (a 2xx whose body then did not fit, for instance).
 * - `unknown`: the request may have reached the API and no answer came back, or the answer does not
 *   say what was done.
 */
export type RequestOutcome = "not-applied" | "applied" | "unknown";

/** The facts a {@link DomainApiError} is built from. */
export interface DomainApiErrorInit {
  /** The full message; it is redacted again on construction. */
  message: string;
  kind: DomainApiErrorKind;
  method: string;
  path: string;
  status?: number;
  apiMessage?: string;
  retryable: boolean;
  outcome: RequestOutcome;
  /** How many times the request was sent (1 when it was not retried). */
  attempts?: number;
  /** undici's (or Node's) error code for network failures and timeouts, e.g. `UND_ERR_SOCKET`. */
  networkCode?: string;
  /** What this error wraps: the network failure, or the error it diagnoses. Kept as `cause`. */
  cause?: Error;
  /** The secret to redact from every string field. */
  secret?: string;
}

/**
 * The `cause` of a network failure: undici's message (redacted) and code, and nothing else of the
 * undici error object, whose fields we do not control.
 */
export class NetworkCause extends Error {
  /** undici's or Node's code, e.g. `UND_ERR_SOCKET`, `ECONNREFUSED`. */
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined, secret?: string) {
    super(redact(message, secret));
    this.name = "NetworkCause";
    this.code = code;
  }
}

/**
 * The brand of each class of this module: a `Symbol.for` key, the same in every copy of the
 * package, so that `instanceof` holds across copies.
 */
const BRANDS = new WeakMap<object, symbol>();

/**
 * `instanceof` for the classes of this module that also holds across copies of the package: the
 * instance carries the brand of every class of its chain. A subclass defined elsewhere, with no
 * brand of its own, falls back to the prototype chain.
 */
function hasInstance(ctor: object, value: unknown): boolean {
  const brand = BRANDS.get(ctor);
  if (brand === undefined) return Function.prototype[Symbol.hasInstance].call(ctor, value);
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

function brand(ctor: object, name: string): void {
  BRANDS.set(ctor, Symbol.for(`pulumi-domainapi.${name}`));
}

function stamp(instance: object, ctor: object): void {
  const symbol = BRANDS.get(ctor);
  if (symbol !== undefined) Object.defineProperty(instance, symbol, { value: true });
}

/**
 * A failed call to the Domain Management API.
 *
 * Carries what a user needs to act: the HTTP status (absent for network failures), the method and
 * path (never the base URL's credentials, never the key), the message the API gave, whether a
 * retry could help, and, for requests that change something, whether the change took effect.
 *
 * Test for it with `instanceof` (which works across two copies of this package, such as the one the
 * dynamic provider loads by name and the one a program loads by path) and tell failures apart by
 * {@link DomainApiError.code | code}.
 *
 * @example
 * try {
 *   await client.restoreDomain("shop.example");
 * } catch (err) {
 *   if (err instanceof DomainApiError && err.outcome === "unknown") {
 *     // check the domain's state before trying again
 *   }
 * }
 */
export class DomainApiError extends Error {
  /** HTTP status of the API's answer; undefined when no answer came. */
  readonly status?: number;
  /** HTTP method of the failed request, e.g. `PATCH`. */
  readonly method: string;
  /** Path of the failed request, e.g. `/v2/dns/templates/web/records`. */
  readonly path: string;
  /** The best message found in the API's error body. */
  readonly apiMessage?: string;
  /**
   * Whether running the operation again could succeed: true for rate limits, unavailability and
   * network failures of requests that are safe to repeat; false for 4xx answers and for requests
   * that are not safe to repeat and whose outcome is unknown (check the state first).
   */
  readonly retryable: boolean;
  /** What failed; see {@link DomainApiErrorKind}. */
  readonly kind: DomainApiErrorKind;
  /** Whether the requested change took effect; see {@link RequestOutcome}. */
  readonly outcome: RequestOutcome;
  /** How many times the request was sent. A 404 after 2 attempts may mean the first one applied. */
  readonly attempts: number;
  /**
   * The stable code of this failure, e.g. `DOMAINAPI_TIMEOUT`; see {@link DomainApiErrorCode}.
   * (Before 0.2 this field held undici's code, which is now {@link DomainApiError.networkCode}.)
   */
  readonly code: DomainApiErrorCode;
  /** undici's or Node's code for network failures and timeouts, e.g. `UND_ERR_SOCKET`, `ECONNREFUSED`. */
  readonly networkCode?: string;

  constructor(init: DomainApiErrorInit) {
    super(redact(init.message, init.secret), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "DomainApiError";
    this.code = CODE_OF_KIND[init.kind];
    this.kind = init.kind;
    this.method = init.method;
    this.path = redact(init.path, init.secret);
    this.retryable = init.retryable;
    this.outcome = init.outcome;
    this.attempts = init.attempts ?? 1;
    if (init.status !== undefined) this.status = init.status;
    if (init.apiMessage !== undefined) this.apiMessage = redact(init.apiMessage, init.secret);
    if (init.networkCode !== undefined) this.networkCode = init.networkCode;
    stamp(this, DomainApiError);
  }

  /** `instanceof` that holds across copies of this package (see the class comment). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about, maybe a subclass
    return hasInstance(this, value);
  }

  /**
   * The same test as `err instanceof DomainApiError` (which is the documented way), kept for code
   * written against earlier versions.
   *
   * @deprecated use `err instanceof DomainApiError`
   */
  static is(err: unknown): err is DomainApiError {
    return err instanceof DomainApiError;
  }

  /** A plain object for logs and `JSON.stringify`; holds only redacted strings, never the key. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      kind: this.kind,
      status: this.status,
      method: this.method,
      path: this.path,
      apiMessage: this.apiMessage,
      retryable: this.retryable,
      outcome: this.outcome,
      attempts: this.attempts,
      networkCode: this.networkCode,
    };
  }
}
brand(DomainApiError, "DomainApiError");

/** "PATCH /v2/x returned 404 Not Found: "the API's words"": the facts a diagnosis keeps beside it. */
function answerSummary(err: DomainApiError): string {
  const statusText = err.status === undefined ? "" : (STATUS_CODES[err.status] ?? "");
  const status =
    err.status === undefined ? "failed" : `returned ${err.status}${statusText ? ` ${statusText}` : ""}`;
  const words = err.apiMessage && err.apiMessage !== statusText ? `: ${JSON.stringify(err.apiMessage)}` : "";
  return `${err.method} ${err.path} ${status}${words}`;
}

/** The init of a diagnosis built from `err`: every fact of the answer kept, `err` as the cause. */
function diagnosisOf(err: DomainApiError, message: string): DomainApiErrorInit {
  return {
    message,
    kind: err.kind,
    method: err.method,
    path: err.path,
    ...(err.status !== undefined ? { status: err.status } : {}),
    ...(err.apiMessage !== undefined ? { apiMessage: err.apiMessage } : {}),
    retryable: false,
    outcome: err.outcome,
    attempts: err.attempts,
    cause: err,
  };
}

/**
 * A DNS template that is gone: a 404 to a PATCH or PUT of its records that the caller has
 * diagnosed as the template itself missing (not one of its records). Built with
 * {@link templateNotFound}; its `cause` is the 404, and its message keeps the API's own words,
 * since a 404 can also mean something the diagnosis did not foresee (an API not enabled, say).
 */
export class TemplateNotFoundError extends DomainApiError {
  /** The template that was not found. */
  readonly templateId: string;
  declare readonly code: "DOMAINAPI_TEMPLATE_NOT_FOUND";

  constructor(notFound: DomainApiError, templateId: string) {
    super(
      diagnosisOf(
        notFound,
        `DNS template ${JSON.stringify(templateId)} was not found (${answerSummary(notFound)}). ` +
          "Recreate the template at the registrar, or point templateId at an existing template.",
      ),
    );
    this.name = "TemplateNotFoundError";
    (this as { code: DomainApiErrorCode }).code = "DOMAINAPI_TEMPLATE_NOT_FOUND";
    this.templateId = templateId;
    stamp(this, TemplateNotFoundError);
  }
}
brand(TemplateNotFoundError, "TemplateNotFoundError");

/**
 * Builds the error for a template found missing, from the 404 that showed it.
 *
 * @example
 * catch (err) { if (isNotFound(err)) throw templateNotFound(err, "web"); throw err; }
 */
export function templateNotFound(notFound: DomainApiError, templateId: string): TemplateNotFoundError {
  return new TemplateNotFoundError(notFound, templateId);
}

/**
 * A restore answered 404: the domain is not in the account the key belongs to (or the name is
 * wrong). Built with {@link domainNotInAccount}; its `cause` is the 404, and its message keeps the
 * API's own words.
 */
export class DomainNotInAccountError extends DomainApiError {
  /** The domain that was not found, as sent (the xn-- form of an IDN). */
  readonly domain: string;
  declare readonly code: "DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT";

  constructor(notFound: DomainApiError, domain: string) {
    super(
      diagnosisOf(
        notFound,
        `Domain ${JSON.stringify(domain)} is not in this account (${answerSummary(notFound)}). ` +
          "Check the name, and that the API key belongs to the account that holds the domain.",
      ),
    );
    this.name = "DomainNotInAccountError";
    (this as { code: DomainApiErrorCode }).code = "DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT";
    this.domain = domain;
    stamp(this, DomainNotInAccountError);
  }
}
brand(DomainNotInAccountError, "DomainNotInAccountError");

/**
 * Builds the error for a restore whose domain the API does not know, from the 404 that showed it.
 *
 * @example
 * catch (err) { if (isNotFound(err)) throw domainNotInAccount(err, "shop.example"); throw err; }
 */
export function domainNotInAccount(notFound: DomainApiError, domain: string): DomainNotInAccountError {
  return new DomainNotInAccountError(notFound, domain);
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
 * The provider's configuration is missing or invalid. The message lists every problem, each with
 * both ways to fix it (stack config and environment variable), and never contains the key.
 */
export class ConfigError extends Error {
  /** Always `DOMAINAPI_CONFIG`. */
  readonly code = "DOMAINAPI_CONFIG" as const;
  /** One line per problem, without the heading. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], secret?: string) {
    const safe = problems.map((p) => redact(p, secret));
    super(`pulumi-domainapi is not configured correctly:\n${safe.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = safe;
    stamp(this, ConfigError);
  }

  /** `instanceof` that holds across copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about, maybe a subclass
    return hasInstance(this, value);
  }
}
brand(ConfigError, "ConfigError");

/**
 * A request body that does not fit its wire schema, caught before anything is sent. The message
 * names the field path, e.g. `records[2].priority: expected number, received string`.
 */
export class RequestBodyError extends Error {
  /** Always `DOMAINAPI_REQUEST_BODY`. */
  readonly code = "DOMAINAPI_REQUEST_BODY" as const;

  constructor(message: string) {
    super(message);
    this.name = "RequestBodyError";
    stamp(this, RequestBodyError);
  }

  /** `instanceof` that holds across copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about, maybe a subclass
    return hasInstance(this, value);
  }
}
brand(RequestBodyError, "RequestBodyError");

/**
 * Finds the most useful message in an API error body, whose shape the spec does not show.
 *
 * Tries, in order: `message`, `error` (a string), `error.message`, `errors[].message` (joined),
 * `detail`, `title`; else the raw text, whitespace collapsed and cut to 500 characters; an empty
 * body gives the status text (e.g. `Service Unavailable`). With `secret`, the key is redacted in
 * every form (see {@link redact}) before anything is parsed or cut, so no part of it survives.
 *
 * @example
 * extractApiMessage('{"error":{"code":"not_found","message":"no such template"}}', 404); // "no such template"
 * extractApiMessage("", 503); // "Service Unavailable"
 */
export function extractApiMessage(bodyText: string, status: number, secret?: string): string {
  const text = redact(bodyText, secret).trim();
  if (text === "") return STATUS_CODES[status] ?? `HTTP ${status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return cut(text);
  }
  // Parsing undoes JSON escapes, so the parsed message is redacted again before the cut.
  return cut(redact(messageFromJson(parsed) ?? text, secret));
}

function messageFromJson(value: unknown): string | undefined {
  if (typeof value === "string") return nonEmpty(value);
  if (typeof value !== "object" || value === null) return undefined;
  const obj = value as Record<string, unknown>;
  const error = obj.error;
  const errors = obj.errors;
  const fromErrors = Array.isArray(errors)
    ? errors
        .map((e) =>
          typeof e === "string" ? e : isRecord(e) && typeof e.message === "string" ? e.message : undefined,
        )
        .filter((m): m is string => m !== undefined && m.trim() !== "")
        .join("; ")
    : undefined;
  return (
    stringField(obj, "message") ??
    (typeof error === "string" ? nonEmpty(error) : undefined) ??
    (isRecord(error) ? stringField(error, "message") : undefined) ??
    nonEmpty(fromErrors ?? "") ??
    stringField(obj, "detail") ??
    stringField(obj, "title")
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === "string" ? nonEmpty(v) : undefined;
}

function nonEmpty(s: string): string | undefined {
  return s.trim() === "" ? undefined : s;
}

/** Ends `text` with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]+/g;

function cut(text: string): string {
  // Control characters (a terminal escape in an HTML page, say) must not reach the user's terminal.
  const flat = text.replace(CONTROL_CHARS, " ").replace(/\s+/g, " ").trim();
  return flat.length > MAX_API_MESSAGE_CHARS ? `${flat.slice(0, MAX_API_MESSAGE_CHARS)}…` : flat;
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
  /** Whether the request is safe to send again (see the transport's `replayable`). */
  replayable: boolean;
  secret: string;
}

/** Statuses that mean "try again later"; any other 4xx/5xx will fail the same way again. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Of those, the API turning the request away before doing anything (rate limited, unavailable). */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Whether an answer with this status may go away if the request is sent again later (429, 502,
 * 503, 504). The transport retries on these, and errors carrying them are `retryable` when
 * resending is safe.
 *
 * @example
 * isTransientStatus(503); // true
 * isTransientStatus(500); // false: the same request fails the same way again
 */
export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/**
 * Whether an answer with this status is a refusal (429, 503): the API turned the request away
 * before doing it, so resending it cannot apply it twice, even for a request that is not safe to
 * repeat. A 502 or 504 is not: a gateway may have passed the request on before it gave up.
 *
 * @example
 * isRefusalStatus(429); // true
 * isRefusalStatus(502); // false: the change may have been applied
 */
export function isRefusalStatus(status: number): boolean {
  return REFUSAL_STATUSES.has(status);
}

/**
 * Builds the error for a non-2xx answer: `auth` for 401/403 (naming the settings that supply the
 * key), `http` otherwise. A 502/504 to a request that is not safe to repeat has an `unknown`
 * outcome and is not `retryable`, like a dropped connection.
 */
export function httpError(f: HttpFailure): DomainApiError {
  const apiMessage = extractApiMessage(f.bodyText, f.status, f.secret);
  const statusText = STATUS_CODES[f.status] ?? "";
  const head = `${f.method} ${f.path} returned ${f.status}${statusText ? ` ${statusText}` : ""}`;
  const tries = f.attempts > 1 ? ` (after ${f.attempts} attempts)` : "";
  const stopped = f.stopReason ? ` Not resent: ${f.stopReason}.` : "";
  if (f.status === 401 || f.status === 403) {
    return new DomainApiError({
      message: `Authentication failed: ${head}: ${sentence(apiMessage)} Check the API key: ${API_KEY_HINT}.`,
      kind: "auth",
      method: f.method,
      path: f.path,
      status: f.status,
      apiMessage,
      retryable: false,
      outcome: "not-applied",
      attempts: f.attempts,
      secret: f.secret,
    });
  }
  const transient = isTransientStatus(f.status);
  const outcome: RequestOutcome =
    f.method === "GET" || !transient || isRefusalStatus(f.status) ? "not-applied" : "unknown";
  // As after a dropped connection: a change that may have been applied is not to be repeated
  // blindly, so "try again later" would be wrong advice for it.
  const retryable = transient && (outcome !== "unknown" || f.replayable);
  let advice = "";
  if (retryable) advice = " The API is busy or unavailable; try again later.";
  else if (outcome === "unknown") {
    advice =
      " The request may have reached the API, so its outcome is unknown; it was not resent because " +
      "repeating it could apply it twice.";
  }
  return new DomainApiError({
    message: `${head}${tries}: ${sentence(apiMessage)}${stopped}${advice}`,
    kind: "http",
    method: f.method,
    path: f.path,
    status: f.status,
    apiMessage,
    retryable,
    outcome,
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
  /** False when the connection was never established, so the request cannot have been sent. */
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
  const what = f.timeout
    ? `got no response within ${f.timeoutMs} ms (domainapi:timeoutMs)`
    : `lost the connection (${f.detail}${f.networkCode ? `, ${f.networkCode}` : ""})`;
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : "";
  let outcome: RequestOutcome;
  let advice: string;
  if (!f.maybeSent || f.method === "GET") {
    outcome = "not-applied";
    advice = "Nothing was changed; check that the API is reachable and try again.";
  } else if (f.replayable) {
    outcome = "unknown";
    advice = "The request is safe to repeat: run the operation again.";
  } else {
    outcome = "unknown";
    advice =
      "The request may have reached the API, so its outcome is unknown; it was not resent because " +
      "repeating it could apply it twice.";
  }
  return new DomainApiError({
    message: `${f.method} ${f.path} ${what}${tries}. ${advice}`,
    kind: f.timeout ? "timeout" : "network",
    method: f.method,
    path: f.path,
    retryable: outcome === "not-applied" || f.replayable,
    outcome,
    attempts: f.attempts,
    ...(f.networkCode !== undefined ? { networkCode: f.networkCode } : {}),
    cause: new NetworkCause(f.detail, f.networkCode, f.secret),
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
  const advice =
    f.advice ?? "The API may have changed; please report this with the debug log (pulumi up --debug).";
  return new DomainApiError({
    message:
      `${f.method} ${f.path} returned ${f.status} with a body that does not fit the API's specification: ` +
      `${f.problem}. ${advice}`,
    kind: "response",
    method: f.method,
    path: f.path,
    status: f.status,
    retryable: false,
    outcome: f.outcome ?? (f.method === "GET" ? "not-applied" : "applied"),
    attempts: f.attempts,
    secret: f.secret,
  });
}
