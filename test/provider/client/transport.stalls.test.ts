/**
 * An answer whose body stalls after its status line, and a connection lost for good: what the
 * transport reports. The sandbox cuts bodies but never stalls them, so a tiny server on loopback
 * sends the status and part of the body, then nothing.
 *
 * undici checks its body timeout on a coarse clock (about 0.5 to 1 s), so with timeoutMs 300 a
 * stalled body is given up after about a second.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { Transport } from "../../../provider/client/transport";
import { API_KEY, apiFailure, type Harness, harness } from "./helpers";

// A file's first request loads undici: seconds on a busy machine, never the point of a test.
vi.setConfig({ testTimeout: 30_000 });

let server: Server;
let base: string;
let status = 200;
let h: Harness;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json", "content-length": "100" });
    res.write('{"data":[');
    // ...and the rest never comes.
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await harness({ maxRetries: 1 });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

function transport(lines: string[]): Transport {
  return new Transport(
    { apiKey: API_KEY, baseUrl: base, timeoutMs: 300, maxRetries: 0 },
    { log: (line) => lines.push(line), info: () => undefined },
  );
}

test("a 2xx body that stalls is a timeout, named as such, and logged as a stall in the body", async () => {
  status = 200;
  const lines: string[] = [];
  const t = transport(lines);
  try {
    const err = await apiFailure(() => t.request({ method: "GET", path: "/v2/contacts", replayable: true }));
    expect(err.kind).toBe("timeout");
    expect(err.networkCode).toBe("UND_ERR_BODY_TIMEOUT");
    expect(err.message).toMatch(
      /^GET \/v2\/contacts got no response within 300 ms \(domainapi:timeoutMs\)\. /,
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^GET \/v2\/contacts -> UND_ERR_BODY_TIMEOUT in the body in \d+ ms \(attempt 1\)$/,
      ),
    ]);
  } finally {
    await t.close();
  }
});

test("a refusal whose body stalls is judged by its status", async () => {
  status = 409;
  const lines: string[] = [];
  const t = transport(lines);
  try {
    const err = await apiFailure(() => t.request({ method: "GET", path: "/v2/contacts", replayable: true }));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      "GET /v2/contacts returned 409 Conflict: Conflict. Not resent: its body was cut.",
    );
    expect(lines).toEqual([expect.stringMatching(/^GET \/v2\/contacts -> 409 in \d+ ms \(attempt 1\)$/)]);
  } finally {
    await t.close();
  }
});

test("a connection lost on every attempt says why the resends stopped", async () => {
  h.sandbox.addFault({ method: "GET", drop: "before", times: 10 });
  const err = await apiFailure(() =>
    h.transport.request({ method: "GET", path: "/v2/contacts", replayable: true }),
  );
  expect(err.message).toBe(
    "GET /v2/contacts lost the connection (other side closed; it was resent 1 time(s), as many as " +
      "domainapi:maxRetries allows, UND_ERR_SOCKET) after 2 attempts. Nothing was changed; check that the API is " +
      "reachable and try again.",
  );
});
