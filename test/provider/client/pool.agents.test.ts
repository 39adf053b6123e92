/**
 * The connection agents the clients of one base URL share (provider/client/pool.ts): one client
 * that closes leaves the others working, the last one closes the agent, and a proxy setting of its
 * own gets an agent of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireAgent, openAgentCount, releaseAgent } from "../../../provider/client/pool";
import { Transport } from "../../../provider/client/transport";
import type { ClientConfig } from "../../../provider/settings/config";
import { type Harness, harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

const list = (t: Transport) => t.request({ method: "GET", path: "/v2/contacts", replayable: true });
const transport = (config: ClientConfig = h.config) =>
  new Transport(config, { log: () => {}, info: () => {} });

describe("clients of one base URL share one agent", () => {
  test("one client closing leaves another's requests working; the last one closes the agent", async () => {
    const before = openAgentCount();
    const a = transport();
    const b = transport();
    expect((await list(a)).status).toBe(200);
    expect((await list(b)).status).toBe(200);
    expect(openAgentCount()).toBe(before + 1);
    await a.close();
    // b still holds the agent: its requests go through, on the same agent.
    expect((await list(b)).status).toBe(200);
    expect((await list(b)).status).toBe(200);
    expect(openAgentCount()).toBe(before + 1);
    await b.close();
    expect(openAgentCount()).toBe(before);
  });

  test("an agent given back twice, or after it was replaced, closes nothing another holds", async () => {
    const url = `${h.sandbox.url}/twice`;
    const first = acquireAgent(url);
    await releaseAgent(first);
    const second = acquireAgent(url);
    expect(second.agent).not.toBe(first.agent);
    const third = acquireAgent(url);
    expect(third.agent).toBe(second.agent);
    // The stale lease of the closed agent, given back again, must not close the live one.
    await releaseAgent(first);
    await releaseAgent(first);
    const answer = await third.agent.request({
      origin: h.sandbox.url,
      path: "/v2/dns/templates",
      method: "GET",
    });
    expect(answer.statusCode).toBe(401); // the sandbox answered: the agent is open
    await answer.body.dump();
    await releaseAgent(second);
    await releaseAgent(third);
    await expect(
      third.agent.request({ origin: h.sandbox.url, path: "/v2/dns/templates", method: "GET" }),
    ).rejects.toThrow(/closed|destroyed/i);
  });

  test("a proxy set in the environment gets an agent of its own, the proxy unset the first one again", async () => {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY };
    const url = `${h.sandbox.url}/proxied`;
    const direct = acquireAgent(url);
    try {
      for (const name of ["HTTP_PROXY", "HTTPS_PROXY"] as const) {
        process.env[name] = "http://127.0.0.1:9";
        const proxied = acquireAgent(url);
        expect(proxied.agent).not.toBe(direct.agent);
        await releaseAgent(proxied);
        delete process.env[name];
      }
      const again = acquireAgent(url);
      expect(again.agent).toBe(direct.agent);
      await releaseAgent(again);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await releaseAgent(direct);
    }
  });
});
