/**
 * A transport let go of (the client pool dropped its client) while requests are under way keeps
 * its connections until the last of them ends: a request that ends first returns at once, and the
 * shared pool of its base URL is given back only with the last one.
 */
import { expect, test } from "vitest";
import { openAgentCount } from "../../../provider/client/pool";
import { Transport } from "../../../provider/client/transport";
import { useHarness } from "./helpers";

const h = useHarness({ maxRetries: 0 });

test("released with two requests under way: the first to end returns while the pool stays for the other", async () => {
  // A base URL of its own (the same API), so that this transport is its pool's only user.
  const t = new Transport({ ...h.config, baseUrl: `${h.sandbox.url}/` }, { log: () => undefined });
  h.sandbox.addFault({ method: "GET", path: "^/v2/contacts/SLOW$", latencyMs: 400 });
  const before = openAgentCount();
  let slowEnded = false;
  const slow = t.request({ method: "GET", path: "/v2/contacts/SLOW", replayable: true }).then(
    () => "answered",
    () => "refused",
  );
  void slow.finally(() => {
    slowEnded = true;
  });
  const quick = t.request({ method: "GET", path: "/v2/contacts", replayable: true });
  await t.release();

  expect((await quick).status).toBe(200);
  // The slow request is still waiting for its answer, on connections that are still there.
  expect(openAgentCount()).toBe(before + 1);
  expect(slowEnded).toBe(false);

  expect(await slow).toBe("refused"); // no such contact: the sandbox answers 404 after its wait
  expect(openAgentCount()).toBe(before);
});
