/**
 * The API key never leaves the client: not in a message, String(err), JSON.stringify(err), a stack,
 * util.inspect, or a log line, even when the API echoes it back. Each request logs method, path,
 * status, duration and attempt.
 */
import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import { DomainApiClient, getClient } from "../../../provider/client/api";
import { Transport } from "../../../provider/client/transport";
import type { DomainApiError } from "../../../provider/errors";
import { API_KEY, apiFailure, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 1, timeoutMs: 300 });

/** Every character as a JSON `\\uXXXX` escape, as some JSON encoders write them. */
function uEscaped(text: string): string {
  return Array.from(text, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
}

/** Every character percent-encoded, as a query value echoed back may be. */
function percentEncoded(text: string): string {
  return Array.from(text, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

function renderings(err: DomainApiError): string[] {
  return [
    err.message,
    String(err),
    JSON.stringify(err),
    err.stack ?? "",
    inspect(err, { depth: 5, showHidden: true }),
    err.apiMessage ?? "",
    err.path,
  ];
}

describe("the key never appears", () => {
  const echoes = [
    [
      "401 echoing the key",
      { status: 401, body: JSON.stringify({ message: `key ${API_KEY} is not valid` }) },
    ],
    [
      "403 echoing the header",
      { status: 403, body: JSON.stringify({ error: `Bearer ${API_KEY} lacks scope` }) },
    ],
    [
      "500 echoing it as text",
      { status: 500, body: `Authorization: Bearer ${API_KEY}`, contentType: "text/plain" },
    ],
    ["503 echoing it in errors[]", { status: 503, body: JSON.stringify({ errors: [{ message: API_KEY }] }) }],
  ] as const;

  test.each(echoes)("%s", async (_name, respond) => {
    h.sandbox.addFault({ method: "GET", respond, times: 5 });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.apiMessage).toContain("[redacted]");
    for (const text of renderings(err)) expect(text).not.toContain(API_KEY);
    for (const line of h.logs) expect(line).not.toContain(API_KEY);
  });

  const escapedForms = [
    ["JSON \\u escapes", JSON.stringify({ message: `key ${uEscaped(API_KEY)} is not valid` })],
    ["every character percent-encoded", JSON.stringify({ error: `key=${percentEncoded(API_KEY)}` })],
    [
      "partly escaped",
      `{"detail":"Bearer ${uEscaped(API_KEY.slice(0, 5))}${percentEncoded(API_KEY.slice(5))}"}`,
    ],
    ["across the 500-character cut of a text body", `${"x".repeat(490)}${API_KEY}${"y".repeat(600)}`],
  ] as const;

  test.each(escapedForms)("echoed in %s", async (_name, body) => {
    h.sandbox.addFault({ method: "PUT", respond: { status: 400, body, contentType: "text/plain" } });
    const err = await apiFailure(() => h.client.putRecords("web", []));
    expect(err.apiMessage).toContain("[redacted]");
    const visible = [...renderings(err), ...h.logs];
    for (const text of visible) {
      expect(text).not.toContain(API_KEY);
      // No recognisable piece of the key either, in any of its forms.
      expect(text).not.toContain(API_KEY.slice(0, 8));
      expect(text).not.toContain(uEscaped(API_KEY.slice(0, 4)));
      expect(text).not.toContain(percentEncoded(API_KEY.slice(6, 10)));
    }
  });

  test("in a search value echoed into the path", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 400, body: "bad" } });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams({ email: API_KEY })));
    for (const text of renderings(err)) expect(text).not.toContain(API_KEY);
    for (const line of h.logs) expect(line).not.toContain(API_KEY);
  });

  test("in network failures and timeouts", async () => {
    h.sandbox.addFault({ method: "POST", drop: "before" });
    // Far slower than the 300 ms timeout, so that the timeout wins on a busy machine too.
    h.sandbox.addFault({ method: "PATCH", latencyMs: 5_000 });
    const dropped = await apiFailure(() => h.client.restoreDomain("shop.example"));
    const timedOut = await apiFailure(() =>
      h.client.patchRecords("web", { add: [{ name: "www", type: "A", content: "192.0.2.1" }] }),
    );
    for (const err of [dropped, timedOut])
      for (const text of renderings(err)) expect(text).not.toContain(API_KEY);
    expect(h.logs.length).toBeGreaterThanOrEqual(2);
    for (const line of h.logs) {
      expect(line).not.toContain(API_KEY);
      expect(line.toLowerCase()).not.toContain("bearer");
    }
  });

  test("in what util.inspect and JSON.stringify show of the client and transport objects", () => {
    // They hold the key in #private fields, which neither can reach; this checks nothing else
    // (a heap dump does contain the key: see getClient).
    const transport = new Transport(h.config, { log: () => undefined });
    const client = new DomainApiClient(h.config, { log: () => undefined });
    const cached = getClient(h.config);
    try {
      for (const value of [transport, client, cached]) {
        expect(inspect(value, { depth: 10, showHidden: true })).not.toContain(API_KEY);
        expect(JSON.stringify(value)).not.toContain(API_KEY);
      }
      expect(getClient({ ...h.config })).toBe(cached);
      expect(getClient({ ...h.config, apiKey: `${API_KEY}-other` })).not.toBe(cached);
    } finally {
      void transport.close();
      void client.close();
    }
  });
});

describe("debug logging", () => {
  test("one line per request: method, path, status, duration, attempt", async () => {
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    await h.client.putRecords("web", [{ name: "www", type: "A", content: "192.0.2.1" }]);
    await h.client.restoreDomain("shop.example");
    expect(h.logs).toHaveLength(3);
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts\?per_page=1 -> 200 in \d+ ms \(attempt 1\)$/);
    expect(h.logs[1]).toMatch(/^PUT \/v2\/dns\/templates\/web\/records -> 200 in \d+ ms \(attempt 1\)$/);
    expect(h.logs[2]).toMatch(/^POST \/v2\/domains\/shop\.example\/restore -> 204 in \d+ ms \(attempt 1\)$/);
  });

  test("a retried request logs every attempt", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 503 } });
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(h.logs).toHaveLength(2);
    expect(h.logs[0]).toMatch(
      /GET \/v2\/contacts\?per_page=1 -> 503 in \d+ ms \(attempt 1\); retrying in \d+ ms$/,
    );
    expect(h.logs[1]).toMatch(/GET \/v2\/contacts\?per_page=1 -> 200 in \d+ ms \(attempt 2\)$/);
  });

  test("failed requests are logged with their status or error code", async () => {
    h.sandbox.addFault({ method: "POST", respond: { status: 409 } });
    await apiFailure(() => h.client.restoreDomain("live.example"));
    h.sandbox.addFault({ method: "POST", drop: "before" });
    await apiFailure(() => h.client.restoreDomain("live.example"));
    expect(h.logs[0]).toMatch(/POST \/v2\/domains\/live\.example\/restore -> 409 in \d+ ms \(attempt 1\)$/);
    expect(h.logs[1]).toMatch(
      /POST \/v2\/domains\/live\.example\/restore -> UND_ERR_SOCKET in \d+ ms \(attempt 1\)$/,
    );
  });

  test("a throwing log sink does not fail the request", async () => {
    const transport = new Transport(h.config, {
      log: () => {
        throw new Error("sink broke");
      },
    });
    try {
      const res = await transport.request({ method: "GET", path: "/v2/contacts", replayable: true });
      expect(res.status).toBe(200);
    } finally {
      await transport.close();
    }
  });

  test("the default sink works without a Pulumi engine, and DOMAINAPI_DEBUG copies lines to stderr", async () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    const previous = process.env.DOMAINAPI_DEBUG;
    process.env.DOMAINAPI_DEBUG = "1";
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const transport = new Transport(h.config);
    try {
      const res = await transport.request({ method: "GET", path: "/v2/contacts", replayable: true });
      expect(res.status).toBe(200);
    } finally {
      process.stderr.write = original;
      if (previous === undefined) delete process.env.DOMAINAPI_DEBUG;
      else process.env.DOMAINAPI_DEBUG = previous;
      await transport.close();
    }
    const lines = written.filter((w) => w.includes("GET /v2/contacts -> 200"));
    expect(lines).toHaveLength(1);
    // One prefix, the sink's: not "[domainapi] domainapi: GET …".
    expect(lines[0]).toMatch(/^\[domainapi\] GET \/v2\/contacts -> 200 in \d+ ms \(attempt 1\)\n$/);
    expect(lines[0]).not.toContain(API_KEY);
  });
});
