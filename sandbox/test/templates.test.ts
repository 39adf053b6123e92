import { beforeEach, describe, expect, it } from "vitest";
import { API_KEY, call, errorOf, rawRequest, recordsPath, useSandbox } from "./helpers";

const sandbox = useSandbox();

const put = (templateId: string, body: unknown) => call(sandbox, "PUT", recordsPath(templateId), { body });
const patch = (templateId: string, body: unknown) =>
  call(sandbox, "PATCH", recordsPath(templateId), { body });

/** Expects a 400 whose message contains `fragment`, and that the template did not change. */
async function expectRejected(
  result: Promise<Awaited<ReturnType<typeof put>>>,
  templateId: string,
  fragment: string,
) {
  const before = sandbox.templateRecords(templateId);
  const response = await result;
  expect(response.status, response.text).toBe(400);
  expect(errorOf(response)).toEqual({ code: "invalid_request", message: expect.stringContaining(fragment) });
  expect(sandbox.templateRecords(templateId)).toEqual(before);
}

describe("default seed", () => {
  it("has the empty templates tpl-1..tpl-5, web and mail", () => {
    expect([...sandbox.state.templates.keys()].sort()).toEqual(
      ["mail", "tpl-1", "tpl-2", "tpl-3", "tpl-4", "tpl-5", "web"].sort(),
    );
    for (const records of sandbox.state.templates.values()) expect(records).toEqual([]);
  });
});

describe("PUT /v2/dns/templates/{template_id}/records", () => {
  it("replaces every record and returns one id per submitted record, in order", async () => {
    sandbox.seedTemplate("web", [{ name: "old", type: "TXT", content: "gone soon" }]);
    const response = await put("web", {
      records: [
        { name: "@", type: "A", content: "192.0.2.1" },
        { name: "@", type: "MX", content: "mx1.{domainname}", priority: 10 },
        { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 1, weight: 5, port: 5060 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json;charset=utf-8");
    const ids = (response.json as { record_id: string[] }).record_id;
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(sandbox.templateRecords("web")).toEqual([
      { record_id: ids[0], name: "@", type: "A", content: "192.0.2.1" },
      { record_id: ids[1], name: "@", type: "MX", content: "mx1.{domainname}", priority: 10 },
      {
        record_id: ids[2],
        name: "_sip._tcp",
        type: "SRV",
        content: "sip.example.net",
        priority: 1,
        weight: 5,
        port: 5060,
      },
    ]);
  });

  it("with records: [] empties the template (200, record_id: [])", async () => {
    sandbox.seedTemplate("web", [{ name: "www", type: "CNAME", content: "{domainname}." }]);
    const response = await put("web", { records: [] });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ record_id: [] });
    expect(sandbox.templateRecords("web")).toEqual([]);
  });

  it("accepts every record type of the spec", async () => {
    const records = [
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "www", type: "CNAME", content: "{domainname}." },
      { name: "@", type: "TXT", content: "v=spf1 -all" },
      { name: "@", type: "MX", content: "mx.example.net", priority: 0 },
      { name: "_xmpp._tcp", type: "SRV", content: "x.example.net", priority: 65535, weight: 0, port: 443 },
      { name: "@", type: "AAAA", content: "2001:db8::1" },
      { name: "sub", type: "NS", content: "ns1.example.net" },
      { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
      { name: "_443._tcp", type: "TLSA", content: "3 1 1 ab12" },
      { name: "go", type: "URLFWD", content: "https://example.org/" },
      { name: "go301", type: "URLFWD301", content: "https://example.org/" },
      { name: "frame", type: "URLCLO", content: "https://example.org/" },
    ];
    const response = await put("web", { records });
    expect(response.status, response.text).toBe(200);
    // One id per submitted record; each URL forward also brought its A and AAAA, right after it.
    expect((response.json as { record_id: string[] }).record_id).toHaveLength(records.length);
    const forward = new Set(["URLFWD", "URLFWD301", "URLCLO"]);
    expect(sandbox.templateRecords("web")!.map((r) => r.type)).toEqual(
      records.flatMap((r) => (forward.has(r.type) ? [r.type, "A", "AAAA"] : [r.type])),
    );
  });

  it("tolerates type as a one-element array and stores it as a string", async () => {
    const response = await put("web", { records: [{ name: "www", type: ["A"], content: "192.0.2.7" }] });
    expect(response.status).toBe(200);
    expect(sandbox.templateRecords("web")![0]!.type).toBe("A");
  });

  it("is a 404 for an unknown template and creates nothing", async () => {
    const response = await put("nope", { records: [] });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({ code: "not_found", message: expect.stringContaining("nope") });
    expect(sandbox.state.templates.has("nope")).toBe(false);
  });

  it("decodes the template id in the path", async () => {
    sandbox.seedTemplate("my tpl/1");
    const response = await put("my tpl/1", { records: [{ name: "@", type: "TXT", content: "x" }] });
    expect(response.status).toBe(200);
    expect(sandbox.templateRecords("my tpl/1")).toHaveLength(1);
  });

  const invalidRecords: Array<[string, Record<string, unknown>, string]> = [
    ["missing name", { type: "A", content: "192.0.2.1" }, "records[0].name: required"],
    ["empty name", { name: "", type: "A", content: "192.0.2.1" }, "records[0].name: must not be empty"],
    ["numeric name", { name: 5, type: "A", content: "192.0.2.1" }, "records[0].name: must be a string"],
    ["missing type", { name: "@", content: "192.0.2.1" }, "records[0].type: required"],
    ["unknown type", { name: "@", type: "PTR", content: "x" }, "records[0].type: must be one of A, CNAME"],
    ["lower-case type", { name: "@", type: "a", content: "192.0.2.1" }, "records[0].type: must be one of"],
    ["two-element type array", { name: "@", type: ["A", "AAAA"], content: "192.0.2.1" }, "records[0].type"],
    ["missing content", { name: "@", type: "TXT" }, "records[0].content: required"],
    ["empty content", { name: "@", type: "TXT", content: "" }, "records[0].content: must not be empty"],
    [
      "A with a non-IPv4",
      { name: "@", type: "A", content: "2001:db8::1" },
      "records[0].content: must be an IPv4 address",
    ],
    [
      "AAAA with a non-IPv6",
      { name: "@", type: "AAAA", content: "192.0.2.1" },
      "records[0].content: must be an IPv6",
    ],
    [
      "MX without priority",
      { name: "@", type: "MX", content: "mx" },
      "records[0].priority: required for MX records",
    ],
    [
      "SRV without weight",
      { name: "_a._tcp", type: "SRV", content: "t", priority: 1, port: 1 },
      "records[0].weight: required for SRV",
    ],
    [
      "SRV without port",
      { name: "_a._tcp", type: "SRV", content: "t", priority: 1, weight: 1 },
      "records[0].port: required for SRV",
    ],
    [
      "A with priority",
      { name: "@", type: "A", content: "192.0.2.1", priority: 1 },
      "records[0].priority: not allowed for A",
    ],
    [
      "MX with weight",
      { name: "@", type: "MX", content: "m", priority: 1, weight: 1 },
      "records[0].weight: not allowed for MX",
    ],
    [
      "TXT with port",
      { name: "@", type: "TXT", content: "t", port: 1 },
      "records[0].port: not allowed for TXT",
    ],
    [
      "null priority",
      { name: "@", type: "MX", content: "m", priority: null },
      "records[0].priority: must not be null",
    ],
    [
      "null weight on A",
      { name: "@", type: "A", content: "192.0.2.1", weight: null },
      "records[0].weight: must not be null",
    ],
    [
      "fractional priority",
      { name: "@", type: "MX", content: "m", priority: 1.5 },
      "records[0].priority: must be an integer",
    ],
    [
      "negative priority",
      { name: "@", type: "MX", content: "m", priority: -1 },
      "records[0].priority: must be an integer",
    ],
    ["priority above 65535", { name: "@", type: "MX", content: "m", priority: 65536 }, "records[0].priority"],
    ["priority as string", { name: "@", type: "MX", content: "m", priority: "10" }, "records[0].priority"],
    ["unknown field", { name: "@", type: "TXT", content: "t", ttl: 300 }, "records[0].ttl: unknown field"],
    [
      "record_id on PUT",
      { record_id: "rec-1", name: "@", type: "TXT", content: "t" },
      "records[0].record_id: unknown field",
    ],
  ];
  for (const [label, record, fragment] of invalidRecords) {
    it(`is a 400 naming the field for ${label}, and changes nothing`, async () => {
      sandbox.seedTemplate("web", [{ name: "keep", type: "TXT", content: "me" }]);
      await expectRejected(
        put("web", { records: [{ name: "ok", type: "TXT", content: "fine" }, record] }),
        "web",
        fragment.replace("records[0]", "records[1]"),
      );
    });
  }

  it("is a 400 for a body without records, with extra fields, or not an object", async () => {
    await expectRejected(put("web", {}), "web", "records: ");
    await expectRejected(put("web", { records: [], extra: 1 }), "web", "extra: unknown field");
    await expectRejected(
      put("web", [{ name: "@", type: "TXT", content: "t" }]),
      "web",
      "body: must be a JSON object",
    );
    await expectRejected(put("web", { records: null }), "web", "records: must not be null");
    await expectRejected(put("web", { records: { name: "@" } }), "web", "records: must be an array");
  });
});

describe("PATCH /v2/dns/templates/{template_id}/records", () => {
  let ids: string[];
  beforeEach(() => {
    ids = sandbox.seedTemplate("mail", [
      { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
      { name: "@", type: "TXT", content: "v=spf1 -all" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ]);
  });

  it("answers 204 without a body when it only updates and deletes", async () => {
    const response = await patch("mail", {
      update: [{ record_id: ids[0], name: "@", content: "mx2.example.net", priority: 20 }],
      del: [{ record_id: ids[1] }],
    });
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.headers.get("content-type")).toBeNull();
    expect(sandbox.templateRecords("mail")).toEqual([
      { record_id: ids[0], name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
      { record_id: ids[2], name: "www", type: "A", content: "192.0.2.1" },
    ]);
  });

  it("answers 200 with the new ids, in the order of the add items", async () => {
    const response = await patch("mail", {
      add: [
        { name: "a", type: "TXT", content: "first" },
        { name: "b", type: "TXT", content: "second" },
      ],
    });
    expect(response.status).toBe(200);
    const added = (response.json as { record_id: string[] }).record_id;
    expect(added).toHaveLength(2);
    const records = sandbox.templateRecords("mail")!;
    expect(records.find((r) => r.record_id === added[0])!.content).toBe("first");
    expect(records.find((r) => r.record_id === added[1])!.content).toBe("second");
  });

  it("combines del, update and add in one request, keeping the ids of untouched records", async () => {
    const response = await patch("mail", {
      add: [{ name: "@", type: "MX", content: "mx3.example.net", priority: 30 }],
      update: [{ record_id: ids[2], name: "www", content: "192.0.2.2" }],
      del: [{ record_id: ids[0] }],
    });
    expect(response.status).toBe(200);
    const [added] = (response.json as { record_id: string[] }).record_id;
    expect(sandbox.templateRecords("mail")).toEqual([
      { record_id: ids[1], name: "@", type: "TXT", content: "v=spf1 -all" },
      { record_id: ids[2], name: "www", type: "A", content: "192.0.2.2" },
      { record_id: added, name: "@", type: "MX", content: "mx3.example.net", priority: 30 },
    ]);
  });

  it("accepts the records wrapper of the spec's field table", async () => {
    const response = await patch("mail", { records: { del: [{ record_id: ids[1] }] } });
    expect(response.status).toBe(204);
    expect(sandbox.templateRecords("mail")!.map((r) => r.record_id)).toEqual([ids[0], ids[2]]);
  });

  it("is a 400 when add/update/del are both at the top level and inside records", async () => {
    await expectRejected(
      patch("mail", { del: [{ record_id: ids[0] }], records: { del: [{ record_id: ids[1] }] } }),
      "mail",
      "records: send add, update and del either at the top level or inside records",
    );
  });

  it("is a 400 when there is nothing to do", async () => {
    await expectRejected(patch("mail", {}), "mail", "body: nothing to do");
    await expectRejected(patch("mail", { add: [], update: [], del: [] }), "mail", "body: nothing to do");
    await expectRejected(patch("mail", { records: {} }), "mail", "body: nothing to do");
  });

  it("is atomic: an unknown record id is a 404 and nothing changes", async () => {
    const before = sandbox.templateRecords("mail");
    const response = await patch("mail", {
      add: [{ name: "new", type: "TXT", content: "x" }],
      update: [{ record_id: ids[2], name: "www", content: "192.0.2.9" }],
      del: [{ record_id: ids[0] }, { record_id: "rec-does-not-exist" }],
    });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({
      code: "not_found",
      message: expect.stringContaining("del[1].record_id: template mail has no record rec-does-not-exist"),
    });
    expect(sandbox.templateRecords("mail")).toEqual(before);
  });

  it("is atomic: an unknown id in update is a 404 naming it", async () => {
    const before = sandbox.templateRecords("mail");
    const response = await patch("mail", {
      update: [{ record_id: "rec-x", name: "a", content: "b" }],
      del: [{ record_id: ids[1] }],
    });
    expect(response.status).toBe(404);
    expect(errorOf(response).message).toContain("update[0].record_id");
    expect(sandbox.templateRecords("mail")).toEqual(before);
  });

  it("is atomic: one bad add item rejects the whole request", async () => {
    await expectRejected(
      patch("mail", {
        del: [{ record_id: ids[1] }],
        add: [
          { name: "ok", type: "TXT", content: "fine" },
          { name: "@", type: "MX", content: "mx9.example.net" },
        ],
      }),
      "mail",
      "add[1].priority: required for MX records",
    );
  });

  it("names every wrong field of the request", async () => {
    const response = await patch("mail", {
      add: [
        { name: "", type: "TXT", content: "x" },
        { name: "x", type: "A", content: "1.2.3" },
      ],
      del: [{}],
    });
    expect(response.status).toBe(400);
    const { message } = errorOf(response);
    expect(message).toContain("add[0].name: must not be empty");
    expect(message).toContain("add[1].content: must be an IPv4 address");
    expect(message).toContain("del[0].record_id: required");
  });

  it("rejects type in an update item", async () => {
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[1], type: "TXT", name: "@", content: "x" }] }),
      "mail",
      "update[0].type: type is not a field of update",
    );
  });

  it("checks update items against the type of the record they change", async () => {
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[0], name: "@", content: "mx.example.net" }] }),
      "mail",
      "update[0].priority: required for MX records",
    );
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[1], name: "@", content: "x", priority: 5 }] }),
      "mail",
      "update[0].priority: not allowed for TXT records",
    );
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[2], name: "www", content: "not-an-ip" }] }),
      "mail",
      "update[0].content: must be an IPv4 address",
    );
  });

  it("requires record_id, name and content in update items and rejects unknown fields", async () => {
    await expectRejected(
      patch("mail", { update: [{ name: "@", content: "x" }] }),
      "mail",
      "update[0].record_id: required",
    );
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[1], content: "x" }] }),
      "mail",
      "update[0].name: required",
    );
    await expectRejected(
      patch("mail", { update: [{ record_id: ids[1], name: "@" }] }),
      "mail",
      "update[0].content: required",
    );
    await expectRejected(
      patch("mail", { del: [{ record_id: ids[1], name: "@" }] }),
      "mail",
      "del[0].name: unknown field",
    );
    await expectRejected(patch("mail", { add: [], remove: [] }), "mail", "remove: unknown field");
    await expectRejected(patch("mail", { del: null }), "mail", "del: must not be null");
  });

  it("is a 400 when a record id is named twice", async () => {
    await expectRejected(
      patch("mail", {
        del: [{ record_id: ids[0] }],
        update: [{ record_id: ids[0], name: "@", content: "m", priority: 1 }],
      }),
      "mail",
      `update[0].record_id: record ${ids[0]} is already named by del[0].record_id`,
    );
    await expectRejected(
      patch("mail", { del: [{ record_id: ids[1] }, { record_id: ids[1] }] }),
      "mail",
      "del[1].record_id",
    );
  });

  it("is a 404 for an unknown template", async () => {
    const response = await patch("missing", { del: [{ record_id: ids[0] }] });
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({ code: "not_found", message: "template missing does not exist" });
  });

  it("never reuses an id: deleted ids, PUTs and resets all keep the counter going", async () => {
    const seen = new Set(ids);
    const collect = (list: string[]) => {
      for (const id of list) {
        expect(seen.has(id), `id ${id} reused`).toBe(false);
        seen.add(id);
      }
    };
    await patch("mail", { del: ids.map((record_id) => ({ record_id })) });
    collect(
      (
        (await patch("mail", { add: [{ name: "a", type: "TXT", content: "a" }] })).json as {
          record_id: string[];
        }
      ).record_id,
    );
    collect(
      (
        (await put("web", { records: [{ name: "b", type: "TXT", content: "b" }] })).json as {
          record_id: string[];
        }
      ).record_id,
    );
    sandbox.reset();
    collect(sandbox.seedTemplate("mail", [{ name: "c", type: "TXT", content: "c" }]));
    collect(
      (
        (await put("mail", { records: [{ name: "d", type: "TXT", content: "d" }] })).json as {
          record_id: string[];
        }
      ).record_id,
    );
    for (const id of seen) expect(id).toMatch(/^rec-\d+$/);
  });
});

describe("request format", () => {
  it("requires Content-Type: application/json on bodies (415 otherwise)", async () => {
    for (const contentType of [undefined, "text/plain", "application/x-www-form-urlencoded"]) {
      const headers: Record<string, string> =
        contentType === undefined ? {} : { "Content-Type": contentType };
      const response = await call(sandbox, "PUT", recordsPath("web"), { rawBody: '{"records":[]}', headers });
      // fetch adds text/plain to a string body when no Content-Type is given.
      expect(response.status).toBe(415);
      expect(errorOf(response)).toEqual({
        code: "unsupported_media_type",
        message: expect.stringContaining("Content-Type"),
      });
    }
    const withoutHeader = await rawRequest(
      sandbox,
      "PUT",
      recordsPath("web"),
      { Authorization: `Bearer ${API_KEY}` },
      '{"records":[]}',
    );
    expect(withoutHeader.status).toBe(415);
    expect(JSON.parse(withoutHeader.text)).toEqual({
      error: { code: "unsupported_media_type", message: "Content-Type: expected application/json, got none" },
    });
  });

  it("accepts a charset parameter on the Content-Type", async () => {
    const response = await call(sandbox, "PUT", recordsPath("web"), {
      rawBody: '{"records":[]}',
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(200);
  });

  it("is a 400 for an empty or malformed JSON body", async () => {
    const empty = await call(sandbox, "PATCH", recordsPath("web"), {
      headers: { "Content-Type": "application/json" },
    });
    expect(empty.status).toBe(400);
    expect(errorOf(empty).message).toContain("body: required");
    const malformed = await call(sandbox, "PATCH", recordsPath("web"), {
      rawBody: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).message).toContain("body: not valid JSON");
  });

  it("is a 400 for query parameters on PUT and PATCH", async () => {
    const response = await call(sandbox, "PUT", `${recordsPath("web")}?force=1`, { body: { records: [] } });
    expect(response.status).toBe(400);
    expect(errorOf(response).message).toContain("force: unknown query parameter");
  });

  it("is a 405 with Allow for other methods on the records path", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const response = await call(sandbox, method, recordsPath("web"));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("PUT, PATCH");
      expect(errorOf(response).code).toBe("method_not_allowed");
    }
  });

  it("is a 404 with an error body for unknown /v2 paths", async () => {
    for (const path of [
      "/v2/dns/templates",
      "/v2/dns/templates/web",
      "/v2/contacts/C0000001",
      "/v2/unknown",
    ]) {
      const response = await call(sandbox, "GET", path);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe("not_found");
    }
  });
});
