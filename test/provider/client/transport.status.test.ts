/**
 * Only a 2xx answer is a success (the spec's answers are 200, 201 and 204): a 300 from a proxy
 * or a misconfigured server in front of the API is a refusal with its words, never a body read as
 * if the API had done what it was asked.
 */
import { expect, test } from "vitest";
import { Transport } from "../../../provider/client/transport";
import { apiFailure, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 0 });

test("a 300 answer is refused with its status and words, though its body is valid JSON", async () => {
  const t = new Transport(h.config, { log: () => undefined });
  try {
    h.sandbox.addFault({
      method: "GET",
      path: "^/v2/contacts$",
      respond: { status: 300, body: JSON.stringify({ message: "choose a mirror" }) },
    });
    const err = await apiFailure(() => t.request({ method: "GET", path: "/v2/contacts", replayable: true }));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(300);
    expect(err.message).toMatch(/^GET \/v2\/contacts returned 300 Multiple Choices: choose a mirror\./);
  } finally {
    await t.close();
  }
});

test("a 299 answer is a success: the 2xx class, whatever its number", async () => {
  const t = new Transport(h.config, { log: () => undefined });
  try {
    h.sandbox.addFault({
      method: "GET",
      path: "^/v2/contacts$",
      respond: { status: 299, body: '{"ok":true}' },
    });
    const { status, attempts } = await t.request({ method: "GET", path: "/v2/contacts", replayable: true });
    expect({ status, attempts }).toEqual({ status: 299, attempts: 1 });
  } finally {
    await t.close();
  }
});
