/**
 * Behind a proxy, as corporate CI runners are: HTTP_PROXY, HTTPS_PROXY and NO_PROXY (upper or lower
 * case) are honoured, against a real forwarding proxy on 127.0.0.1 in front of the sandbox. The
 * key travels only in the Authorization header: never in a URL the proxy sees, never in a log line.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { startSandbox } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import { API_KEY, failure, type Sandbox } from "./helpers";

/** What the proxy was asked: the request line's target and the headers. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

interface Proxy {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A small HTTP proxy: absolute-form requests are forwarded, CONNECT is tunnelled. */
async function startProxy(): Promise<Proxy> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const target = new URL(req.url ?? "");
    const { "proxy-authorization": _auth, "proxy-connection": _pc, ...headers } = req.headers;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PROXY_VARS = [
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;
const saved = Object.fromEntries(PROXY_VARS.map((v) => [v, process.env[v]]));

let sandbox: Sandbox;
let proxy: Proxy;
let logs: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, port: 0 });
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});
afterEach(() => {
  for (const v of PROXY_VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  proxy.seen.length = 0;
  sandbox.reset();
});

/** Sets exactly these proxy variables (the others unset), then lists contacts through a new client. */
async function listWith(env: Partial<Record<(typeof PROXY_VARS)[number], string>>, baseUrl = sandbox.url) {
  for (const v of PROXY_VARS) delete process.env[v];
  Object.assign(process.env, env);
  logs = [];
  const client = new DomainApiClient(
    { apiKey: API_KEY, baseUrl, timeoutMs: 2_000, maxRetries: 0 },
    { log: (line) => logs.push(line), info: (line) => logs.push(line) },
  );
  try {
    return await client.listContacts(new URLSearchParams({ per_page: "2", email: "%@example.com" }));
  } finally {
    await client.close();
  }
}

/** Nothing the proxy saw in a URL, and no log line, holds the key. */
function expectKeyKeptFromProxyAndLogs(): void {
  for (const s of proxy.seen) expect(s.url).not.toContain(API_KEY);
  for (const line of logs) expect(line).not.toContain(API_KEY);
}

describe("HTTP_PROXY and NO_PROXY", () => {
  test.each(["HTTP_PROXY", "http_proxy"] as const)("%s: the request goes through the proxy", async (name) => {
    const page = await listWith({ [name]: proxy.url });
    expect(page.data).toHaveLength(2);
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]?.method).toBe("GET");
    expect(proxy.seen[0]?.url).toBe(`${sandbox.url}/v2/contacts?per_page=2&email=%25%40example.com`);
    expect(sandbox.requests).toHaveLength(1);
    expectKeyKeptFromProxyAndLogs();
  });

  test.each([
    ["NO_PROXY", "127.0.0.1"],
    ["no_proxy", "localhost,127.0.0.1"],
    ["NO_PROXY", "*"],
  ] as const)("%s=%s: the request bypasses the proxy", async (name, value) => {
    const page = await listWith({ HTTP_PROXY: proxy.url, [name]: value });
    expect(page.data).toHaveLength(2);
    expect(proxy.seen).toHaveLength(0);
    expect(sandbox.requests).toHaveLength(1);
  });

  test("a NO_PROXY entry for another host does not bypass it", async () => {
    await listWith({ HTTP_PROXY: proxy.url, NO_PROXY: "api.example.com,.internal" });
    expect(proxy.seen).toHaveLength(1);
  });

  test("the proxy's own credentials go to the proxy as Proxy-Authorization and into no log line", async () => {
    const withUser = proxy.url.replace("http://", "http://ci-user:proxy-pass-77@");
    await listWith({ HTTP_PROXY: withUser });
    expect(proxy.seen[0]?.headers["proxy-authorization"]).toBe(
      `Basic ${Buffer.from("ci-user:proxy-pass-77").toString("base64")}`,
    );
    for (const line of logs) expect(line).not.toContain("proxy-pass-77");
    expectKeyKeptFromProxyAndLogs();
  });
});

describe("HTTPS_PROXY", () => {
  test.each(["HTTPS_PROXY", "https_proxy"] as const)(
    "%s: an https base URL is tunnelled (CONNECT host:port only; the key stays inside the tunnel)",
    async (name) => {
      // The sandbox speaks plain HTTP, so the TLS handshake inside the tunnel fails: what matters
      // is that the request went to the proxy, and what the proxy saw.
      const port = new URL(sandbox.url).port;
      const err = await failure(() => listWith({ [name]: proxy.url }, `https://127.0.0.1:${port}`));
      expect(String(err)).not.toContain(API_KEY);
      expect(proxy.seen).toEqual([expect.objectContaining({ method: "CONNECT", url: `127.0.0.1:${port}` })]);
      expect(proxy.seen[0]?.headers.authorization).toBeUndefined();
      expect(sandbox.requests).toHaveLength(0);
      expectKeyKeptFromProxyAndLogs();
    },
  );
});
