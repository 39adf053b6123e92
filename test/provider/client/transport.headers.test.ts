/**
 * The headers the client sends, and how it builds URLs. The sandbox does not record headers, so
 * these tests run a tiny capturing server on loopback instead: it answers 204 and remembers what
 * it was sent. Everything else is tested against the sandbox.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { Transport } from "../../../provider/client/transport";
import { API_KEY } from "./helpers";

interface Captured {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  socket: string;
}

let server: Server;
let base: string;
const captured: Captured[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      captured.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        socket: `${req.socket.remotePort}`,
      });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  captured.length = 0;
});

function transport(baseUrl = base): Transport {
  return new Transport(
    { apiKey: API_KEY, baseUrl, timeoutMs: 2_000, maxRetries: 0 },
    { log: () => undefined },
  );
}

test("a request with a body: bearer auth, JSON accept and content type, user agent with our version", async () => {
  const t = transport();
  try {
    await t.request({
      method: "PUT",
      path: "/v2/dns/templates/web/records",
      body: { records: [] },
      replayable: true,
    });
  } finally {
    await t.close();
  }
  const { version } = (await import("../../../package.json")).default as { version: string };
  const [req] = captured;
  expect(req?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(req?.headers.accept).toBe("application/json");
  expect(req?.headers["content-type"]).toBe("application/json");
  expect(req?.headers["user-agent"]).toBe(`pulumi-domainapi/${version}`);
  expect(req?.body).toBe('{"records":[]}');
});

test("a request without a body sends no content type", async () => {
  const t = transport();
  try {
    await t.request({ method: "POST", path: "/v2/domains/shop.example/restore", replayable: false });
  } finally {
    await t.close();
  }
  expect(captured[0]?.headers["content-type"]).toBeUndefined();
  expect(captured[0]?.body).toBe("");
});

test("a base URL with a path prefix keeps it; the query is appended once", async () => {
  const t = transport(`${base}/api`);
  try {
    await t.request({
      method: "GET",
      path: "/v2/contacts",
      query: new URLSearchParams([
        ["name", "a b"],
        ["status", "ok"],
        ["status", "pending_update"],
      ]),
      replayable: true,
    });
  } finally {
    await t.close();
  }
  expect(captured[0]?.url).toBe("/api/v2/contacts?name=a+b&status=ok&status=pending_update");
});

test("transports of one base URL share a keep-alive pool; closing one leaves the other working", async () => {
  const a = transport();
  const b = transport();
  // The pause lets the pool mark the connection idle again before the next request picks one.
  const idle = () => new Promise((resolve) => setTimeout(resolve, 20));
  await a.request({ method: "GET", path: "/v2/contacts", replayable: true });
  await idle();
  await b.request({ method: "GET", path: "/v2/contacts", replayable: true });
  await a.close();
  await idle();
  await b.request({ method: "GET", path: "/v2/contacts", replayable: true });
  await b.close();
  expect(captured).toHaveLength(3);
  // Both transports used the one kept-alive connection of the shared pool.
  expect(new Set(captured.map((c) => c.socket)).size).toBe(1);
  const c = transport();
  try {
    await c.request({ method: "GET", path: "/v2/contacts", replayable: true });
  } finally {
    await c.close();
  }
  expect(captured).toHaveLength(4);
});
