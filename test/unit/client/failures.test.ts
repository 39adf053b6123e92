/**
 * The messages of failed requests (provider/client/failures.ts), word for word: what a user reads
 * after a refusal, a lost connection, a timeout or an answer that does not fit the spec.
 */
import { describe, expect, test } from "vitest";
import {
  bodyStart,
  type HttpFailure,
  httpError,
  isNotFound,
  type NetworkFailure,
  networkError,
  responseError,
  templateNotFound,
} from "../../../provider/client/failures";
import { type DomainApiError, TemplateNotFoundError } from "../../../provider/errors";

const KEY = "sk_test_FAILURES_0123456789";
const BUSY = "The API is busy or unavailable; try again later.";

const answer = (over: Partial<HttpFailure>): DomainApiError =>
  httpError({
    method: "GET",
    path: "/v2/contacts",
    status: 500,
    bodyText: "",
    attempts: 1,
    replayable: true,
    secret: KEY,
    ...over,
  });

const lost = (over: Partial<NetworkFailure>): DomainApiError =>
  networkError({
    method: "PUT",
    path: "/v2/dns/templates/web/records",
    networkCode: "UND_ERR_SOCKET",
    detail: "other side closed",
    timeout: false,
    timeoutMs: 30_000,
    maybeSent: true,
    replayable: true,
    attempts: 1,
    secret: KEY,
    ...over,
  });

describe("a refusal", () => {
  test("status, its text and the API's words, as a sentence; no advice where none helps", () => {
    const err = answer({ status: 422, bodyText: '{"message":"name is invalid"}' });
    expect(err.message).toBe("GET /v2/contacts returned 422 Unprocessable Entity: name is invalid.");
    expect(err.kind).toBe("http");
    expect(err.status).toBe(422);
    expect(err.apiMessage).toBe("name is invalid");
  });

  test("the API's words keep their own end punctuation", () => {
    for (const end of [".", "!", "?", "…"]) {
      expect(answer({ status: 409, bodyText: `{"message":"already there${end}"}` }).message).toBe(
        `GET /v2/contacts returned 409 Conflict: already there${end}`,
      );
    }
  });

  test("after several attempts, how many, why retries stopped, and the advice", () => {
    const err = answer({
      status: 503,
      attempts: 3,
      stopReason: "it was resent 2 time(s), as many as domainapi:maxRetries allows",
    });
    expect(err.message).toBe(
      "GET /v2/contacts returned 503 Service Unavailable (after 3 attempts): Service Unavailable. " +
        `Not resent: it was resent 2 time(s), as many as domainapi:maxRetries allows. ${BUSY}`,
    );
    expect(err.attempts).toBe(3);
    expect(err.retryable).toBe(true);
    expect(err.outcome).toBe("not-applied");
  });

  test("a status Node has no text for is shown alone", () => {
    expect(answer({ status: 599 }).message).toBe("GET /v2/contacts returned 599: HTTP 599.");
  });

  test("a refused key is an authentication failure with where to change the key", () => {
    for (const status of [401, 403]) {
      const err = answer({
        status,
        bodyText: '{"message":"invalid key"}',
        attempts: 2,
        keyAdvice: "set it here",
      });
      expect(err.kind).toBe("auth");
      expect(err.message).toBe(
        `Authentication failed: GET /v2/contacts returned ${status} ${status === 401 ? "Unauthorized" : "Forbidden"}: invalid key. Check the API key: set it here.`,
      );
      expect(err.retryable).toBe(false);
    }
  });

  test("a gateway error to a change not safe to repeat: unknown outcome, said so", () => {
    const err = answer({
      method: "PATCH",
      path: "/v2/dns/templates/web/records",
      status: 502,
      replayable: false,
    });
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      "PATCH /v2/dns/templates/web/records returned 502 Bad Gateway: Bad Gateway. The request may have reached " +
        "the API, so its outcome is unknown; it was not resent because repeating it could apply it twice.",
    );
  });
});

describe("no answer", () => {
  test("a lost connection names undici's words and code, and what to do", () => {
    const err = lost({});
    expect(err.message).toBe(
      "PUT /v2/dns/templates/web/records lost the connection (other side closed, UND_ERR_SOCKET). " +
        "The request is safe to repeat: run the operation again.",
    );
    expect(err.kind).toBe("network");
    expect(err.networkCode).toBe("UND_ERR_SOCKET");
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(true);
  });

  test("without a code only the words; after several attempts, how many", () => {
    const err = lost({ networkCode: undefined, attempts: 3 });
    expect(err.message).toBe(
      "PUT /v2/dns/templates/web/records lost the connection (other side closed) after 3 attempts. " +
        "The request is safe to repeat: run the operation again.",
    );
    expect(err.networkCode).toBeUndefined();
    expect("networkCode" in err && err.networkCode !== undefined).toBe(false);
  });

  test("a timeout names domainapi:timeoutMs and its value", () => {
    const err = lost({ timeout: true, timeoutMs: 1_500, networkCode: "UND_ERR_HEADERS_TIMEOUT" });
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe(
      "PUT /v2/dns/templates/web/records got no response within 1500 ms (domainapi:timeoutMs). " +
        "The request is safe to repeat: run the operation again.",
    );
  });

  test("the cause keeps undici's words without the key", () => {
    const err = lost({ detail: `connect failed for ${KEY}` });
    expect(err.message).not.toContain(KEY);
    expect(String((err.cause as Error).message)).not.toContain(KEY);
    expect(String((err.cause as Error).message)).toContain("connect failed for");
  });
});

describe("a 2xx that does not fit the spec", () => {
  test("names the problem and advises a report; a known cause replaces the advice", () => {
    const err = responseError({
      method: "PUT",
      path: "/v2/dns/templates/web/records",
      status: 200,
      problem: "data[0]: expected string",
      attempts: 1,
      secret: KEY,
    });
    expect(err.message).toBe(
      "PUT /v2/dns/templates/web/records returned 200 with a body that does not fit the API's specification: " +
        "data[0]: expected string. The API may have changed; please report this with the debug log (pulumi up --debug).",
    );
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    const advised = responseError({
      method: "PATCH",
      path: "/v2/dns/templates/web/records",
      status: 200,
      problem: "2 ids for 1 add",
      attempts: 2,
      secret: KEY,
      outcome: "unknown",
      advice: "Run up again.",
    });
    expect(advised.message.endsWith(": 2 ids for 1 add. Run up again.")).toBe(true);
    expect(advised.outcome).toBe("unknown");
    expect(advised.attempts).toBe(2);
  });

  test("the start of a body that is not JSON is quoted, cut and without the key", () => {
    const start = bodyStart(`<html>${KEY}${"x".repeat(100)}</html>`, KEY);
    expect(start).not.toContain(KEY);
    expect(start.startsWith('"<html>')).toBe(true);
    expect(start.length).toBeLessThan(70);
  });
});

describe("404s", () => {
  test("isNotFound: the API's 404 only", () => {
    expect(isNotFound(answer({ status: 404 }))).toBe(true);
    expect(isNotFound(answer({ status: 410 }))).toBe(false);
    expect(isNotFound(lost({}))).toBe(false);
  });

  test("templateNotFound keeps the 404's facts and names the template", () => {
    const notFound = answer({ method: "PUT", path: "/v2/dns/templates/nope/records", status: 404 });
    const err = templateNotFound(notFound, "nope");
    expect(err).toBeInstanceOf(TemplateNotFoundError);
    expect(err.message).toContain("nope");
    expect(err.status).toBe(404);
  });
});
