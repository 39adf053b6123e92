/**
 * getContacts pages by what the API answers, against real sandboxes: one that caps per_page
 * silently at 20 (its pagination object says so), one that also names the page `current_page` and
 * sends connections as strings, contacts that change between two page requests, and answers
 * (served by the sandbox's fault rules) whose pagination contradicts itself.
 *
 * Expected lists come from the sandbox's state or from a query within the cap, never from the
 * provider's code.
 */

import {
  type LoggedRequest,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  type WireContact,
} from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import { ContactsListingError, getContacts } from "../../../provider/contacts/getContacts";
import type { GetContactsArgs } from "../../../provider/contacts/query";

const API_KEY = "contacts-paging-key-41ab";
const CAP = 20;
const COUNT = 137;

interface Api {
  sandbox: Sandbox;
  client: DomainApiClient;
}

/** A sandbox and a client for a whole describe block, reset before each test. */
function useApi(options: Omit<SandboxOptions, "apiKey">): Api {
  const api = {} as Api;
  beforeAll(async () => {
    api.sandbox = await startSandbox({ apiKey: API_KEY, ...options });
    api.client = new DomainApiClient({
      apiKey: API_KEY,
      baseUrl: api.sandbox.url,
      timeoutMs: 5000,
      maxRetries: 0,
    });
  });
  afterAll(async () => {
    await api.client?.close();
    await api.sandbox?.close();
  });
  beforeEach(() => {
    api.sandbox.reset();
  });
  return api;
}

function handles(list: ReadonlyArray<{ handle: string }>): string[] {
  return list.map((c) => c.handle);
}

function gets(sandbox: Sandbox): LoggedRequest[] {
  return sandbox.requests.filter((r) => r.method === "GET" && r.path === "/v2/contacts");
}

/** Page and per_page of every listing request, in the order they reached the sandbox. */
function asked(sandbox: Sandbox): Array<[page: string | null, perPage: string | null]> {
  return gets(sandbox).map((r) => {
    const query = new URLSearchParams(r.query);
    return [query.get("page"), query.get("per_page")];
  });
}

/** A contact for the sandbox to add; handles starting with "A" sort before the generated ones. */
function contact(handle: string): WireContact {
  return { handle, name: `Added ${handle}`, country: "NL", connections: 1, status: ["ok"] };
}

/**
 * Holds the `nth` listing request 200 ms in the sandbox (it is answered from the state as it is
 * after the wait) and runs `change` as soon as that request has arrived: the pages answered before
 * it see the contacts before the change, the held page sees them after.
 */
function changeWhileHeld(sandbox: Sandbox, nth: number, change: () => void): { stop: () => void } {
  sandbox.addFault({ method: "GET", path: "^/v2/contacts$", nth, latencyMs: 200 });
  let done = false;
  const timer = setInterval(() => {
    if (!done && gets(sandbox).length >= nth) {
      done = true;
      change();
    }
  }, 1);
  return { stop: () => clearInterval(timer) };
}

async function listingError(promise: Promise<unknown>): Promise<ContactsListingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContactsListingError);
    return error as ContactsListingError;
  }
  throw new Error("expected a ContactsListingError, the call succeeded");
}

describe("an API that caps per_page silently at 20", () => {
  const api = useApi({ contacts: COUNT, perPageCap: CAP });
  const list = (args: GetContactsArgs) => getContacts(args, { client: api.client });

  it("returns all 137 contacts, each once, in the API's order: the same as a query within the cap", async () => {
    const sort = ["-connections", "handle"];
    const withinCap = await list({ sort, perPage: CAP });
    api.sandbox.clearRequests();

    const result = await list({ sort, perPage: 50 });

    expect(result.contacts).toHaveLength(COUNT);
    expect(new Set(handles(result.contacts)).size).toBe(COUNT);
    expect(handles(result.contacts)).toEqual(handles(withinCap.contacts));
    expect(new Set(handles(result.contacts))).toEqual(new Set(handles(api.sandbox.state.contacts)));
    expect(result).toMatchObject({ total: COUNT, pages: Math.ceil(COUNT / CAP), perPage: CAP });
    // Page 1 as asked; the later pages in the size the API served.
    expect(asked(api.sandbox)[0]).toEqual(["1", "50"]);
    expect(asked(api.sandbox).slice(1).sort()).toEqual(
      Array.from({ length: Math.ceil(COUNT / CAP) - 1 }, (_, i) => [String(i + 2), String(CAP)]),
    );
  });

  it("keeps the stored order without a sort, over the default page size", async () => {
    const result = await list({});
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts));
    expect(result.perPage).toBe(CAP);
    expect(gets(api.sandbox)).toHaveLength(Math.ceil(COUNT / CAP));
  });

  it("limit counts in the served page size: only the pages it needs", async () => {
    const result = await list({ perPage: 50, limit: 45, concurrency: 1 });
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts.slice(0, 45)));
    expect(result.total).toBe(COUNT);
    expect(asked(api.sandbox)).toEqual([
      ["1", "50"],
      ["2", String(CAP)],
      ["3", String(CAP)],
    ]);
  });

  it("limit within the served first page makes one request", async () => {
    const result = await list({ perPage: 100, limit: CAP });
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts.slice(0, CAP)));
    expect(gets(api.sandbox)).toHaveLength(1);
  });

  it("page alone is that page in the served size, with its pagination", async () => {
    const result = await list({ page: 3, perPage: 50 });
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts.slice(2 * CAP, 3 * CAP)));
    expect(result).toMatchObject({ total: COUNT, pages: Math.ceil(COUNT / CAP), perPage: CAP });
    expect(asked(api.sandbox)).toEqual([["3", "50"]]);
  });

  it("the last page alone holds the rest", async () => {
    const last = Math.ceil(COUNT / CAP);
    const result = await list({ page: last, perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts.slice((last - 1) * CAP)));
    expect(result.contacts).toHaveLength(COUNT - (last - 1) * CAP);
  });
});

describe("current_page, connections as strings, null strings and the cap together", () => {
  const api = useApi({
    contacts: 45,
    perPageCap: 10,
    paginationField: "current_page",
    connectionsAsString: true,
    nullStrings: true,
  });

  it("reads every page, checking current_page, and exposes connections as integers", async () => {
    const result = await getContacts({ perPage: 25, sort: "handle" }, { client: api.client });
    const expected = [...api.sandbox.state.contacts].sort((a, b) => (a.handle < b.handle ? -1 : 1));
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(result).toMatchObject({ total: 45, pages: 5, perPage: 10 });
    expect(result.contacts.map((c) => c.connections)).toEqual(expected.map((c) => Number(c.connections)));
    expect(result.contacts.every((c) => Number.isInteger(c.connections))).toBe(true);
    // The sandbox really sent strings under current_page.
    const raw = (await (
      await fetch(`${api.sandbox.url}/v2/contacts?per_page=25`, {
        headers: { Authorization: `Bearer ${API_KEY}` },
      })
    ).json()) as { data: WireContact[]; pagination: Record<string, unknown> };
    expect(raw.pagination).toMatchObject({ current_page: 1, per_page: 10 });
    expect(raw.pagination.page).toBeUndefined();
    expect(typeof raw.data[0]?.connections).toBe("string");
  });

  it("reads empty or absent strings sent as null as absent, on every page", async () => {
    const result = await getContacts({ perPage: 50 }, { client: api.client });
    const stored = api.sandbox.state.contacts;
    expect(handles(result.contacts)).toEqual(handles(stored));
    const blank = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);
    expect(result.contacts.map((c) => [c.companyName, c.address2, c.state])).toEqual(
      stored.map((c) => [blank(c.company_name), blank(c.address_2), blank(c.state)]),
    );
    // The fixture is only a test if some strings were sent as null.
    expect(stored.some((c) => blank(c.address_2) === undefined)).toBe(true);
    const raw = (await (
      await fetch(`${api.sandbox.url}/v2/contacts?per_page=50`, {
        headers: { Authorization: `Bearer ${API_KEY}` },
      })
    ).json()) as { data: Array<Record<string, unknown>> };
    expect(raw.data.some((c) => c.address_2 === null)).toBe(true);
  });
});

describe("contacts that change while they are listed", () => {
  const api = useApi({ contacts: 60, perPageCap: CAP });
  const list = (args: GetContactsArgs) => getContacts(args, { client: api.client });

  it("a contact added between pages: the listing starts again and returns every contact once", async () => {
    const watch = changeWhileHeld(api.sandbox, 2, () => api.sandbox.addContacts([contact("A0000001")]));
    let result: Awaited<ReturnType<typeof list>>;
    try {
      result = await list({ sort: "handle", perPage: 50, concurrency: 1 });
    } finally {
      watch.stop();
    }
    const expected = [...api.sandbox.state.contacts].sort((a, b) => (a.handle < b.handle ? -1 : 1));
    expect(expected).toHaveLength(61);
    expect(handles(result.contacts)).toEqual(handles(expected));
    expect(result.total).toBe(61);
    // The first listing stopped at the page that saw 61; the second read all four pages.
    expect(asked(api.sandbox).map(([page]) => page)).toEqual(["1", "2", "1", "2", "3", "4"]);
  });

  it("a contact removed between pages: started again, nothing skipped or doubled", async () => {
    const gone = api.sandbox.state.contacts[5]?.handle as string;
    const watch = changeWhileHeld(api.sandbox, 2, () => {
      expect(api.sandbox.removeContacts([gone])).toBe(1);
    });
    let result: Awaited<ReturnType<typeof list>>;
    try {
      result = await list({ perPage: 50 });
    } finally {
      watch.stop();
    }
    expect(handles(result.contacts)).toEqual(handles(api.sandbox.state.contacts));
    expect(handles(result.contacts)).not.toContain(gone);
    expect(result.total).toBe(59);
  });

  it("one removed and one added ahead (same total): the contact served twice starts it again", async () => {
    const sorted = () => [...api.sandbox.state.contacts].sort((a, b) => (a.handle < b.handle ? -1 : 1));
    const last = sorted().at(-1)?.handle as string;
    const watch = changeWhileHeld(api.sandbox, 2, () => {
      api.sandbox.removeContacts([last]);
      api.sandbox.addContacts([contact("A0000002")]);
    });
    let result: Awaited<ReturnType<typeof list>>;
    try {
      result = await list({ sort: "handle", perPage: CAP, concurrency: 1 });
    } finally {
      watch.stop();
    }
    expect(handles(result.contacts)).toEqual(handles(sorted()));
    expect(result.total).toBe(60);
    // The repeat is seen once all pages of the first listing are in: 3 pages, then 3 again.
    expect(asked(api.sandbox).map(([page]) => page)).toEqual(["1", "2", "3", "1", "2", "3"]);
  });

  it("contacts that keep changing: fails loudly after 3 listings, returning nothing", async () => {
    // Every request waits 30 ms; a contact is added every 10 ms: no listing sees one total.
    api.sandbox.addFault({ method: "GET", path: "^/v2/contacts$", every: 1, latencyMs: 30 });
    let n = 0;
    const timer = setInterval(
      () => api.sandbox.addContacts([contact(`B${String(++n).padStart(7, "0")}`)]),
      10,
    );
    let error: ContactsListingError;
    try {
      error = await listingError(list({ perPage: CAP, concurrency: 1 }));
    } finally {
      clearInterval(timer);
    }
    expect(error.code).toBe("DOMAINAPI_CONTACTS_CHANGED");
    expect(error.kind).toBe("changed");
    expect(error.passes).toBe(3);
    expect(error.message).toMatch(
      /^getContacts: the contacts changed while they were listed, on each of 3 listings \(last: page \d+ says total_results \d+, page 1 said \d+\).*Nothing is returned/,
    );
    expect(asked(api.sandbox).filter(([page]) => page === "1")).toHaveLength(3);
  });
});

describe("answers whose pagination disagrees", () => {
  const api = useApi({ contacts: COUNT });
  const list = (args: GetContactsArgs) => getContacts(args, { client: api.client });

  /** The sandbox's real answer to `query`, as text. */
  async function realAnswer(
    query: string,
  ): Promise<{ data: WireContact[]; pagination: Record<string, number> }> {
    const response = await fetch(`${api.sandbox.url}/v2/contacts?${query}`, {
      headers: { Authorization: `Bearer ${API_KEY}` },
    });
    return (await response.json()) as { data: WireContact[]; pagination: Record<string, number> };
  }

  /** Serves `body` as the answer to the nth listing request. */
  function serve(nth: number, body: unknown): void {
    api.sandbox.addFault({
      method: "GET",
      path: "^/v2/contacts$",
      nth,
      respond: { status: 200, body: JSON.stringify(body), contentType: "application/json" },
    });
  }

  it("total_pages that does not follow from total_results and per_page: fails at once", async () => {
    const first = await realAnswer("page=1&per_page=20");
    api.sandbox.clearRequests();
    serve(1, { ...first, pagination: { ...first.pagination, total_pages: 5 } });
    const error = await listingError(list({ perPage: 20 }));
    expect(error.code).toBe("DOMAINAPI_CONTACTS_INCONSISTENT");
    expect(error.message).toContain(
      "the answer to page 1 says total_pages 5, but total_results 137 at per_page 20 make 7",
    );
    expect(error.passes).toBe(1);
    expect(gets(api.sandbox)).toHaveLength(1);
  });

  it("per_page that says more than the page holds (a cap the answer does not admit): fails", async () => {
    const first = await realAnswer("page=1&per_page=20");
    api.sandbox.clearRequests();
    serve(1, { ...first, pagination: { ...first.pagination, per_page: 50, total_pages: 3 } });
    const error = await listingError(list({ perPage: 50 }));
    expect(error.kind).toBe("inconsistent");
    expect(error.message).toContain(
      "page 1 holds 20 contacts, but 137 results at 50 per page (per_page) put 50 on it",
    );
  });

  it("a later page that says it is another page: fails, naming both", async () => {
    const first = await realAnswer("page=1&per_page=20");
    api.sandbox.clearRequests();
    serve(2, first);
    const error = await listingError(list({ perPage: 20, concurrency: 1 }));
    expect(error.message).toContain("the answer to page 2 says it is page 1 (current_page/page)");
    expect(error.code).toBe("DOMAINAPI_CONTACTS_INCONSISTENT");
    // Inconsistent answers are not cured by asking again: no second listing.
    expect(asked(api.sandbox).filter(([page]) => page === "1")).toHaveLength(1);
  });

  it("a later page with another per_page: fails", async () => {
    const third = await realAnswer("page=3&per_page=20");
    api.sandbox.clearRequests();
    serve(3, { ...third, pagination: { ...third.pagination, per_page: 25, total_pages: 6 } });
    const error = await listingError(list({ perPage: 20, concurrency: 1 }));
    expect(error.message).toContain("page 3 says per_page 25 and total_pages 6, page 1 said 20 and 7");
  });

  it("a short page before the last: fails rather than return 130 of 137", async () => {
    const second = await realAnswer("page=2&per_page=20");
    api.sandbox.clearRequests();
    serve(2, { ...second, data: second.data.slice(0, 13) });
    const error = await listingError(list({ perPage: 20 }));
    expect(error.message).toContain(
      "page 2 holds 13 contacts, but 137 results at 20 per page (per_page) put 20 on it",
    );
  });

  it("page alone: its answer is checked too", async () => {
    const other = await realAnswer("page=4&per_page=10");
    api.sandbox.clearRequests();
    serve(1, other);
    const error = await listingError(list({ page: 3, perPage: 10 }));
    expect(error.message).toContain("the answer to page 3 says it is page 4");
    expect(gets(api.sandbox)).toHaveLength(1);
  });

  it("a contact served twice on every listing: fails after 3 listings, naming the contact", async () => {
    const first = await realAnswer("page=1&per_page=20");
    const second = await realAnswer("page=2&per_page=20");
    const twice = first.data[4]?.handle as string;
    const shifted = { ...second, data: [first.data[4], ...second.data.slice(1)] };
    api.sandbox.clearRequests();
    // One at a time, a listing is 7 requests: page 2 is the 2nd, 9th and 16th.
    for (const nth of [2, 9, 16]) serve(nth, shifted);
    const error = await listingError(list({ perPage: 20, concurrency: 1 }));
    expect(error.code).toBe("DOMAINAPI_CONTACTS_CHANGED");
    expect(error.passes).toBe(3);
    expect(error.message).toContain(
      `changed while they were listed, on each of 3 listings (last: contact ${twice} came on two pages)`,
    );
    expect(asked(api.sandbox).map(([page]) => page)).toEqual(
      Array.from({ length: 3 }, () => ["1", "2", "3", "4", "5", "6", "7"]).flat(),
    );
  });

  it("an empty listing may say 0 or 1 pages", async () => {
    const empty = await realAnswer("handle=NOBODY&page=1&per_page=20");
    expect(empty.pagination.total_results).toBe(0);
    api.sandbox.clearRequests();
    serve(1, { ...empty, pagination: { ...empty.pagination, total_pages: 1 } });
    const one = await list({ handle: "NOBODY", perPage: 20 });
    expect(one).toEqual({ contacts: [], total: 0, pages: 1, perPage: 20 });
    const zero = await list({ handle: "NOBODY", perPage: 20 });
    expect(zero).toEqual({ contacts: [], total: 0, pages: 0, perPage: 20 });
  });
});
