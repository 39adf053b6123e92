/**
 * getContacts / getContactsOutput: contacts of the account, filtered and sorted by the API. Reads are
 * safe, so both run during `pulumi preview` too.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { type DomainApiClient, getClient } from "../client/api";
import type { Contact, ContactListPage } from "../client/wire";
import { DomainApiBaseError } from "../errors";
import { warnIfApiKeyInPlainText } from "../host/keyInState";
import { type ConfigLookup, checkConfig, resolveConfig } from "../settings/config";
import {
  checkAnswer,
  type Disagreement,
  firstRepeat,
  type Layout,
  layoutOf,
  type PageAnswer,
  pagesAfterFirst,
} from "./paging";
import {
  type ContactsRequest,
  contactsQuery,
  formatDateTime,
  type GetContactsArgs,
  parseContactsArgs,
} from "./query";
import type { ContactsResultSchema } from "./result";

/** Result of {@link getContacts}. */
export interface GetContactsResult {
  /** The contacts, in the API's order (its sort), each once, at most `limit` of them. */
  contacts: Contact[];
  /** Number of contacts matching the filters (`pagination.total_results`). */
  total: number;
  /** Number of pages at the page size the API used (`pagination.total_pages`). */
  pages: number;
  /**
   * Contacts per page the API served (`pagination.per_page`): what `perPage` asked for, or less
   * where the API caps it. Pages given as `page` are counted in this size.
   */
  perPage: number;
}

// The interface documents the result for Node programs; ContactsResultSchema describes it to the
// SDKs. The compiler holds them to the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const resultDescribed: Same<GetContactsResult, z.output<typeof ContactsResultSchema>> = true;
void resultDescribed;

/** Options of {@link getContacts} beyond the query itself. */
export interface GetContactsOptions {
  /** A client to use instead of one built from the `domainapi` config and environment. */
  client?: DomainApiClient;
}

/**
 * A contacts listing that could not be completed truthfully, so nothing is returned rather than
 * part of the contacts as if it were all.
 *
 * - `code` `DOMAINAPI_CONTACTS_CHANGED` (`kind` `changed`): the matching contacts changed while
 *   they were listed (`total_results` moved between pages, or a contact came on two pages), on
 *   every one of `passes` listings. Try again later or narrow the filters.
 * - `code` `DOMAINAPI_CONTACTS_INCONSISTENT` (`kind` `inconsistent`): the API's answers contradict
 *   each other or the request (a page that says it is another page, `total_pages` that does not
 *   follow from `total_results` and `per_page`, a page holding more or fewer contacts than those
 *   say). Asking again would not help; the message names the page and the fields.
 */
export class ContactsListingError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.ContactsListingError");
  /** Stable code: test it rather than the message. */
  declare readonly code: "DOMAINAPI_CONTACTS_CHANGED" | "DOMAINAPI_CONTACTS_INCONSISTENT";
  /** `changed` (the data moved while paging) or `inconsistent` (the answers contradict themselves). */
  readonly kind: Disagreement["kind"];
  /** Listings started, from page 1, before giving up. */
  readonly passes: number;

  constructor(disagreement: Disagreement, passes: number) {
    const what =
      disagreement.kind === "changed"
        ? `the contacts changed while they were listed, ${passes === 1 ? "once" : `on each of ${passes} listings`} ` +
          `(last: ${disagreement.message}); try again, or narrow the filters`
        : `the API's pagination disagrees: ${disagreement.message}`;
    super(
      `getContacts: ${what}. Nothing is returned rather than a partial or duplicated list.`,
      disagreement.kind === "changed" ? "DOMAINAPI_CONTACTS_CHANGED" : "DOMAINAPI_CONTACTS_INCONSISTENT",
    );
    this.kind = disagreement.kind;
    this.passes = passes;
  }
}

/** Thrown inside one listing to stop it; `getContacts` decides whether to list again. */
class Disagreed extends Error {
  readonly disagreement: Disagreement;

  constructor(disagreement: Disagreement) {
    super(disagreement.message);
    this.disagreement = disagreement;
  }
}

const DEFAULT_PER_PAGE = 50;
const DEFAULT_CONCURRENCY = 4;
/**
 * Listings started before a listing whose contacts keep changing fails. A change while paging is
 * usual on a busy account and a fresh listing usually completes; one that never does fails loudly.
 */
const MAX_PASSES = 3;

// Stack config of the program, read without Pulumi's "use getSecret" warning: the key is passed
// on to the client only, never into an output.
const programConfig: ConfigLookup = (key) => pulumi.runtime.getConfig(`domainapi:${key}`);

function answerOf(asked: number, page: ContactListPage): PageAnswer {
  return { asked, ...page.pagination, count: page.data.length };
}

/**
 * `work` over `items`, at most `concurrency` at once, results in the items' order. A fixed set of
 * workers each takes the next item as soon as its last one settles, so every connection stays busy
 * until the items run out (a stream's ordered `map` lets one slow page hold back the pages behind
 * it). After a failure no further item is started: the call fails anyway, and pages fetched for
 * nothing would only spend the account's rate limit. It fails only once the items in flight have
 * settled, so that no request outlives the call (or overlaps the next listing, which would exceed
 * `concurrency`).
 */
async function mapSettled<T, R>(
  items: readonly T[],
  concurrency: number | undefined,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency ?? DEFAULT_CONCURRENCY, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/**
 * One listing of every page (or the first `limit` contacts), each answer checked against the
 * layout the first one describes.
 *
 * @throws Disagreed when an answer does not fit
 */
async function listOnce(
  request: ContactsRequest,
  fetchPage: (page: number, perPage: number) => Promise<ContactListPage>,
  perPage: number,
): Promise<{ layout: Layout; pages: ContactListPage[] }> {
  const first = await fetchPage(1, perPage);
  const described = layoutOf(answerOf(1, first));
  if ("disagreement" in described) throw new Disagreed(described.disagreement);
  const { layout } = described;
  // Later pages are asked in the size the API served: page numbers count in that size, and an
  // API that reads per_page for the offset but caps what it sends then still agrees with itself.
  const rest = await mapSettled(pagesAfterFirst(layout, request.limit), request.concurrency, async (page) => {
    const answer = await fetchPage(page, layout.perPage);
    const disagreement = checkAnswer(layout, answerOf(page, answer));
    if (disagreement !== undefined) throw new Disagreed(disagreement);
    return answer;
  });
  const pages = [first, ...rest];
  const repeated = firstRepeat(pages.map((p) => p.data.map((c) => c.handle)));
  if (repeated !== undefined) {
    throw new Disagreed({ kind: "changed", message: `contact ${repeated} came on two pages` });
  }
  return { layout, pages };
}

/**
 * Lists contacts, paging by what the API answers rather than by what was asked.
 *
 * Without `page`, every page is fetched: the first, then the rest concurrently (`concurrency`,
 * default 4), keeping the API's order; `limit` stops early. The first answer's `per_page`,
 * `total_results` and `total_pages` decide which pages exist, so an API that serves fewer per page
 * than `perPage` asked (a silent cap) still yields every contact once. Every answer must agree:
 * its page number is the one asked for, its totals and page size are the first answer's, and it
 * holds as many contacts as those put on it.
 *
 * When the contacts change while they are listed (`total_results` moves, or a contact comes on two
 * pages), the listing starts again from page 1, up to 3 listings; then it fails with a
 * {@link ContactsListingError} of kind `changed`. Answers that contradict themselves fail at once
 * with kind `inconsistent`. It never returns part of the contacts as if it were all.
 *
 * What no answer shows cannot be caught: between two page requests, one contact removed from a
 * page already read and another added to a later one keep the total and move the contacts in
 * between one place forward, so one of them is skipped (the spec shows no cursor or version that
 * would reveal it). A change moving contacts the other way serves one twice, which is caught.
 *
 * With `page`, that page alone, in the API's page size (`perPage` of the result), checked the same
 * way. Bad arguments fail before any request with an `InvalidArgumentError` naming every one.
 *
 * @throws InvalidArgumentError for a bad argument, before any request
 * @throws ContactsListingError when the answers cannot make a complete list
 * @throws DomainApiError when a request fails
 * @example
 * const { contacts } = await getContacts({ email: "%@example.com", connections: ">5", status: ["ok"], sort: ["-connections", "name"] });
 * const handle = contacts[0]?.handle;
 */
export async function getContacts(
  args: GetContactsArgs = {},
  options: GetContactsOptions = {},
): Promise<GetContactsResult> {
  const request = parseContactsArgs(args);
  if (options.client === undefined) warnIfApiKeyInPlainText();
  const api = options.client ?? getClient(resolveConfig(programConfig));
  const perPage = request.perPage ?? DEFAULT_PER_PAGE;
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  const fetchPage = (page: number, size: number): Promise<ContactListPage> =>
    api.listContacts(contactsQuery(request, page, size));

  if (request.page !== undefined) {
    const only = await fetchPage(request.page, perPage);
    const described = layoutOf(answerOf(request.page, only));
    if ("disagreement" in described) throw new ContactsListingError(described.disagreement, 1);
    return { contacts: only.data.slice(0, limit), ...totals(described.layout) };
  }
  for (let pass = 1; ; pass++) {
    try {
      const { layout, pages } = await listOnce(request, fetchPage, perPage);
      return { contacts: pages.flatMap((p) => p.data).slice(0, limit), ...totals(layout) };
    } catch (error) {
      if (!(error instanceof Disagreed)) throw error;
      if (error.disagreement.kind === "inconsistent" || pass === MAX_PASSES) {
        throw new ContactsListingError(error.disagreement, pass);
      }
    }
  }
}

function totals(layout: Layout): Omit<GetContactsResult, "contacts"> {
  return { total: layout.totalResults, pages: layout.totalPages, perPage: layout.perPage };
}

/** {@link GetContactsArgs} with every field an `Input`. */
export type GetContactsOutputArgs = { [K in keyof GetContactsArgs]: pulumi.Input<GetContactsArgs[K]> };

/**
 * {@link getContacts} for `Input` arguments, returning an `Output`: feeds resource inputs directly.
 *
 * @example
 * const cfg = new pulumi.Config();
 * const nl = getContactsOutput({ country: cfg.require("country"), sort: "name" });
 * export const firstHandle = nl.contacts.apply((cs) => cs[0]?.handle);
 */
export function getContactsOutput(
  args: GetContactsOutputArgs = {},
  options: GetContactsOptions = {},
): pulumi.Output<GetContactsResult> {
  if (options.client === undefined && pulumi.runtime.isDryRun()) {
    // A preview goes on without a key (previews of pull requests from forks have no secrets):
    // the contacts are then unknown, as values only `up` can tell. Malformed settings still fail it.
    const { error, warning } = checkConfig(programConfig);
    if (error === undefined && warning !== undefined) {
      void pulumi.log.warn(`getContactsOutput: ${warning}`).catch(() => undefined);
      return pulumi.output(pulumi.unknown) as unknown as pulumi.Output<GetContactsResult>;
    }
  }
  // pulumi.output() walks objects key by key and would turn a Date into {}: format dates first.
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args))
    plain[key] = value instanceof Date ? formatDateTime(value) : value;
  return pulumi
    .output(plain)
    .apply((resolved) =>
      getContacts(resolved as GetContactsArgs, options),
    ) as pulumi.Output<GetContactsResult>;
}
