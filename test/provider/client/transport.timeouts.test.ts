/**
 * Timeouts: a slow answer is abandoned after domainapi:timeoutMs; replayable requests are resent,
 * a PATCH with adds and the restore POST are not (their outcome is unknown).
 *
 * undici checks its header and body timeouts on a coarse clock (about 0.5 to 1 s resolution), so
 * with timeoutMs 300 an attempt is abandoned after about 1 s; the slow answers here take 4 s so
 * that the timeout wins even on a busy machine.
 */
import { expect, test } from "vitest";
import { apiFailure, requestsOf, type Sandbox, useHarness } from "./helpers";

const SLOW_MS = 4_000;

const h = useHarness({ timeoutMs: 300, maxRetries: 2 });

/** Waits (bounded) until the sandbox has finished handling every logged request of `method`. */
async function settled(sandbox: Sandbox, method: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (requestsOf(sandbox, method).some((r) => r.status === 0 && r.dropped === undefined)) {
    if (Date.now() > deadline) throw new Error(`the sandbox did not finish the ${method} requests in time`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("a GET slower than timeoutMs once is abandoned, resent and succeeds", async () => {
  h.sandbox.addFault({ method: "GET", latencyMs: SLOW_MS });
  const started = Date.now();
  const page = await h.client.listContacts(new URLSearchParams({ per_page: "2" }));
  expect(page.data).toHaveLength(2);
  expect(Date.now() - started).toBeLessThan(SLOW_MS);
  expect(requestsOf(h.sandbox, "GET")).toHaveLength(2);
  expect(
    h.logs.some((line) => line.includes("UND_ERR_HEADERS_TIMEOUT") && line.includes("(attempt 1)")),
  ).toBe(true);
});

test("a GET that stays slow ends as a timeout error after maxRetries resends", async () => {
  h.sandbox.addFault({ method: "GET", latencyMs: SLOW_MS, times: 10 });
  const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
  expect(err.kind).toBe("timeout");
  expect(err.status).toBeUndefined();
  expect(err.networkCode).toBe("UND_ERR_HEADERS_TIMEOUT");
  expect(err.attempts).toBe(3);
  expect(err.message).toContain("no response within 300 ms (domainapi:timeoutMs)");
  expect(requestsOf(h.sandbox, "GET")).toHaveLength(3);
});

test("a PUT that times out is resent; the template ends up with the records once", async () => {
  h.sandbox.addFault({ method: "PUT", latencyMs: SLOW_MS });
  const ids = await h.client.putRecords("web", [{ name: "www", type: "A", content: "192.0.2.3" }]);
  expect(ids).toHaveLength(1);
  expect(requestsOf(h.sandbox, "PUT")).toHaveLength(2);
  // The abandoned first PUT is still applied by the server after its delay; PUT replaces, so the
  // end state is the same either way.
  await settled(h.sandbox, "PUT");
  expect(h.sandbox.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.3"]);
});

test("a PATCH with adds that times out is not resent: timeout, outcome unknown", async () => {
  h.sandbox.addFault({ method: "PATCH", latencyMs: SLOW_MS });
  const err = await apiFailure(() =>
    h.client.patchRecords("web", { add: [{ name: "www", type: "A", content: "192.0.2.4" }] }),
  );
  expect(err.kind).toBe("timeout");
  expect(err.outcome).toBe("unknown");
  expect(err.retryable).toBe(false);
  expect(err.attempts).toBe(1);
  expect(err.message).toContain("outcome is unknown");
  await settled(h.sandbox, "PATCH");
  expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
  // The server went on and applied it once: exactly why the client must not resend.
  expect(h.sandbox.templateRecords("web")).toHaveLength(1);
});

test("a restore POST that times out is not resent", async () => {
  h.sandbox.addFault({ method: "POST", latencyMs: SLOW_MS });
  const err = await apiFailure(() => h.client.restoreDomain("old.example"));
  expect(err.kind).toBe("timeout");
  expect(err.outcome).toBe("unknown");
  await settled(h.sandbox, "POST");
  expect(requestsOf(h.sandbox, "POST")).toHaveLength(1);
  expect(h.sandbox.domainStatus("old.example")).toBe("active");
});
