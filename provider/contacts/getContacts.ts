/**
 * getContacts / getContactsOutput: contacts of the account, filtered and sorted by the API. Reads are
 * safe, so both run during `pulumi preview` too.
 */
import * as pulumi from "@pulumi/pulumi";
import { type DomainApiClient, getClient } from "../client/api";
import type { Contact, ContactListPage } from "../client/wire";
import { type ConfigLookup, resolveConfig } from "../config";
import { buildContactsQuery, formatDateTime, type GetContactsArgs } from "./query";

/** Result of {@link getContacts}. */
export interface GetContactsResult {
  /** The contacts, in the API's order (its sort), at most `limit` of them. */
  contacts: Contact[];
  /** Number of contacts matching the filters (`pagination.total_results`). */
  total: number;
  /** Number of pages at the page size used (`pagination.total_pages`). */
  pages: number;
}

/** Options of {@link getContacts} beyond the query itself. */
export interface GetContactsOptions {
  /** A client to use instead of one built from the `domainapi` config and environment. */
  client?: DomainApiClient;
}

const DEFAULT_PER_PAGE = 50;
const DEFAULT_CONCURRENCY = 4;

// Stack config of the program, read without Pulumi's "use getSecret" warning: the key is passed
// on to the client only, never into an output.
const programConfig: ConfigLookup = (key) => pulumi.runtime.getConfig(`domainapi:${key}`);

/**
 * Runs `work` over `items` with at most `limit` in flight; results keep the items' order. After a
 * failure no new item is started: the call fails anyway, and pages fetched for nothing would only
 * spend the account's rate limit.
 */
async function mapConcurrent<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Lists contacts. Without `page`, every page is fetched: the first, then the rest concurrently
 * (`concurrency`, default 4), keeping the API's order; `limit` stops early. With `page`, that page
 * alone. Bad arguments fail before any request, naming the argument.
 *
 * @example
 * const { contacts } = await getContacts({ email: "%@example.com", connections: ">5", status: ["ok"], sort: ["-connections", "name"] });
 * const handle = contacts[0]?.handle;
 */
export async function getContacts(
  args: GetContactsArgs = {},
  options: GetContactsOptions = {},
): Promise<GetContactsResult> {
  // Checks every argument, once, before any request.
  const filters = buildContactsQuery(args);
  filters.delete("page");
  filters.delete("per_page");
  const api = options.client ?? getClient(resolveConfig(programConfig));
  const perPage = args.perPage ?? DEFAULT_PER_PAGE;
  const limit = args.limit ?? Number.POSITIVE_INFINITY;
  const fetchPage = (page: number): Promise<ContactListPage> => {
    const query = new URLSearchParams(filters);
    query.append("page", String(page));
    query.append("per_page", String(perPage));
    return api.listContacts(query);
  };

  if (args.page !== undefined) {
    const only = await fetchPage(args.page);
    return {
      contacts: only.data.slice(0, limit),
      total: only.pagination.totalResults,
      pages: only.pagination.totalPages,
    };
  }
  const first = await fetchPage(1);
  const { totalPages, totalResults } = first.pagination;
  const wanted = Math.min(totalPages, Math.ceil(Math.min(limit, totalResults) / perPage));
  const rest = Array.from({ length: Math.max(0, wanted - 1) }, (_, i) => i + 2);
  const pages = await mapConcurrent(rest, args.concurrency ?? DEFAULT_CONCURRENCY, fetchPage);
  const contacts = [first, ...pages].flatMap((p) => p.data).slice(0, limit);
  return { contacts, total: totalResults, pages: totalPages };
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
