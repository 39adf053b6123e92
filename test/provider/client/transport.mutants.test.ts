/**
 * Corners of the transport against the sandbox: a failure that carries no error code is still
 * told in the debug line (as `error`), a refusal answered whole says nothing of a cut body, and a
 * transport holds its keep-alive pool between requests until it is closed (once, however often it is
 * told to). The failures without a code come from a stand-in for undici's `request`, the one thing
 * the sandbox cannot make happen.
 */
import { describe, expect, test, vi } from "vitest";
import { acquireAgent, openAgentCount, releaseAgent } from "../../../provider/client/pool";
import { Transport } from "../../../provider/client/transport";
import { apiFailure, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 2 });

/** Runs `fn` with the first request of this sandbox's shared agent answered by `first` instead. */
async function withFirstAttempt(first: () => Promise<unknown>, fn: () => Promise<void>): Promise<void> {
  // The transport's own agent: the one shared by every transport of the base URL.
  const lease = acquireAgent(h.config.baseUrl);
  const spy = vi.spyOn(lease.agent, "request").mockImplementationOnce(first as never);
  try {
    await fn();
  } finally {
    spy.mockRestore();
    await releaseAgent(lease);
  }
}

describe("a failure without an error code (undici's errors carry one; anything else may not)", () => {
  const get = () => h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true });

  test("no answer: the debug line says `error`; not resent, since it is not known to pass with time", async () => {
    let message = "";
    await withFirstAttempt(
      () => Promise.reject(new Error("the connection went away")),
      async () => {
        message = (await apiFailure(get)).message;
      },
    );
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts -> error in \d+ ms \(attempt 1\)$/);
    expect(message).toBe(
      "GET /v2/contacts lost the connection (the connection went away). Nothing was changed; check that the API is reachable and try again.",
    );
    expect(h.sandbox.requests).toEqual([]);
  });

  test("a 2xx whose body fails: the debug line says `error in the body`; not resent", async () => {
    const cut = {
      statusCode: 200,
      headers: {},
      body: { text: () => Promise.reject(new Error("the body stopped")) },
    };
    let message = "";
    await withFirstAttempt(
      () => Promise.resolve(cut),
      async () => {
        message = (await apiFailure(get)).message;
      },
    );
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts -> error in the body in \d+ ms \(attempt 1\)$/);
    expect(message).toBe(
      "GET /v2/contacts lost the connection (the body stopped). Nothing was changed; check that the API is reachable and try again.",
    );
    expect(h.sandbox.requests).toEqual([]);
  });
});

describe("a refusal answered whole", () => {
  test("its error gives the API's message, and says nothing of a cut body or a resend", async () => {
    h.sandbox.addFault({
      method: "GET",
      respond: { status: 409, body: '{"error":{"code":"conflict","message":"the list is being rebuilt"}}' },
    });
    const err = await apiFailure(() =>
      h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true }),
    );
    expect(err.status).toBe(409);
    expect(err.message).toBe("GET /v2/contacts returned 409 Conflict: the list is being rebuilt.");
  });
});

describe("the connections between requests", () => {
  test("a transport holds its keep-alive pool from its first request until it is closed", async () => {
    // A base URL of its own (the same API), so that this transport is its pool's only user.
    const t = new Transport({ ...h.config, baseUrl: `${h.sandbox.url}/` }, { log: () => undefined });
    const before = openAgentCount();
    try {
      await t.request({ method: "GET", path: "/v2/contacts", replayable: true });
      expect(openAgentCount()).toBe(before + 1);
      await t.request({ method: "GET", path: "/v2/contacts", replayable: true });
      expect(openAgentCount()).toBe(before + 1);
    } finally {
      await t.close();
    }
    expect(openAgentCount()).toBe(before);
    expect(h.sandbox.requests).toHaveLength(2);
  });

  test("a transport closed twice gives its share of the pool back once: another user's requests go on", async () => {
    const config = { ...h.config, baseUrl: `${h.sandbox.url}/` };
    const [closing, staying] = [
      new Transport(config, { log: () => undefined }),
      new Transport(config, { log: () => undefined }),
    ];
    const before = openAgentCount();
    try {
      await closing.request({ method: "GET", path: "/v2/contacts", replayable: true });
      await staying.request({ method: "GET", path: "/v2/contacts", replayable: true });
      await closing.close();
      await closing.close();
      expect(openAgentCount()).toBe(before + 1);
      const { status } = await staying.request({ method: "GET", path: "/v2/contacts", replayable: true });
      expect(status).toBe(200);
    } finally {
      await staying.close();
    }
    expect(openAgentCount()).toBe(before);
  });
});
