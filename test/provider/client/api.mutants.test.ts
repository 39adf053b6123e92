/**
 * What the client says of a PATCH whose answer cannot be read, by what it sent (an answer's ids are
 * the only account of an add; a change without adds was applied, the API said so with its 2xx), and
 * that two providers with one key but their key set in different places each name their own place
 * when the key is refused (and one that does not know the place names both).
 */
import { describe, expect, test } from "vitest";
import { getClient } from "../../../provider/client/api";
import { API_KEY_HINT } from "../../../provider/settings/config";
import { API_KEY, apiFailure, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 0 });

const unreadable = "The API may have changed; please report this with the debug log (pulumi up --debug).";

describe("a PATCH answered 200 with a body that is not JSON", () => {
  test("without adds: the deletes and updates were applied, as the 2xx said", async () => {
    h.sandbox.addFault({ method: "PATCH", respond: { status: 200, body: "<html>ok</html>" } });
    const err = await apiFailure(() =>
      h.client.patchRecords("web", {
        del: [{ record_id: "r1" }],
        update: [{ record_id: "r2", name: "www", content: "192.0.2.20" }],
      }),
    );
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    expect(err.message).toBe(
      `PATCH /v2/dns/templates/web/records returned 200 with a body that does not fit the API's specification: the body is not JSON (it starts with "<html>ok</html>"). ${unreadable}`,
    );
    // Nothing is sent again: the request is told as failed once.
    expect(h.sandbox.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
  });

  test("with an add: of unknown outcome, since only the answer could say which id is the new record's", async () => {
    h.sandbox.addFault({ method: "PATCH", respond: { status: 200, body: "<html>ok</html>" } });
    const err = await apiFailure(() =>
      h.client.patchRecords("web", { add: [{ name: "www", type: "A", content: "192.0.2.10" }] }),
    );
    expect(err.outcome).toBe("unknown");
  });
});

describe("getClient", () => {
  test("one key named in two places: each provider's refused key names its own place", async () => {
    const base = { apiKey: `${API_KEY}_revoked`, baseUrl: h.sandbox.url, timeoutMs: 2_000, maxRetries: 0 };
    const stack = getClient({ ...base, keyAdvice: "set domainapi:apiKey in Pulumi.dev.yaml" });
    const ci = getClient({ ...base, keyAdvice: "set the DOMAINAPI_API_KEY secret of the CI job" });
    const fromStack = await apiFailure(() => stack.listContacts(new URLSearchParams()));
    const fromCi = await apiFailure(() => ci.listContacts(new URLSearchParams()));
    // A provider that does not know where its key was set gives both places.
    const unplaced = getClient(base);
    const fromUnplaced = await apiFailure(() => unplaced.listContacts(new URLSearchParams()));
    expect(fromStack.kind).toBe("auth");
    expect(fromStack.message).toContain("Check the API key: set domainapi:apiKey in Pulumi.dev.yaml.");
    expect(fromCi.kind).toBe("auth");
    expect(fromCi.message).toContain("Check the API key: set the DOMAINAPI_API_KEY secret of the CI job.");
    expect(fromUnplaced.message).toContain(`Check the API key: ${API_KEY_HINT}.`);
    await Promise.all([stack.release(), ci.release(), unplaced.release()]);
  });
});
