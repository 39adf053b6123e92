/**
 * The query language of `GET /v2/contacts`, strictly parsed: search values with `%` wildcards,
 * comparison operators on numbers and datetimes, `status` as repeated keys (any-of), booleans,
 * a multi-field sort, and page/per_page. Every malformed or unknown parameter is a 400 that names
 * the parameter and says what is expected.
 */
import { CONTACT_STATUSES, type ContactStatus, isSpecDatetime, type WireContact } from "./contactSchema";
import { invalidRequest } from "./errors";

/** The largest `per_page` the sandbox serves (the real maximum is not shown; see docs/design.md, "Sandbox"). */
export const MAX_PER_PAGE = 100;
/** Default page size, from the spec's limits. */
export const DEFAULT_PER_PAGE = 50;

/** Fields searched as strings: case-insensitive, exact unless the value contains `%`. */
const STRING_FIELDS = [
  "handle",
  "company_name",
  "name",
  "address_1",
  "address_2",
  "postal_code",
  "city",
  "state",
  "phone",
  "email",
  "reference",
] as const;
type StringField = (typeof STRING_FIELDS)[number];

/** Fields that take an optional leading comparison operator. */
const DATETIME_FIELDS = ["date_created", "date_last_updated"] as const;
type DatetimeField = (typeof DATETIME_FIELDS)[number];

/** Fields the sort parameter accepts (every scalar field of a contact). */
export const SORT_FIELDS = [
  ...STRING_FIELDS,
  "country",
  "connections",
  "date_created",
  "date_last_updated",
  "auto_delete",
] as const;
type SortField = (typeof SORT_FIELDS)[number];

const KNOWN_PARAMETERS = new Set<string>([
  ...STRING_FIELDS,
  ...DATETIME_FIELDS,
  "country",
  "status",
  "connections",
  "auto_delete",
  "sort",
  "page",
  "per_page",
]);

type Operator = "=" | ">" | "<" | ">=" | "<=";
type Predicate = (contact: WireContact) => boolean;

/** One sort key: a field and its direction. */
export interface SortKey {
  field: SortField;
  descending: boolean;
}

/** A parsed contacts query. */
export interface ContactQuery {
  predicates: Predicate[];
  sort: SortKey[];
  page: number;
  perPage: number;
}

const OPERATOR_PATTERN = /^(>=|<=|>|<)?(.*)$/s;

function splitOperator(value: string): { operator: Operator; operand: string } {
  const match = OPERATOR_PATTERN.exec(value)!;
  return { operator: (match[1] as Operator | undefined) ?? "=", operand: match[2] ?? "" };
}

function compare<T extends number | string>(left: T, operator: Operator, right: T): boolean {
  switch (operator) {
    case "=":
      return left === right;
    case ">":
      return left > right;
    case "<":
      return left < right;
    case ">=":
      return left >= right;
    case "<=":
      return left <= right;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A case-insensitive matcher for a search value: `%` matches any run of characters (also none),
 * anywhere in the value and any number of times; without `%` the match is exact.
 *
 * @example
 * searchMatcher("%@example.com")("Ann@EXAMPLE.com"); // true
 * searchMatcher("ams%dam")("Amsterdam"); // true
 */
export function searchMatcher(value: string): (candidate: string) => boolean {
  if (!value.includes("%")) {
    const wanted = value.toLowerCase();
    return (candidate) => candidate.length === wanted.length && candidate.toLowerCase() === wanted;
  }
  const pattern = new RegExp(`^${value.split("%").map(escapeRegExp).join(".*")}$`, "is");
  return (candidate) => pattern.test(candidate);
}

/** The connections of a contact as a number (fixtures may carry a numeric string). */
function connectionsOf(contact: WireContact): number {
  return contact.connections === undefined ? 0 : Number(contact.connections);
}

function stringPredicate(field: StringField, value: string): Predicate {
  const matches = searchMatcher(value);
  // An absent field reads as empty: the spec lets responses omit fields such as state.
  return (contact) => matches(contact[field] ?? "");
}

function connectionsPredicate(value: string): Predicate {
  const { operator, operand } = splitOperator(value);
  if (!/^\d{1,15}$/.test(operand)) {
    throw invalidRequest(
      `connections: expected a non-negative integer with an optional leading >, <, >= or <= (e.g. >5), got "${value}"`,
    );
  }
  const wanted = Number(operand);
  return (contact) => compare(connectionsOf(contact), operator, wanted);
}

function datetimePredicate(field: DatetimeField, value: string): Predicate {
  const { operator, operand } = splitOperator(value);
  if (!isSpecDatetime(operand)) {
    throw invalidRequest(
      `${field}: expected a datetime YYYY-MM-DDThh:mm:ssZ with an optional leading >, <, >= or <= (e.g. >=2020-01-01T00:00:00Z), got "${value}"`,
    );
  }
  // The form is fixed-width UTC, so string order is time order.
  return (contact) => {
    const actual = contact[field];
    return actual !== undefined && compare(actual, operator, operand);
  };
}

function countryPredicate(value: string): Predicate {
  if (!/^[A-Za-z]{2}$/.test(value)) {
    throw invalidRequest(`country: expected a two-letter ISO 3166-1 code such as NL, got "${value}"`);
  }
  const wanted = value.toUpperCase();
  return (contact) => (contact.country ?? "").toUpperCase() === wanted;
}

function autoDeletePredicate(value: string): Predicate {
  if (value !== "true" && value !== "false") {
    throw invalidRequest(`auto_delete: expected true or false, got "${value}"`);
  }
  const wanted = value === "true";
  return (contact) => contact.auto_delete === wanted;
}

function statusPredicate(values: string[]): Predicate {
  const wanted = new Set<string>();
  for (const value of values) {
    if (!(CONTACT_STATUSES as readonly string[]).includes(value)) {
      throw invalidRequest(
        `status: unknown value "${value}"; expected ${CONTACT_STATUSES.join(", ")}, one per status key (status=ok&status=pending_update)`,
      );
    }
    wanted.add(value);
  }
  return (contact) => (contact.status ?? []).some((status: ContactStatus) => wanted.has(status));
}

function parseSort(value: string): SortKey[] {
  if (value === "")
    throw invalidRequest("sort: expected comma-separated field names, e.g. -connections,name");
  const keys: SortKey[] = [];
  for (const part of value.split(",")) {
    const descending = part.startsWith("-");
    const field = descending ? part.slice(1) : part;
    if (!(SORT_FIELDS as readonly string[]).includes(field)) {
      throw invalidRequest(
        `sort: unknown field "${field}"; sortable fields are ${SORT_FIELDS.join(", ")}, each with an optional leading -`,
      );
    }
    if (keys.some((key) => key.field === field)) {
      throw invalidRequest(`sort: field "${field}" is given more than once`);
    }
    keys.push({ field: field as SortField, descending });
  }
  return keys;
}

function parsePositiveInteger(name: string, value: string): number {
  if (!/^[1-9]\d{0,14}$/.test(value)) {
    throw invalidRequest(`${name}: expected a positive integer, got "${value}"`);
  }
  return Number(value);
}

/**
 * Parses the raw query string of `GET /v2/contacts`. Without `perPageCap`, `per_page` above
 * {@link MAX_PER_PAGE} is a 400; with it, `per_page` above the cap is served as the cap.
 *
 * @throws ApiError 400 naming the parameter for an unknown parameter, a repeated one (other than
 *   status), or a malformed value.
 * @example
 * parseContactQuery("connections=%3E5&status=ok&status=pending_update&sort=-connections,name");
 * parseContactQuery("per_page=500", 100).perPage; // 100
 */
export function parseContactQuery(rawQuery: string, perPageCap?: number): ContactQuery {
  const params = new URLSearchParams(rawQuery);
  const predicates: Predicate[] = [];
  let sort: SortKey[] = [];
  let page = 1;
  let perPage = DEFAULT_PER_PAGE;
  for (const name of new Set(params.keys())) {
    if (!KNOWN_PARAMETERS.has(name)) {
      throw invalidRequest(`${name}: unknown query parameter; known: ${[...KNOWN_PARAMETERS].join(", ")}`);
    }
    const values = params.getAll(name);
    if (name === "status") {
      predicates.push(statusPredicate(values));
      continue;
    }
    if (values.length > 1) {
      throw invalidRequest(`${name}: given ${values.length} times; give it once`);
    }
    const value = values[0]!;
    if ((STRING_FIELDS as readonly string[]).includes(name)) {
      predicates.push(stringPredicate(name as StringField, value));
    } else if ((DATETIME_FIELDS as readonly string[]).includes(name)) {
      predicates.push(datetimePredicate(name as DatetimeField, value));
    } else if (name === "connections") {
      predicates.push(connectionsPredicate(value));
    } else if (name === "country") {
      predicates.push(countryPredicate(value));
    } else if (name === "auto_delete") {
      predicates.push(autoDeletePredicate(value));
    } else if (name === "sort") {
      sort = parseSort(value);
    } else if (name === "page") {
      page = parsePositiveInteger("page", value);
    } else if (name === "per_page") {
      perPage = parsePositiveInteger("per_page", value);
      if (perPageCap === undefined && perPage > MAX_PER_PAGE) {
        throw invalidRequest(`per_page: at most ${MAX_PER_PAGE}, got ${perPage}`);
      }
    }
  }
  // A capped server serves its cap also when the default page size is larger.
  if (perPageCap !== undefined) perPage = Math.min(perPage, perPageCap);
  return { predicates, sort, page, perPage };
}

type SortValue = string | number;

function sortValue(contact: WireContact, field: SortField): SortValue {
  switch (field) {
    case "connections":
      return connectionsOf(contact);
    case "auto_delete":
      return contact.auto_delete === true ? 1 : 0;
    case "date_created":
    case "date_last_updated":
      return contact[field] ?? "";
    default:
      return (contact[field] ?? "").toLowerCase();
  }
}

/**
 * Sorts stably by the keys: equal on every key, contacts keep their order. Works on columns of
 * precomputed values and an index array, so 100,000 contacts sort without per-compare allocation.
 */
function sortContacts(contacts: WireContact[], keys: SortKey[]): WireContact[] {
  const columns = keys.map((key) => contacts.map((contact) => sortValue(contact, key.field)));
  const directions = keys.map((key) => (key.descending ? -1 : 1));
  const order = Array.from({ length: contacts.length }, (_, index) => index);
  order.sort((left, right) => {
    for (let k = 0; k < columns.length; k += 1) {
      const column = columns[k]!;
      const a = column[left]!;
      const b = column[right]!;
      if (a !== b) return a < b ? -directions[k]! : directions[k]!;
    }
    return left - right;
  });
  return order.map((index) => contacts[index]!);
}

/**
 * Filters and sorts `contacts` by `query` and cuts out the requested page. Sorting is stable:
 * contacts equal on every sort key keep their stored order.
 */
export function runContactQuery(
  contacts: readonly WireContact[],
  query: ContactQuery,
): { page: WireContact[]; total: number } {
  let matched =
    query.predicates.length === 0
      ? contacts.slice()
      : contacts.filter((contact) => query.predicates.every((predicate) => predicate(contact)));
  if (query.sort.length > 0) matched = sortContacts(matched, query.sort);
  const start = (query.page - 1) * query.perPage;
  return {
    page: start < matched.length ? matched.slice(start, start + query.perPage) : [],
    total: matched.length,
  };
}
