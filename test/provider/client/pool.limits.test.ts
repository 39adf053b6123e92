/**
 * The bounds of provider/client/pool.ts that a user (or the API's operator) sees: at most eight
 * connections to one base URL however many requests a program starts at once, an agent of its own
 * for each proxy (however the variable is spelled), and the least-recently-used cache's own limits.
 */
import { startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireAgent, LruCache, releaseAgent } from "../../../provider/client/pool";
import { Transport } from "../../../provider/client/transport";
import { type Front, startFront } from "../accounts";
import { API_KEY, type Sandbox } from "./helpers";

let sandbox: Sandbox;
let front: Front;

beforeAll(async () => {
  // Each answer takes a moment, so that requests started together are under way together.
  sandbox = await startSandbox({ apiKey: API_KEY, port: 0, latencyMs: 150 });
  front = await startFront(sandbox.url);
});
afterAll(async () => {
  await front?.close();
  await sandbox?.close();
});

describe("connections to one base URL", () => {
  test("twelve requests at once open eight connections, the rest wait for one of them", async () => {
    const t = new Transport(
      { apiKey: API_KEY, baseUrl: `${front.url}/acct-1`, timeoutMs: 5_000, maxRetries: 0 },
      { log: () => undefined },
    );
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          t.request({ method: "GET", path: "/v2/contacts", replayable: true }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      // Every connection made is still open (kept alive), so their number is how many were made.
      expect(front.open.size).toBe(8);
    } finally {
      await t.close();
    }
  });
});

describe("one agent per proxy setting", () => {
  const names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"] as const;

  async function withProxies(
    values: Partial<Record<(typeof names)[number], string>>,
    run: () => Promise<void>,
  ) {
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) delete process.env[n];
    Object.assign(process.env, values);
    try {
      await run();
    } finally {
      for (const n of names) {
        const value = saved[n];
        if (value === undefined) delete process.env[n];
        else process.env[n] = value;
      }
    }
  }

  test("a proxy in lower-case variables gets an agent of its own, as in upper case", async () => {
    const url = `${sandbox.url}/lower`;
    await withProxies({}, async () => {
      const direct = acquireAgent(url);
      try {
        for (const name of ["http_proxy", "https_proxy"] as const) {
          await withProxies({ [name]: "http://127.0.0.1:9" }, async () => {
            const proxied = acquireAgent(url);
            expect(proxied.agent).not.toBe(direct.agent);
            await releaseAgent(proxied);
          });
        }
      } finally {
        await releaseAgent(direct);
      }
    });
  });

  test("two different proxies get two agents; the same proxy again shares its agent", async () => {
    const url = `${sandbox.url}/two-proxies`;
    for (const name of names) {
      const one = await new Promise<ReturnType<typeof acquireAgent>>((resolve) =>
        withProxies({ [name]: "http://127.0.0.1:9" }, async () => resolve(acquireAgent(url))),
      );
      await withProxies({ [name]: "http://127.0.0.1:10" }, async () => {
        const other = acquireAgent(url);
        expect(other.agent, name).not.toBe(one.agent);
        await releaseAgent(other);
      });
      await withProxies({ [name]: "http://127.0.0.1:9" }, async () => {
        const same = acquireAgent(url);
        expect(same.agent, name).toBe(one.agent);
        await releaseAgent(same);
      });
      await releaseAgent(one);
    }
  });

  test("an empty proxy variable is no proxy: it shares the agent of no proxy at all", async () => {
    const url = `${sandbox.url}/empty`;
    await withProxies({}, async () => {
      const direct = acquireAgent(url);
      try {
        for (const name of names) {
          await withProxies({ [name]: "" }, async () => {
            const empty = acquireAgent(url);
            expect(empty.agent, name).toBe(direct.agent);
            await releaseAgent(empty);
          });
        }
      } finally {
        await releaseAgent(direct);
      }
    });
  });

  test("a lower-case variable wins over its upper-case twin, as the agent itself reads them", async () => {
    const url = `${sandbox.url}/precedence`;
    const lease = await new Promise<ReturnType<typeof acquireAgent>>((resolve) =>
      withProxies({ http_proxy: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:10" }, async () =>
        resolve(acquireAgent(url)),
      ),
    );
    try {
      await withProxies({ http_proxy: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:11" }, async () => {
        const same = acquireAgent(url);
        expect(same.agent).toBe(lease.agent);
        await releaseAgent(same);
      });
    } finally {
      await releaseAgent(lease);
    }
  });
});

describe("LruCache's limits", () => {
  test("a capacity of one keeps the last value only", () => {
    const dropped: string[] = [];
    const cache = new LruCache<string, string>(1, (v) => dropped.push(v));
    expect(cache.get("a", () => "A")).toBe("A");
    expect(cache.get("a", () => "A2")).toBe("A");
    expect(dropped).toEqual([]);
    expect(cache.get("b", () => "B")).toBe("B");
    expect(dropped).toEqual(["A"]);
    expect(cache.size).toBe(1);
  });

  test("a fractional or negative capacity is refused with its value", () => {
    expect(() => new LruCache(1.5, () => undefined)).toThrow(
      new RangeError("LruCache: capacity must be a positive integer, got 1.5"),
    );
    expect(() => new LruCache(-2, () => undefined)).toThrow(
      new RangeError("LruCache: capacity must be a positive integer, got -2"),
    );
  });
});
