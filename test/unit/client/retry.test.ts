/**
 * The retry policy on its own, without sockets or clocks: what is resent, how long it waits
 * (Retry-After forms, backoff, jitter through an injected random source, the floor) and which
 * bounds end the retries.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  backoffMs,
  decideRetry,
  isReplayable,
  MIN_WAIT_MS,
  mayHaveBeenSent,
  parseRetryAfter,
  type RetryContext,
  type RetryDecision,
  type RetryFailure,
  type RetryOptions,
} from "../../../provider/client/retry";

const OPTIONS: RetryOptions = {
  maxRetries: 4,
  maxRetryWaitMs: 60_000,
  maxTotalMs: 300_000,
  backoffBaseMs: 300,
};
const NOW = Date.parse("2026-11-23T12:00:00Z");

function decide(failure: RetryFailure, over: Partial<RetryContext> = {}, options = OPTIONS): RetryDecision {
  return decideRetry(
    {
      replayable: true,
      failure,
      attempt: 1,
      countedRetries: 0,
      elapsedMs: 0,
      now: NOW,
      random: () => 0,
      ...over,
    },
    options,
  );
}

function delayOf(decision: RetryDecision): number {
  if (!decision.retry) throw new Error(`expected a retry, got: ${decision.reason}`);
  return decision.delayMs;
}

const status = (code: number, retryAfter?: string): RetryFailure => ({
  type: "status",
  status: code,
  retryAfter,
});
const network = (code: string | undefined): RetryFailure => ({ type: "network", code });

describe("what is resent", () => {
  test("GET, PUT and a PATCH without adds are replayable; a PATCH with adds and the POST are not", () => {
    expect(isReplayable("GET")).toBe(true);
    expect(isReplayable("PUT")).toBe(true);
    expect(isReplayable("PATCH", 0)).toBe(true);
    expect(isReplayable("PATCH", 1)).toBe(false);
    expect(isReplayable("POST")).toBe(false);
  });

  test("429, 502, 503 and 504 are retried; other statuses never", () => {
    const retried = [400, 401, 403, 404, 409, 422, 429, 500, 501, 502, 503, 504, 505].filter(
      (code) => decide(status(code)).retry,
    );
    expect(retried).toEqual([429, 502, 503, 504]);
    const refused = decide(status(500));
    expect(refused).toEqual({ retry: false, reason: "a 500 answer would be the same again", bounded: false });
  });

  test("a request that must not be repeated is resent after a refusal (429, 503) but not after a 502 or 504", () => {
    const notReplayable = { replayable: false };
    expect(decide(status(429), notReplayable).retry).toBe(true);
    expect(decide(status(503), notReplayable).retry).toBe(true);
    for (const code of [502, 504]) {
      const d = decide(status(code), notReplayable);
      expect(d.retry).toBe(false);
      expect(!d.retry && d.reason).toContain("could apply it twice");
    }
  });

  test("a connection never made is retried for every request; one lost after writing only for a replayable one", () => {
    for (const code of ["ECONNREFUSED", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(decide(network(code), { replayable: false }).retry).toBe(true);
    }
    for (const code of [
      "ECONNRESET",
      "EPIPE",
      "UND_ERR_SOCKET",
      "UND_ERR_HEADERS_TIMEOUT",
      "UND_ERR_BODY_TIMEOUT",
    ]) {
      expect(decide(network(code), { replayable: true }).retry).toBe(true);
      const d = decide(network(code), { replayable: false });
      expect(d).toEqual({
        retry: false,
        reason: "the request may have reached the API, and repeating it could apply it twice",
        bounded: false,
      });
    }
  });

  test("a wrong host name, an unknown code or no code at all is not retried", () => {
    for (const code of ["ENOTFOUND", "UND_ERR_INVALID_ARG", undefined]) {
      expect(decide(network(code)).retry).toBe(false);
    }
  });

  test("only a connection never made is known not to have been sent", () => {
    expect(mayHaveBeenSent("ECONNREFUSED")).toBe(false);
    expect(mayHaveBeenSent("ENOTFOUND")).toBe(false);
    expect(mayHaveBeenSent("UND_ERR_SOCKET")).toBe(true);
    expect(mayHaveBeenSent(undefined)).toBe(true);
  });
});

describe("Retry-After", () => {
  test("delta-seconds", () => {
    expect(parseRetryAfter("2", NOW)).toBe(2000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter(["3", "9"], NOW)).toBe(3000);
  });

  test("all three HTTP-date forms", () => {
    const at = NOW + 90_000; // 2026-11-23T12:01:30Z, a Monday
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:01:30 GMT", NOW)).toBe(90_000);
    expect(parseRetryAfter("Monday, 23-Nov-26 12:01:30 GMT", NOW)).toBe(90_000);
    // asctime carries no zone; HTTP dates are always GMT.
    expect(parseRetryAfter("Mon Nov 23 12:01:30 2026", NOW)).toBe(90_000);
    expect(new Date(at).toUTCString()).toBe("Mon, 23 Nov 2026 12:01:30 GMT");
  });

  test("a date in the past is no wait, not a negative one", () => {
    expect(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", NOW)).toBe(0);
  });

  test("neither whole seconds nor an HTTP date is not a wait: a fraction is not read as a date in 2001", () => {
    for (const text of ["1.5", "0.5", "-1", "soon", "2001-01-05", "", "1e3", "Mon, 23 Nov 2026"]) {
      expect(parseRetryAfter(text, NOW)).toBeUndefined();
    }
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });

  test("the wait is the asked time plus jitter of up to half of it, at most 1 s; never less than asked", () => {
    expect(delayOf(decide(status(429, "2"), { random: () => 0 }))).toBe(2000);
    expect(delayOf(decide(status(429, "2"), { random: () => 0.5 }))).toBe(2500);
    expect(delayOf(decide(status(429, "2"), { random: () => 0.999 }))).toBe(2999);
    // Half of 1 s plus 50 ms is less than the 1 s cap.
    expect(delayOf(decide(status(503, "1"), { random: () => 0.5 }))).toBe(1275);
  });

  test("an HTTP date is waited for until then", () => {
    expect(delayOf(decide(status(503, "Mon, 23 Nov 2026 12:00:05 GMT")))).toBe(5000);
  });

  test("a fractional Retry-After falls back to backoff, with its jitter", () => {
    expect(delayOf(decide(status(429, "1.5"), { random: () => 0 }))).toBe(150);
    expect(delayOf(decide(status(429, "1.5"), { random: () => 0.5 }))).toBe(225);
  });

  test("every wait has a floor: Retry-After 0 and a date in the past do not turn into a burst", () => {
    expect(delayOf(decide(status(429, "0")))).toBe(MIN_WAIT_MS);
    expect(delayOf(decide(status(429, "Sun, 06 Nov 1994 08:49:37 GMT")))).toBe(MIN_WAIT_MS);
    expect(delayOf(decide(status(503), {}, { ...OPTIONS, backoffBaseMs: 1 }))).toBe(MIN_WAIT_MS);
    expect(delayOf(decide(status(503), {}, { ...OPTIONS, backoffBaseMs: 1, minWaitMs: 7 }))).toBe(7);
  });

  test("a Retry-After longer than the client waits ends the retries, saying why", () => {
    const d = decide(status(429, "3600"));
    expect(d).toEqual({
      retry: false,
      reason: "the API asked to wait 3600 s before retrying, longer than the 60 s this client waits",
      bounded: true,
    });
  });
});

describe("backoff and jitter", () => {
  test("doubles per attempt; half of each step is fixed and half is random", () => {
    const at = (attempt: number, r: number) => delayOf(decide(status(503), { attempt, random: () => r }));
    expect([1, 2, 3, 4].map((a) => at(a, 0))).toEqual([150, 300, 600, 1200]);
    expect([1, 2, 3, 4].map((a) => at(a, 0.5))).toEqual([225, 450, 900, 1800]);
    expect(at(1, 0.999)).toBe(300);
  });

  test("jitter spreads the waits of requests that failed together", () => {
    const randoms = [0, 0.2, 0.4, 0.6, 0.8];
    const waits = new Set(randoms.map((r) => delayOf(decide(status(503), { random: () => r }))));
    expect(waits.size).toBe(randoms.length);
    const asked = new Set(randoms.map((r) => delayOf(decide(status(429, "1"), { random: () => r }))));
    expect(asked.size).toBe(randoms.length);
  });

  test("the step is capped", () => {
    expect(backoffMs(30, 300, 10_000, () => 0)).toBe(5_000);
    expect(backoffMs(30, 300, 10_000, () => 1)).toBe(10_000);
    expect(
      delayOf(decide(status(503), { attempt: 20, random: () => 0 }, { ...OPTIONS, maxBackoffMs: 2_000 })),
    ).toBe(1_000);
  });
});

describe("bounds", () => {
  test("maxRetries resends, then a bounded stop", () => {
    expect(decide(status(503), { countedRetries: 3 }).retry).toBe(true);
    expect(decide(status(503), { countedRetries: 4 })).toEqual({
      retry: false,
      reason: "it was resent 4 time(s), as many as domainapi:maxRetries allows",
      bounded: true,
    });
    expect(
      decide(network("UND_ERR_SOCKET"), { countedRetries: 0 }, { ...OPTIONS, maxRetries: 0 }).retry,
    ).toBe(false);
  });

  test("a gateway's 502 or 504 counts against maxRetries as a 503 does: only a 429 is the API pacing us", () => {
    for (const code of [502, 503, 504]) {
      expect(decide(status(code), { countedRetries: 3 })).toMatchObject({ retry: true, counted: true });
      expect(decide(status(code), { countedRetries: 4 })).toEqual({
        retry: false,
        reason: "it was resent 4 time(s), as many as domainapi:maxRetries allows",
        bounded: true,
      });
    }
  });

  test("a 429 does not count against maxRetries, and its resend is not counted", () => {
    const d = decide(status(429, "1"), { countedRetries: 4, attempt: 40 });
    expect(d).toEqual({ retry: true, delayMs: 1000, counted: false });
    expect(decide(status(503), {})).toMatchObject({ retry: true, counted: true });
  });

  test("a 429 is bounded by the total time", () => {
    const d = decide(status(429, "10"), { elapsedMs: 295_000 });
    expect(d).toEqual({
      retry: false,
      reason: "retrying would exceed the 300 s bound on one request",
      bounded: true,
    });
    expect(decide(status(429, "10"), { elapsedMs: 289_000 }).retry).toBe(true);
  });

  test("for any failure and history, a resend waits at least the floor and stays within every bound", () => {
    const failure = fc.oneof(
      fc.record({
        type: fc.constant("status" as const),
        status: fc.constantFrom(429, 500, 502, 503, 504),
        retryAfter: fc.option(
          fc.oneof(
            fc.nat(120).map(String),
            fc.constantFrom("1.5", "soon", "Sun, 06 Nov 1994 08:49:37 GMT", "Mon, 23 Nov 2026 12:00:30 GMT"),
          ),
          { nil: undefined },
        ),
      }),
      fc.record({
        type: fc.constant("network" as const),
        code: fc.constantFrom("ECONNREFUSED", "UND_ERR_SOCKET", "ENOTFOUND", undefined),
      }),
    );
    fc.assert(
      fc.property(
        failure,
        fc.boolean(),
        fc.integer({ min: 1, max: 50 }),
        fc.nat(10),
        fc.nat(400_000),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (f, replayable, attempt, countedRetries, elapsedMs, r) => {
          const d = decideRetry(
            { replayable, failure: f, attempt, countedRetries, elapsedMs, now: NOW, random: () => r },
            OPTIONS,
          );
          if (!d.retry) return;
          expect(d.delayMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
          expect(d.delayMs).toBeLessThanOrEqual(OPTIONS.maxRetryWaitMs + 1_000);
          expect(elapsedMs + d.delayMs).toBeLessThanOrEqual(OPTIONS.maxTotalMs);
          if (d.counted) expect(countedRetries).toBeLessThan(OPTIONS.maxRetries);
          if (f.type === "status" && f.status === 429) expect(d.counted).toBe(false);
        },
      ),
    );
  });
});
