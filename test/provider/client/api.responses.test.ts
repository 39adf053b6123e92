/**
 * What the client reads: the happy paths of every endpoint (including the spec's variations), error
 * bodies of shapes the spec does not show, and 2xx bodies that do not fit, which must be errors that
 * name the field.
 */
import { describe, expect, test } from "vitest";
import type { WireRecord } from "../../../provider/client/wire";
import { RequestBodyError } from "../../../provider/errors";
import { apiFailure, failure, harness, requestsOf, useHarness } from "./helpers";

const RECORDS_PATH = "^/v2/dns/templates/[^/]+/records$";
const MX: WireRecord = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const SRV: WireRecord = {
  name: "_sip._tcp",
  type: "SRV",
  content: "sip.example.net",
  priority: 1,
  weight: 5,
  port: 5060,
};
const WWW: WireRecord = { name: "www", type: "A", content: "192.0.2.10" };

const h = useHarness({ maxRetries: 1 });

describe("happy paths", () => {
  test("putRecords returns one id per record, in order, and sends only wire fields", async () => {
    const ids = await h.client.putRecords("web", [MX, SRV, WWW]);
    const stored = h.sandbox.templateRecords("web") ?? [];
    expect(ids).toEqual(stored.map((r) => r.record_id));
    expect(stored.map((r) => r.type)).toEqual(["MX", "SRV", "A"]);
    expect(requestsOf(h.sandbox, "PUT")[0]?.body).toEqual({ records: [MX, SRV, WWW] });
  });

  test("putRecords percent-encodes the template id", async () => {
    h.sandbox.seedTemplate("a b/c");
    await h.client.putRecords("a b/c", [WWW]);
    expect(requestsOf(h.sandbox, "PUT")[0]?.path).toBe("/v2/dns/templates/a%20b%2Fc/records");
    expect(h.sandbox.templateRecords("a b/c")).toHaveLength(1);
  });

  test("patchRecords: adds return their ids; updates and dels alone return none (204)", async () => {
    const [first] = await h.client.putRecords("web", [WWW]);
    const added = await h.client.patchRecords("web", { add: [MX] });
    expect(added).toHaveLength(1);
    const none = await h.client.patchRecords("web", {
      update: [{ record_id: first!, name: "www", content: "192.0.2.11" }],
      del: [{ record_id: added[0]! }],
    });
    expect(none).toEqual([]);
    expect(h.sandbox.templateRecords("web")).toEqual([
      { record_id: first, name: "www", type: "A", content: "192.0.2.11" },
    ]);
  });

  test("listContacts reads `page` or `current_page` and connections as numbers or strings", async () => {
    const variant = await harness({}, {}, { paginationField: "current_page", connectionsAsString: true });
    try {
      const plain = await h.client.listContacts(new URLSearchParams({ per_page: "3", page: "2" }));
      const other = await variant.client.listContacts(new URLSearchParams({ per_page: "3", page: "2" }));
      for (const page of [plain, other]) {
        expect(page.pagination).toMatchObject({ currentPage: 2, perPage: 3 });
        expect(page.data).toHaveLength(3);
        expect(typeof page.data[0]?.connections).toBe("number");
      }
      expect(other.data).toEqual(plain.data);
      expect(requestsOf(variant.sandbox, "GET")[0]?.query).toBe("per_page=3&page=2");
    } finally {
      await variant.close();
    }
  });

  test("listContacts sends search values verbatim, percent-encoded", async () => {
    await h.client.listContacts(
      new URLSearchParams([
        ["connections", ">5"],
        ["email", "%@example.com"],
        ["status", "ok"],
        ["status", "pending_update"],
      ]),
    );
    expect(requestsOf(h.sandbox, "GET")[0]?.query).toBe(
      "connections=%3E5&email=%25%40example.com&status=ok&status=pending_update",
    );
  });

  test("restoreDomain takes a quarantined domain out of quarantine", async () => {
    await h.client.restoreDomain("shop.example");
    expect(h.sandbox.domainStatus("shop.example")).toBe("active");
  });
});

describe("request bodies are checked before sending", () => {
  test("a PUT record that does not fit names the field and sends nothing", async () => {
    const err = await failure(() => h.client.putRecords("web", [WWW, { ...MX, priority: 70_000 }]));
    expect(err).toBeInstanceOf(RequestBodyError);
    expect((err as Error).message).toContain("records[1].priority");
    expect(h.sandbox.requests).toHaveLength(0);
  });

  test("an empty PATCH is refused", async () => {
    const err = await failure(() => h.client.patchRecords("web", {}));
    expect(err).toBeInstanceOf(RequestBodyError);
    expect(h.sandbox.requests).toHaveLength(0);
  });
});

describe("error bodies of unknown shapes", () => {
  test.each([
    ['{"message":"plain message"}', "application/json", "plain message"],
    ['{"error":"string error"}', "application/json", "string error"],
    ['{"error":{"code":"x","message":"nested message"}}', "application/json", "nested message"],
    ['{"errors":[{"message":"one"},{"message":"two"}]}', "application/json", "one; two"],
    [
      '{"type":"about:blank","title":"Bad","detail":"problem detail"}',
      "application/problem+json",
      "problem detail",
    ],
    ['{"something":"else"}', "application/json", '{"something":"else"}'],
    ["[]", "application/json", "[]"],
    ["upstream said no", "text/plain", "upstream said no"],
    ["<html><body>Bad request</body></html>", "text/html", "<html><body>Bad request</body></html>"],
    ["", "text/plain", "Bad Request"],
  ])("400 with %j (%s) -> %j", async (body, contentType, expected) => {
    h.sandbox.addFault({ method: "PUT", path: RECORDS_PATH, respond: { status: 400, body, contentType } });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW]));
    expect(err.kind).toBe("http");
    expect(err.status).toBe(400);
    expect(err.method).toBe("PUT");
    expect(err.path).toBe("/v2/dns/templates/web/records");
    expect(err.apiMessage).toBe(expected);
    expect(err.message).toContain(expected);
    expect(err.retryable).toBe(false);
  });

  test("the sandbox's own validation error names the field", async () => {
    const err = await apiFailure(() =>
      h.client.patchRecords("web", {
        update: [{ record_id: "rec-does-not-exist", name: "www", content: "x" }],
      }),
    );
    expect(err.status).toBe(404);
    expect(err.apiMessage).toMatch(/rec-does-not-exist/);
  });
});

describe("2xx bodies that do not fit", () => {
  test.each([
    [
      '{"data":[],"pagination":{"page":1,"per_page":50,"total_results":0}}',
      "pagination.total_pages: expected number",
    ],
    [
      '{"data":[{"name":"no handle"}],"pagination":{"page":1,"per_page":50,"total_pages":1,"total_results":1}}',
      "data[0].handle: expected string",
    ],
    [
      '{"data":[{"handle":"H1","connections":"many"}],"pagination":{"page":1,"per_page":50,"total_pages":1,"total_results":1}}',
      "data[0].connections",
    ],
    [
      '{"data":[],"pagination":{"per_page":50,"total_pages":1,"total_results":0}}',
      "pagination.current_page: expected current_page or page",
    ],
    ['{"contacts":[]}', "data: expected array"],
    ["not json at all", "the body is not JSON"],
    ["", "the body is empty"],
  ])("GET contacts 200 %j -> names %j", async (body, problem) => {
    h.sandbox.addFault({ method: "GET", respond: { status: 200, body } });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.kind).toBe("response");
    expect(err.status).toBe(200);
    expect(err.outcome).toBe("not-applied");
    expect(err.message).toContain(problem);
    expect(err.message).toContain("GET /v2/contacts returned 200");
    expect(requestsOf(h.sandbox, "GET")).toHaveLength(1);
  });

  test("PUT answered with fewer ids than records: an error after the change was applied", async () => {
    h.sandbox.addFault({
      method: "PUT",
      respondAfterApply: { status: 200, body: '{"record_id":["only-one"]}' },
    });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW, MX]));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    expect(err.message).toContain("record_id: expected 2 record id(s)");
    expect(err.message).toContain("got 1");
    expect(h.sandbox.templateRecords("web")).toHaveLength(2);
  });

  test("PUT answered with ids of the wrong type names the element", async () => {
    h.sandbox.addFault({
      method: "PUT",
      respondAfterApply: { status: 200, body: '{"record_id":["a", true]}' },
    });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW, MX]));
    expect(err.message).toContain("record_id[1]: expected string");
    expect(err.outcome).toBe("applied");
  });

  test("PATCH with an add answered 204: no id for the added record is an error", async () => {
    h.sandbox.addFault({ method: "PATCH", respondAfterApply: { status: 204 } });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    expect(err.message).toContain("expected 1 record id(s), got no body (204)");
  });

  test("PATCH with one add answered with two ids is an error", async () => {
    h.sandbox.addFault({
      method: "PATCH",
      respondAfterApply: { status: 200, body: '{"record_id":["x","y"]}' },
    });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.kind).toBe("response");
    expect(err.message).toContain("expected 1 record id(s), one per added record, got 2");
    // Which id is the added record's cannot be told: not an applied-and-forgotten add.
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("cannot be matched one-to-one");
  });

  test("PATCH with an add answered with ids of the wrong type: outcome unknown, the element named", async () => {
    h.sandbox.addFault({
      method: "PATCH",
      respondAfterApply: { status: 200, body: '{"record_id":[{"id":1}]}' },
    });
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("record_id[0]: expected string");
  });

  test("ids sent as numbers are read as strings, in PUT and PATCH answers", async () => {
    h.sandbox.addFault({
      method: "PUT",
      respondAfterApply: { status: 200, body: '{"record_id":[101,102]}' },
    });
    expect(await h.client.putRecords("web", [WWW, MX])).toEqual(["101", "102"]);
    h.sandbox.addFault({ method: "PATCH", respondAfterApply: { status: 200, body: '{"record_id":[103]}' } });
    expect(await h.client.patchRecords("web", { add: [WWW] })).toEqual(["103"]);
  });

  test("a PUT whose ids do not fit after a 503 reports the real number of attempts", async () => {
    // maxRetries is 1 here: one resend after the 503.
    h.sandbox.addFault({ method: "PUT", respond: { status: 503 }, nth: 1 });
    h.sandbox.addFault({
      method: "PUT",
      nth: 2,
      respondAfterApply: { status: 200, body: '{"record_id":["only-one"]}' },
    });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW, MX]));
    expect(err.kind).toBe("response");
    expect(err.message).toContain("record_id: expected 2 record id(s)");
    expect(err.attempts).toBe(2);
    expect(requestsOf(h.sandbox, "PUT").map((r) => r.status)).toEqual([503, 200]);
  });

  test("a contacts page that does not fit after a 429 reports the real number of attempts", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 429, retryAfter: "0" }, nth: 1 });
    h.sandbox.addFault({ method: "GET", respond: { status: 200, body: "" }, nth: 2 });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.kind).toBe("response");
    expect(err.message).toContain("the body is empty");
    expect(err.attempts).toBe(2);
  });

  test("PATCH without adds answered 200 with ids is an error too", async () => {
    const [id] = h.sandbox.seedTemplate("web", [WWW]);
    h.sandbox.addFault({ method: "PATCH", respondAfterApply: { status: 200, body: '{"record_id":["x"]}' } });
    const err = await apiFailure(() => h.client.patchRecords("web", { del: [{ record_id: id! }] }));
    expect(err.message).toContain("expected 0 record id(s)");
  });
});
