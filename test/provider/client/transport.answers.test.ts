/**
 * What the transport makes of each kind of answer, against the sandbox: a 2xx body that is cut,
 * is not JSON or does not fit its schema; a refusal whose body is cut; the lines it logs and tells
 * while it waits; a key that cannot travel in a header; a base URL with trailing slashes; and what a
 * released or closed transport does with the connections it holds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { openAgentCount } from "../../../provider/client/pool";
import { Transport, type TransportOptions } from "../../../provider/client/transport";
import { ClientClosedError, ConfigError } from "../../../provider/errors";
import type { ClientConfig } from "../../../provider/settings/config";
import { type Front, startFront } from "../accounts";
import { API_KEY, apiFailure, failure, type Harness, harness, requestsOf } from "./helpers";

let h: Harness;
/** Base URLs of their own (`<front>/acct-<n>`) for the same sandbox: each has an agent of its own. */
let front: Front;
beforeAll(async () => {
  h = await harness({ maxRetries: 2 });
  front = await startFront(h.sandbox.url);
});
afterAll(async () => {
  await front?.close();
  await h.close();
});
beforeEach(() => {
  h.sandbox.reset();
  h.logs.length = 0;
  h.infos.length = 0;
});

const Contacts = z.object({ data: z.array(z.unknown()) });
const list = { method: "GET", path: "/v2/contacts", replayable: true } as const;
const restore = { method: "POST", path: "/v2/domains/shop.example/restore", replayable: false } as const;

/** A transport of its own for `h`'s sandbox, its lines kept in `lines`. */
function own(config: Partial<ClientConfig> = {}, options: TransportOptions = {}) {
  const lines: string[] = [];
  const infos: string[] = [];
  const transport = new Transport(
    { ...h.config, ...config },
    { log: (l) => lines.push(l), info: (l) => infos.push(l), backoffBaseMs: 20, ...options },
  );
  return { transport, lines, infos };
}

describe("a 2xx whose body cannot be read", () => {
  test("a body that is not JSON: a response error quoting its start; a read changed nothing", async () => {
    h.sandbox.addFault({
      method: "GET",
      respond: { status: 200, body: "<html>maintenance</html>", contentType: "text/html" },
    });
    const err = await apiFailure(() => h.transport.request({ ...list, schema: Contacts }));
    expect(err.kind).toBe("response");
    expect(err.message).toBe(
      'GET /v2/contacts returned 200 with a body that does not fit the API\'s specification: the body is not JSON (it starts with "<html>maintenance</html>"). ' +
        "The API may have changed; please report this with the debug log (pulumi up --debug).",
    );
    expect(err.outcome).toBe("not-applied");
    expect(err.attempts).toBe(1);
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(1);
  });

  test("a body that does not fit the schema names the field; a change is applied, or unknown when the caller says so", async () => {
    h.sandbox.addFault({ method: "POST", respondAfterApply: { status: 200, body: '{"data":{"id":7}}' } });
    const applied = await apiFailure(() => h.transport.request({ ...restore, schema: Contacts }));
    expect(applied.kind).toBe("response");
    expect(applied.message).toContain(
      "POST /v2/domains/shop.example/restore returned 200 with a body that does not fit",
    );
    expect(applied.message).toContain("data");
    expect(applied.outcome).toBe("applied");
    h.sandbox.addFault({ method: "POST", respondAfterApply: { status: 200, body: "[]" } });
    const unknown = await apiFailure(() =>
      h.transport.request({ ...restore, schema: Contacts, unreadableOutcome: "unknown" }),
    );
    expect(unknown.outcome).toBe("unknown");
  });

  test("an empty or blank 2xx body is no body, whatever the schema", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 200, body: "  \n" } });
    const blank = await h.transport.request({ ...list, schema: Contacts });
    expect(blank).toEqual({ status: 200, body: undefined, attempts: 1 });
    const done = await h.transport.request({ ...restore, schema: Contacts });
    expect(done).toEqual({ status: 204, body: undefined, attempts: 1 });
  });

  test("a body read without a schema is not parsed", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 200, body: "not json" } });
    expect(await h.transport.request(list)).toEqual({ status: 200, body: undefined, attempts: 1 });
  });
});

describe("a body cut mid-stream", () => {
  test("a 2xx cut for a GET is resent whole; the debug line says the body was cut", async () => {
    h.sandbox.addFault({ method: "GET", cut: true });
    const answer = await h.transport.request({
      ...list,
      query: new URLSearchParams({ per_page: "20" }),
      schema: Contacts,
    });
    expect(answer.body?.data).toHaveLength(20);
    expect(answer.attempts).toBe(2);
    expect(h.logs[0]).toMatch(
      /^GET \/v2\/contacts\?per_page=20 -> \S+ in the body in \d+ ms \(attempt 1\); retrying in \d+ ms$/,
    );
    expect(h.logs[1]).toMatch(/^GET \/v2\/contacts\?per_page=20 -> 200 in \d+ ms \(attempt 2\)$/);
    // A cut is a network failure, not the API asking to wait: nothing is told at info level.
    expect(h.infos).toEqual([]);
  });

  test("a 2xx cut for a PATCH with an add is not resent: lost, outcome unknown", async () => {
    h.sandbox.addFault({ method: "PATCH", cut: true });
    const err = await apiFailure(() =>
      h.transport.request({
        method: "PATCH",
        path: "/v2/dns/templates/web/records",
        body: { add: [{ name: "www", type: "A", content: "192.0.2.1" }] },
        replayable: false,
      }),
    );
    expect(err.kind).toBe("network");
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(
      /^PATCH \/v2\/dns\/templates\/web\/records lost the connection \(.+, \S+\)\. The request may have reached the API/,
    );
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
  });

  test("a refusal whose body is cut is judged by its status, and says the body was cut", async () => {
    // The sandbox answers a GET of the records route 405; its body is cut.
    h.sandbox.addFault({ method: "GET", cut: true });
    const err = await apiFailure(() =>
      h.transport.request({ method: "GET", path: "/v2/dns/templates/web/records", replayable: true }),
    );
    expect(err.kind).toBe("http");
    expect(err.status).toBe(405);
    expect(err.message).toMatch(
      /^GET \/v2\/dns\/templates\/web\/records returned 405 Method Not Allowed: .* Not resent: its body was cut\.$/,
    );
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(/ -> 405 in \d+ ms \(attempt 1\)$/);
  });

  test("a lasting cut of a retried refusal names the bound that ended it, not the cut", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 503 }, times: 10 });
    const err = await apiFailure(() => h.transport.request(list));
    expect(err.message).toContain("(after 3 attempts)");
    expect(err.message).toContain(
      "Not resent: it was resent 2 time(s), as many as domainapi:maxRetries allows.",
    );
  });
});

describe("what the transport tells while it retries", () => {
  test("a wait for a 503 is told at info level, with the attempt it leads to; the second attempt's time is its own", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 503, retryAfter: "1" } });
    const answer = await h.transport.request(list);
    expect(answer.attempts).toBe(2);
    expect(h.infos).toHaveLength(1);
    expect(h.infos[0]).toMatch(
      /^GET \/v2\/contacts was answered 503 Service Unavailable; waiting 1\.\d s before sending it again \(attempt 2\)$/,
    );
    expect(h.logs[0]).toMatch(/-> 503 in \d+ ms \(attempt 1\); retrying in 1\d{3} ms$/);
    // The wait of at least 1 s is not counted in the second attempt's own time.
    const ms = Number(/ in (\d+) ms \(attempt 2\)$/.exec(h.logs[1] ?? "")?.[1]);
    expect(ms).toBeLessThan(1_000);
  });

  test("a throwing info sink does not fail the request", async () => {
    const { transport } = own(
      {},
      {
        info: () => {
          throw new Error("sink broke");
        },
      },
    );
    try {
      h.sandbox.addFault({ method: "GET", respond: { status: 503, retryAfter: "0" } });
      expect((await transport.request(list)).status).toBe(200);
    } finally {
      await transport.close();
    }
  });

  test("a timeout's error names the timeout; a lost connection's names undici's code", async () => {
    h.sandbox.addFault({ method: "POST", drop: "before" });
    const err = await apiFailure(() => h.transport.request(restore));
    expect(err.kind).toBe("network");
    expect(err.message).toMatch(/lost the connection \(other side closed, UND_ERR_SOCKET\)\./);
    expect(err.message).not.toContain("domainapi:timeoutMs");
  });
});

describe("settings the transport refuses or tidies", () => {
  test("a key that cannot travel in a header is refused before any request, with where to change it", async () => {
    const err = await failure(async () => new Transport({ ...h.config, apiKey: "sk_test\nline" }));
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain("DOMAINAPI_API_KEY");
    const advised = await failure(
      async () =>
        new Transport({ ...h.config, apiKey: "sk_test\nline", keyAdvice: "fix it in Pulumi.dev.yaml" }),
    );
    expect((advised as Error).message).toContain(": fix it in Pulumi.dev.yaml.");
    expect(h.sandbox.requests).toEqual([]);
  });

  test("a base URL with trailing slashes reaches the same routes", async () => {
    const { transport } = own({ baseUrl: `${h.sandbox.url}//` });
    try {
      expect((await transport.request(list)).status).toBe(200);
      expect(requestsOf(h.sandbox, "GET").map((r) => r.path)).toEqual(["/v2/contacts"]);
    } finally {
      await transport.close();
    }
  });
});

describe("connections held by a released or closed transport", () => {
  test("a released transport gives its agent back at once and takes one again only for a request", async () => {
    const before = openAgentCount();
    const t = new Transport({ ...h.config, baseUrl: `${front.url}/acct-1` }, { log: () => undefined });
    try {
      expect((await t.request(list)).status).toBe(200);
      expect(openAgentCount()).toBe(before + 1);
      await t.release();
      expect(openAgentCount()).toBe(before);
      expect((await t.request(list)).status).toBe(200);
      expect(openAgentCount()).toBe(before);
    } finally {
      await t.close();
    }
  });

  test("a transport released or closed during a request keeps its agent until the request ends", async () => {
    const before = openAgentCount();
    for (const [n, end] of [
      [2, "release"],
      [3, "close"],
    ] as const) {
      const t = new Transport({ ...h.config, baseUrl: `${front.url}/acct-${n}` }, { log: () => undefined });
      h.sandbox.addFault({ method: "GET", latencyMs: 200 });
      const pending = t.request(list);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(openAgentCount(), end).toBe(before + 1);
      await (end === "release" ? t.release() : t.close());
      // The request under way still holds the agent...
      expect(openAgentCount(), end).toBe(before + 1);
      expect((await pending).status, end).toBe(200);
      // ...and gives it back as it ends.
      expect(openAgentCount(), end).toBe(before);
      await t.close();
    }
  });

  test("a closed transport refuses new requests, naming them; closing twice is harmless", async () => {
    const { transport } = own();
    await transport.close();
    await transport.close();
    const err = await failure(() => transport.request(list));
    expect(err).toBeInstanceOf(ClientClosedError);
    expect((err as Error).message).toContain("GET /v2/contacts");
  });

  test("the key goes only in the Authorization header: a failure's message never holds it", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 500, body: `{"message":"bad key ${API_KEY}"}` } });
    const err = await apiFailure(() => h.transport.request(list));
    expect(err.message).not.toContain(API_KEY);
  });
});
