/**
 * The conformance cases: what the provider must get right whatever answer the spec allows. Each
 * case drives the provider methods the way the engine's plugin does (as the tests under test/provider/
 * do) against a sandbox started with one personality, and checks the outcome, not the requests:
 * the data complete, every id attributed to its record, errors carrying the status and the API's
 * words, never an API key, and never a Range header sent.
 *
 * `defineConformance(select)` declares a `describe` per personality with the cases `select` keeps,
 * so the committed suite and the pending file share one definition of every case.
 */

import { FORWARD_SERVER, type Sandbox, startSandbox, type WireContact } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DomainApiClient } from "../../provider/client/api";
import { ContactsListingError, getContacts } from "../../provider/contacts/getContacts";
import * as records from "../../provider/records/provider";
import * as restore from "../../provider/restore/provider";
import { configureFor, PROVIDER } from "../provider/helpers";
import { PERSONALITIES, type PersonalityCase } from "./personalities";

const API_KEY = "conformance-key-8d41e0";
const WRONG_KEY = "wrong-key-2b7c55";
type Props = Record<string, unknown>;

/** What a case gets: the sandbox of its personality, and a client for getContacts. */
export interface CaseContext {
  sandbox: Sandbox;
  personality: PersonalityCase;
  client: DomainApiClient;
}

/** One conformance case. */
export interface ConformanceCase {
  name: string;
  run(context: CaseContext): Promise<void>;
}

/** Contact fixtures with empty and absent fields, after 120 generated contacts. */
const FIXTURES: WireContact[] = [
  { handle: "CONF001", name: "Empty Fields", company_name: "", address_2: "", state: "", status: ["ok"] },
  { handle: "CONF002" },
  {
    handle: "CONF003",
    name: "Full",
    company_name: "Acme",
    connections: "4",
    status: ["ok", "pending_update"],
  },
];

const WEB = [
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "TXT", content: "v=spf1 -all" },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
];

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

async function failureOf(fn: () => Promise<unknown>): Promise<Error & { status?: number }> {
  try {
    await fn();
  } catch (err) {
    return err as Error & { status?: number };
  }
  throw new Error("expected a failure");
}

type Declared = {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
};

function line(r: Declared): string {
  return [r.name.toLowerCase(), r.type.toUpperCase(), r.priority, r.weight, r.port, r.content]
    .filter((part) => part !== undefined)
    .join(" ");
}

/** The template holds exactly the declared records, and every id in the outputs is the id of its record. */
function expectHeldAndAttributed(
  sandbox: Sandbox,
  templateId: string,
  declared: Declared[],
  outs: Props,
): void {
  const held = sandbox.templateRecords(templateId) ?? [];
  expect(held.map(line).sort()).toEqual(declared.map(line).sort());
  const ids = outs.ids as Record<string, unknown>;
  const outRecords = outs.records as Record<string, Declared>;
  expect(Object.keys(ids).sort()).toEqual(Object.keys(outRecords).sort());
  expect(Object.keys(ids)).toHaveLength(declared.length);
  for (const [key, id] of Object.entries(ids)) {
    expect(typeof id, `ids[${key}]`).toBe("string");
    const record = held.find((r) => r.record_id === id);
    expect(record, `ids[${key}] = ${String(id)} names no record the template holds`).toBeDefined();
    expect(line(record as Declared), `ids[${key}]`).toBe(line(outRecords[key]!));
  }
}

/** The error carries the status and (where the answer could) the API's words, and no key. */
function expectApiFailure(
  err: Error & { status?: number },
  personality: PersonalityCase,
  status: number,
  words: string,
): void {
  const chain: Array<Error & { status?: number }> = [];
  for (let e: unknown = err; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) chain.push(e);
  expect(
    chain.map((e) => e.status),
    err.message,
  ).toContain(status);
  expect(err.message).toMatch(new RegExp(`\\b${status}\\b`));
  if (personality.words) expect(err.message).toContain(words);
  for (const key of [API_KEY, WRONG_KEY]) {
    expect(err.message).not.toContain(key);
    expect(JSON.stringify(err)).not.toContain(key);
    expect(String(err.stack)).not.toContain(key);
  }
}

function sameContact(got: Record<string, unknown>, want: WireContact): void {
  const text = (value: unknown) => (value === undefined || value === null ? "" : value);
  const pairs: Array<[string, keyof WireContact]> = [
    ["companyName", "company_name"],
    ["name", "name"],
    ["address1", "address_1"],
    ["address2", "address_2"],
    ["postalCode", "postal_code"],
    ["city", "city"],
    ["state", "state"],
    ["country", "country"],
    ["phone", "phone"],
    ["email", "email"],
    ["dateCreated", "date_created"],
    ["dateLastUpdated", "date_last_updated"],
  ];
  for (const [ours, theirs] of pairs)
    expect(text(got[ours]), `${want.handle}.${ours}`).toBe(text(want[theirs]));
  expect(got.connections ?? null, `${want.handle}.connections`).toBe(
    want.connections === undefined ? null : Number(want.connections),
  );
  expect(got.status ?? [], `${want.handle}.status`).toEqual(want.status ?? []);
  expect(got.autoDelete ?? null, `${want.handle}.autoDelete`).toBe(want.auto_delete ?? null);
}

/** Every id string in a resource's outputs (`ids`), whatever shape holds a forward's several ids. */
function idsInOutputs(outs: Props): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(outs.ids);
  return found;
}

const FORWARD_TYPES = new Set(["URLFWD", "URLFWD301", "URLCLO"]);

/**
 * What the template must hold for `declared`: the declared records, and for each URL forward the
 * A and AAAA records the service makes at its name (when this personality makes them), once each.
 */
function expectedLines(sandbox: Sandbox, declared: Declared[]): string[] {
  const made = sandbox.personality.urlForwardCreatesRecords
    ? declared
        .filter((r) => FORWARD_TYPES.has(r.type))
        .flatMap((r) => [`${r.name} A ${FORWARD_SERVER.A}`, `${r.name} AAAA ${FORWARD_SERVER.AAAA}`])
    : [];
  return [...declared.map(line), ...made].sort();
}

/** The name of the URL-forward case with or without purge (pending.ts names its pairs by it). */
export function forwardCaseName(purge: boolean): string {
  return `URL forwards (purge ${purge}): created, unchanged, URL changed, removed, destroyed; ids exactly the template's`;
}

/**
 * URL forwards through a whole life (the "done when"): created, diffed unchanged, a
 * forward's URL changed, a forward removed, destroyed. After each step the template holds exactly
 * the declared records and the records the service made for the forwards, nothing twice, and the
 * resource's ids are exactly the ids of what it owns there (the made records included); without
 * purge a record the provider does not own is never touched.
 */
function forwardCase(purge: boolean): ConformanceCase {
  return {
    name: forwardCaseName(purge),
    async run({ sandbox }) {
      const legacy = { name: "legacy", type: "TXT", content: "made by hand" };
      if (!purge) sandbox.seedTemplate("tpl-1", [legacy]);
      const others = purge ? [] : [line(legacy)];
      const step = (label: string, declared: Declared[], outs: Props): void => {
        const held = sandbox.templateRecords("tpl-1") ?? [];
        expect(held.map(line).sort(), label).toEqual([...expectedLines(sandbox, declared), ...others].sort());
        const owned = held.filter((r) => purge || line(r) !== line(legacy)).map((r) => r.record_id);
        expect(idsInOutputs(outs).sort(), `${label}: the resource's ids`).toEqual(owned.sort());
      };
      const go = { name: "go", type: "URLFWD", content: "https://example.org/" };
      const moved = { name: "moved", type: "URLFWD301", content: "https://example.net/new" };
      const first: Declared[] = [...WEB, go, moved];
      const inputs = await checked({ templateId: "tpl-1", records: first, purge });
      const created = await records.create(inputs);
      step("created", first, created.outs as Props);

      const same = await records.diff("tpl-1", created.outs as Props, inputs);
      expect(same.changes, "an unchanged program: the made records are neither drift nor changes").toBe(
        false,
      );

      const second = first.map((r) => (r.name === "go" ? { ...r, content: "https://example.org/v2" } : r));
      const secondInputs = await checked({ templateId: "tpl-1", records: second, purge }, inputs);
      const changed = await records.update("tpl-1", created.outs as Props, secondInputs);
      step("URL changed", second, changed.outs as Props);

      const third = second.filter((r) => r.name !== "moved");
      const thirdInputs = await checked({ templateId: "tpl-1", records: third, purge }, secondInputs);
      const removed = await records.update("tpl-1", changed.outs as Props, thirdInputs);
      step("forward removed", third, removed.outs as Props);

      await records.delete("tpl-1", removed.outs as Props);
      expect(sandbox.templateRecords("tpl-1")?.map(line), "destroyed").toEqual(others);
    },
  };
}

/** Every case, in the order they run. */
export const CASES: ConformanceCase[] = [
  {
    name: "create (PUT): the template holds every declared record, each id attributed",
    async run({ sandbox }) {
      const created = await records.create(await checked({ templateId: "tpl-1", records: WEB }));
      expect(created.id).toBe("tpl-1");
      expectHeldAndAttributed(sandbox, "tpl-1", WEB, created.outs as Props);
    },
  },
  {
    name: "update: unchanged and changed records keep their ids; added and removed ones as declared",
    async run({ sandbox }) {
      const inputs = await checked({ templateId: "tpl-1", records: WEB });
      const created = await records.create(inputs);
      const before = (created.outs as Props).ids as Record<string, string>;
      // Idle longer than keepAliveIdleMs: the update must not stumble on a connection the server closed.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const next: Declared[] = [
        ...WEB.filter((r) => r.type !== "TXT").map((r) => (r.type === "MX" ? { ...r, priority: 20 } : r)),
        { name: "api", type: "A", content: "192.0.2.20" },
      ];
      const news = await checked({ templateId: "tpl-1", records: next }, inputs);
      const updated = await records.update("tpl-1", created.outs as Props, news);
      const outs = updated.outs as Props;
      expectHeldAndAttributed(sandbox, "tpl-1", next, outs);
      const after = outs.ids as Record<string, string>;
      for (const key of ["@/A", "@/MX", "www/CNAME"]) expect(after[key], key).toBe(before[key]);
      expect(Object.values(after)).not.toContain(before["@/TXT"]);
    },
  },
  {
    name: "drift with purge: a record deleted outside Pulumi is back after the next update",
    async run({ sandbox }) {
      const inputs = await checked({ templateId: "tpl-1", records: WEB });
      const created = await records.create(inputs);
      const ids = (created.outs as Props).ids as Record<string, string>;
      expect(sandbox.deleteRecord("tpl-1", ids["@/A"]!)).toBe(true);
      const next = WEB.map((r) => (r.type === "MX" ? { ...r, priority: 30 } : r));
      const updated = await records.update(
        "tpl-1",
        created.outs as Props,
        await checked({ templateId: "tpl-1", records: next }, inputs),
      );
      expectHeldAndAttributed(sandbox, "tpl-1", next, updated.outs as Props);
    },
  },
  {
    name: "drift without purge: the vanished record is re-added and nothing else is touched",
    async run({ sandbox }) {
      sandbox.seedTemplate("tpl-1", [{ name: "legacy", type: "TXT", content: "made by hand" }]);
      const inputs = await checked({ templateId: "tpl-1", records: WEB, purge: false });
      const created = await records.create(inputs);
      const ids = (created.outs as Props).ids as Record<string, string>;
      expect(sandbox.deleteRecord("tpl-1", ids["www/CNAME"]!)).toBe(true);
      // One record changed, one dropped, one vanished: a PATCH that is not all-or-nothing must not
      // leave the dropped one behind or the vanished one missing.
      const next = WEB.filter((r) => r.type !== "TXT").map((r) =>
        r.type === "MX" ? { ...r, priority: 30 } : r,
      );
      const news = await checked({ templateId: "tpl-1", records: next, purge: false }, inputs);
      const updated = await records.update(created.id, created.outs as Props, news);
      const outs = updated.outs as Props;
      const held = sandbox.templateRecords("tpl-1") ?? [];
      expect(held.map(line).sort()).toEqual([...next.map(line), "legacy TXT made by hand"].sort());
      const legacy = held.find((r) => r.name === "legacy")!;
      expect(Object.values(outs.ids as object)).not.toContain(legacy.record_id);
      // Without the record the provider does not own, the template is exactly what it declared.
      sandbox.deleteRecord("tpl-1", legacy.record_id);
      expectHeldAndAttributed(sandbox, "tpl-1", next, outs);
    },
  },
  {
    name: "delete: the template is left empty",
    async run({ sandbox }) {
      const created = await records.create(await checked({ templateId: "tpl-1", records: WEB }));
      await records.delete("tpl-1", created.outs as Props);
      expect(sandbox.templateRecords("tpl-1")).toEqual([]);
    },
  },
  {
    name: "getContacts: every page, every contact once, every field as the API holds it",
    async run({ sandbox, client }) {
      const result = await getContacts({ perPage: 50 }, { client });
      const want = sandbox.state.contacts;
      expect(result.contacts.map((c) => c.handle)).toEqual(want.map((c) => c.handle));
      expect(result.total).toBe(want.length);
      expect(result.perPage).toBe(Math.min(50, sandbox.personality.perPageCap ?? 50));
      result.contacts.forEach((got, index) => {
        sameContact(got as unknown as Record<string, unknown>, want[index]!);
      });
    },
  },
  {
    name: "getContacts: one page, in the page size the API served",
    async run({ sandbox, client }) {
      const result = await getContacts({ page: 2, perPage: 50 }, { client });
      const size = Math.min(50, sandbox.personality.perPageCap ?? 50);
      expect(result.perPage).toBe(size);
      expect(result.contacts.map((c) => c.handle)).toEqual(
        sandbox.state.contacts.slice(size, 2 * size).map((c) => c.handle),
      );
      expect(result.total).toBe(sandbox.state.contacts.length);
    },
  },
  {
    // Every answered page adds a contact, so no two answers describe the same list: a result that
    // cannot be complete fails loudly (docs/design.md, "Reading responses"), whatever else the API does.
    name: "getContacts while contacts are being created: a loud failure after 3 listings, never a list",
    async run({ personality }) {
      const growing = await startSandbox({
        apiKey: API_KEY,
        contacts: 120,
        ...personality.options,
        contactsGrowth: 1,
      });
      const client = new DomainApiClient({
        apiKey: API_KEY,
        baseUrl: growing.url,
        timeoutMs: 5000,
        maxRetries: 3,
      });
      try {
        const err = await failureOf(() => getContacts({ perPage: 50 }, { client }));
        expect(err).toBeInstanceOf(ContactsListingError);
        const listing = err as ContactsListingError;
        expect(listing.code).toBe("DOMAINAPI_CONTACTS_CHANGED");
        expect(listing.kind).toBe("changed");
        expect(listing.passes).toBe(3);
        expect(err.message).toMatch(/the contacts changed while they were listed, on each of 3 listings/);
        expect(err.message).toMatch(/Nothing is returned rather than a partial or duplicated list/);
        // Judged by what the API saw: three listings, each from a page 1 answered whole (a cut
        // answer is asked again), and more contacts than at first.
        const firstPages = growing.requests.filter(
          (r) =>
            r.path === "/v2/contacts" &&
            r.status === 200 &&
            !r.cut &&
            new URLSearchParams(r.query).get("page") === "1",
        );
        expect(firstPages).toHaveLength(3);
        expect(growing.state.contacts.length).toBeGreaterThan(120);
      } finally {
        await client.close();
        await growing.close();
      }
    },
  },
  forwardCase(true),
  forwardCase(false),
  {
    name: "restore: a quarantined domain is active, the outputs say so",
    async run({ sandbox }) {
      const created = await restore.create({ domain: "shop.example", __provider: PROVIDER });
      expect(created.id).toBe("shop.example");
      expect((created.outs as Props).domain).toBe("shop.example");
      expect(sandbox.domainStatus("shop.example")).toBe("active");
    },
  },
  {
    name: "401: the status and the API's words, never a key",
    async run({ sandbox, personality }) {
      configureFor(records, sandbox, WRONG_KEY, { maxRetries: 3, timeoutMs: 5000 });
      const err = await failureOf(async () =>
        records.create(await checked({ templateId: "tpl-1", records: WEB })),
      );
      expectApiFailure(err, personality, 401, "invalid API key");
      expect(sandbox.templateRecords("tpl-1")).toEqual([]);
    },
  },
  {
    name: "404 template: the status, the template and the API's words",
    async run({ personality }) {
      const err = await failureOf(async () =>
        records.create(await checked({ templateId: "no-such-template", records: WEB })),
      );
      expectApiFailure(err, personality, 404, "template no-such-template does not exist");
      expect(err.message).toContain("no-such-template");
    },
  },
  {
    name: "404 domain: the status, the domain and the API's words",
    async run({ personality }) {
      const err = await failureOf(() => restore.create({ domain: "nowhere.example", __provider: PROVIDER }));
      expectApiFailure(err, personality, 404, "nowhere.example");
      expect(err.message).toContain("nowhere.example");
    },
  },
  {
    name: "500: the status and the API's words",
    async run({ sandbox, personality }) {
      sandbox.addFault({ method: "PUT", every: 1, respond: { status: 500 } });
      const err = await failureOf(async () =>
        records.create(await checked({ templateId: "tpl-1", records: WEB })),
      );
      expectApiFailure(err, personality, 500, "injected fault: HTTP 500");
    },
  },
];

/** A personality and case pair, by name: `"<personality> :: <case>"`. */
export function pairName(personality: PersonalityCase, testCase: ConformanceCase): string {
  return `${personality.name} :: ${testCase.name}`;
}

/**
 * Declares, for every personality, a `describe` with the cases `keep` selects. Each describe
 * starts its own sandbox, configures the providers for it, resets it before each case, and after
 * each case checks that no request carried a Range header.
 */
export function defineConformance(
  keep: (personality: PersonalityCase, testCase: ConformanceCase) => boolean,
): void {
  for (const personality of PERSONALITIES) {
    const cases = CASES.filter((testCase) => keep(personality, testCase));
    if (cases.length === 0) continue;
    describe(`personality: ${personality.name}`, () => {
      const context = { personality } as CaseContext;
      beforeAll(async () => {
        context.sandbox = await startSandbox({
          apiKey: API_KEY,
          contacts: 120,
          seed: {
            templates: { "tpl-1": [] },
            domains: { "shop.example": "quarantined" },
            contacts: FIXTURES,
          },
          ...personality.options,
        });
        context.client = new DomainApiClient({
          apiKey: API_KEY,
          baseUrl: context.sandbox.url,
          timeoutMs: 5000,
          maxRetries: 3,
        });
      });
      afterAll(async () => {
        await context.client?.close();
        await context.sandbox?.close();
      });
      beforeEach(() => {
        context.sandbox.reset();
        configureFor(records, context.sandbox, API_KEY, { maxRetries: 3, timeoutMs: 5000 });
        configureFor(restore, context.sandbox, API_KEY, { maxRetries: 3, timeoutMs: 5000 });
      });
      afterEach(() => {
        expect(context.sandbox.requests.filter((r) => r.range !== undefined)).toEqual([]);
      });
      for (const testCase of cases) {
        it(testCase.name, () => testCase.run(context), 60_000);
      }
    });
  }
}
