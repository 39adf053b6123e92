/**
 * The engine's plugin process loads the providers' implementation for every operation, and a
 * preview (check and diff) sends no request: undici, the HTTP stack (109 modules, about 4 MiB),
 * must not be loaded until a transport sends its first request. Checked through Node's module
 * cache, which holds every CommonJS module loaded in this process.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Transport } from "../../provider/client/transport";
import * as impl from "../../provider/dynamic/impl";

const nodeRequire = createRequire(__filename);
const UNDICI = `${path.sep}node_modules${path.sep}undici${path.sep}`;
const undiciLoaded = (): boolean => Object.keys(nodeRequire.cache).some((file) => file.includes(UNDICI));

const SETTINGS = { DOMAINAPI_API_KEY: "lazy-test-key", DOMAINAPI_BASE_URL: "http://127.0.0.1:9" };
const saved = Object.fromEntries(Object.keys(SETTINGS).map((k) => [k, process.env[k]]));
beforeEach(() => {
  // Settings, so that `check` neither refuses nor warns.
  Object.assign(process.env, SETTINGS);
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

it("loads undici at a transport's first request: not with the implementation, a preview or a client", async () => {
  // The implementation and the transport's module are loaded (imported above).
  expect(undiciLoaded()).toBe(false);
  const checked = await impl.records.check(
    {},
    { templateId: "tpl-lazy", records: [{ name: "@", type: "A", content: "192.0.2.1" }] },
  );
  expect(checked.failures ?? []).toEqual([]);
  // A diff against a create's inputs (it plans the creates): the planner runs, nothing is sent.
  const news = checked.inputs ?? {};
  await impl.records.diff("tpl-lazy", { templateId: "tpl-lazy" }, news);
  expect(undiciLoaded()).toBe(false);

  // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
  const transport = new Transport(
    { baseUrl: "http://127.0.0.1:9", apiKey: "k", timeoutMs: 1_000, maxRetries: 0 },
    { log: () => undefined },
  );
  expect(undiciLoaded()).toBe(false);
  await expect(
    transport.request({ method: "GET", path: "/v2/contacts", replayable: true }),
  ).rejects.toMatchObject({ kind: "network" });
  expect(undiciLoaded()).toBe(true);
  await transport.close();
});
