/**
 * getContacts driven against a real sandbox: every filter, wildcard and sort form, paging, `limit`,
 * `concurrency`, tolerant parsing, the exact query sent, and arguments refused before any request.
 *
 * Expected results are computed here from `sandbox.state.contacts` with plain filters and sorts
 * (the sandbox's documented semantics: string search is case-insensitive and exact unless it holds
 * `%`; an absent field reads as empty; sorting is stable), never by calling the provider's code.
 */

import {
  type LoggedRequest,
  type Sandbox,
  SORT_FIELDS,
  startSandbox,
  type WireContact,
} from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import { getContacts } from "../../../provider/contacts/getContacts";
import { type GetContactsArgs, InvalidArgumentError } from "../../../provider/contacts/query";

const API_KEY = "contacts-test-key-7c2d";

/** Fixtures appended after the generated contacts: fields absent, values to search for. */
const FIXTURES: WireContact[] = [
  {
    handle: "FIX0001",
    name: "Ann Fixture",
    email: "ann.fixture@wildcard.example",
    city: "Amstelveen",
    country: "NL",
    connections: 7,
    status: ["ok"],
    date_created: "2020-02-29T12:00:00Z",
    date_last_updated: "2021-03-01T00:00:00Z",
    auto_delete: true,
    reference: "FIXREF-1",
  },
  { handle: "FIX0002", name: "Bare Minimum" },
  {
    handle: "FIX0003",
    company_name: "Percent % Company",
    name: "Cee Fixture",
    email: "cee@wildcard.example",
    country: "BE",
    connections: "12",
    status: ["pending_update", "pending_validation"],
  },
];

let sandbox: Sandbox;
let client: DomainApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, contacts: 120, seed: { contacts: FIXTURES } });
  client = new DomainApiClient({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 5000, maxRetries: 1 });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

function all(): WireContact[] {
  return sandbox.state.contacts;
}

function handles(list: ReadonlyArray<{ handle: string }>): string[] {
  return list.map((c) => c.handle);
}

function gets(): LoggedRequest[] {
  return sandbox.requests.filter((r) => r.method === "GET" && r.path === "/v2/contacts");
}

function sentQueries(): URLSearchParams[] {
  return gets().map((r) => new URLSearchParams(r.query));
}

function text(contact: WireContact, field: keyof WireContact): string {
  const value = contact[field];
  return value === undefined ? "" : String(value);
}

/** Case-insensitive search: exact, or `%` for any run of characters. */
function like(pattern: string, value: string): boolean {
  const source = pattern
    .split("%")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "is").test(value);
}

function connectionsOf(contact: WireContact): number {
  return contact.connections === undefined ? 0 : Number(contact.connections);
}

type SortKey = [field: keyof WireContact, descending: boolean];

function sortValue(contact: WireContact, field: keyof WireContact): string | number {
  if (field === "connections") return connectionsOf(contact);
  if (field === "auto_delete") return contact.auto_delete === true ? 1 : 0;
  if (field === "date_created" || field === "date_last_updated") return contact[field] ?? "";
  return text(contact, field).toLowerCase();
}

/** A stable multi-key sort (Array.prototype.sort is stable). */
function sorted(list: WireContact[], keys: SortKey[]): WireContact[] {
  return [...list].sort((a, b) => {
    for (const [field, descending] of keys) {
      const x = sortValue(a, field);
      const y = sortValue(b, field);
      if (x !== y) return (x < y ? -1 : 1) * (descending ? -1 : 1);
    }
    return 0;
  });
}

async function list(args: GetContactsArgs) {
  return getContacts(args, { client });
}

async function refusal(args: unknown): Promise<InvalidArgumentError> {
  try {
    await getContacts(args as GetContactsArgs, { client });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error("expected getContacts to refuse its arguments");
}

describe("string filters", () => {
  const cases: Array<[keyof GetContactsArgs, keyof WireContact, (c: WireContact) => boolean]> = [
    ["handle", "handle", () => true],
    ["companyName", "company_name", (c) => (c.company_name ?? "") !== ""],
    ["name", "name", (c) => c.name !== undefined],
    ["address1", "address_1", (c) => c.address_1 !== undefined],
    ["address2", "address_2", (c) => (c.address_2 ?? "") !== ""],
    ["postalCode", "postal_code", (c) => c.postal_code !== undefined],
    ["city", "city", (c) => c.city !== undefined],
    ["state", "state", (c) => (c.state ?? "") !== ""],
    ["phone", "phone", (c) => c.phone !== undefined],
    ["email", "email", (c) => c.email !== undefined],
    ["reference", "reference", (c) => (c.reference ?? "") !== ""],
  ];

  it.each(cases)(
    "%s selects exactly the contacts whose %s matches (sent verbatim)",
    async (argument, field, usable) => {
      // The 11th usable contact's value: far enough in to be an arbitrary pick, present in any seed.
      const source = all().filter(usable)[10];
      expect(source).toBeDefined();
      const value = text(source as WireContact, field);
      const expected = all().filter((c) => text(c, field).toLowerCase() === value.toLowerCase());

      const result = await list({ [argument]: value, perPage: 100 });

      expect(handles(result.contacts)).toEqual(handles(expected));
      expect(result.total).toBe(expected.length);
      expect(result.contacts.length).toBeGreaterThan(0);
      expect(result.contacts.length).toBeLessThan(all().length);
      const [query] = sentQueries();
      expect(query?.getAll(field)).toEqual([value]);
    },
  );

  it("country is checked as two letters and sent upper-cased", async () => {
    const expected = all().filter((c) => c.country === "NL");
    const result = await list({ country: "nl", perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(sentQueries()[0]?.get("country")).toBe("NL");
  });

  it("combines filters (all must hold)", async () => {
    const expected = all().filter(
      (c) =>
        c.country === "NL" &&
        (c.status ?? []).includes("ok") &&
        connectionsOf(c) > 10 &&
        c.auto_delete === false,
    );
    const result = await list({ country: "NL", status: ["ok"], connections: ">10", autoDelete: false });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
  });
});

describe("status, connections, dates, autoDelete", () => {
  it("status is any-of, sent as repeated keys", async () => {
    const wanted = ["pending_update", "pending_validation"];
    const expected = all().filter((c) => (c.status ?? []).some((s) => wanted.includes(s)));
    const result = await list({ status: ["pending_update", "pending_validation"], perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(result.total).toBe(expected.length);
    expect(gets()[0]?.query).toContain("status=pending_update&status=pending_validation");
    for (const query of sentQueries()) expect(query.getAll("status")).toEqual(wanted);
  });

  it("connections as a number selects that exact count", async () => {
    const count = connectionsOf(all()[3] as WireContact);
    const expected = all().filter((c) => connectionsOf(c) === count);
    const result = await list({ connections: count, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(sentQueries()[0]?.get("connections")).toBe(String(count));
  });

  const operators: Array<[string, (n: number) => boolean, string]> = [
    [">20", (n) => n > 20, "connections=%3E20"],
    ["<20", (n) => n < 20, "connections=%3C20"],
    [">=20", (n) => n >= 20, "connections=%3E%3D20"],
    ["<=20", (n) => n <= 20, "connections=%3C%3D20"],
  ];
  it.each(operators)("connections %s compares (sent as %s)", async (value, holds, wire) => {
    const expected = all().filter((c) => holds(connectionsOf(c)));
    const result = await list({ connections: value, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(gets()[0]?.query.split("&")).toContain(wire);
  });

  it("dateCreated as a Date selects that second, milliseconds dropped", async () => {
    const source = all()[17] as WireContact;
    const at = new Date(Date.parse(source.date_created as string) + 750);
    const expected = all().filter((c) => c.date_created === source.date_created);
    const result = await list({ dateCreated: at });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(handles(result.contacts)).toContain(source.handle);
    expect(sentQueries()[0]?.get("date_created")).toBe(source.date_created);
  });

  it("dateLastUpdated as a Date selects that second", async () => {
    const source = all()[29] as WireContact;
    const expected = all().filter((c) => c.date_last_updated === source.date_last_updated);
    const result = await list({ dateLastUpdated: new Date(source.date_last_updated as string) });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
  });

  const dateOperators: Array<["dateCreated" | "dateLastUpdated", string]> = [
    ["dateCreated", ">=2020-01-01T00:00:00Z"],
    ["dateCreated", "<2018-06-01T00:00:00Z"],
    ["dateLastUpdated", ">2025-01-01T00:00:00Z"],
    ["dateLastUpdated", "<=2021-03-01T00:00:00Z"],
  ];
  it.each(dateOperators)("%s %s compares datetimes", async (argument, value) => {
    const field = argument === "dateCreated" ? "date_created" : "date_last_updated";
    const [, op, at] = /^(>=|<=|>|<)(.*)$/.exec(value) as unknown as [string, string, string];
    const holds = (d: string): boolean =>
      op === ">=" ? d >= at : op === "<=" ? d <= at : op === ">" ? d > at : d < at;
    // Contacts without the field never match a comparison.
    const expected = all().filter((c) => c[field] !== undefined && holds(c[field] as string));
    const result = await list({ [argument]: value, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all().length);
    expect(sentQueries()[0]?.get(field)).toBe(value);
  });

  it.each([true, false])("autoDelete %s", async (value) => {
    const expected = all().filter((c) => c.auto_delete === value);
    const result = await list({ autoDelete: value, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(sentQueries()[0]?.get("auto_delete")).toBe(String(value));
  });
});

describe("% wildcards", () => {
  const cases: Array<[string, keyof GetContactsArgs, keyof WireContact, string]> = [
    ["leading", "email", "email", "%@example.com"],
    ["trailing", "name", "name", "anna%"],
    ["middle", "city", "city", "R%dam"],
    ["several", "email", "email", "%ann%@%example%"],
    ["a % that is also in the data", "companyName", "company_name", "percent %"],
  ];
  it.each(cases)("%s: %s=%s", async (_kind, argument, field, pattern) => {
    const expected = all().filter((c) => like(pattern, text(c, field)));
    const result = await list({ [argument]: pattern, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all().length);
    expect(sentQueries()[0]?.get(field)).toBe(pattern);
  });
});

describe("sort", () => {
  it("orders by several fields: later fields break ties of earlier ones, - descends", async () => {
    const expected = sorted(all(), [
      ["country", false],
      ["connections", true],
      ["handle", false],
    ]);
    // The fixture is only a tie-break test if ties happen at each level.
    const countryTies = expected.filter((c, i) => i > 0 && c.country === expected[i - 1]?.country);
    expect(countryTies.length).toBeGreaterThan(10);
    const result = await list({ sort: "country,-connections,handle", perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(sentQueries()[0]?.get("sort")).toBe("country,-connections,handle");
  });

  it("keeps the stored order for contacts equal on every sort field", async () => {
    const expected = sorted(all(), [["auto_delete", true]]);
    const result = await list({ sort: "-autoDelete", perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(expected));
  });

  it("the string and array forms send the same sort", async () => {
    const expected = sorted(all(), [
      ["date_created", true],
      ["name", false],
    ]);
    const fromString = await list({ sort: "-dateCreated,name", perPage: 100 });
    const fromArray = await list({ sort: ["-dateCreated", "name"], perPage: 100 });
    expect(handles(fromString.contacts)).toEqual(handles(expected));
    expect(handles(fromArray.contacts)).toEqual(handles(expected));
    const sorts = sentQueries().map((q) => q.get("sort"));
    expect(sorts).toEqual([
      "-date_created,name",
      "-date_created,name",
      "-date_created,name",
      "-date_created,name",
    ]);
  });

  it("camelCase and snake_case field names are the same field", async () => {
    const expected = sorted(all(), [
      ["postal_code", false],
      ["date_last_updated", true],
    ]);
    const camel = await list({ sort: ["postalCode", "-dateLastUpdated"], perPage: 100 });
    const snake = await list({ sort: ["postal_code", "-date_last_updated"], perPage: 100 });
    expect(handles(camel.contacts)).toEqual(handles(expected));
    expect(handles(snake.contacts)).toEqual(handles(expected));
    for (const query of sentQueries()) expect(query.get("sort")).toBe("postal_code,-date_last_updated");
  });

  it("accepts every field the API sorts by, and refuses status (a list) before any request", async () => {
    for (const field of SORT_FIELDS) {
      const result = await list({ sort: `-${field}`, perPage: 100 });
      expect(handles(result.contacts)).toEqual(handles(sorted(all(), [[field, true]])));
    }
    const before = gets().length;
    expect((await refusal({ sort: "status" })).argument).toBe("sort");
    expect(gets()).toHaveLength(before);
  });

  it("sorts across pages: page 2 continues where page 1 stopped", async () => {
    const expected = sorted(all(), [
      ["city", true],
      ["email", false],
    ]);
    const result = await list({ sort: ["-city", "email"], perPage: 15 });
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(gets()).toHaveLength(Math.ceil(all().length / 15));
  });
});

describe("pages, perPage, limit", () => {
  it("without page, fetches every page and returns all contacts in the API's order", async () => {
    const result = await list({ perPage: 25 });
    const pages = Math.ceil(all().length / 25);
    expect(handles(result.contacts)).toEqual(handles(all()));
    expect(result.total).toBe(all().length);
    expect(result.pages).toBe(pages);
    expect(gets()).toHaveLength(pages);
    expect(sentQueries().map((q) => q.get("page"))).toEqual(
      expect.arrayContaining(Array.from({ length: pages }, (_, i) => String(i + 1))),
    );
    for (const query of sentQueries()) expect(query.get("per_page")).toBe("25");
  });

  it("the default page size is the spec's 50", async () => {
    const result = await list({});
    expect(handles(result.contacts)).toEqual(handles(all()));
    expect(gets()).toHaveLength(Math.ceil(all().length / 50));
    for (const query of sentQueries()) expect(query.get("per_page")).toBe("50");
  });

  it("with page, fetches that page alone", async () => {
    const result = await list({ page: 3, perPage: 10 });
    expect(handles(result.contacts)).toEqual(handles(all().slice(20, 30)));
    expect(result.total).toBe(all().length);
    expect(result.pages).toBe(Math.ceil(all().length / 10));
    expect(gets()).toHaveLength(1);
    expect(gets()[0]?.query).toBe("page=3&per_page=10");
  });

  it("a page past the end is empty, with the totals", async () => {
    const result = await list({ page: 99, perPage: 10 });
    expect(result.contacts).toEqual([]);
    expect(result.total).toBe(all().length);
    expect(gets()).toHaveLength(1);
  });

  it("perPage sets the page size of every request", async () => {
    const result = await list({ country: "DE", perPage: 7 });
    const expected = all().filter((c) => c.country === "DE");
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(result.pages).toBe(Math.ceil(expected.length / 7));
    expect(gets()).toHaveLength(Math.ceil(expected.length / 7));
    for (const query of sentQueries()) expect(query.get("per_page")).toBe("7");
  });

  it("limit stops early: only the pages it needs are requested", async () => {
    const result = await list({ perPage: 10, limit: 25 });
    expect(handles(result.contacts)).toEqual(handles(all().slice(0, 25)));
    expect(result.total).toBe(all().length);
    expect(gets()).toHaveLength(3);
    expect(
      sentQueries()
        .map((q) => q.get("page"))
        .sort(),
    ).toEqual(["1", "2", "3"]);
  });

  it("limit within the first page makes one request", async () => {
    const result = await list({ sort: "-connections", perPage: 20, limit: 5 });
    expect(handles(result.contacts)).toEqual(handles(sorted(all(), [["connections", true]]).slice(0, 5)));
    expect(gets()).toHaveLength(1);
  });

  it("limit with page cuts that page", async () => {
    const result = await list({ page: 2, perPage: 10, limit: 3 });
    expect(handles(result.contacts)).toEqual(handles(all().slice(10, 13)));
    expect(gets()).toHaveLength(1);
  });

  it("no match: one request, nothing returned", async () => {
    const result = await list({ handle: "NO-SUCH-HANDLE" });
    expect(result).toEqual({ contacts: [], total: 0, pages: 0, perPage: 50 });
    expect(gets()).toHaveLength(1);
  });
});

describe("concurrency", () => {
  /** Records, every millisecond, the page of each request the sandbox has finished, in order. */
  function watchCompletions(): { order: number[]; stop: () => void } {
    const order: number[] = [];
    const seen = new Set<LoggedRequest>();
    const sweep = () => {
      for (const r of gets()) {
        if (r.status !== 0 && !seen.has(r)) {
          seen.add(r);
          order.push(Number(new URLSearchParams(r.query).get("page")));
        }
      }
    };
    const timer = setInterval(sweep, 1);
    return {
      order,
      stop: () => {
        clearInterval(timer);
        sweep();
      },
    };
  }

  /** Samples the number of requests the sandbox holds open, every millisecond; returns the peak. */
  function watchInFlight(): { stop: () => number } {
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, gets().filter((r) => r.status === 0).length);
    }, 1);
    return {
      stop: () => {
        clearInterval(timer);
        return peak;
      },
    };
  }

  it("keeps the API's order when a later page finishes first", async () => {
    // The second request (the first of the concurrent ones) is held back 400 ms.
    sandbox.addFault({ method: "GET", path: "^/v2/contacts$", nth: 2, latencyMs: 400 });
    const watch = watchCompletions();
    let result: Awaited<ReturnType<typeof list>>;
    try {
      result = await list({ sort: "name", perPage: 20, concurrency: 3 });
    } finally {
      watch.stop();
    }
    const pages = Math.ceil(all().length / 20);
    expect(gets()).toHaveLength(pages);
    const slowPage = Number(new URLSearchParams(gets().find((r) => r.fault)?.query).get("page"));
    expect(slowPage).toBeGreaterThanOrEqual(2);
    // Some later page finished before the slow one.
    const finishedBefore = watch.order.slice(0, watch.order.indexOf(slowPage));
    expect(finishedBefore.some((page) => page > slowPage)).toBe(true);
    expect(handles(result.contacts)).toEqual(handles(sorted(all(), [["name", false]])));
  });

  it("never has more than `concurrency` requests in flight", async () => {
    // Every request waits 30 ms, so overlapping requests are visible in the log.
    sandbox.addFault({ method: "GET", path: "^/v2/contacts$", every: 1, latencyMs: 30 });
    const watchTwo = watchInFlight();
    const two = await list({ perPage: 10, concurrency: 2 });
    expect(watchTwo.stop()).toBe(2);
    expect(handles(two.contacts)).toEqual(handles(all()));

    sandbox.clearRequests();
    const watchOne = watchInFlight();
    const one = await list({ perPage: 20, concurrency: 1 });
    expect(watchOne.stop()).toBe(1);
    expect(handles(one.contacts)).toEqual(handles(all()));
  });
});

describe("default concurrency", () => {
  it("is 4 requests in flight at most", async () => {
    // Every request waits 30 ms, so overlapping requests are visible in the log.
    sandbox.addFault({ method: "GET", path: "^/v2/contacts$", every: 1, latencyMs: 30 });
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, gets().filter((r) => r.status === 0).length);
    }, 1);
    let result: Awaited<ReturnType<typeof list>>;
    try {
      result = await list({ perPage: 10 });
    } finally {
      clearInterval(timer);
    }
    expect(peak).toBe(4);
    expect(handles(result.contacts)).toEqual(handles(all()));
  });
});

describe("a page that fails", () => {
  it("fails the call and starts no further page", async () => {
    // The third request (page 2 or 3, two in flight) answers 500, which is never retried.
    sandbox.addFault({ method: "GET", path: "^/v2/contacts$", nth: 3, respond: { status: 500 } });
    const pages = Math.ceil(all().length / 10);
    expect(pages).toBeGreaterThan(6);
    await expect(list({ perPage: 10, concurrency: 2 })).rejects.toThrow(/returned 500/);
    // Give a worker that would go on fetching the time to do so.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Page 1, the two pages in flight when the 500 came, and at most one the other worker had begun.
    expect(gets().length).toBeLessThanOrEqual(4);
  });
});

describe("tolerant parsing", () => {
  it("reads current_page pagination, connections as strings, and contacts without address_2 or state", async () => {
    const fixtures: WireContact[] = [
      { handle: "T1", name: "One", country: "NL", connections: 3, status: ["ok"] },
      { handle: "T2", name: "Two", address_1: "Damrak 1", connections: "14" },
      { handle: "T3", name: "Three", address_2: "", state: "", connections: 0 },
      { handle: "T4" },
      { handle: "T5", name: "Five", connections: "7", auto_delete: false },
    ];
    const odd = await startSandbox({
      apiKey: API_KEY,
      contacts: 0,
      paginationField: "current_page",
      connectionsAsString: true,
      seed: { contacts: fixtures },
    });
    const oddClient = new DomainApiClient({
      apiKey: API_KEY,
      baseUrl: odd.url,
      timeoutMs: 5000,
      maxRetries: 0,
    });
    try {
      const result = await getContacts({ perPage: 2 }, { client: oddClient });
      expect(result.total).toBe(5);
      expect(result.pages).toBe(3);
      expect(odd.requests).toHaveLength(3);
      expect(handles(result.contacts)).toEqual(["T1", "T2", "T3", "T4", "T5"]);
      expect(result.contacts.map((c) => c.connections)).toEqual([3, 14, 0, undefined, 7]);
      expect(result.contacts[0]).toEqual({
        handle: "T1",
        name: "One",
        country: "NL",
        connections: 3,
        status: ["ok"],
      });
      expect(result.contacts[1]?.address1).toBe("Damrak 1");
      expect(result.contacts[1]?.address2).toBeUndefined();
      expect(result.contacts[1]?.state).toBeUndefined();
      expect(result.contacts[2]?.address2).toBe("");
      expect(result.contacts[2]?.state).toBe("");
      expect(result.contacts[4]?.autoDelete).toBe(false);
    } finally {
      await oddClient.close();
      await odd.close();
    }
  });

  it("exposes camelCase contacts from the spec's snake_case fields", async () => {
    const source = all()[0] as WireContact;
    const result = await list({ handle: source.handle });
    expect(result.contacts).toEqual([
      {
        handle: source.handle,
        companyName: source.company_name,
        name: source.name,
        address1: source.address_1,
        address2: source.address_2,
        postalCode: source.postal_code,
        city: source.city,
        state: source.state,
        country: source.country,
        phone: source.phone,
        email: source.email,
        status: source.status,
        connections: source.connections,
        dateCreated: source.date_created,
        dateLastUpdated: source.date_last_updated,
        autoDelete: source.auto_delete,
      },
    ]);
  });
});

describe("the query string sent", () => {
  it("passes comparison signs and wildcards through, encoded, with repeated status keys", async () => {
    await list({
      email: "%@example.com",
      status: ["ok", "pending_update"],
      connections: ">5",
      sort: ["-connections", "name"],
      page: 1,
      perPage: 20,
    });
    expect(gets().map((r) => r.query)).toEqual([
      "email=%25%40example.com&status=ok&status=pending_update&connections=%3E5&sort=-connections%2Cname&page=1&per_page=20",
    ]);
  });

  it("sends every filter under its spec name", async () => {
    await list({
      handle: "C0000001",
      companyName: "Acme B.V.",
      name: "Anna Jansen",
      address1: "Damrak 1",
      address2: "Suite 100",
      postalCode: "1012 AB",
      city: "Amsterdam",
      state: "Noord-Holland",
      country: "nl",
      phone: "+31.612345678",
      email: "anna@example.com",
      status: ["ok"],
      connections: "<=3",
      dateCreated: ">2020-01-01T00:00:00Z",
      dateLastUpdated: new Date(Date.UTC(2024, 0, 31, 12, 5, 9, 999)),
      autoDelete: true,
      reference: "REF-00001",
      sort: "handle",
      page: 2,
      perPage: 5,
      limit: 3,
      concurrency: 2,
    });
    const [query] = sentQueries();
    expect(query && [...query.entries()]).toEqual([
      ["handle", "C0000001"],
      ["company_name", "Acme B.V."],
      ["name", "Anna Jansen"],
      ["address_1", "Damrak 1"],
      ["address_2", "Suite 100"],
      ["postal_code", "1012 AB"],
      ["city", "Amsterdam"],
      ["state", "Noord-Holland"],
      ["country", "NL"],
      ["phone", "+31.612345678"],
      ["email", "anna@example.com"],
      ["status", "ok"],
      ["connections", "<=3"],
      ["date_created", ">2020-01-01T00:00:00Z"],
      ["date_last_updated", "2024-01-31T12:05:09Z"],
      ["auto_delete", "true"],
      ["reference", "REF-00001"],
      ["sort", "handle"],
      ["page", "2"],
      ["per_page", "5"],
    ]);
    expect(gets()[0]?.status).toBe(200);
  });
});

describe("bad arguments fail before any request, naming the argument", () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ["an unknown sort field", { sort: "colour" }, "sort", /unknown sort field "colour"/],
    ["an unknown sort field in a list", { sort: ["name", "-shoeSize"] }, "sort", /shoeSize/],
    ["a country of three letters", { country: "NLD" }, "country", /two-letter/],
    ["a country with a digit", { country: "N1" }, "country", /two-letter/],
    ["a malformed connections operator", { connections: "=>5" }, "connections", />=5/],
    ["a doubled connections operator", { connections: ">>5" }, "connections", /comparison/],
    ["a fractional connections count", { connections: 2.5 }, "connections", /whole number/],
    ["perPage 0", { perPage: 0 }, "perPage", /from 1 to 100/],
    ["perPage -3", { perPage: -3 }, "perPage", /from 1 to 100/],
    ["perPage over 100", { perPage: 101 }, "perPage", /from 1 to 100/],
    ["a date without time", { dateCreated: "2024-01-31" }, "dateCreated", /YYYY-MM-DDThh:mm:ssZ/],
    ["a datetime with an offset", { dateCreated: "2024-01-31T12:00:00+01:00" }, "dateCreated", /UTC/],
    [
      "a datetime with fractions",
      { dateLastUpdated: "2024-01-31T12:00:00.000Z" },
      "dateLastUpdated",
      /YYYY-MM-DDThh:mm:ssZ/,
    ],
    [
      "a date that does not exist",
      { dateLastUpdated: "2023-02-29T00:00:00Z" },
      "dateLastUpdated",
      /not a real/,
    ],
    [
      "a malformed date operator",
      { dateCreated: "=>2024-01-31T00:00:00Z" },
      "dateCreated",
      /optional leading/,
    ],
    ["an invalid Date", { dateCreated: new Date(Number.NaN) }, "dateCreated", /invalid Date/],
    ["an unknown argument", { colour: "blue" }, "colour", /unknown argument/],
    ["a snake_case argument", { company_name: "Acme" }, "company_name", /did you mean companyName/],
    ["a status string instead of a list", { status: "ok" }, "status", /status: \["ok"\]/],
    ["an unknown status", { status: ["ok", "gone"] }, "status[1]", /unknown status "gone"/],
    ["autoDelete as a string", { autoDelete: "yes" }, "autoDelete", /true or false/],
    ["an empty search value", { city: "" }, "city", /empty/],
    ["page 0", { page: 0 }, "page", /1 or more/],
    ["limit 0", { limit: 0 }, "limit", /1 or more/],
    ["concurrency 17", { concurrency: 17 }, "concurrency", /from 1 to 16/],
  ];

  it.each(cases)("%s", async (_what, args, argument, reason) => {
    const error = await refusal(args);
    expect(error.argument).toBe(argument);
    expect(error.message).toContain(`getContacts: ${argument}:`);
    expect(error.reason).toMatch(reason);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("default client from the environment", () => {
  const NAMES = ["DOMAINAPI_API_KEY", "DOMAINAPI_BASE_URL", "DOMAINAPI_TIMEOUT_MS", "DOMAINAPI_MAX_RETRIES"];

  it("reads DOMAINAPI_API_KEY and DOMAINAPI_BASE_URL when no client is given", async () => {
    const saved = new Map(NAMES.map((name) => [name, process.env[name]]));
    try {
      for (const name of NAMES) delete process.env[name];
      process.env.DOMAINAPI_API_KEY = API_KEY;
      process.env.DOMAINAPI_BASE_URL = `${sandbox.url}/`;
      const result = await getContacts({ country: "GB", sort: "-connections,handle" });
      const expected = sorted(
        all().filter((c) => c.country === "GB"),
        [
          ["connections", true],
          ["handle", false],
        ],
      );
      expect(handles(result.contacts)).toEqual(handles(expected));
      expect(gets()).toHaveLength(1);
      expect(gets()[0]?.status).toBe(200);

      sandbox.clearRequests();
      process.env.DOMAINAPI_API_KEY = "not-the-key";
      await expect(getContacts({ country: "GB" })).rejects.toThrow(
        /Authentication failed.*DOMAINAPI_API_KEY/s,
      );
      expect(gets().map((r) => r.status)).toEqual([401]);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("without a key, fails naming both ways to set it, before any request", async () => {
    const saved = new Map(NAMES.map((name) => [name, process.env[name]]));
    try {
      for (const name of NAMES) delete process.env[name];
      process.env.DOMAINAPI_BASE_URL = sandbox.url;
      await expect(getContacts({ country: "GB" })).rejects.toThrow(/domainapi:apiKey.*DOMAINAPI_API_KEY/s);
      expect(sandbox.requests).toEqual([]);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
