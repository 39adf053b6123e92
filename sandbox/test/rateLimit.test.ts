import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { API_KEY, call, errorOf } from "./helpers";

const started: Sandbox[] = [];
async function start(options: Partial<Parameters<typeof startSandbox>[0]> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ apiKey: API_KEY, contacts: 5, ...options });
  started.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

const contacts = (sandbox: Sandbox) => call(sandbox, "GET", "/v2/contacts");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("rate limit (token bucket)", () => {
  it("lets a burst through, then answers 429 with Retry-After, then refills", async () => {
    const sandbox = await start({ rateLimit: { perSecond: 2, burst: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await contacts(sandbox)).status).toBe(200);
    const limited = await contacts(sandbox);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(errorOf(limited)).toEqual({
      code: "rate_limited",
      message: expect.stringContaining("rate limit"),
    });
    expect(sandbox.requests.at(-1)!.status).toBe(429);
    await sleep(600);
    expect((await contacts(sandbox)).status).toBe(200);
    expect((await contacts(sandbox)).status).toBe(429);
  });

  it("says how long to wait when tokens come slowly", async () => {
    const sandbox = await start({ rateLimit: { perSecond: 0.5, burst: 1 } });
    expect((await contacts(sandbox)).status).toBe(200);
    const limited = await contacts(sandbox);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
  });

  it("defaults the burst to perSecond", async () => {
    const sandbox = await start({ rateLimit: { perSecond: 2 } });
    expect((await contacts(sandbox)).status).toBe(200);
    expect((await contacts(sandbox)).status).toBe(200);
    expect((await contacts(sandbox)).status).toBe(429);
  });

  it("counts every /v2 request, also unauthenticated ones, but not admin requests", async () => {
    const sandbox = await start({ rateLimit: { perSecond: 1, burst: 2 } });
    expect((await call(sandbox, "GET", "/v2/contacts", { authorization: null })).status).toBe(401);
    for (let i = 0; i < 5; i += 1)
      expect((await call(sandbox, "GET", "/__sandbox/domains")).status).toBe(200);
    expect((await call(sandbox, "POST", "/v2/domains/shop.example/restore")).status).toBe(204);
    expect((await call(sandbox, "POST", "/v2/domains/old.example/restore")).status).toBe(429);
    expect(sandbox.domainStatus("old.example")).toBe("quarantined");
  });

  it("is switched on and off in process with setRateLimit, and reset restores the start setting", async () => {
    const sandbox = await start();
    for (let i = 0; i < 5; i += 1) expect((await contacts(sandbox)).status).toBe(200);
    sandbox.setRateLimit({ perSecond: 1, burst: 1 });
    expect((await contacts(sandbox)).status).toBe(200);
    expect((await contacts(sandbox)).status).toBe(429);
    sandbox.setRateLimit(undefined);
    expect((await contacts(sandbox)).status).toBe(200);
    sandbox.setRateLimit({ perSecond: 1, burst: 1 });
    sandbox.reset();
    for (let i = 0; i < 3; i += 1) expect((await contacts(sandbox)).status).toBe(200);
    expect(() => sandbox.setRateLimit({ perSecond: 0 })).toThrow(/perSecond/);
  });

  it("is switched on and off over PUT /__sandbox/rate-limit", async () => {
    const sandbox = await start();
    const on = await call(sandbox, "PUT", "/__sandbox/rate-limit", { body: { perSecond: 1, burst: 1 } });
    expect(on.status).toBe(200);
    expect(on.json).toEqual({ rateLimit: { perSecond: 1, burst: 1 } });
    expect((await call(sandbox, "GET", "/__sandbox/rate-limit")).json).toEqual({
      rateLimit: { perSecond: 1, burst: 1 },
    });
    expect((await contacts(sandbox)).status).toBe(200);
    expect((await contacts(sandbox)).status).toBe(429);
    const off = await call(sandbox, "PUT", "/__sandbox/rate-limit", { body: {} });
    expect(off.json).toEqual({ rateLimit: null });
    expect((await contacts(sandbox)).status).toBe(200);
    const bad = await call(sandbox, "PUT", "/__sandbox/rate-limit", { body: { perSecond: -1 } });
    expect(bad.status).toBe(400);
  });
});
