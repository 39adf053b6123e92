import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import {
  DomainApiError,
  extractApiMessage,
  httpError,
  isNotFound,
  isRefusalStatus,
  isTransientStatus,
  networkError,
  redact,
} from "../../provider/client/errors";

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
      code: "UND_ERR_SOCKET",
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

  test("DomainApiError.is and isNotFound recognise errors by brand", () => {
    const notFound = httpError({
      method: "PATCH",
      path: "/v2/x",
      status: 404,
      bodyText: "",
      attempts: 1,
      replayable: false,
      secret: KEY,
    });
    expect(DomainApiError.is(notFound)).toBe(true);
    expect(isNotFound(notFound)).toBe(true);
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound({ status: 404 })).toBe(false);
  });
});

describe("status classification", () => {
  test("429, 502, 503 and 504 are transient; of those only 429 and 503 are refusals", () => {
    expect([400, 404, 429, 500, 502, 503, 504].filter(isTransientStatus)).toEqual([429, 502, 503, 504]);
    expect([400, 404, 429, 500, 502, 503, 504].filter(isRefusalStatus)).toEqual([429, 503]);
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
