/**
 * `GET /v2/contacts`: runs a query over the stored contacts and shapes the response the way the
 * spec's samples do, with options to emit the variants the spec also allows (`current_page`
 * instead of `page`, `connections` as a numeric string) so clients can be tested against both.
 */
import { parseContactQuery, runContactQuery } from "./contactQuery";
import type { WireContact } from "./contactSchema";

/** How the contacts list is rendered. */
export interface ContactListFormat {
  /** Name of the page number in the pagination object; the samples use `page`. */
  paginationField: "page" | "current_page";
  /** Emit `connections` as a numeric string (the spec's field table) instead of a number. */
  connectionsAsString: boolean;
  /** Largest `per_page` served (larger asks are served as this); undefined: above 100 is a 400. */
  perPageCap?: number | undefined;
  /** Serve empty or absent string fields (all but `handle`) as `null`. */
  nullStrings?: boolean;
}

/** The string fields that `nullStrings` serves as `null` when empty or absent. */
const NULLABLE_STRING_FIELDS = [
  "company_name",
  "name",
  "address_1",
  "address_2",
  "postal_code",
  "city",
  "state",
  "country",
  "phone",
  "email",
] as const;

/** The pagination object of a contacts list response. */
export type PaginationBody = {
  [K in "page" | "current_page"]?: number;
} & { per_page: number; total_pages: number; total_results: number };

/** The 200 body of `GET /v2/contacts`. */
export interface ContactListBody {
  data: Array<Record<string, unknown>>;
  pagination: PaginationBody;
}

/**
 * A contact as served in a list. `reference` is left out: whether it appears in list results is
 * "not shown", so a client must not rely on it.
 */
function serveContact(contact: WireContact, format: ContactListFormat): Record<string, unknown> {
  const { reference: _reference, ...served } = contact;
  if (served.connections !== undefined) {
    served.connections = format.connectionsAsString ? String(served.connections) : Number(served.connections);
  }
  if (format.nullStrings !== true) return served;
  const nulled: Record<string, unknown> = { ...served };
  for (const field of NULLABLE_STRING_FIELDS) {
    if (served[field] === undefined || served[field] === "") nulled[field] = null;
  }
  return nulled;
}

/**
 * Answers `GET /v2/contacts?<rawQuery>`.
 *
 * @throws ApiError 400 naming the parameter when the query is malformed.
 * @example
 * listContacts(contacts, "country=NL&sort=-connections&per_page=10", { paginationField: "page", connectionsAsString: false });
 */
export function listContacts(
  contacts: readonly WireContact[],
  rawQuery: string,
  format: ContactListFormat,
): ContactListBody {
  const query = parseContactQuery(rawQuery, format.perPageCap);
  const { page, total } = runContactQuery(contacts, query);
  return {
    data: page.map((contact) => serveContact(contact, format)),
    pagination: {
      [format.paginationField]: query.page,
      per_page: query.perPage,
      total_pages: Math.ceil(total / query.perPage),
      total_results: total,
    },
  };
}
