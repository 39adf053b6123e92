/**
 * The lines the transport writes while it works, against the sandbox (docs/behaviour.md: one
 * debug line per attempt, an info line per wait the API asked for): the request as sent, its
 * outcome, its attempt and the wait before the next; an empty query adds no `?`; a network failure
 * is told at debug level only; a throwing debug sink fails nothing; the key is never in a line.
 */
import { describe, expect, test } from "vitest";
import { Transport } from "../../../provider/client/transport";
import { API_KEY, apiFailure, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 1 });
const attempt = /^(GET|PUT|PATCH|POST) (\S+) -> (.+) in \d+ ms \(attempt (\d+)\)(; retrying in (\d+) ms)?$/;

describe("debug lines", () => {
  test("one per attempt: the path and query as sent, the status, the attempt", async () => {
    await h.transport.request({
      method: "GET",
      path: "/v2/contacts",
      query: new URLSearchParams({ per_page: "2" }),
      replayable: true,
    });
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(attempt);
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts\?per_page=2 -> 200 in \d+ ms \(attempt 1\)$/);
  });

  test("an empty query adds no question mark, to the line or to the request", async () => {
    await h.transport.request({
      method: "GET",
      path: "/v2/contacts",
      query: new URLSearchParams(),
      replayable: true,
    });
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts -> 200 in /);
    expect(h.sandbox.requests.map((r) => r.path)).toEqual(["/v2/contacts"]);
  });

  test("a resent request: the refused attempt says when it is retried; the wait is told at info level", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 503, retryAfter: "0" } });
    await h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true });
    expect(h.logs).toHaveLength(2);
    const [first, second] = h.logs.map((line) => attempt.exec(line));
    expect(first?.slice(1, 5)).toEqual(["GET", "/v2/contacts", "503", "1"]);
    expect(Number(first?.[6])).toBeGreaterThanOrEqual(100);
    expect(second?.slice(1, 5)).toEqual(["GET", "/v2/contacts", "200", "2"]);
    expect(second?.[5]).toBeUndefined();
    expect(h.infos).toHaveLength(1);
  });

  test("a dropped connection is resent with a debug line only: no wait was asked for", async () => {
    h.sandbox.addFault({ method: "GET", drop: "before" });
    await h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true });
    expect(h.logs).toHaveLength(2);
    expect(attempt.exec(h.logs[0]!)?.[3]).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    expect(attempt.exec(h.logs[0]!)?.[5]).toMatch(/^; retrying in \d+ ms$/);
    expect(h.infos).toEqual([]);
  });

  test("the last attempt of a failed request says no retry", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 500 } });
    await apiFailure(() => h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true }));
    expect(h.logs).toHaveLength(1);
    expect(h.logs[0]).toMatch(/^GET \/v2\/contacts -> 500 in \d+ ms \(attempt 1\)$/);
  });

  test("a debug sink that throws fails nothing, and the key is in no line", async () => {
    const lines: string[] = [];
    const t = new Transport(h.config, {
      log: (line) => {
        lines.push(line);
        throw new Error("sink down");
      },
      info: () => undefined,
      backoffBaseMs: 1,
    });
    try {
      h.sandbox.addFault({ method: "GET", respond: { status: 503, retryAfter: "0" } });
      const { status, attempts } = await t.request({
        method: "GET",
        path: "/v2/contacts",
        query: new URLSearchParams({ email: API_KEY }),
        replayable: true,
      });
      expect({ status, attempts }).toEqual({ status: 200, attempts: 2 });
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).not.toContain(API_KEY);
    } finally {
      await t.close();
    }
  });
});
