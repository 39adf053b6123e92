import { startSandbox } from "domainapi-sandbox";
import { describe, expect, it } from "vitest";
import { API_KEY, call, errorOf, recordsPath, useSandbox } from "./helpers";

const sandbox = useSandbox({ contacts: 3 });

const admin = (method: string, path: string, body?: unknown) =>
  call(
    sandbox,
    method,
    `/__sandbox${path}`,
    body === undefined ? { authorization: null } : { body, authorization: null },
  );

describe("startSandbox", () => {
  it("listens on 127.0.0.1 and gives a base URL without trailing slash", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("seeds templates, domains and contacts from the seed option", async () => {
    const seeded = await startSandbox({
      apiKey: API_KEY,
      contacts: 0,
      seed: {
        templates: { custom: [{ name: "@", type: "MX", content: "mx.example.net", priority: 5 }] },
        domains: { "Parked.Example": "quarantined" },
        contacts: [{ handle: "ONLY-1", country: "NL" }],
      },
    });
    try {
      expect([...seeded.state.templates.keys()]).toEqual(["custom"]);
      expect(seeded.templateRecords("custom")).toEqual([
        {
          record_id: expect.stringMatching(/^rec-\d+$/),
          name: "@",
          type: "MX",
          content: "mx.example.net",
          priority: 5,
        },
      ]);
      expect(Object.fromEntries(seeded.state.domains)).toEqual({ "parked.example": "quarantined" });
      expect(seeded.state.contacts).toEqual([{ handle: "ONLY-1", country: "NL" }]);
    } finally {
      await seeded.close();
    }
  });

  it("rejects an invalid seed, naming the field", async () => {
    await expect(
      startSandbox({
        apiKey: API_KEY,
        seed: { templates: { web: [{ name: "@", type: "MX", content: "m" }] } },
      }),
    ).rejects.toThrow(/seed\.templates\.web: records\[0\]\.priority: required for MX records/);
    await expect(
      startSandbox({ apiKey: API_KEY, seed: { contacts: [{ handle: "X", country: "Netherlands" }] } }),
    ).rejects.toThrow(/contacts\[0\]\.country/);
  });

  it("close() returns promptly with keep-alive connections open, and is idempotent", async () => {
    const short = await startSandbox({ apiKey: API_KEY, contacts: 1 });
    for (let i = 0; i < 3; i += 1) await call(short, "GET", "/v2/contacts");
    const started = performance.now();
    await short.close();
    await short.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(fetch(`${short.url}/v2/contacts`)).rejects.toThrow();
  });
});

describe("in-process helpers", () => {
  it("seedTemplate creates or replaces and returns ids; templateRecords returns a copy", () => {
    const ids = sandbox.seedTemplate("fresh", [
      { name: "a", type: "TXT", content: "1" },
      { name: "b", type: "TXT", content: "2" },
    ]);
    expect(ids).toHaveLength(2);
    const copy = sandbox.templateRecords("fresh")!;
    copy[0]!.content = "mutated";
    copy.pop();
    expect(sandbox.templateRecords("fresh")!.map((r) => r.content)).toEqual(["1", "2"]);
    expect(sandbox.seedTemplate("fresh")).toEqual([]);
    expect(sandbox.templateRecords("fresh")).toEqual([]);
    expect(sandbox.templateRecords("never")).toBeUndefined();
    expect(() => sandbox.seedTemplate("bad", [{ name: "@", type: "A", content: "nope" }])).toThrow(
      /records\[0\]\.content: must be an IPv4 address/,
    );
  });

  it("deleteRecord drifts a template behind the client's back; deleteTemplate removes it", async () => {
    const [first, second] = sandbox.seedTemplate("web", [
      { name: "a", type: "TXT", content: "1" },
      { name: "b", type: "TXT", content: "2" },
    ]);
    expect(sandbox.deleteRecord("web", first!)).toBe(true);
    expect(sandbox.deleteRecord("web", first!)).toBe(false);
    expect(sandbox.deleteRecord("nope", first!)).toBe(false);
    const response = await call(sandbox, "PATCH", recordsPath("web"), {
      body: { del: [{ record_id: first }] },
    });
    expect(response.status).toBe(404);
    expect(sandbox.templateRecords("web")!.map((r) => r.record_id)).toEqual([second]);
    expect(sandbox.deleteTemplate("web")).toBe(true);
    expect(sandbox.deleteTemplate("web")).toBe(false);
    expect((await call(sandbox, "PUT", recordsPath("web"), { body: { records: [] } })).status).toBe(404);
  });

  it("reset restores the seed and keeps the state objects and the log array", async () => {
    const { templates, domains, contacts } = sandbox.state;
    const log = sandbox.requests;
    sandbox.seedTemplate("extra");
    sandbox.setDomain("shop.example", "active");
    sandbox.addContacts([{ handle: "ADDED" }]);
    sandbox.addFault({ every: 1, respond: { status: 500 } });
    await call(sandbox, "GET", "/v2/contacts");
    sandbox.reset();
    expect(sandbox.state.templates).toBe(templates);
    expect(sandbox.state.domains).toBe(domains);
    expect(sandbox.state.contacts).toBe(contacts);
    expect(sandbox.requests).toBe(log);
    expect(templates.has("extra")).toBe(false);
    expect(domains.get("shop.example")).toBe("quarantined");
    expect(contacts.map((c) => c.handle)).toEqual(["C0000001", "C0000002", "C0000003"]);
    expect(log).toEqual([]);
    expect((await call(sandbox, "GET", "/v2/contacts")).status).toBe(200);
  });
});

describe("request log", () => {
  it("records method, path, raw query, body, status and time of every /v2 request, not admin ones", async () => {
    const before = Date.now();
    await call(sandbox, "GET", "/v2/contacts?status=ok&status=pending_update&email=%25%40example.com");
    await call(sandbox, "PATCH", recordsPath("web"), {
      body: { add: [{ name: "@", type: "TXT", content: "x" }] },
    });
    await call(sandbox, "PUT", recordsPath("web"), {
      rawBody: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    await call(sandbox, "POST", "/v2/domains/shop.example/restore", { authorization: null });
    await admin("GET", "/templates");
    expect(sandbox.requests).toEqual([
      {
        method: "GET",
        path: "/v2/contacts",
        query: "status=ok&status=pending_update&email=%25%40example.com",
        body: undefined,
        status: 200,
        time: expect.any(String),
      },
      {
        method: "PATCH",
        path: "/v2/dns/templates/web/records",
        query: "",
        body: { add: [{ name: "@", type: "TXT", content: "x" }] },
        status: 200,
        time: expect.any(String),
      },
      {
        method: "PUT",
        path: "/v2/dns/templates/web/records",
        query: "",
        body: "{oops",
        status: 400,
        time: expect.any(String),
      },
      {
        method: "POST",
        path: "/v2/domains/shop.example/restore",
        query: "",
        body: undefined,
        status: 401,
        time: expect.any(String),
      },
    ]);
    for (const entry of sandbox.requests) {
      expect(new Date(entry.time).toISOString()).toBe(entry.time);
      expect(Date.parse(entry.time)).toBeGreaterThanOrEqual(before - 1000);
    }
    const overHttp = await admin("GET", "/requests");
    expect((overHttp.json as { requests: unknown[] }).requests).toEqual(
      JSON.parse(JSON.stringify(sandbox.requests)) as unknown[],
    );
  });

  it("is emptied by clearRequests and DELETE /__sandbox/requests", async () => {
    await call(sandbox, "GET", "/v2/contacts");
    sandbox.clearRequests();
    expect(sandbox.requests).toEqual([]);
    await call(sandbox, "GET", "/v2/contacts");
    expect((await admin("DELETE", "/requests")).status).toBe(204);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("admin routes", () => {
  it("GET /__sandbox/ lists the routes", async () => {
    const response = await admin("GET", "/");
    expect(response.status).toBe(200);
    expect((response.json as { routes: string[] }).routes).toContain("POST /__sandbox/reset");
  });

  it("seed, read and delete templates and records", async () => {
    const seeded = await admin("PUT", "/templates/shop", {
      records: [
        { name: "@", type: "A", content: "192.0.2.1" },
        { name: "www", type: "CNAME", content: "{domainname}." },
      ],
    });
    expect(seeded.status).toBe(200);
    const ids = (seeded.json as { record_id: string[] }).record_id;
    expect(ids).toHaveLength(2);
    const read = await admin("GET", "/templates/shop");
    expect(read.json).toEqual({
      template_id: "shop",
      records: [
        { record_id: ids[0], name: "@", type: "A", content: "192.0.2.1" },
        { record_id: ids[1], name: "www", type: "CNAME", content: "{domainname}." },
      ],
      made: {},
    });
    const all = (await admin("GET", "/templates")).json as { templates: Record<string, unknown[]> };
    expect(Object.keys(all.templates)).toContain("shop");
    expect(all.templates.shop).toHaveLength(2);
    expect((await admin("DELETE", `/templates/shop/records/${ids[0]}`)).status).toBe(204);
    expect((await admin("DELETE", `/templates/shop/records/${ids[0]}`)).status).toBe(404);
    expect(sandbox.templateRecords("shop")!.map((r) => r.record_id)).toEqual([ids[1]]);
    expect((await admin("DELETE", "/templates/shop")).status).toBe(204);
    expect((await admin("GET", "/templates/shop")).status).toBe(404);
    expect((await admin("DELETE", "/templates/shop")).status).toBe(404);
  });

  it("seeds an empty template from a PUT without body, and rejects invalid records", async () => {
    const empty = await call(sandbox, "PUT", "/__sandbox/templates/blank");
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ record_id: [] });
    expect(sandbox.templateRecords("blank")).toEqual([]);
    const bad = await admin("PUT", "/templates/blank", {
      records: [{ name: "@", type: "SRV", content: "t", priority: 1 }],
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message).toContain("records[0].weight: required for SRV records");
  });

  it("set, read and delete domains", async () => {
    expect((await admin("GET", "/domains")).json).toEqual({
      domains: { "shop.example": "quarantined", "old.example": "quarantined", "live.example": "active" },
    });
    const set = await admin("PUT", "/domains/parked.example", { status: "quarantined" });
    expect(set.json).toEqual({ name: "parked.example", status: "quarantined" });
    expect((await admin("GET", "/domains/parked.example")).json).toEqual({
      name: "parked.example",
      status: "quarantined",
    });
    expect((await call(sandbox, "POST", "/v2/domains/parked.example/restore")).status).toBe(204);
    expect((await admin("GET", "/domains/parked.example")).json).toEqual({
      name: "parked.example",
      status: "active",
    });
    const bad = await admin("PUT", "/domains/parked.example", { status: "deleted" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message).toContain("status");
    expect((await admin("DELETE", "/domains/parked.example")).status).toBe(204);
    expect((await admin("GET", "/domains/parked.example")).status).toBe(404);
  });

  it("read and add contacts", async () => {
    const listed = (await admin("GET", "/contacts")).json as {
      contacts: Array<{ handle: string; reference?: string }>;
    };
    expect(listed.contacts.map((c) => c.handle)).toEqual(["C0000001", "C0000002", "C0000003"]);
    expect(listed.contacts.some((c) => c.reference !== undefined)).toBe(true);
    const added = await admin("POST", "/contacts", [
      { handle: "NEW-1", name: "New One", connections: 3, status: ["ok"] },
    ]);
    expect(added.json).toEqual({ added: 1, total: 4 });
    const found = await call(sandbox, "GET", "/v2/contacts?handle=new-1");
    expect((found.json as { data: unknown[] }).data).toEqual([
      { handle: "NEW-1", name: "New One", connections: 3, status: ["ok"] },
    ]);
    const bad = await admin("POST", "/contacts", [
      { name: "no handle" },
      { handle: "X", status: ["deleted"] },
    ]);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).message).toContain("contacts[0].handle");
    expect(errorOf(bad).message).toContain("contacts[1].status[0]");
    expect((await admin("POST", "/contacts", { handle: "not-an-array" })).status).toBe(400);
  });

  it("POST /__sandbox/reset resets", async () => {
    sandbox.seedTemplate("extra");
    expect((await admin("POST", "/reset")).status).toBe(204);
    expect(sandbox.state.templates.has("extra")).toBe(false);
  });

  it("answers 405 for a wrong method, 404 for an unknown route and 400 for malformed JSON", async () => {
    const wrongMethod = await admin("POST", "/templates");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    expect((await admin("GET", "/nothing-here")).status).toBe(404);
    const malformed = await call(sandbox, "POST", "/__sandbox/faults", {
      rawBody: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).message).toContain("body: not valid JSON");
  });
});
