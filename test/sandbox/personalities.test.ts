/**
 * Personalities: each option, on its own, gives the other answer the spec allows; checked with
 * plain fetch (or node:http where fetch hides the wire) against a started sandbox.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../sandbox/cli";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../sandbox/index";
import { API_KEY, call, errorOf } from "./helpers";

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
  ])("startSandbox(%j) throws naming the option", async (options, message) => {
    await expect(startSandbox({ apiKey: API_KEY, ...options })).rejects.toThrow(message);
  });

  it("a bad flag is a usage error (exit 2) naming the flag", () => {
    const parse =
      (...argv: string[]) =>
      () =>
        parseCommandLine(["--api-key", "k", ...argv], {});
    expect(parse("--per-page-cap", "0")).toThrow(UsageError);
    expect(parse("--per-page-cap", "0")).toThrow(/--per-page-cap: must be an integer from 1/);
    expect(parse("--per-page-cap", "many")).toThrow(/--per-page-cap: expected an integer/);
    expect(parse("--null-strings=yes")).toThrow(UsageError);
  });

  it("flags become options", () => {
    const command = parseCommandLine(["--api-key", "k", "--per-page-cap", "25", "--null-strings"], {});
    expect(command).toMatchObject({ help: false, options: { perPageCap: 25, nullStrings: true } });
  });

  it("defaults: no personality", async () => {
    const sandbox = await start({ contacts: 0 });
    expect(sandbox.personality).toEqual({
      perPageCap: undefined,
      nullStrings: false,
      errorBody: "error",
      numericIds: false,
      urlForwardCreatesRecords: false,
      retryAfter: "seconds",
      cutBodies: 0,
      ignoreRange: false,
      keepAliveIdleMs: undefined,
      patchApply: "atomic",
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
