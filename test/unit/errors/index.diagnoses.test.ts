/**
 * The errors as a user reads them (docs/design.md, "Errors"): the one-line account of the answer
 * inside a diagnosis (a status HTTP does not name, a request that got no answer, the API's words
 * left out when they only repeat the status), the settings' list of problems, a closed client,
 * and the fields an error carries when logged as JSON, never the key.
 */
import { describe, expect, test } from "vitest";
import {
  ClientClosedError,
  ConfigError,
  DomainApiError,
  type DomainApiErrorInit,
  NetworkCause,
  TemplateNotFoundError,
} from "../../../provider/errors";

const KEY = "sk_live_diagnoses_77f1";

const base: DomainApiErrorInit = {
  message: "m",
  kind: "http",
  method: "PUT",
  path: "/v2/dns/templates/web/records",
  retryable: true,
  outcome: "not-applied",
};

describe("the account of the answer inside a diagnosis", () => {
  test("a status HTTP names, with the API's words quoted", () => {
    const cause = new DomainApiError({ ...base, status: 404, apiMessage: "no such template" });
    expect(new TemplateNotFoundError(cause, "web").message).toContain(
      '(PUT /v2/dns/templates/web/records returned 404 Not Found: "no such template")',
    );
  });

  test("a status HTTP does not name: the number alone", () => {
    const cause = new DomainApiError({ ...base, status: 499 });
    expect(new TemplateNotFoundError(cause, "web").message).toContain(
      "(PUT /v2/dns/templates/web/records returned 499)",
    );
  });

  test("the API's words that only repeat the status text are not quoted again", () => {
    const cause = new DomainApiError({ ...base, status: 404, apiMessage: "Not Found" });
    expect(new TemplateNotFoundError(cause, "web").message).toContain(
      "(PUT /v2/dns/templates/web/records returned 404 Not Found)",
    );
  });

  test("a request that got no answer failed", () => {
    const cause = new DomainApiError({ ...base, kind: "network", networkCode: "ECONNRESET" });
    expect(new TemplateNotFoundError(cause, "web").message).toContain(
      "(PUT /v2/dns/templates/web/records failed)",
    );
  });

  test("a diagnosis is not worth repeating, and keeps the cause's outcome and attempts", () => {
    const cause = new DomainApiError({ ...base, status: 404, outcome: "unknown", attempts: 3 });
    const err = new TemplateNotFoundError(cause, "web");
    expect({
      retryable: err.retryable,
      outcome: err.outcome,
      attempts: err.attempts,
      kind: err.kind,
    }).toEqual({
      retryable: false,
      outcome: "unknown",
      attempts: 3,
      kind: "http",
    });
    expect(err.networkCode).toBeUndefined();
  });
});

describe("a DomainApiError", () => {
  test("counts one attempt unless told, and leaves out what it was not given", () => {
    const err = new DomainApiError(base);
    expect(err.attempts).toBe(1);
    expect(err.status).toBeUndefined();
    expect(err.apiMessage).toBeUndefined();
    expect(err.networkCode).toBeUndefined();
    expect(err.cause).toBeUndefined();
    expect(err.name).toBe("DomainApiError");
    expect(err.code).toBe("DOMAINAPI_HTTP");
  });

  test("as JSON: every fact a log needs, the key nowhere", () => {
    const err = new DomainApiError({
      ...base,
      message: `refused ${KEY}`,
      kind: "auth",
      status: 401,
      apiMessage: `bad key ${KEY}`,
      path: `/v2/contacts?k=${KEY}`,
      retryable: false,
      attempts: 2,
      networkCode: "X",
      secret: KEY,
      cause: new NetworkCause(`socket ${KEY}`, "ECONNRESET", KEY),
    });
    expect(err.toJSON()).toEqual({
      name: "DomainApiError",
      code: "DOMAINAPI_AUTH",
      message: "refused [redacted]",
      kind: "auth",
      status: 401,
      method: "PUT",
      path: "/v2/contacts?k=[redacted]",
      apiMessage: "bad key [redacted]",
      retryable: false,
      outcome: "not-applied",
      attempts: 2,
      networkCode: "X",
    });
    expect((err.cause as Error).message).toBe("socket [redacted]");
    expect((err.cause as NetworkCause).code).toBe("ECONNRESET");
    expect((err.cause as Error).name).toBe("NetworkCause");
  });

  test("each kind has its code", () => {
    const codes = (["http", "auth", "network", "timeout", "response"] as const).map(
      (kind) => new DomainApiError({ ...base, kind }).code,
    );
    expect(codes).toEqual([
      "DOMAINAPI_HTTP",
      "DOMAINAPI_AUTH",
      "DOMAINAPI_NETWORK",
      "DOMAINAPI_TIMEOUT",
      "DOMAINAPI_RESPONSE",
    ]);
  });
});

describe("the settings' problems", () => {
  test("one line each under one heading, the key redacted in every one", () => {
    const err = new ConfigError(["domainapi:baseUrl is not set", `key ${KEY} holds a line break`], KEY);
    expect(err.message).toBe(
      "pulumi-domainapi is not configured correctly:\n  - domainapi:baseUrl is not set\n  - key [redacted] holds a line break",
    );
    expect(err.problems).toEqual(["domainapi:baseUrl is not set", "key [redacted] holds a line break"]);
    expect(err.code).toBe("DOMAINAPI_CONFIG");
    expect(err.name).toBe("ConfigError");
  });
});

describe("a closed client", () => {
  test("names the request it refused", () => {
    const err = new ClientClosedError("GET", "/v2/contacts");
    expect(err.message).toBe(
      "GET /v2/contacts: the Domain Management API client was closed before this request",
    );
    expect(err.code).toBe("DOMAINAPI_CLIENT_CLOSED");
  });
});
