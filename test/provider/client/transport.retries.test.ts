/**
 * Retries on answers that mean "not now" (429, 502, 503, 504), with and without Retry-After, and
 * the answers that must not be retried (500, 4xx), against the sandbox's fault rules.
 */
import { describe, expect, test } from "vitest";
import { isNotFound } from "../../../provider/client/failures";
import { Transport } from "../../../provider/client/transport";
import { apiFailure, harness, requestsOf, useHarness } from "./helpers";

const RECORDS_PATH = "^/v2/dns/templates/[^/]+/records$";
const A_RECORD = { name: "www", type: "A", content: "192.0.2.10" } as const;

const h = useHarness({ maxRetries: 3 });

describe("429 with Retry-After", () => {
  test("in seconds: waits that long, then succeeds", async () => {
    h.sandbox.addFault({ method: "GET", path: "^/v2/contacts$", respond: { status: 429, retryAfter: "1" } });
    const started = Date.now();
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "5" }));
    const elapsed = Date.now() - started;
    expect(page.data).toHaveLength(5);
    // Never sooner than asked; the upper bound is wide (a busy machine is slow, never fast) and
    // only rules out a wait of another unit, such as the asked seconds read as minutes.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(30_000);
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([429, 200]);
    // The wait is told at info level (`pulumi up` shows it), with its length and its request.
    expect(h.infos).toEqual([
      expect.stringMatching(
        /^GET \/v2\/contacts\?per_page=5 was answered 429 Too Many Requests; waiting 1\.\d s before sending it again \(attempt 2\)$/,
      ),
    ]);
  });

  test("as an HTTP date: waits until then, then succeeds", async () => {
    // HTTP dates have whole seconds: 2 s ahead, truncated, is between 1 and 2 s away.
    const when = new Date(Date.now() + 2_000).toUTCString();
    h.sandbox.addFault({ method: "PUT", path: RECORDS_PATH, respond: { status: 429, retryAfter: when } });
    const started = Date.now();
    const ids = await h.client.putRecords("web", [A_RECORD]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(30_000);
    expect(ids).toEqual(h.sandbox.templateRecords("web")?.map((r) => r.record_id));
    expect(requestsOf(h.sandbox, "PUT").map((r) => r.status)).toEqual([429, 200]);
  });

  test("is retried even for a PATCH with adds: a 429 is a refusal, nothing was applied", async () => {
    h.sandbox.addFault({ method: "PATCH", respond: { status: 429, retryAfter: "0" } });
    const ids = await h.client.patchRecords("web", { add: [A_RECORD] });
    expect(ids).toHaveLength(1);
    expect(h.sandbox.templateRecords("web")).toHaveLength(1);
    expect(requestsOf(h.sandbox, "PATCH").map((r) => r.status)).toEqual([429, 200]);
  });

  test("does not count against maxRetries: being paced is not failing, only the total time bounds it", async () => {
    // maxRetries is 3 here; five 429s in a row are still waited out.
    h.sandbox.addFault({
      method: "GET",
      path: "^/v2/contacts$",
      every: 1,
      times: 5,
      respond: { status: 429, retryAfter: "0" },
    });
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "5" }));
    expect(page.data).toHaveLength(5);
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 200]);
  });

  test("a Retry-After longer than the client waits ends the retries at once, saying why", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 429, retryAfter: "3600" } });
    const started = Date.now();
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    // One request and no wait: far less than the hour asked, whatever the machine's load.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain("asked to wait 3600 s");
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(1);
  });

  test("the sandbox's own rate limit is ridden out", async () => {
    h.sandbox.setRateLimit({ perSecond: 1, burst: 1 });
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([200, 429, 200]);
  });
});

describe("5xx", () => {
  test("503 then success", async () => {
    h.sandbox.addFault({ method: "PUT", respond: { status: 503 }, times: 2 });
    const ids = await h.client.putRecords("web", [A_RECORD]);
    expect(ids).toHaveLength(1);
    expect(requestsOf(h.sandbox, "PUT").map((r) => r.status)).toEqual([503, 503, 200]);
    expect(h.infos).toEqual([
      expect.stringMatching(
        /^PUT \/v2\/dns\/templates\/\S+\/records was answered 503 Service Unavailable; waiting \d+\.\d s before sending it again \(attempt 2\)$/,
      ),
      expect.stringMatching(
        / was answered 503 Service Unavailable; waiting \d+\.\d s before sending it again \(attempt 3\)$/,
      ),
    ]);
  });

  test("503 is retried for the restore POST too (a refusal)", async () => {
    h.sandbox.addFault({ method: "POST", respond: { status: 503 } });
    await h.client.restoreDomain("shop.example");
    expect(h.sandbox.domainStatus("shop.example")).toBe("active");
    expect(requestsOf(h.sandbox, "POST").map((r) => r.status)).toEqual([503, 204]);
  });

  test("502 and 504 are retried for replayable requests", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 502 }, nth: 1 });
    h.sandbox.addFault({ method: "GET", respond: { status: 504 }, nth: 2 });
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([502, 504, 200]);
  });

  test("502 is not retried for a PATCH with adds: a gateway may have passed it on", async () => {
    h.sandbox.addFault({ method: "PATCH", respond: { status: 502 } });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [A_RECORD] }));
    expect(err.status).toBe(502);
    expect(err.outcome).toBe("unknown");
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
  });

  test("a 502 to a PATCH with adds is not retryable: outcome unknown, not resent, and the message says why", async () => {
    h.sandbox.addFault({ method: "PATCH", respond: { status: 502 } });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [A_RECORD] }));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(502);
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.attempts).toBe(1);
    expect(err.message).toContain("outcome is unknown");
    expect(err.message).toContain("not resent because repeating it could apply it twice");
    expect(err.message).not.toContain("try again later");
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
  });

  test("a 504 to the restore POST is not retryable either: outcome unknown, not resent", async () => {
    h.sandbox.addFault({ method: "POST", respond: { status: 504 } });
    const err = await apiFailure(() => h.client.restoreDomain("shop.example"));
    expect(err.status).toBe(504);
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("could apply it twice");
    expect(requestsOf(h.sandbox, "POST")).toHaveLength(1);
  });

  test("a lasting 502 to a PATCH without adds is retried, then retryable: it is safe to repeat", async () => {
    const [id] = h.sandbox.seedTemplate("web", [A_RECORD]);
    h.sandbox.addFault({ method: "PATCH", respond: { status: 502 }, times: 100 });
    const err = await apiFailure(() => h.client.patchRecords("web", { del: [{ record_id: id! }] }));
    expect(err.status).toBe(502);
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(true);
    expect(err.attempts).toBe(4);
    expect(err.message).toContain("try again later");
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(4);
  });

  test("500 is not retried", async () => {
    h.sandbox.addFault({ method: "PUT", respond: { status: 500, body: '{"message":"database on fire"}' } });
    const err = await apiFailure(() => h.client.putRecords("web", [A_RECORD]));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(500);
    expect(err.retryable).toBe(false);
    expect(err.apiMessage).toBe("database on fire");
    expect(err.message).toContain(
      "PUT /v2/dns/templates/web/records returned 500 Internal Server Error: database on fire",
    );
    expect(requestsOf(h.sandbox, "PUT")).toHaveLength(1);
  });

  test("a lasting 503 gives up after maxRetries resends", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 503, body: "down for maintenance" }, times: 100 });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.status).toBe(503);
    expect(err.attempts).toBe(4);
    expect(err.retryable).toBe(true);
    expect(err.apiMessage).toBe("down for maintenance");
    expect(err.message).toContain("after 4 attempts");
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(4);
  });
});

describe("4xx", () => {
  test("401: authentication failed, names both ways to set the key, not retried", async () => {
    const wrong = new Transport({ ...h.config, apiKey: "wrong-key" }, { log: () => undefined });
    try {
      const err = await apiFailure(() =>
        wrong.request({ method: "GET", path: "/v2/contacts", replayable: true }),
      );
      expect(err.kind).toBe("auth");
      expect(err.status).toBe(401);
      expect(err.retryable).toBe(false);
      expect(err.message).toContain("Authentication failed");
      expect(err.message).toContain("pulumi config set --secret domainapi:apiKey <key>");
      expect(err.message).toContain("DOMAINAPI_API_KEY");
      expect(err.message).not.toContain("wrong-key");
      expect(requestsOf(h.sandbox, "GET")).toHaveLength(1);
    } finally {
      await wrong.close();
    }
  });

  test("403 is an authentication failure too", async () => {
    h.sandbox.addFault({ method: "POST", respond: { status: 403, body: '{"detail":"key lacks scope"}' } });
    const err = await apiFailure(() => h.client.restoreDomain("shop.example"));
    expect(err.kind).toBe("auth");
    expect(err.apiMessage).toBe("key lacks scope");
    expect(requestsOf(h.sandbox, "POST")).toHaveLength(1);
  });

  test("404 of an unknown template is recognised by isNotFound", async () => {
    const err = await apiFailure(() => h.client.putRecords("no-such-template", [A_RECORD]));
    expect(isNotFound(err)).toBe(true);
    expect(err.outcome).toBe("not-applied");
    expect(err.path).toBe("/v2/dns/templates/no-such-template/records");
  });
});

describe("bounds", () => {
  test("the total time bound stops retries that would run past it", async () => {
    const bounded = await harness({ maxRetries: 10 }, { maxTotalMs: 500 });
    try {
      bounded.sandbox.addFault({ method: "GET", respond: { status: 503, retryAfter: "1" }, times: 100 });
      const started = Date.now();
      const err = await apiFailure(() => bounded.client.listContacts(new URLSearchParams()));
      // The retry was refused, not waited for and then cut short: one request, no 1 s wait.
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(err.status).toBe(503);
      expect(err.message).toContain("bound on one request");
      expect(requestsOf(bounded.sandbox, "GET")).toHaveLength(1);
    } finally {
      await bounded.close();
    }
  });

  test("maxRetries 0 sends once", async () => {
    const once = await harness({ maxRetries: 0 });
    try {
      once.sandbox.addFault({ method: "GET", respond: { status: 503 } });
      const err = await apiFailure(() => once.client.listContacts(new URLSearchParams()));
      expect(err.attempts).toBe(1);
      expect(requestsOf(once.sandbox, "GET")).toHaveLength(1);
    } finally {
      await once.close();
    }
  });
});
