/**
 * Personalities: each option, on its own, gives the other answer the spec allows; checked with
 * plain fetch (or node:http where fetch hides the wire) against a started sandbox.
 */

import { type Sandbox, type SandboxOptions, startSandbox } from "domainapi-sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { API_KEY, type Call, call, errorOf } from "./helpers";

const started: Sandbox[] = [];
async function start(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ apiKey: API_KEY, ...options });
  started.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

interface ContactPage {
  data: Array<Record<string, unknown>>;
  pagination: { page: number; per_page: number; total_pages: number; total_results: number };
}

async function contacts(sandbox: Sandbox, query = ""): Promise<ContactPage> {
  const result = await call(sandbox, "GET", `/v2/contacts${query === "" ? "" : `?${query}`}`);
  expect(result.status, result.text).toBe(200);
  return result.json as ContactPage;
}

describe("validation of personality options", () => {
  it.each<[Partial<SandboxOptions>, RegExp]>([
    [{ perPageCap: 0 }, /perPageCap: must be an integer from 1/],
    [{ perPageCap: 2.5 }, /perPageCap/],
    [{ nullStrings: "yes" as unknown as boolean }, /nullStrings: must be true or false/],
    [
      { errorBody: "xml" as "html" },
      /errorBody: must be one of error, message, errors, problem, html, empty/,
    ],
    [{ numericIds: 1 as unknown as boolean }, /numericIds: must be true or false/],
    [{ urlForwardCreatesRecords: "on" as unknown as boolean }, /urlForwardCreatesRecords/],
    [{ idOrderSeed: -1 }, /idOrderSeed: must be an integer from 0 to 4294967295/],
    [{ retryAfter: "minutes" as "date" }, /retryAfter: must be one of seconds, date, fraction/],
    [{ cutBodies: -1 }, /cutBodies: must be an integer from 0/],
    [{ ignoreRange: null as unknown as boolean }, /ignoreRange/],
    [{ keepAliveIdleMs: 0 }, /keepAliveIdleMs: must be an integer from 1/],
    [{ patchApply: "partial" as "atomic" }, /patchApply: must be one of atomic, itemwise/],
    [{ contactsGrowth: 1001 }, /contactsGrowth: must be an integer from 0 to 1000/],
  ])("startSandbox(%j) throws naming the option", async (options, message) => {
    await expect(startSandbox({ apiKey: API_KEY, ...options })).rejects.toThrow(message);
  });

  it("GET /__sandbox/personality says what the sandbox runs with", async () => {
    const sandbox = await start({ contacts: 0, errorBody: "html", perPageCap: 10 });
    const result = await call(sandbox, "GET", "/__sandbox/personality");
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ personality: JSON.parse(JSON.stringify(sandbox.personality)) });
    expect((result.json as { personality: Record<string, unknown> }).personality).toMatchObject({
      errorBody: "html",
      perPageCap: 10,
    });
  });

  it("defaults: no personality", async () => {
    const sandbox = await start({ contacts: 0 });
    expect(sandbox.personality).toEqual({
      perPageCap: undefined,
      nullStrings: false,
      errorBody: "error",
      numericIds: false,
      urlForwardCreatesRecords: true,
      idOrderSeed: 1,
      retryAfter: "seconds",
      cutBodies: 0,
      ignoreRange: false,
      keepAliveIdleMs: undefined,
      patchApply: "atomic",
      dnsLate: 0,
      dnsSilent: false,
      contactsGrowth: 0,
    });
  });
});

describe("perPageCap", () => {
  it("serves per_page above the cap as the cap, and says so in the pagination object", async () => {
    const sandbox = await start({ contacts: 60, perPageCap: 25 });
    const first = await contacts(sandbox, "per_page=50");
    expect(first.data).toHaveLength(25);
    expect(first.pagination).toEqual({ page: 1, per_page: 25, total_pages: 3, total_results: 60 });
    const last = await contacts(sandbox, "per_page=500&page=3");
    expect(last.data.map((c) => c.handle)).toEqual(sandbox.state.contacts.slice(50).map((c) => c.handle));
    expect(last.pagination.per_page).toBe(25);
    // At or below the cap, as asked.
    expect((await contacts(sandbox, "per_page=10")).pagination.per_page).toBe(10);
  });

  it("the default page size is capped too; without a cap above 100 stays a 400", async () => {
    const capped = await start({ contacts: 60, perPageCap: 20 });
    expect((await contacts(capped)).pagination.per_page).toBe(20);
    const strict = await start({ contacts: 1 });
    const refused = await call(strict, "GET", "/v2/contacts?per_page=101");
    expect(refused.status).toBe(400);
    expect(errorOf(refused).message).toMatch(/per_page: at most 100/);
  });

  it("a cap above 100 serves pages above 100", async () => {
    const sandbox = await start({ contacts: 300, perPageCap: 250 });
    const body = await contacts(sandbox, "per_page=1000");
    expect(body.data).toHaveLength(250);
    expect(body.pagination).toMatchObject({ per_page: 250, total_pages: 2, total_results: 300 });
  });
});

describe("nullStrings", () => {
  const fixture = {
    handle: "NULL01",
    name: "Ann",
    company_name: "",
    city: "Utrecht",
    status: ["ok" as const],
  };

  it("serves empty and absent string fields as null, others unchanged", async () => {
    const sandbox = await start({ contacts: 0, nullStrings: true, seed: { contacts: [fixture] } });
    const [contact] = (await contacts(sandbox)).data;
    expect(contact).toEqual({
      handle: "NULL01",
      name: "Ann",
      company_name: null,
      address_1: null,
      address_2: null,
      postal_code: null,
      city: "Utrecht",
      state: null,
      country: null,
      phone: null,
      email: null,
      status: ["ok"],
    });
  });

  it("generated contacts get null for their empty company_name, address_2 and state", async () => {
    const plain = await start({ contacts: 200 });
    const nulled = await start({ contacts: 200, nullStrings: true });
    const before = (await contacts(plain, "per_page=100")).data;
    const after = (await contacts(nulled, "per_page=100")).data;
    let nulls = 0;
    before.forEach((contact, index) => {
      for (const field of ["company_name", "address_2", "state"]) {
        if (contact[field] === "" || contact[field] === undefined) {
          expect(after[index]![field], `${contact.handle}.${field}`).toBeNull();
          nulls += 1;
        } else {
          expect(after[index]![field]).toBe(contact[field]);
        }
      }
    });
    expect(nulls).toBeGreaterThan(0);
  });

  it("filters still treat null fields as empty", async () => {
    const sandbox = await start({ contacts: 0, nullStrings: true, seed: { contacts: [fixture] } });
    expect((await contacts(sandbox, "company_name=")).data.map((c) => c.handle)).toEqual(["NULL01"]);
  });
});

describe("a total that changes between pages", () => {
  it("addContacts and removeContacts change what the next page request sees", async () => {
    const sandbox = await start({ contacts: 30 });
    const first = await contacts(sandbox, "per_page=10");
    expect(first.pagination).toMatchObject({ total_pages: 3, total_results: 30 });
    sandbox.addContacts([{ handle: "LATE01" }]);
    const second = await contacts(sandbox, "per_page=10&page=2");
    expect(second.pagination).toMatchObject({ total_pages: 4, total_results: 31 });
    expect(sandbox.removeContacts(["C0000001", "C0000002", "NOPE"])).toBe(2);
    const third = await contacts(sandbox, "per_page=10&page=3");
    expect(third.pagination).toMatchObject({ total_pages: 3, total_results: 29 });
    // The removal shifted every later contact two places forward: page 3 now starts at C0000023.
    expect(third.data[0]!.handle).toBe("C0000023");
  });

  it("contactsGrowth: each answered list appends N contacts, so the next page sees a larger total", async () => {
    const sandbox = await start({ contacts: 10, contactsGrowth: 2 });
    const first = await contacts(sandbox, "per_page=5");
    expect(first.pagination).toMatchObject({ total_results: 10, total_pages: 2 });
    const second = await contacts(sandbox, "per_page=5&page=2");
    expect(second.pagination).toMatchObject({ total_results: 12, total_pages: 3 });
    expect(sandbox.state.contacts.slice(10).map((c) => c.handle)).toEqual([
      "N0000001",
      "N0000002",
      "N0000003",
      "N0000004",
    ]);
    // A refused list adds nobody; reset starts the count again.
    expect((await call(sandbox, "GET", "/v2/contacts?per_page=0")).status).toBe(400);
    expect(sandbox.state.contacts).toHaveLength(14);
    sandbox.reset();
    await contacts(sandbox);
    expect(sandbox.state.contacts.at(-1)!.handle).toBe("N0000002");
  });

  it("DELETE /__sandbox/contacts/:handle removes one over HTTP; an unknown handle is a 404", async () => {
    const sandbox = await start({ contacts: 3 });
    const removed = await call(sandbox, "DELETE", "/__sandbox/contacts/C0000002");
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ removed: 1, total: 2 });
    expect(sandbox.state.contacts.map((c) => c.handle)).toEqual(["C0000001", "C0000003"]);
    const missing = await call(sandbox, "DELETE", "/__sandbox/contacts/C0000002");
    expect(missing.status).toBe(404);
    expect(errorOf(missing).message).toMatch(/C0000002/);
  });
});

const RECORDS = "/v2/dns/templates/web/records";
const put = (sandbox: Sandbox, records: unknown[]) => call(sandbox, "PUT", RECORDS, { body: { records } });
const patch = (sandbox: Sandbox, body: unknown) => call(sandbox, "PATCH", RECORDS, { body });

describe("errorBody", () => {
  /** The API's own words for each error the spec's operations can meet. */
  const cases: Array<[string, (sandbox: Sandbox) => Promise<Call>, number, string]> = [
    [
      "unknown template",
      (s) => call(s, "PUT", "/v2/dns/templates/nope/records", { body: { records: [] } }),
      404,
      "template nope does not exist",
    ],
    ["unknown domain", (s) => call(s, "POST", "/v2/domains/none.example/restore"), 404, "none.example"],
    [
      "wrong key",
      (s) => call(s, "GET", "/v2/contacts", { authorization: "Bearer wrong" }),
      401,
      "invalid API key",
    ],
    [
      "bad record",
      (s) => patch(s, { add: [{ name: "@", type: "MX", content: "mx.example.net" }] }),
      400,
      "add[0].priority",
    ],
  ];

  it.each(cases)('message: {"message"} for %s', async (_name, request, status, words) => {
    const sandbox = await start({ contacts: 0, errorBody: "message" });
    const result = await request(sandbox);
    expect(result.status).toBe(status);
    expect(result.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(result.json).toEqual({ message: expect.stringContaining(words) });
  });

  it.each(cases)('errors: {"errors":[{"message"}]} for %s', async (_name, request, status, words) => {
    const sandbox = await start({ contacts: 0, errorBody: "errors" });
    const result = await request(sandbox);
    expect(result.status).toBe(status);
    expect(result.json).toEqual({ errors: [{ message: expect.stringContaining(words) }] });
  });

  it.each(cases)(
    "problem: RFC 7807 application/problem+json for %s",
    async (_name, request, status, words) => {
      const sandbox = await start({ contacts: 0, errorBody: "problem" });
      const result = await request(sandbox);
      expect(result.status).toBe(status);
      expect(result.headers.get("content-type")).toBe("application/problem+json");
      expect(result.json).toEqual({
        type: "about:blank",
        title: expect.any(String),
        status,
        detail: expect.stringContaining(words),
      });
    },
  );

  it.each(cases)("html: a proxy's text/html page for %s", async (_name, request, status, words) => {
    const sandbox = await start({ contacts: 0, errorBody: "html" });
    const result = await request(sandbox);
    expect(result.status).toBe(status);
    expect(result.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(result.text).toMatch(/^<!DOCTYPE html>/);
    expect(result.text).toContain(`<h1>${status} `);
    expect(result.text).toContain(words);
    expect(result.json).toBeUndefined();
  });

  it.each(cases)("empty: no body at all for %s", async (_name, request, status) => {
    const sandbox = await start({ contacts: 0, errorBody: "empty" });
    const result = await request(sandbox);
    expect(result.status).toBe(status);
    expect(result.text).toBe("");
    expect(result.headers.get("content-length")).toBe("0");
    expect(result.headers.get("content-type")).toBeNull();
  });

  it("shapes injected faults and the 429 of the rate limit too; a fault's own body stays verbatim", async () => {
    const sandbox = await start({ contacts: 0, errorBody: "problem", rateLimit: { perSecond: 1, burst: 1 } });
    sandbox.addFault({ method: "GET", respond: { status: 503 } });
    const injected = await call(sandbox, "GET", "/v2/contacts");
    expect(injected.json).toMatchObject({
      status: 503,
      title: "Service Unavailable",
      detail: "injected fault: HTTP 503",
    });
    await call(sandbox, "GET", "/v2/contacts");
    const limited = await call(sandbox, "GET", "/v2/contacts");
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: 429, detail: expect.stringContaining("rate limit") });
    sandbox.addFault({ method: "GET", respond: { status: 500, body: '{"oops":1}' } });
    expect((await call(sandbox, "GET", "/v2/contacts")).text).toBe('{"oops":1}');
  });

  it("HTML-escapes the words it puts in a page", async () => {
    const sandbox = await start({ contacts: 0, errorBody: "html" });
    const result = await call(sandbox, "PUT", RECORDS, {
      rawBody: "{}",
      headers: { "Content-Type": "text/plain" },
    });
    expect(result.status).toBe(415);
    expect(result.text).toContain("got &#34;text/plain&#34;");
    expect(result.text).not.toContain('"text/plain"');
  });

  it("admin routes keep the sandbox's own shape", async () => {
    const sandbox = await start({ contacts: 0, errorBody: "empty" });
    const missing = await call(sandbox, "GET", "/__sandbox/templates/nope");
    expect(errorOf(missing).message).toMatch(/nope/);
  });
});

describe("numericIds", () => {
  it("answers PUT and PATCH with numbers; the records are addressed by the string form", async () => {
    const sandbox = await start({ contacts: 0, numericIds: true });
    const created = await put(sandbox, [
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "@", type: "TXT", content: "v=spf1 -all" },
    ]);
    expect(created.status).toBe(200);
    const ids = (created.json as { record_id: unknown[] }).record_id;
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(Number.isInteger(id)).toBe(true);
    expect(created.text).toMatch(/^\{"record_id":\[\d+,\d+\]\}$/);
    const [a, txt] = ids as number[];
    const changed = await patch(sandbox, {
      update: [{ record_id: String(a), name: "@", content: "192.0.2.2" }],
      del: [{ record_id: String(txt) }],
      add: [{ name: "www", type: "CNAME", content: "{domainname}." }],
    });
    expect(changed.status).toBe(200);
    const [added] = (changed.json as { record_id: number[] }).record_id;
    expect(typeof added).toBe("number");
    expect(sandbox.templateRecords("web")).toEqual([
      { record_id: String(a), name: "@", type: "A", content: "192.0.2.2" },
      { record_id: String(added), name: "www", type: "CNAME", content: "{domainname}." },
    ]);
    expect(sandbox.deleteRecord("web", String(added))).toBe(true);
    const gone = await patch(sandbox, { del: [{ record_id: String(added) }] });
    expect(gone.status).toBe(404);
  });
});

describe("URL forwards: by default as the spec says; urlForwardCreatesRecords off, one record", () => {
  const URL = "https://example.org/";
  const idsOf = (result: Call): string[] => (result.json as { record_id: string[] }).record_id;

  it.each(["URLFWD", "URLFWD301", "URLCLO"])(
    "a %s add also creates an A and an AAAA at its name, and the answer names all three ids",
    async (type) => {
      const sandbox = await start({ contacts: 0 });
      const result = await patch(sandbox, { add: [{ name: "go", type, content: URL }] });
      expect(result.status).toBe(200);
      const stored = sandbox.templateRecords("web") ?? [];
      expect(stored.map(({ name, type, content }) => ({ name, type, content }))).toEqual([
        { name: "go", type, content: URL },
        { name: "go", type: "A", content: "192.0.2.80" },
        { name: "go", type: "AAAA", content: "2001:db8::80" },
      ]);
      expect([...idsOf(result)].sort()).toEqual(stored.map((r) => r.record_id).sort());
      const [forward, a, aaaa] = stored.map((r) => r.record_id);
      expect(sandbox.madeRecords("web")).toEqual({ [forward!]: [a, aaaa] });
    },
  );

  it("names the three ids in an order not shown: not always the forward first, the same for the same seed", async () => {
    const positions = async (idOrderSeed?: number): Promise<number[]> => {
      const sandbox = await start({
        contacts: 0,
        ...(idOrderSeed === undefined ? {} : { idOrderSeed }),
      });
      const found: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const ids = idsOf(await patch(sandbox, { add: [{ name: `go${i}`, type: "URLFWD", content: URL }] }));
        const forward = sandbox
          .templateRecords("web")
          ?.find((r) => r.name === `go${i}` && r.type === "URLFWD");
        found.push(ids.indexOf(forward!.record_id));
      }
      return found;
    };
    const first = await positions();
    expect(new Set(first).size, `forward at ${first}`).toBe(3);
    expect(await positions()).toEqual(first);
    expect(await positions(1)).toEqual(first);
    expect(await positions(7)).not.toEqual(first);
  });

  it("a PUT answers one id per submitted record (the forward's own); the records made for it exist all the same", async () => {
    const sandbox = await start({ contacts: 0 });
    const result = await put(sandbox, [
      { name: "@", type: "TXT", content: "hello" },
      { name: "@", type: "URLFWD301", content: URL },
    ]);
    const stored = sandbox.templateRecords("web") ?? [];
    expect(stored.map((r) => r.type)).toEqual(["TXT", "URLFWD301", "A", "AAAA"]);
    expect(idsOf(result)).toEqual([stored[0]!.record_id, stored[1]!.record_id]);
    expect(sandbox.madeRecords("web")).toEqual({
      [stored[1]!.record_id]: [stored[2]!.record_id, stored[3]!.record_id],
    });
    // A second PUT replaces them all, the made records included.
    await put(sandbox, [{ name: "@", type: "TXT", content: "bye" }]);
    expect(sandbox.templateRecords("web")?.map((r) => r.type)).toEqual(["TXT"]);
    expect(sandbox.madeRecords("web")).toEqual({});
  });

  it("deleting the forward deletes the records made for it; a later del of one of them is a 404", async () => {
    const sandbox = await start({ contacts: 0 });
    await patch(sandbox, { add: [{ name: "go", type: "URLFWD", content: URL }] });
    const [forward, a] = (sandbox.templateRecords("web") ?? []).map((r) => r.record_id);
    expect((await patch(sandbox, { del: [{ record_id: forward! }] })).status).toBe(204);
    expect(sandbox.templateRecords("web")).toEqual([]);
    const again = await patch(sandbox, { del: [{ record_id: a! }] });
    expect(again.status).toBe(404);
    expect(errorOf(again).message).toContain(`no record ${a}`);
  });

  it("the forward and its records deleted in one request: 204, all gone", async () => {
    const sandbox = await start({ contacts: 0 });
    const ids = idsOf(await patch(sandbox, { add: [{ name: "go", type: "URLCLO", content: URL }] }));
    expect((await patch(sandbox, { del: ids.map((record_id) => ({ record_id })) })).status).toBe(204);
    expect(sandbox.templateRecords("web")).toEqual([]);
  });

  it("a made record can be deleted or updated on its own; the forward's URL changes without touching them", async () => {
    const sandbox = await start({ contacts: 0 });
    await patch(sandbox, { add: [{ name: "go", type: "URLFWD", content: URL }] });
    const [forward, a, aaaa] = (sandbox.templateRecords("web") ?? []).map((r) => r.record_id);
    expect((await patch(sandbox, { del: [{ record_id: a! }] })).status).toBe(204);
    expect(
      (
        await patch(sandbox, {
          update: [{ record_id: forward!, name: "go", content: "https://example.net/" }],
        })
      ).status,
    ).toBe(204);
    expect(sandbox.templateRecords("web")?.map((r) => `${r.record_id} ${r.type} ${r.content}`)).toEqual([
      `${forward} URLFWD https://example.net/`,
      `${aaaa} AAAA 2001:db8::80`,
    ]);
    expect(sandbox.madeRecords("web")).toEqual({ [forward!]: [aaaa] });
    // The admin view says which records the service made, by forward.
    const view = await call(sandbox, "GET", "/__sandbox/templates/web");
    expect(view.json).toMatchObject({ template_id: "web", made: { [forward!]: [aaaa] } });
  });

  it("drift (admin) removes exactly the one record, even a forward; seeding a forward makes nothing", async () => {
    const sandbox = await start({ contacts: 0 });
    await patch(sandbox, { add: [{ name: "go", type: "URLFWD", content: URL }] });
    const [forward] = (sandbox.templateRecords("web") ?? []).map((r) => r.record_id);
    expect(sandbox.deleteRecord("web", forward!)).toBe(true);
    expect(sandbox.templateRecords("web")?.map((r) => r.type)).toEqual(["A", "AAAA"]);
    expect(sandbox.madeRecords("web")).toEqual({});
    sandbox.seedTemplate("mail", [{ name: "go", type: "URLFWD", content: URL }]);
    expect(sandbox.templateRecords("mail")?.map((r) => r.type)).toEqual(["URLFWD"]);
  });

  it("off: a forward is one record, and its add is answered with its one id", async () => {
    const sandbox = await start({ contacts: 0, urlForwardCreatesRecords: false });
    const added = await patch(sandbox, { add: [{ name: "go", type: "URLFWD", content: URL }] });
    expect(idsOf(added)).toEqual((sandbox.templateRecords("web") ?? []).map((r) => r.record_id));
    expect(idsOf(added)).toHaveLength(1);
    expect(idsOf(await put(sandbox, [{ name: "@", type: "URLFWD", content: URL }]))).toHaveLength(1);
    expect(sandbox.templateRecords("web")?.map((r) => r.type)).toEqual(["URLFWD"]);
  });
});

describe("retryAfter", () => {
  it("fraction: the rate limit's 429 says the wait as a decimal", async () => {
    const sandbox = await start({
      contacts: 0,
      retryAfter: "fraction",
      rateLimit: { perSecond: 4, burst: 1 },
    });
    expect((await call(sandbox, "GET", "/v2/contacts")).status).toBe(200);
    const limited = await call(sandbox, "GET", "/v2/contacts");
    expect(limited.status).toBe(429);
    const value = limited.headers.get("retry-after")!;
    expect(value).toMatch(/^\d+\.\d$/);
    expect(Number(value)).toBeGreaterThan(0);
    expect(Number(value)).toBeLessThanOrEqual(0.3);
  });

  it("date: the rate limit's 429 says an HTTP date no earlier than the wait", async () => {
    const sandbox = await start({ contacts: 0, retryAfter: "date", rateLimit: { perSecond: 0.5, burst: 1 } });
    await call(sandbox, "GET", "/v2/contacts");
    const before = Date.now();
    const limited = await call(sandbox, "GET", "/v2/contacts");
    const value = limited.headers.get("retry-after")!;
    expect(value).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(value) - before).toBeGreaterThanOrEqual(1000);
    expect(Date.parse(value) - before).toBeLessThan(60_000);
  });

  it("a fault's numeric retryAfter is written in the sandbox's form; a string is sent verbatim", async () => {
    const forms = { seconds: /^3$/, fraction: /^2\.5$/, date: / GMT$/ } as const;
    for (const [form, pattern] of Object.entries(forms)) {
      const sandbox = await start({ contacts: 0, retryAfter: form as keyof typeof forms });
      sandbox.addFault({
        method: "GET",
        respond: { status: 503, retryAfter: 2.5 },
      });
      sandbox.addFault({ method: "PATCH", respond: { status: 429, retryAfter: "1.5" } });
      const faulted = await call(sandbox, "GET", "/v2/contacts");
      expect(faulted.status).toBe(503);
      expect(faulted.headers.get("retry-after"), form).toMatch(pattern);
      const verbatim = await patch(sandbox, { del: [{ record_id: "x" }] });
      expect(verbatim.headers.get("retry-after")).toBe("1.5");
    }
  });
});

/** One raw HTTP exchange, for what fetch hides: a cut body, a Range header, the connection. */
async function exchange(
  sandbox: Sandbox,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; received: string; error?: string }> {
  const { request } = await import("node:http");
  return new Promise((resolve) => {
    const req = request(
      `${sandbox.url}${path}`,
      { method, headers: { Authorization: `Bearer ${API_KEY}`, ...headers }, agent: false },
      (res) => {
        let received = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          received += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, received }));
        res.on("error", (error) =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, received, error: error.message }),
        );
      },
    );
    req.on("error", (error) => resolve({ status: 0, headers: {}, received: "", error: error.message }));
    req.end(body);
  });
}

describe("cutBodies and the cut fault", () => {
  it("cuts the first N answers that have a body: full Content-Length, half the body, then the socket closes", async () => {
    const sandbox = await start({ contacts: 5, cutBodies: 2 });
    for (let i = 0; i < 2; i += 1) {
      const cut = await exchange(sandbox, "GET", "/v2/contacts");
      expect(cut.status).toBe(200);
      expect(cut.error).toBeDefined();
      const length = Number(cut.headers["content-length"]);
      expect(cut.received.length).toBeGreaterThan(0);
      expect(cut.received.length).toBeLessThan(length);
    }
    const whole = await exchange(sandbox, "GET", "/v2/contacts");
    expect(whole.error).toBeUndefined();
    expect(whole.received.length).toBe(Number(whole.headers["content-length"]));
    expect(sandbox.requests.map((r) => r.cut === true)).toEqual([true, true, false]);
    // fetch sees the cut as a failed body read.
    sandbox.reset();
    await expect(
      fetch(`${sandbox.url}/v2/contacts`, { headers: { Authorization: `Bearer ${API_KEY}` } }).then((r) =>
        r.text(),
      ),
    ).rejects.toThrow();
  });

  it("does not count answers without a body, and applies the change it cuts the answer of", async () => {
    const sandbox = await start({ contacts: 0, cutBodies: 1 });
    expect((await exchange(sandbox, "POST", "/v2/domains/shop.example/restore")).status).toBe(204);
    const cut = await exchange(
      sandbox,
      "PUT",
      RECORDS,
      { "Content-Type": "application/json" },
      JSON.stringify({ records: [{ name: "@", type: "A", content: "192.0.2.1" }] }),
    );
    expect(cut.error).toBeDefined();
    expect(sandbox.templateRecords("web")).toHaveLength(1);
    expect(sandbox.requests.at(-1)).toMatchObject({ status: 200, cut: true });
  });

  it("a fault rule with cut: true cuts the matching answer", async () => {
    const sandbox = await start({ contacts: 5 });
    sandbox.addFault({ method: "GET", nth: 2, cut: true });
    expect((await exchange(sandbox, "GET", "/v2/contacts")).error).toBeUndefined();
    expect((await exchange(sandbox, "GET", "/v2/contacts")).error).toBeDefined();
    expect(sandbox.requests.at(-1)).toMatchObject({ fault: true, cut: true });
    expect(() => sandbox.addFault({ cut: true, drop: "after" })).toThrow(/cannot be combined/);
  });
});

describe("Range headers", () => {
  it("are recorded in the request log, and absent otherwise", async () => {
    const sandbox = await start({ contacts: 3 });
    await exchange(sandbox, "GET", "/v2/contacts", { Range: "bytes=0-9" });
    await exchange(sandbox, "GET", "/v2/contacts");
    expect(sandbox.requests[0]!.range).toBe("bytes=0-9");
    expect(sandbox.requests[1]).not.toHaveProperty("range");
  });

  it("by default are honoured like a caching proxy would: 206 with Content-Range, 416 past the end", async () => {
    const sandbox = await start({ contacts: 3 });
    const whole = await exchange(sandbox, "GET", "/v2/contacts");
    const part = await exchange(sandbox, "GET", "/v2/contacts", { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.received).toBe(whole.received.slice(0, 10));
    expect(part.headers["content-range"]).toBe(`bytes 0-9/${whole.received.length}`);
    const tail = await exchange(sandbox, "GET", "/v2/contacts", { Range: "bytes=-5" });
    expect(tail.received).toBe(whole.received.slice(-5));
    const past = await exchange(sandbox, "GET", "/v2/contacts", { Range: `bytes=${whole.received.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${whole.received.length}`);
    // Several ranges or another unit: ignored, as RFC 9110 allows.
    expect((await exchange(sandbox, "GET", "/v2/contacts", { Range: "bytes=0-1,4-5" })).status).toBe(200);
    expect((await exchange(sandbox, "GET", "/v2/contacts", { Range: "items=0-1" })).status).toBe(200);
  });

  it("ignoreRange: answered 200 with the whole body, still recorded", async () => {
    const sandbox = await start({ contacts: 3, ignoreRange: true });
    const whole = await exchange(sandbox, "GET", "/v2/contacts");
    const asked = await exchange(sandbox, "GET", "/v2/contacts", { Range: "bytes=0-9" });
    expect(asked.status).toBe(200);
    expect(asked.received).toBe(whole.received);
    expect(sandbox.requests.at(-1)!.range).toBe("bytes=0-9");
  });
});

describe("keepAliveIdleMs", () => {
  it("closes an idle keep-alive connection after the given time; a new one is served", async () => {
    const { Agent, request } = await import("node:http");
    const sandbox = await start({ contacts: 1, keepAliveIdleMs: 50 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const closed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error("the idle connection was not closed within 20 s")),
          20_000,
        );
        const req = request(
          `${sandbox.url}/v2/contacts`,
          { agent, headers: { Authorization: `Bearer ${API_KEY}` } },
          (res) => {
            expect(res.headers.connection).toBe("keep-alive");
            expect(res.headers["keep-alive"]).toMatch(/timeout=/);
            res.resume();
            res.on("end", () => {
              req.socket?.once("close", () => {
                clearTimeout(timer);
                resolve();
              });
            });
          },
        );
        req.on("error", reject);
        req.end();
      });
      await closed;
      expect((await call(sandbox, "GET", "/v2/contacts")).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe("patchApply", () => {
  async function seeded(patchApply?: "atomic" | "itemwise") {
    const sandbox = await start({ contacts: 0, ...(patchApply === undefined ? {} : { patchApply }) });
    const [a, b] = sandbox.seedTemplate("web", [
      { name: "a", type: "A", content: "192.0.2.1" },
      { name: "b", type: "A", content: "192.0.2.2" },
    ]);
    return { sandbox, a: a!, b: b! };
  }
  const body = (a: string, b: string) => ({
    del: [{ record_id: a }, { record_id: "rec-999" }],
    update: [{ record_id: b, name: "b", content: "192.0.2.22" }],
    add: [{ name: "c", type: "A", content: "192.0.2.3" }],
  });

  it("atomic (default): an unknown id is a 404 and nothing changes", async () => {
    const { sandbox, a, b } = await seeded();
    const before = sandbox.templateRecords("web");
    const result = await patch(sandbox, body(a, b));
    expect(result.status).toBe(404);
    expect(errorOf(result).message).toBe("del[1].record_id: template web has no record rec-999");
    expect(sandbox.templateRecords("web")).toEqual(before);
  });

  it("itemwise: the valid items are applied (del, update, add), then the 404 names the unknown id", async () => {
    const { sandbox, a, b } = await seeded("itemwise");
    const result = await patch(sandbox, body(a, b));
    expect(result.status).toBe(404);
    expect(errorOf(result).message).toMatch(
      /^del\[1\]\.record_id: template web has no record rec-999; the other items were applied$/,
    );
    const after = sandbox.templateRecords("web")!;
    expect(after.map((r) => `${r.name} ${r.content}`)).toEqual(["b 192.0.2.22", "c 192.0.2.3"]);
    expect(after[0]!.record_id).toBe(b);
  });

  it("itemwise: a 400 still changes nothing", async () => {
    const { sandbox, a } = await seeded("itemwise");
    const before = sandbox.templateRecords("web");
    const result = await patch(sandbox, { del: [{ record_id: a }, { record_id: a }] });
    expect(result.status).toBe(400);
    expect(sandbox.templateRecords("web")).toEqual(before);
  });
});
