import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { PreviewInputError } from "../../../provider/cli/errors";
import { extractApiMessage } from "../../../provider/client/body";
import { httpError, isNotFound, networkError, responseError } from "../../../provider/client/failures";
import { answerVerdict } from "../../../provider/client/retry";
import { Transport } from "../../../provider/client/transport";
import { ContactsListingError } from "../../../provider/contacts/getContacts";
import { InvalidArgumentError } from "../../../provider/contacts/query";
import {
  ClientClosedError,
  ConfigError,
  DomainApiBaseError,
  DomainApiError,
  DomainNotInAccountError,
  RequestBodyError,
  TemplateNotFoundError,
} from "../../../provider/errors";
import { redact } from "../../../provider/errors/redact";
import { PartialFailure } from "../../../provider/host/partialFailure";

const KEY = "sk_test_ERRORS_abcdef123456";

describe("extractApiMessage", () => {
  test.each([
    ['{"message":"template not found"}', "template not found"],
    ['{"error":"rate limited"}', "rate limited"],
    ['{"error":{"code":"not_found","message":"no such domain"}}', "no such domain"],
    ['{"errors":[{"message":"first"},{"message":"second"}]}', "first; second"],
    ['{"errors":["plain one","plain two"]}', "plain one; plain two"],
    ['{"detail":"detail text","title":"Title"}', "detail text"],
    ['{"title":"Only a title"}', "Only a title"],
    ['"a JSON string"', "a JSON string"],
    ['{"message":"", "detail":"falls through empty message"}', "falls through empty message"],
    ['{"unexpected":{"shape":true}}', '{"unexpected":{"shape":true}}'],
    ["[1,2,3]", "[1,2,3]"],
    ["Bad Gateway from the proxy", "Bad Gateway from the proxy"],
    ["<html>\n<body>\u001b[31mOops</body>\n</html>", "<html> <body> [31mOops</body> </html>"],
  ])("%s -> %s", (body, expected) => {
    expect(extractApiMessage(body, 400)).toBe(expected);
  });

  test("an empty body gives the status text", () => {
    expect(extractApiMessage("", 503)).toBe("Service Unavailable");
    expect(extractApiMessage("  \n", 404)).toBe("Not Found");
    expect(extractApiMessage("", 599)).toBe("HTTP 599");
  });

  test("raw text is cut to 500 characters", () => {
    const message = extractApiMessage("x".repeat(2000), 500);
    expect(message.length).toBeLessThanOrEqual(501);
    expect(message.startsWith("x".repeat(500))).toBe(true);
  });
});

describe("redaction", () => {
  test("redact replaces every occurrence", () => {
    expect(redact(`a ${KEY} b ${KEY}`, KEY)).toBe("a [redacted] b [redacted]");
    expect(redact("nothing here", undefined)).toBe("nothing here");
  });

  test("an error built from text holding the key holds it nowhere", () => {
    const err = httpError({
      method: "GET",
      path: `/v2/contacts?email=${KEY}`,
      status: 401,
      bodyText: JSON.stringify({ message: `key ${KEY} is revoked` }),
      attempts: 1,
      replayable: true,
      secret: KEY,
    });
    expect(err.kind).toBe("auth");
    for (const text of [
      err.message,
      String(err),
      JSON.stringify(err),
      err.stack ?? "",
      inspect(err),
      err.path,
    ]) {
      expect(text).not.toContain(KEY);
    }
    expect(err.apiMessage).toBe("key [redacted] is revoked");
  });

  test("network errors of non-replayable requests say the outcome is unknown and what to do", () => {
    const err = networkError({
      method: "POST",
      path: "/v2/domains/shop.example/restore",
      networkCode: "UND_ERR_SOCKET",
      detail: "other side closed",
      timeout: false,
      timeoutMs: 1000,
      maybeSent: true,
      replayable: false,
      attempts: 1,
      secret: KEY,
    });
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("outcome is unknown");
    expect(err.message).toContain("not resent");
    expect(err.message).toContain("could apply it twice");
    // Refresh cannot see records (no GET), so it is no advice; the providers say what to do.
    expect(err.message).not.toContain("pulumi refresh");
  });

  test("isNotFound recognises the API's 404 by brand, nothing else", () => {
    const notFound = httpError({
      method: "PATCH",
      path: "/v2/x",
      status: 404,
      bodyText: "",
      attempts: 1,
      replayable: false,
      secret: KEY,
    });
    expect(notFound).toBeInstanceOf(DomainApiError);
    expect(isNotFound(notFound)).toBe(true);
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound({ status: 404 })).toBe(false);
  });
});

describe("status classification", () => {
  test("one table: 429, 502, 503 and 504 pass with time; of those only 429 and 503 are refusals", () => {
    const statuses = [400, 401, 403, 404, 409, 429, 500, 502, 503, 504];
    const retryable = (method: string, replayable: boolean) =>
      statuses.filter((s) => answerVerdict(s, method, replayable).retryable);
    const unknown = (method: string) =>
      statuses.filter((s) => answerVerdict(s, method, false).outcome === "unknown");
    expect(retryable("PUT", true)).toEqual([429, 502, 503, 504]);
    expect(retryable("POST", false)).toEqual([429, 503]);
    expect(unknown("POST")).toEqual([502, 504]);
    expect(unknown("GET")).toEqual([]);
  });

  const gateway = (method: string, status: number, replayable: boolean) =>
    httpError({ method, path: "/v2/x", status, bodyText: "", attempts: 1, replayable, secret: KEY });

  test("a 502/504 to a request that is not safe to repeat: outcome unknown, not retryable", () => {
    for (const status of [502, 504]) {
      const err = gateway("POST", status, false);
      expect(err.outcome).toBe("unknown");
      expect(err.retryable).toBe(false);
      expect(err.message).toContain("outcome is unknown");
      expect(err.message).toContain("could apply it twice");
      expect(err.message).not.toContain("try again later");
    }
  });

  test("a 502 to a request that is safe to repeat: outcome unknown, retryable", () => {
    const err = gateway("PUT", 502, true);
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("try again later");
  });

  test("a refusal is retryable even for a request that is not safe to repeat: nothing was applied", () => {
    for (const status of [429, 503]) {
      const err = gateway("POST", status, false);
      expect(err.outcome).toBe("not-applied");
      expect(err.retryable).toBe(true);
    }
  });

  test("a 500 is neither retryable nor of unknown outcome", () => {
    const err = gateway("POST", 500, false);
    expect(err.outcome).toBe("not-applied");
    expect(err.retryable).toBe(false);
    expect(err.message).not.toContain("outcome is unknown");
  });
});

describe("redaction of echoed forms of the key", () => {
  const SLASHED = "sk/live+key.42";
  const forms: Array<[string, string]> = [
    ["as is", SLASHED],
    ["with / escaped as \\/ (PHP json_encode)", "sk\\/live+key.42"],
    ["as JSON \\u escapes", "\\u0073\\u006b\\u002F\\u006cive+key.42"],
    ["percent-encoded", encodeURIComponent(SLASHED)],
    ["percent-encoded in lower case", encodeURIComponent(SLASHED).toLowerCase()],
    ["partly escaped", "sk%2flive\\u002bkey.42"],
  ];
  test.each(forms)("%s", (_what, echoed) => {
    expect(redact(`before ${echoed} after`, SLASHED)).toBe("before [redacted] after");
  });

  test("a key escaped in a JSON error body is kept out of apiMessage and message", () => {
    const bodyText = `{"message":"unknown key sk\\/live+key.42"}`;
    const err = httpError({
      method: "GET",
      path: "/v2/contacts",
      status: 400,
      bodyText,
      attempts: 1,
      replayable: true,
      secret: SLASHED,
    });
    expect(err.apiMessage).toBe("unknown key [redacted]");
    expect(err.message).not.toContain("live+key");
  });

  test("a key across the 500-character cut of a text body leaves no part of it behind", () => {
    // The key starts 10 characters before the cut: redacting after the cut would miss it.
    const bodyText = `${"x".repeat(490)}${KEY} and more`;
    const message = extractApiMessage(bodyText, 500, KEY);
    expect(message).not.toContain(KEY.slice(0, 10));
    expect(message).toContain("[redacted]");
  });

  test("any key, echoed in any of its forms anywhere in any text, never survives", () => {
    const keyChar = fc.constantFrom(..."abcXYZ0189-_./+=~!*()'%".split(""));
    const echo = (key: string, form: number) =>
      form === 0
        ? key
        : form === 1
          ? JSON.stringify(key).slice(1, -1).replaceAll("/", "\\/")
          : form === 2
            ? Array.from(key, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
            : encodeURIComponent(key);
    fc.assert(
      fc.property(
        fc.array(keyChar, { minLength: 8, maxLength: 40 }).map((cs) => cs.join("")),
        fc.string(),
        fc.string(),
        fc.integer({ min: 0, max: 3 }),
        (key, before, after, form) => {
          const echoed = echo(key, form);
          const out = redact(`${before}${echoed}${after}`, key);
          expect(out).not.toContain(echoed);
          expect(out).toContain("[redacted]");
        },
      ),
    );
  });
});

describe("stable codes and causes", () => {
  const base = { method: "GET", path: "/v2/x", attempts: 1, replayable: true, secret: KEY };
  test("every kind has its code; undici's code is networkCode, and the cause keeps its redacted message", () => {
    expect(httpError({ ...base, status: 500, bodyText: "" }).code).toBe("DOMAINAPI_HTTP");
    expect(httpError({ ...base, status: 401, bodyText: "" }).code).toBe("DOMAINAPI_AUTH");
    expect(responseError({ ...base, status: 200, problem: "p" }).code).toBe("DOMAINAPI_RESPONSE");
    const net = networkError({
      ...base,
      networkCode: "UND_ERR_SOCKET",
      detail: `other side closed ${KEY}`,
      timeout: false,
      timeoutMs: 1000,
      maybeSent: true,
    });
    expect(net.code).toBe("DOMAINAPI_NETWORK");
    expect(net.networkCode).toBe("UND_ERR_SOCKET");
    expect(net.cause).toBeInstanceOf(Error);
    expect((net.cause as { code?: string }).code).toBe("UND_ERR_SOCKET");
    expect((net.cause as Error).message).toBe("other side closed [redacted]");
    expect(inspect(net)).not.toContain(KEY);
    const timeout = networkError({
      ...base,
      networkCode: "UND_ERR_HEADERS_TIMEOUT",
      detail: "Headers Timeout Error",
      timeout: true,
      timeoutMs: 1000,
      maybeSent: true,
    });
    expect(timeout.code).toBe("DOMAINAPI_TIMEOUT");
    expect(new ConfigError(["x"]).code).toBe("DOMAINAPI_CONFIG");
    expect(new RequestBodyError("x").code).toBe("DOMAINAPI_REQUEST_BODY");
  });
});

describe("typed errors built from a 404", () => {
  const notFound = (method: string, path: string, body: string) =>
    httpError({ method, path, status: 404, bodyText: body, attempts: 2, replayable: true, secret: KEY });

  test("TemplateNotFoundError keeps the 404's facts and the API's own words beside the diagnosis", () => {
    const cause = notFound(
      "PATCH",
      "/v2/dns/templates/web/records",
      '{"message":"API v2 is not enabled for reseller account"}',
    );
    const err = new TemplateNotFoundError(cause, "web");
    expect(err).toBeInstanceOf(TemplateNotFoundError);
    expect(err).toBeInstanceOf(DomainApiError);
    expect(err).not.toBeInstanceOf(DomainNotInAccountError);
    expect(err.code).toBe("DOMAINAPI_TEMPLATE_NOT_FOUND");
    expect(err.kind).toBe("http");
    expect(err.cause).toBe(cause);
    expect(err.templateId).toBe("web");
    expect({ status: err.status, method: err.method, path: err.path, apiMessage: err.apiMessage }).toEqual({
      status: 404,
      method: "PATCH",
      path: "/v2/dns/templates/web/records",
      apiMessage: "API v2 is not enabled for reseller account",
    });
    expect(err.outcome).toBe(cause.outcome);
    expect(err.attempts).toBe(2);
    expect(isNotFound(err)).toBe(true);
    expect(err.message).toBe(
      'DNS template "web" was not found (PATCH /v2/dns/templates/web/records returned 404 Not Found: ' +
        '"API v2 is not enabled for reseller account"). Recreate the template at the registrar, or point ' +
        "templateId at an existing template.",
    );
  });

  test("DomainNotInAccountError: a restore's 404, with the API's words; an empty body adds no quote", () => {
    const err = new DomainNotInAccountError(
      notFound("POST", "/v2/domains/shop.example/restore", ""),
      "shop.example",
    );
    expect(err).toBeInstanceOf(DomainNotInAccountError);
    expect(err).not.toBeInstanceOf(TemplateNotFoundError);
    expect(err.code).toBe("DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT");
    expect(err.domain).toBe("shop.example");
    expect(err.message).toMatch(
      /^Domain "shop\.example" is not in this account \(POST \/v2\/domains\/shop\.example\/restore returned 404 Not Found\)\. Check the name/,
    );
  });
});

describe("instanceof across two copies of the package", () => {
  test("errors of one copy are instances of the other copy's classes, each of its own class only", async () => {
    vi.resetModules();
    const other = (await import(
      "../../../provider/errors/index.js"
    )) as typeof import("../../../provider/errors");
    const otherFailures = (await import(
      "../../../provider/client/failures.js"
    )) as typeof import("../../../provider/client/failures");
    expect(other.DomainApiError).not.toBe(DomainApiError);
    const theirs = new other.TemplateNotFoundError(
      otherFailures.httpError({
        method: "PUT",
        path: "/v2/x",
        status: 404,
        bodyText: "",
        attempts: 1,
        replayable: true,
        secret: KEY,
      }),
      "web",
    );
    expect(theirs instanceof DomainApiError).toBe(true);
    expect(theirs instanceof TemplateNotFoundError).toBe(true);
    expect(theirs instanceof DomainNotInAccountError).toBe(false);
    expect(new other.ConfigError(["x"]) instanceof ConfigError).toBe(true);
    expect(new other.ConfigError(["x"]) instanceof DomainApiError).toBe(false);
    expect(new other.ConfigError(["x"]) instanceof DomainApiBaseError).toBe(true);
    expect(theirs instanceof DomainApiBaseError).toBe(true);
    expect(new other.RequestBodyError("x") instanceof RequestBodyError).toBe(true);
    const ours = new ConfigError(["y"]);
    expect(ours instanceof other.ConfigError).toBe(true);
    expect(new Error("plain") instanceof DomainApiError).toBe(false);
    expect({ status: 404 } instanceof DomainApiError).toBe(false);
  });

  test("a subclass defined outside the package falls back to the prototype chain", () => {
    class Mine extends DomainApiError {}
    const mine = new Mine({
      message: "m",
      kind: "http",
      method: "GET",
      path: "/",
      retryable: false,
      outcome: "not-applied",
    });
    expect(mine instanceof Mine).toBe(true);
    expect(mine instanceof DomainApiError).toBe(true);
    const plain = new DomainApiError({
      message: "m",
      kind: "http",
      method: "GET",
      path: "/",
      retryable: false,
      outcome: "not-applied",
    });
    expect(plain instanceof Mine).toBe(false);
  });
});

describe("every public error: the base's brand and a stable code", () => {
  test("each class is a DomainApiBaseError with its code, and of its own class only", () => {
    const cases: Array<[Error, string]> = [
      [new ContactsListingError({ kind: "changed", message: "m" }, 3), "DOMAINAPI_CONTACTS_CHANGED"],
      [
        new ContactsListingError({ kind: "inconsistent", message: "m" }, 1),
        "DOMAINAPI_CONTACTS_INCONSISTENT",
      ],
      [new InvalidArgumentError("perPage", "must be 1 to 100"), "DOMAINAPI_INVALID_ARGUMENT"],
      [new PartialFailure("2nd PATCH failed", "tpl", {}, {}), "DOMAINAPI_PARTIAL_FAILURE"],
      [new PreviewInputError("the input is empty"), "DOMAINAPI_PREVIEW_INPUT"],
      [new ClientClosedError("GET", "/v2/contacts"), "DOMAINAPI_CLIENT_CLOSED"],
      [new ConfigError(["x"]), "DOMAINAPI_CONFIG"],
      [new RequestBodyError("x"), "DOMAINAPI_REQUEST_BODY"],
    ];
    for (const [err, code] of cases) {
      expect(err).toBeInstanceOf(DomainApiBaseError);
      expect(err).not.toBeInstanceOf(DomainApiError);
      expect((err as DomainApiBaseError).code).toBe(code);
      expect(err.name).toBe(err.constructor.name);
    }
    expect(cases[2]?.[0]).not.toBeInstanceOf(ContactsListingError);
    expect(new Error("plain")).not.toBeInstanceOf(DomainApiBaseError);
  });

  test("a closed transport refuses with ClientClosedError, not a bare Error", async () => {
    const transport = new Transport({
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:9",
      timeoutMs: 1000,
      maxRetries: 0,
    });
    await transport.close();
    const err = await transport
      .request({ method: "GET", path: "/v2/contacts", replayable: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientClosedError);
    expect((err as ClientClosedError).code).toBe("DOMAINAPI_CLIENT_CLOSED");
  });
});
