/**
 * The client against APIs that are not our sandbox's default: each sandbox "personality" is another
 * answer the spec allows where it says "not shown" (numeric ids, URL forwards that name the records
 * they create, null strings, error body shapes, fractional Retry-After, bodies cut mid-stream with
 * Range ignored, keep-alive connections closed after a short idle time).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ERROR_SHAPES } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { apiFailure, type Harness, harness, requestsOf } from "./helpers";

const WWW = { name: "www", type: "A", content: "192.0.2.10" } as const;
const MX = { name: "@", type: "MX", content: "mx.example.net", priority: 10 } as const;
const FORWARD = { name: "go", type: "URLFWD", content: "https://example.org/" } as const;

/** One harness per describe block, with the given sandbox personality, reset before each test. */
function useApi(
  sandboxOptions: Record<string, unknown>,
  overrides: Parameters<typeof harness>[0] = {},
): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await harness({ maxRetries: 3, ...overrides }, {}, sandboxOptions));
  });
  afterAll(async () => {
    await h.close?.();
  });
  beforeEach(() => {
    h.sandbox.reset();
    h.logs.length = 0;
  });
  return h;
}

describe("record ids sent as numbers", () => {
  const h = useApi({ numericIds: true });

  test("PUT and PATCH answers are read as strings, and the ids address the records", async () => {
    const ids = await h.client.putRecords("web", [WWW, MX]);
    expect(ids).toEqual(h.sandbox.templateRecords("web")?.map((r) => String(r.record_id)));
    for (const id of ids) expect(id).toMatch(/^\d+$/);
    const [added] = await h.client.patchRecords("web", { add: [{ ...WWW, name: "api" }] });
    expect(added).toMatch(/^\d+$/);
    await h.client.patchRecords("web", {
      update: [{ record_id: ids[0]!, name: "www", content: "192.0.2.11" }],
      del: [{ record_id: added! }],
    });
    expect(h.sandbox.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.11", "mx.example.net"]);
  });
});

describe("a URL forward answered with the ids of the A and AAAA records it brings", () => {
  const h = useApi({ urlForwardCreatesRecords: true });

  test("PATCH: a URL forward added alone may be answered with its ids and those of its A and AAAA records", async () => {
    const ids = await h.client.patchRecords("web", { add: [FORWARD] });
    expect(ids).toHaveLength(3);
    expect(new Set(ids)).toEqual(new Set(h.sandbox.templateRecords("web")?.map((r) => r.record_id)));
    expect(
      h.sandbox
        .templateRecords("web")
        ?.map((r) => r.type)
        .sort(),
    ).toEqual(["A", "AAAA", "URLFWD"]);
  });

  test("PATCH: three ids for one add that is no forward are of unknown outcome, saying why, and not resent", async () => {
    h.sandbox.addFault({
      method: "PATCH",
      respondAfterApply: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ record_id: ["x-1", "x-2", "x-3"] }),
      },
    });
    const err = await apiFailure(() =>
      h.client.patchRecords("web", { add: [{ name: "www", type: "A", content: "192.0.2.1" }] }),
    );
    expect(err.kind).toBe("response");
    expect(err.code).toBe("DOMAINAPI_RESPONSE");
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("expected 1 record id(s), one per added record, got 3");
    expect(err.message).toContain("cannot be matched one-to-one");
    expect(err.message).toContain("URL forward");
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
    // The record was created: "applied and forgotten" would lose it.
    expect(h.sandbox.templateRecords("web")?.map((r) => r.type)).toEqual(["A"]);
  });

  test("PUT: a count mismatch still fails loudly, as applied", async () => {
    // The spec promises one id per submitted record; an answer of another count, as a service
    // might give for a forward in a PUT, is applied all the same.
    h.sandbox.addFault({
      method: "PUT",
      respondAfterApply: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ record_id: ["x-1", "x-2", "x-3"] }),
      },
    });
    const err = await apiFailure(() => h.client.putRecords("web", [FORWARD]));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    expect(err.message).toContain("expected 1 record id(s), one per submitted record, got 3");
  });
});

describe("contact fields sent as null", () => {
  const h = useApi({ nullStrings: true });

  test("are read as absent, so every contact of a page is listed", async () => {
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "50" }));
    expect(page.data).toHaveLength(50);
    const wire = await fetch(`${h.sandbox.url}/v2/contacts?per_page=50`, {
      headers: { authorization: `Bearer ${h.config.apiKey}` },
    }).then((r) => r.json() as Promise<{ data: Array<Record<string, unknown>> }>);
    const nulls = wire.data.flatMap((c) => Object.keys(c).filter((k) => c[k] === null));
    // The personality did serve nulls, or this test would prove nothing.
    expect(nulls.length).toBeGreaterThan(0);
    for (const contact of page.data) {
      for (const value of Object.values(contact)) expect(value).not.toBeNull();
    }
    const withNullCompany = wire.data.findIndex((c) => c.company_name === null);
    expect(withNullCompany).toBeGreaterThanOrEqual(0);
    expect(page.data[withNullCompany]?.companyName).toBeUndefined();
  });
});

describe.each(ERROR_SHAPES)("error bodies shaped %j", (errorBody) => {
  const h = useApi({ errorBody });

  test("a 404 keeps the API's words in apiMessage and in the message", async () => {
    const err = await apiFailure(() => h.client.putRecords("no-such-template", [WWW]));
    expect(err.status).toBe(404);
    expect(err.code).toBe("DOMAINAPI_HTTP");
    expect(err.apiMessage).toBeTruthy();
    expect(err.message).toContain(err.apiMessage!);
    if (errorBody === "empty") expect(err.apiMessage).toBe("Not Found");
    else expect(err.apiMessage).toMatch(/no-such-template|not found/i);
    // Never the raw JSON of a shape we know how to read.
    if (errorBody !== "html" && errorBody !== "empty") expect(err.apiMessage).not.toMatch(/^[{[]/);
  });
});

describe("Retry-After as a fraction of seconds", () => {
  const h = useApi({ retryAfter: "fraction" });

  test("is not read as a date long past (no wait): the retries back off with a floor", async () => {
    const bounded = await harness({ maxRetries: 3 }, { maxTotalMs: 1_500 }, { retryAfter: "fraction" });
    try {
      bounded.sandbox.addFault({ method: "GET", respond: { status: 429, retryAfter: "1.5" }, times: 1_000 });
      const err = await apiFailure(() => bounded.client.listContacts(new URLSearchParams()));
      expect(err.status).toBe(429);
      expect(err.message).toContain("bound on one request");
      // Backoff from 100 ms (the floor) doubling: at most a handful of requests in 1.5 s. Read as a
      // date in 2001, "1.5" was a wait of 0 to 50 ms: dozens of requests. A slow machine sends fewer.
      const sent = requestsOf(bounded.sandbox, "GET").length;
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(sent).toBeLessThanOrEqual(12);
    } finally {
      await bounded.close();
    }
  });

  test("the sandbox's rate limit, announced in fractions, is ridden out", async () => {
    h.sandbox.setRateLimit({ perSecond: 2, burst: 1 });
    for (let i = 0; i < 3; i++) await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    const statuses = requestsOf(h.sandbox, "GET").map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses).toContain(429);
  });
});

describe("Retry-After as an HTTP date", () => {
  const h = useApi({ retryAfter: "date" });

  // HTTP dates have whole seconds, so each wait is one to two seconds: a generous time limit.
  test("the sandbox's rate limit is ridden out", { timeout: 60_000 }, async () => {
    h.sandbox.setRateLimit({ perSecond: 2, burst: 1 });
    for (let i = 0; i < 3; i++) await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(requestsOf(h.sandbox, "GET").filter((r) => r.status === 200)).toHaveLength(3);
  });

  test("a date in the past is a short wait, not none", async () => {
    h.sandbox.addFault({
      method: "GET",
      respond: { status: 503, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT" },
      times: 3,
    });
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(page.data).toHaveLength(1);
    const times = requestsOf(h.sandbox, "GET").map((r) => Date.parse(r.time));
    expect(times).toHaveLength(4);
    // Each resend waited at least the floor (100 ms; the log has millisecond times).
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(95);
  });
});

describe("bodies cut mid-stream, by a server that ignores Range", () => {
  const h = useApi({ ignoreRange: true });

  test("a GET is resent whole, without a Range header, and succeeds", async () => {
    h.sandbox.addFault({ method: "GET", cut: true });
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "20" }));
    expect(page.data).toHaveLength(20);
    const gets = requestsOf(h.sandbox, "GET");
    expect(gets.map((r) => r.cut ?? false)).toEqual([true, false]);
    expect(gets.map((r) => r.range)).toEqual([undefined, undefined]);
    expect(h.logs.some((line) => line.includes("in the body") && line.includes("(attempt 1)"))).toBe(true);
  });

  test("a PUT is resent whole, never with Range, and the template holds the records once", async () => {
    h.sandbox.addFault({ method: "PUT", cut: true });
    const ids = await h.client.putRecords("web", [WWW, MX]);
    const puts = requestsOf(h.sandbox, "PUT");
    expect(puts).toHaveLength(2);
    for (const put of puts) expect(put.range).toBeUndefined();
    expect(ids).toEqual(h.sandbox.templateRecords("web")?.map((r) => r.record_id));
  });

  test("a PATCH with an add whose answer is cut is not resent: the add was applied, its id unknown", async () => {
    h.sandbox.addFault({ method: "PATCH", cut: true });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
    expect(h.sandbox.templateRecords("web")).toHaveLength(1);
  });

  test("a lasting cut ends after maxRetries resends as a network error", async () => {
    h.sandbox.addFault({ method: "GET", cut: true, times: 100 });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams({ per_page: "20" })));
    expect(err.kind).toBe("network");
    expect(err.attempts).toBe(4);
    expect(err.message).toContain("as many as domainapi:maxRetries allows");
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(4);
  });
});

describe("bodies cut mid-stream, by a server that honours Range", () => {
  const h = useApi({ cutBodies: 1 });

  test("the retry is still whole: the client never asks for a range", async () => {
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "20" }));
    expect(page.data).toHaveLength(20);
    const gets = requestsOf(h.sandbox, "GET");
    expect(gets.map((r) => r.cut ?? false)).toEqual([true, false]);
    expect(gets.every((r) => r.range === undefined)).toBe(true);
  });
});

describe("keep-alive connections closed by the server after a short idle time", () => {
  const h = useApi({ keepAliveIdleMs: 200 });

  test("requests sent around the idle time all succeed, each sent once", async () => {
    // undici checks an idle socket for a pending close before reusing it, and honours the server's
    // Keep-Alive hint; a request that met a socket closing under it would show as a second copy.
    for (let i = 0; i < 12; i++) {
      await sleep(150 + (i % 4) * 25);
      await h.client.patchRecords("web", { add: [{ ...WWW, name: `w${i}` }] });
    }
    expect(requestsOf(h.sandbox, "PATCH").map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(h.sandbox.templateRecords("web")).toHaveLength(12);
  });
});
