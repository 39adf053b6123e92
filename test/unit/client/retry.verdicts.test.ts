/**
 * What a failure means for the user (provider/client/retry.ts's verdicts): whether the change took
 * effect, whether running the operation again could succeed, and the sentence the message ends
 * with; and the network codes the policy knows, each on its side of "may have reached the API".
 */
import { describe, expect, test } from "vitest";
import {
  answerVerdict,
  decideRetry,
  mayHaveBeenSent,
  networkVerdict,
  parseRetryAfter,
  type RetryContext,
  unreadableVerdict,
} from "../../../provider/client/retry";
import { API_KEY_HINT } from "../../../provider/settings/config";

const BUSY = "The API is busy or unavailable; try again later.";
const UNKNOWN =
  "The request may have reached the API, so its outcome is unknown; it was not resent because " +
  "repeating it could apply it twice.";

describe("the verdict on an answer", () => {
  test("a refused key: nothing applied, not worth repeating, the advice names where the key comes from", () => {
    for (const status of [401, 403]) {
      expect(answerVerdict(status, "PUT", true)).toEqual({
        outcome: "not-applied",
        retryable: false,
        advice: `Check the API key: ${API_KEY_HINT}.`,
      });
      expect(answerVerdict(status, "GET", true, "set DOMAINAPI_API_KEY in the environment").advice).toBe(
        "Check the API key: set DOMAINAPI_API_KEY in the environment.",
      );
    }
  });

  test("a refusal (429, 503) applied nothing and passes with time, even for a request not safe to repeat", () => {
    for (const status of [429, 503]) {
      for (const method of ["GET", "PATCH", "POST"]) {
        expect(answerVerdict(status, method, false)).toEqual({
          outcome: "not-applied",
          retryable: true,
          advice: BUSY,
        });
      }
    }
  });

  test("a gateway's 502/504: a change may have been applied; repeating it is advised only when safe", () => {
    for (const status of [502, 504]) {
      expect(answerVerdict(status, "PATCH", false)).toEqual({
        outcome: "unknown",
        retryable: false,
        advice: UNKNOWN,
      });
      expect(answerVerdict(status, "POST", false)).toEqual({
        outcome: "unknown",
        retryable: false,
        advice: UNKNOWN,
      });
      expect(answerVerdict(status, "PUT", true)).toEqual({
        outcome: "unknown",
        retryable: true,
        advice: BUSY,
      });
      // A GET changes nothing, whatever the gateway did with it.
      expect(answerVerdict(status, "GET", true)).toEqual({
        outcome: "not-applied",
        retryable: true,
        advice: BUSY,
      });
    }
  });

  test("any other status applied nothing and would be answered the same: no advice beyond the API's words", () => {
    for (const status of [400, 404, 409, 422, 500, 501]) {
      expect(answerVerdict(status, "PUT", true)).toEqual({
        outcome: "not-applied",
        retryable: false,
        advice: "",
      });
      expect(answerVerdict(status, "POST", false)).toEqual({
        outcome: "not-applied",
        retryable: false,
        advice: "",
      });
    }
  });
});

describe("the verdict on a request that got no answer", () => {
  const NOTHING = "Nothing was changed; check that the API is reachable and try again.";

  test("a connection never made, or a GET: nothing changed, worth trying again", () => {
    expect(networkVerdict("POST", false, false)).toEqual({
      outcome: "not-applied",
      retryable: true,
      advice: NOTHING,
    });
    expect(networkVerdict("GET", true, true)).toEqual({
      outcome: "not-applied",
      retryable: true,
      advice: NOTHING,
    });
  });

  test("a change that may have been sent: unknown; run again only when it is safe to repeat", () => {
    expect(networkVerdict("PUT", true, true)).toEqual({
      outcome: "unknown",
      retryable: true,
      advice: "The request is safe to repeat: run the operation again.",
    });
    expect(networkVerdict("PATCH", true, false)).toEqual({
      outcome: "unknown",
      retryable: false,
      advice: UNKNOWN,
    });
  });
});

describe("the verdict on a 2xx whose body does not fit the spec", () => {
  const REPORT = "The API may have changed; please report this with the debug log (pulumi up --debug).";

  test("a change was applied (the API said so), a read changed nothing; neither is worth repeating", () => {
    expect(unreadableVerdict("PUT")).toEqual({ outcome: "applied", retryable: false, advice: REPORT });
    expect(unreadableVerdict("GET")).toEqual({ outcome: "not-applied", retryable: false, advice: REPORT });
  });

  test("unless the body was the only account of what was done", () => {
    expect(unreadableVerdict("PATCH", "unknown")).toEqual({
      outcome: "unknown",
      retryable: false,
      advice: REPORT,
    });
  });
});

describe("network codes", () => {
  const decide = (code: string, replayable: boolean) =>
    decideRetry(
      {
        replayable,
        failure: { type: "network", code },
        attempt: 1,
        countedRetries: 0,
        elapsedMs: 0,
        random: () => 0,
      },
      { maxRetries: 2, maxRetryWaitMs: 60_000, maxTotalMs: 300_000, backoffBaseMs: 300 },
    );

  test("an unreachable host or network: never sent, and not a failure that passes with time", () => {
    for (const code of ["EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND"]) {
      expect(mayHaveBeenSent(code), code).toBe(false);
      expect(decide(code, true)).toEqual({
        retry: false,
        reason: `${code} is not a failure that passes with time`,
        bounded: false,
      });
    }
  });

  test("a refused connection, a failed name lookup and a connect timeout: never sent, resent for any request", () => {
    for (const code of ["ECONNREFUSED", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(mayHaveBeenSent(code), code).toBe(false);
      expect(decide(code, false), code).toMatchObject({ retry: true, counted: true });
    }
  });

  test("a TCP timeout and a body shorter than its Content-Length: maybe sent, resent only when safe to repeat", () => {
    for (const code of ["ETIMEDOUT", "UND_ERR_RES_CONTENT_LENGTH_MISMATCH", "EPIPE", "ECONNRESET"]) {
      expect(mayHaveBeenSent(code), code).toBe(true);
      expect(decide(code, true), code).toMatchObject({ retry: true });
      expect(decide(code, false), code).toMatchObject({ retry: false, bounded: false });
    }
  });

  test("no code at all is named as such in the reason", () => {
    const d = decideRetry(
      {
        replayable: true,
        failure: { type: "network", code: undefined },
        attempt: 1,
        countedRetries: 0,
        elapsedMs: 0,
      },
      { maxRetries: 2, maxRetryWaitMs: 60_000, maxTotalMs: 300_000, backoffBaseMs: 300 },
    );
    expect(d).toEqual({
      retry: false,
      reason: "this failure is not a failure that passes with time",
      bounded: false,
    });
  });
});

describe("the edges of the bounds", () => {
  const NOW = Date.parse("2026-11-23T12:00:00Z");
  const OPTIONS = { maxRetries: 4, maxRetryWaitMs: 60_000, maxTotalMs: 300_000, backoffBaseMs: 300 };
  const decide503 = (over: Partial<RetryContext>) =>
    decideRetry(
      {
        replayable: true,
        failure: { type: "status", status: 503 },
        attempt: 1,
        countedRetries: 0,
        elapsedMs: 0,
        now: NOW,
        random: () => 0,
        ...over,
      },
      OPTIONS,
    );

  test("a Retry-After of exactly the longest wait is waited", () => {
    expect(decide503({ failure: { type: "status", status: 503, retryAfter: "60" } })).toEqual({
      retry: true,
      delayMs: 60_000,
      counted: true,
    });
  });

  test("a wait that ends exactly at the total bound is still taken", () => {
    expect(
      decide503({ failure: { type: "status", status: 503, retryAfter: "10" }, elapsedMs: 290_000 }),
    ).toEqual({
      retry: true,
      delayMs: 10_000,
      counted: true,
    });
  });

  test("an HTTP date further than the longest wait names the wait in whole seconds, rounded up", () => {
    const d = decide503({
      failure: { type: "status", status: 503, retryAfter: "Mon, 23 Nov 2026 12:01:30 GMT" },
      now: NOW + 500,
    });
    expect(d).toEqual({
      retry: false,
      reason: "the API asked to wait 90 s before retrying, longer than the 60 s this client waits",
      bounded: true,
    });
  });

  test("a date of the right form that is no real day is not a wait: backoff instead", () => {
    expect(parseRetryAfter("Mon, 99 Nov 2026 12:00:00 GMT", NOW)).toBeUndefined();
    expect(
      decide503({ failure: { type: "status", status: 503, retryAfter: "Mon, 99 Nov 2026 12:00:00 GMT" } }),
    ).toEqual({
      retry: true,
      delayMs: 150,
      counted: true,
    });
  });

  test("without a clock or a random source of its own, the policy uses the process's", () => {
    const d = decideRetry(
      {
        replayable: true,
        failure: { type: "status", status: 503 },
        attempt: 1,
        countedRetries: 0,
        elapsedMs: 0,
      },
      OPTIONS,
    );
    expect(d.retry && d.delayMs).toBeGreaterThanOrEqual(150);
    expect(d.retry && d.delayMs).toBeLessThanOrEqual(300);
    const inFive = new Date(Math.ceil((Date.now() + 5_000) / 1000) * 1000 + 1000).toUTCString();
    const dated = decideRetry(
      {
        replayable: true,
        failure: { type: "status", status: 503, retryAfter: inFive },
        attempt: 1,
        countedRetries: 0,
        elapsedMs: 0,
        random: () => 0,
      },
      OPTIONS,
    );
    expect(dated.retry && dated.delayMs).toBeGreaterThan(4_000);
    expect(dated.retry && dated.delayMs).toBeLessThan(8_000);
  });

  test("backoff steps stop growing at 10 s unless told otherwise", () => {
    expect(decide503({ attempt: 20 })).toEqual({ retry: true, delayMs: 5_000, counted: true });
    expect(decide503({ attempt: 20, random: () => 0.999 })).toMatchObject({ delayMs: 9_995 });
  });
});
