/**
 * A connection dropped before the sandbox applied the change, and after it, for each kind of
 * request. Requests that are safe to repeat are resent and succeed; a PATCH with adds and the
 * restore POST are never resent once they may have reached the server, and the error says the
 * outcome is unknown. Each test checks the sandbox's state afterwards.
 */

import { startSandbox } from "domainapi-sandbox";
import { describe, expect, test } from "vitest";
import { Transport } from "../../../provider/client/transport";
import { apiFailure, requestsOf, useHarness } from "./helpers";

const RECORDS_PATH = "^/v2/dns/templates/[^/]+/records$";

const h = useHarness({ maxRetries: 3 });

const WHEN = ["before", "after"] as const;

describe.each(WHEN)("connection dropped %s applying", (drop) => {
  test("GET is resent and succeeds", async () => {
    h.sandbox.addFault({ method: "GET", path: "^/v2/contacts$", drop });
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "3" }));
    expect(page.data).toHaveLength(3);
    const gets = requestsOf(h.sandbox, "GET");
    expect(gets.map((r) => r.dropped)).toEqual([drop, undefined]);
    expect(gets[1]?.status).toBe(200);
  });

  test("PUT is resent; the template holds the submitted records exactly once", async () => {
    h.sandbox.seedTemplate("web", [{ name: "old", type: "A", content: "192.0.2.1" }]);
    h.sandbox.addFault({ method: "PUT", path: RECORDS_PATH, drop });
    const records = [
      { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ] as const;
    const ids = await h.client.putRecords("web", [...records]);
    const stored = h.sandbox.templateRecords("web") ?? [];
    expect(stored.map(({ record_id, ...rest }) => rest)).toEqual(records);
    expect(ids).toEqual(stored.map((r) => r.record_id));
    expect(requestsOf(h.sandbox, "PUT").map((r) => r.dropped)).toEqual([drop, undefined]);
  });

  test("PATCH with updates only is resent; the update is in place", async () => {
    const [id] = h.sandbox.seedTemplate("web", [{ name: "www", type: "A", content: "192.0.2.1" }]);
    h.sandbox.addFault({ method: "PATCH", drop });
    const ids = await h.client.patchRecords("web", {
      update: [{ record_id: id!, name: "www", content: "192.0.2.99" }],
    });
    expect(ids).toEqual([]);
    expect(h.sandbox.templateRecords("web")).toEqual([
      { record_id: id, name: "www", type: "A", content: "192.0.2.99" },
    ]);
    expect(requestsOf(h.sandbox, "PATCH").map((r) => [r.dropped, r.status])).toEqual([
      [drop, drop === "after" ? 204 : 0],
      [undefined, 204],
    ]);
  });

  test("PATCH with adds is not resent; outcome unknown; the record exists once or not at all", async () => {
    h.sandbox.addFault({ method: "PATCH", drop });
    const err = await apiFailure(() =>
      h.client.patchRecords("web", { add: [{ name: "www", type: "A", content: "192.0.2.7" }] }),
    );
    expect(err.kind).toBe("network");
    expect(err.status).toBeUndefined();
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    expect(err.attempts).toBe(1);
    expect(err.message).toContain("outcome is unknown");
    expect(err.message).toContain("not resent");
    expect(requestsOf(h.sandbox, "PATCH")).toHaveLength(1);
    expect(h.sandbox.templateRecords("web")).toHaveLength(drop === "after" ? 1 : 0);
  });

  test("restore POST is not resent; outcome unknown; the domain reflects the single attempt", async () => {
    h.sandbox.addFault({ method: "POST", drop });
    const err = await apiFailure(() => h.client.restoreDomain("shop.example"));
    expect(err.kind).toBe("network");
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("outcome is unknown");
    expect(requestsOf(h.sandbox, "POST")).toHaveLength(1);
    expect(h.sandbox.domainStatus("shop.example")).toBe(drop === "after" ? "active" : "quarantined");
  });
});

describe("replays that meet their own first attempt", () => {
  test("PATCH deleting a record, dropped after applying: the resend is a 404 after 2 attempts", async () => {
    // The planner reads attempts > 1 with a 404 as "the first attempt may have done it" (docs/design.md,
    // "Records changed outside Pulumi": drift handling sends items one at a time; a del of a vanished id is done).
    const [id] = h.sandbox.seedTemplate("web", [{ name: "www", type: "A", content: "192.0.2.1" }]);
    h.sandbox.addFault({ method: "PATCH", drop: "after" });
    const err = await apiFailure(() => h.client.patchRecords("web", { del: [{ record_id: id! }] }));
    expect(err.status).toBe(404);
    expect(err.attempts).toBe(2);
    expect(h.sandbox.templateRecords("web")).toEqual([]);
  });

  test("a lasting drop of a GET ends after maxRetries resends as a network error", async () => {
    h.sandbox.addFault({ method: "GET", drop: "before", times: 100 });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.kind).toBe("network");
    expect(err.attempts).toBe(4);
    expect(err.outcome).toBe("not-applied");
    expect(err.retryable).toBe(true);
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(4);
  });

  test("a refused connection is retried even for the restore POST: it never left the client", async () => {
    const gone = await startSandbox({ apiKey: h.config.apiKey, port: 0 });
    const url = gone.url;
    await gone.close();
    const transport = new Transport(
      { ...h.config, baseUrl: url, maxRetries: 2 },
      { log: () => undefined, backoffBaseMs: 10 },
    );
    try {
      const err = await apiFailure(() =>
        transport.request({ method: "POST", path: "/v2/domains/shop.example/restore", replayable: false }),
      );
      expect(err.kind).toBe("network");
      expect(err.networkCode).toBe("ECONNREFUSED");
      expect(err.outcome).toBe("not-applied");
      expect(err.attempts).toBe(3);
    } finally {
      await transport.close();
    }
  });
});
