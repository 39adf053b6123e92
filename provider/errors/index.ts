/**
 * The error classes of pulumi-domainapi, and nothing else (as undici's `lib/core/errors.js`): what
 * a failure is called and what it carries. What a failure means (resend it? did it apply? what to
 * advise?) is decided in ./retry.ts, the messages of failed requests are built in ./failures.ts,
 * and the key is taken out of every text by ./redact.ts.
 *
 * Every error this package throws is a {@link DomainApiBaseError} with a stable `code` (see
 * {@link DomainApiErrorCode}). The one way to test for a class is `instanceof`: each class carries
 * a brand (a `Symbol.for` key, the same in every copy of the package), so `instanceof` holds across
 * two copies (the dynamic provider loads the package by name, a program may load it by path).
 *
 * @example
 * try {
 *   await getContacts({ perPage: 500 });
 * } catch (err) {
 *   if (err instanceof DomainApiBaseError && err.code === "DOMAINAPI_INVALID_ARGUMENT") {
 *     // a bad argument, named in err.message
 *   }
 * }
 */
import { STATUS_CODES } from "node:http";
import { redact } from "./redact";

/**
 * The stable `code` of every error this package throws, like undici's `UND_ERR_*`: test `err.code`
 * rather than the message, which may be reworded.
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
  | "DOMAINAPI_REQUEST_BODY"
  /** {@link ClientClosedError}: a request on a client that was closed. */
  | "DOMAINAPI_CLIENT_CLOSED"
  /** `InvalidArgumentError`: a `getContacts` argument that cannot be used. */
  | "DOMAINAPI_INVALID_ARGUMENT"
  /** `ContactsListingError` of kind `changed`: the contacts kept changing while listed. */
  | "DOMAINAPI_CONTACTS_CHANGED"
  /** `ContactsListingError` of kind `inconsistent`: the API's pages contradict each other. */
  | "DOMAINAPI_CONTACTS_INCONSISTENT"
  /** `PartialFailure`: part of an operation was applied; the state records what was reached. */
  | "DOMAINAPI_PARTIAL_FAILURE"
  /** `PreviewInputError`: `domainapi-plan` was given something that is not a preview. */
  | "DOMAINAPI_PREVIEW_INPUT"
  /** `UnattributableAnswerError`: a request applied, but the ids it was answered with cannot be attributed. */
  | "DOMAINAPI_UNATTRIBUTABLE_ANSWER"
  /** `UnreviewedPlanError`: `DOMAINAPI_EXPECT_PLAN` is set and a template's plan is not the reviewed one. */
  | "DOMAINAPI_UNREVIEWED_PLAN"
  /** `RecoveryLimitError`: records kept vanishing while the provider recovered. */
  | "DOMAINAPI_RECOVERY_LIMIT"
  /** `EngineGoneError`: the Pulumi engine that started the provider is gone; nothing more is sent. */
  | "DOMAINAPI_ENGINE_GONE"
  /** `ConcurrentRunError`: another live run is sending to the same resource's template. */
  | "DOMAINAPI_CONCURRENT_RUN"
  /** The intent journal could not be written before a request: nothing was sent. */
  | "DOMAINAPI_JOURNAL_UNWRITABLE";

/**
 * The base of every error of this package: a stable {@link DomainApiBaseError.code | code}, and an
 * `instanceof` that holds across copies of the package.
 *
 * A class of this package declares its own `brand` (`Symbol.for("pulumi-domainapi.<Class>")`);
 * each instance carries the brand of every class of its chain. A subclass defined outside the
 * package, without a brand of its own, is tested by its prototype chain.
 */
export class DomainApiBaseError extends Error {
  /** The identity of this class in every copy of the package. */
  static readonly brand: symbol = Symbol.for("pulumi-domainapi.DomainApiBaseError");
  /** The stable code of this failure; see {@link DomainApiErrorCode}. */
  readonly code: DomainApiErrorCode;

  constructor(message: string, code: DomainApiErrorCode, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    for (let c: unknown = new.target; c !== Error && typeof c === "function"; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, "brand"))
        Object.defineProperty(this, (c as typeof DomainApiBaseError).brand, { value: true });
    }
  }

  /** `instanceof` by brand, so that it holds across copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class asked about, maybe a subclass
    return isInstance(this, value);
  }
}

/** A class's own brand on `value`; a class without a brand of its own: its prototype chain. */
function isInstance(asked: typeof DomainApiBaseError, value: unknown): boolean {
  if (!Object.hasOwn(asked, "brand")) return Function.prototype[Symbol.hasInstance].call(asked, value);
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[asked.brand] === true
  );
}

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
 * undici error object, whose fields we do not control. Not thrown: its `code` is undici's.
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
 * A failed call to the Domain Management API.
 *
 * Carries what a user needs to act: the HTTP status (absent for network failures), the method and
 * path (never the base URL's credentials, never the key), the message the API gave, whether a
 * retry could help, and, for requests that change something, whether the change took effect.
 * Every string is redacted at construction, so the stack, `String(err)`, `JSON.stringify(err)` and
 * `util.inspect(err)` never hold the key.
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
export class DomainApiError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.DomainApiError");
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
  /** undici's or Node's code for network failures and timeouts, e.g. `UND_ERR_SOCKET`, `ECONNREFUSED`. */
  readonly networkCode?: string;

  constructor(init: DomainApiErrorInit, code: DomainApiErrorCode = CODE_OF_KIND[init.kind]) {
    super(
      redact(init.message, init.secret),
      code,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.kind = init.kind;
    this.method = init.method;
    this.path = redact(init.path, init.secret);
    this.retryable = init.retryable;
    this.outcome = init.outcome;
    this.attempts = init.attempts ?? 1;
    if (init.status !== undefined) this.status = init.status;
    if (init.apiMessage !== undefined) this.apiMessage = redact(init.apiMessage, init.secret);
    if (init.networkCode !== undefined) this.networkCode = init.networkCode;
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
 * diagnosed as the template itself missing (not one of its records). Its `cause` is the 404, and
 * its message keeps the API's own words, since a 404 can also mean something the diagnosis did not
 * foresee (an API not enabled, say).
 *
 * @example
 * catch (err) { if (isNotFound(err)) throw new TemplateNotFoundError(err, "web"); throw err; }
 */
export class TemplateNotFoundError extends DomainApiError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.TemplateNotFoundError");
  /** The template that was not found. */
  readonly templateId: string;

  constructor(notFound: DomainApiError, templateId: string) {
    const message =
      `DNS template ${JSON.stringify(templateId)} was not found (${answerSummary(notFound)}). ` +
      "Recreate the template at the registrar, or point templateId at an existing template.";
    super(diagnosisOf(notFound, message), "DOMAINAPI_TEMPLATE_NOT_FOUND");
    this.templateId = templateId;
  }
}

/**
 * A restore answered 404: the domain is not in the account the key belongs to (or the name is
 * wrong). Its `cause` is the 404, and its message keeps the API's own words.
 *
 * @example
 * catch (err) { if (isNotFound(err)) throw new DomainNotInAccountError(err, "shop.example"); throw err; }
 */
export class DomainNotInAccountError extends DomainApiError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.DomainNotInAccountError");
  /** The domain that was not found, as sent (the xn-- form of an IDN). */
  readonly domain: string;

  constructor(notFound: DomainApiError, domain: string) {
    const message =
      `Domain ${JSON.stringify(domain)} is not in this account (${answerSummary(notFound)}). ` +
      "Check the name, and that the API key belongs to the account that holds the domain.";
    super(diagnosisOf(notFound, message), "DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT");
    this.domain = domain;
  }
}

/**
 * The provider's configuration is missing or invalid. The message lists every problem, each with
 * both ways to fix it (stack config and environment variable), and never contains the key.
 */
export class ConfigError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.ConfigError");
  /** One line per problem, without the heading. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], secret?: string) {
    const safe = problems.map((p) => redact(p, secret));
    super(
      `pulumi-domainapi is not configured correctly:\n${safe.map((p) => `  - ${p}`).join("\n")}`,
      "DOMAINAPI_CONFIG",
    );
    this.problems = safe;
  }
}

/**
 * A request body that does not fit its wire schema, caught before anything is sent. The message
 * names the field path, e.g. `records[2].priority: expected number, received string`.
 */
export class RequestBodyError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.RequestBodyError");

  constructor(message: string) {
    super(message, "DOMAINAPI_REQUEST_BODY");
  }
}

/** A request on a client (or transport) after `close()`: a mistake of the calling code. */
export class ClientClosedError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.ClientClosedError");

  constructor(method: string, path: string) {
    super(
      `${method} ${path}: the Domain Management API client was closed before this request`,
      "DOMAINAPI_CLIENT_CLOSED",
    );
  }
}

/**
 * `DOMAINAPI_EXPECT_PLAN` is set and a change (a template's plan, a recovery, a restore) is not a reviewed one, or
 * the setting itself cannot be read. Nothing was sent for the plan.
 */
export class UnreviewedPlanError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.UnreviewedPlanError");

  constructor(message: string) {
    super(message, "DOMAINAPI_UNREVIEWED_PLAN");
  }
}
