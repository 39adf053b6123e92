/**
 * The arguments of `getContacts`, checked and turned into the query string of `GET /v2/contacts`.
 *
 * Arguments are camelCase; the query is snake_case in a fixed order. Search values go out verbatim
 * through `URLSearchParams`, so a comparison sign or a `%` wildcard survives: `connections: ">5"`
 * becomes `connections=%3E5`, `email: "%@example.com"` becomes `email=%25%40example.com`.
 * Arrays repeat the key (`status=ok&status=pending_update`), dates are `YYYY-MM-DDThh:mm:ssZ` in
 * UTC, booleans `true`/`false` (DECISIONS.md, "Wire format").
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { CONTACT_STATUSES, type ContactStatus } from "../client/wire";

/**
 * Filters, sorting and paging of `getContacts`. Every field is optional; string filters are search
 * values that may start with a comparison sign or hold the wildcard `%`.
 *
 * @example
 * const args: GetContactsArgs = { email: "%@example.com", connections: ">5", sort: "-connections,name" };
 */
export interface GetContactsArgs {
  handle?: string;
  companyName?: string;
  name?: string;
  address1?: string;
  address2?: string;
  postalCode?: string;
  city?: string;
  state?: string;
  /** Two-letter ISO 3166-1 code, any case (sent upper-cased). */
  country?: string;
  /** Telephone number in e164a format. */
  phone?: string;
  email?: string;
  /** Contacts holding any of these statuses. */
  status?: ContactStatus[];
  /** A count (`5`) or a comparison (`">5"`, `">=5"`, `"<5"`, `"<=5"`). */
  connections?: number | string;
  /** A `Date`, or `YYYY-MM-DDThh:mm:ssZ` with an optional leading `>`, `<`, `>=` or `<=`. */
  dateCreated?: Date | string;
  /** Same forms as {@link GetContactsArgs.dateCreated}. */
  dateLastUpdated?: Date | string;
  autoDelete?: boolean;
  reference?: string;
  /** `"-connections,name"` or `["-connections", "name"]`; a leading `-` sorts descending. */
  sort?: string | string[];
  /** Page to fetch (from 1). */
  page?: number;
  /** Results per page, 1 to 100 (the service's default is 50). */
  perPage?: number;
  /** Most contacts to return in all. Not sent: `getContacts` stops fetching once it has enough. */
  limit?: number;
  /** Most page requests in flight at once, 1 to 16. Not sent. */
  concurrency?: number;
}

/**
 * A `getContacts` argument that cannot be used, named in `argument`, with `reason` saying what is
 * wrong and how to fix it. The message reads `getContacts: <argument>: <reason>`.
 */
export class InvalidArgumentError extends Error {
  /** The argument at fault, e.g. `"perPage"` or `"sort"`. */
  readonly argument: string;
  /** What is wrong with it and how to fix it. */
  readonly reason: string;

  constructor(argument: string, reason: string) {
    super(`getContacts: ${argument}: ${reason}`);
    this.name = "InvalidArgumentError";
    this.argument = argument;
    this.reason = reason;
  }
}

/** The string filters: argument name and query parameter, in the order they are sent. */
const STRING_FILTERS = [
  ["handle", "handle"],
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
] as const satisfies ReadonlyArray<readonly [keyof GetContactsArgs, string]>;

const OTHER_ARGUMENTS = [
  "status",
  "connections",
  "dateCreated",
  "dateLastUpdated",
  "autoDelete",
  "reference",
  "sort",
  "page",
  "perPage",
  "limit",
  "concurrency",
] as const satisfies ReadonlyArray<keyof GetContactsArgs>;

const KNOWN_ARGUMENTS: ReadonlySet<string> = new Set<string>([
  ...STRING_FILTERS.map(([argument]) => argument),
  ...OTHER_ARGUMENTS,
]);

/** Contact fields one can sort by: the API's snake_case names, also reachable by their camelCase form. */
const SORT_FIELDS: ReadonlyMap<string, string> = new Map(
  [
    "handle",
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
    // Not "status": it is a list of values (a contact can hold several), which has no order.
    "connections",
    "date_created",
    "date_last_updated",
    "auto_delete",
    "reference",
  ].flatMap((field) => [
    [field, field],
    [toCamelCase(field), field],
  ]),
);

function toCamelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const COMPARISON = "(>=|<=|>|<)?";
const CONNECTIONS = new RegExp(`^${COMPARISON}\\d+$`);
const DATETIME = new RegExp(`^${COMPARISON}(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})Z$`);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a Date";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/**
 * Formats a date as the API's datetime: `YYYY-MM-DDThh:mm:ssZ`, UTC, no fractional seconds
 * (milliseconds are dropped, not rounded).
 *
 * @throws RangeError for an invalid date or a year outside 0000-9999
 * @example
 * formatDateTime(new Date(Date.UTC(2024, 0, 31, 12, 5, 9, 750))); // "2024-01-31T12:05:09Z"
 */
export function formatDateTime(d: Date): string {
  const time = d.getTime();
  if (Number.isNaN(time)) throw new RangeError("invalid Date");
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`the year ${year} cannot be written as YYYY`);
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The given arguments without `undefined` values: an argument set to `undefined` is not given. */
function given(args: GetContactsArgs | undefined): Array<[string, unknown]> {
  if (args === undefined || args === null) return [];
  return Object.entries(args).filter(([, value]) => value !== undefined);
}

function requireInteger(argument: string, value: unknown, min: number, max?: number): number {
  const range = max === undefined ? `${min} or more` : `from ${min} to ${max}`;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new InvalidArgumentError(argument, `must be a whole number ${range}; got ${describe(value)}`);
  }
  if (value < min || (max !== undefined && value > max)) {
    throw new InvalidArgumentError(argument, `must be ${range}; got ${value}`);
  }
  return value;
}

function stringFilter(argument: string, value: unknown): string {
  if (typeof value !== "string") {
    throw new InvalidArgumentError(argument, `must be a string search value; got ${describe(value)}`);
  }
  if (value === "") {
    throw new InvalidArgumentError(argument, "is an empty string; leave it out to match every contact");
  }
  if (argument === "country") {
    if (!/^[A-Za-z]{2}$/.test(value)) {
      throw new InvalidArgumentError(
        argument,
        `must be a two-letter ISO 3166-1 country code such as "NL" or "us"; got ${describe(value)}`,
      );
    }
    return value.toUpperCase();
  }
  return value;
}

function statusValues(value: unknown): ContactStatus[] {
  const known: readonly string[] = CONTACT_STATUSES;
  if (!Array.isArray(value)) {
    const hint =
      typeof value === "string" ? `write status: [${JSON.stringify(value)}]` : `e.g. status: ["ok"]`;
    throw new InvalidArgumentError("status", `must be a list of statuses; ${hint}`);
  }
  for (const [index, item] of value.entries()) {
    if (typeof item !== "string" || !known.includes(item)) {
      throw new InvalidArgumentError(
        `status[${index}]`,
        `unknown status ${describe(item)}; use any of ${CONTACT_STATUSES.join(", ")}`,
      );
    }
  }
  return value as ContactStatus[];
}

function connectionsValue(value: unknown): string {
  const forms = `a whole number such as 5, or a comparison such as ">5", ">=5", "<5" or "<=5"`;
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) {
      throw new InvalidArgumentError("connections", `must be ${forms}; got ${value}`);
    }
    return String(value);
  }
  if (typeof value !== "string" || !CONNECTIONS.test(value)) {
    throw new InvalidArgumentError("connections", `must be ${forms}; got ${describe(value)}`);
  }
  return value;
}

function dateTimeValue(argument: string, value: unknown): string {
  const forms =
    'must be a Date or a UTC datetime "YYYY-MM-DDThh:mm:ssZ" with an optional leading >, <, >= or <=, ' +
    'e.g. ">=2024-01-31T00:00:00Z"';
  if (value instanceof Date) {
    try {
      return formatDateTime(value);
    } catch (error) {
      throw new InvalidArgumentError(argument, `${forms}; got ${(error as Error).message}`);
    }
  }
  const match = typeof value === "string" ? DATETIME.exec(value) : null;
  if (!match) throw new InvalidArgumentError(argument, `${forms}; got ${describe(value)}`);
  const [year, month, day, hour, minute, second] = match.slice(2).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // A date that Date.UTC would roll over (Feb 30, hour 24) is not a date the user meant.
  const d = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const exists =
    d.getUTCFullYear() === year &&
    d.getUTCMonth() === month - 1 &&
    d.getUTCDate() === day &&
    d.getUTCHours() === hour &&
    d.getUTCMinutes() === minute &&
    d.getUTCSeconds() === second;
  if (!exists) throw new InvalidArgumentError(argument, `${describe(value)} is not a real date and time`);
  return value as string;
}

function booleanValue(argument: string, value: unknown): string {
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(argument, `must be true or false; got ${describe(value)}`);
  }
  return value ? "true" : "false";
}

function sortValue(value: unknown): string {
  const fields = [...new Set(SORT_FIELDS.values())].join(", ");
  const form = `e.g. sort: "-connections,name" or ["-connections", "name"]`;
  let items: unknown[];
  if (typeof value === "string") items = value.split(",");
  else if (Array.isArray(value))
    items = value.flatMap((item) => (typeof item === "string" ? item.split(",") : [item]));
  else
    throw new InvalidArgumentError(
      "sort",
      `must be a string or a list of strings, ${form}; got ${describe(value)}`,
    );
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") {
      throw new InvalidArgumentError(
        "sort",
        `every sort field must be a string, ${form}; got ${describe(item)}`,
      );
    }
    const descending = item.startsWith("-");
    const name = descending ? item.slice(1) : item;
    if (name === "") {
      throw new InvalidArgumentError("sort", `holds an empty field name (a stray "," or "-"), ${form}`);
    }
    const field = SORT_FIELDS.get(name);
    if (field === undefined) {
      throw new InvalidArgumentError(
        "sort",
        `unknown sort field ${JSON.stringify(name)}; sort by any of ${fields} (or their camelCase forms), ` +
          `with a leading "-" for descending`,
      );
    }
    if (seen.has(field)) throw new InvalidArgumentError("sort", `sorts by ${field} twice; keep one`);
    seen.add(field);
    out.push(descending ? `-${field}` : field);
  }
  return out.join(",");
}

function unknownArgumentReason(key: string): string {
  const camel = toCamelCase(key.replace(/_(\d)/g, "$1"));
  const hint = KNOWN_ARGUMENTS.has(camel)
    ? `did you mean ${camel}? (arguments are camelCase)`
    : `known arguments are ${[...KNOWN_ARGUMENTS].join(", ")}`;
  return `unknown argument; ${hint}`;
}

/** Every argument checked and in its query form (`undefined` for those not sent). */
interface CheckedArgs {
  filters: Array<[string, string]>;
  page?: number;
  perPage?: number;
}

function check(args: GetContactsArgs | undefined): CheckedArgs {
  if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
    throw new InvalidArgumentError(
      "args",
      `must be an object of filters, e.g. { country: "NL" }; got ${describe(args)}`,
    );
  }
  const values = new Map(given(args));
  for (const key of values.keys()) {
    if (!KNOWN_ARGUMENTS.has(key)) throw new InvalidArgumentError(key, unknownArgumentReason(key));
  }
  const filters: Array<[string, string]> = [];
  for (const [argument, parameter] of STRING_FILTERS) {
    const value = values.get(argument);
    if (value !== undefined) filters.push([parameter, stringFilter(argument, value)]);
  }
  const status = values.get("status");
  if (status !== undefined) for (const s of statusValues(status)) filters.push(["status", s]);
  const connections = values.get("connections");
  if (connections !== undefined) filters.push(["connections", connectionsValue(connections)]);
  const dateCreated = values.get("dateCreated");
  if (dateCreated !== undefined) filters.push(["date_created", dateTimeValue("dateCreated", dateCreated)]);
  const dateLastUpdated = values.get("dateLastUpdated");
  if (dateLastUpdated !== undefined) {
    filters.push(["date_last_updated", dateTimeValue("dateLastUpdated", dateLastUpdated)]);
  }
  const autoDelete = values.get("autoDelete");
  if (autoDelete !== undefined) filters.push(["auto_delete", booleanValue("autoDelete", autoDelete)]);
  const reference = values.get("reference");
  if (reference !== undefined) filters.push(["reference", stringFilter("reference", reference)]);
  const sort = values.get("sort");
  if (sort !== undefined) filters.push(["sort", sortValue(sort)]);

  const checked: CheckedArgs = { filters };
  const page = values.get("page");
  if (page !== undefined) checked.page = requireInteger("page", page, 1);
  const perPage = values.get("perPage");
  if (perPage !== undefined) checked.perPage = requireInteger("perPage", perPage, 1, 100);
  const limit = values.get("limit");
  if (limit !== undefined) requireInteger("limit", limit, 1);
  const concurrency = values.get("concurrency");
  if (concurrency !== undefined) requireInteger("concurrency", concurrency, 1, 16);
  return checked;
}

/**
 * Checks `getContacts` arguments without building anything.
 *
 * @throws InvalidArgumentError naming the first argument that is wrong: an unknown argument, an
 *   unknown sort field or status, a country that is not two letters, a malformed comparison,
 *   number or datetime, `page < 1`, `perPage` outside 1-100, `limit < 1`, `concurrency` outside
 *   1-16, or a number that is not whole
 * @example
 * validateContactsArgs({ perPage: 500 }); // throws "getContacts: perPage: must be from 1 to 100; got 500"
 */
export function validateContactsArgs(args: GetContactsArgs | undefined): void {
  check(args);
}

/**
 * The query of `GET /v2/contacts` for `args`: filters in a fixed order (the spec's), then `page`
 * and `per_page`. The explicit `page` and `perPage` parameters win over `args.page` and
 * `args.perPage`, so a caller can walk pages with the same arguments; either is sent only when
 * given. `limit` and `concurrency` are never sent.
 *
 * @throws InvalidArgumentError as {@link validateContactsArgs} does
 * @example
 * buildContactsQuery({ connections: ">5", status: ["ok", "pending_update"] }, 2, 100).toString();
 * // "status=ok&status=pending_update&connections=%3E5&page=2&per_page=100"
 */
export function buildContactsQuery(
  args: GetContactsArgs | undefined,
  page?: number,
  perPage?: number,
): URLSearchParams {
  const checked = check(args);
  const query = new URLSearchParams();
  for (const [parameter, value] of checked.filters) query.append(parameter, value);
  const pageToSend = page === undefined ? checked.page : requireInteger("page", page, 1);
  const perPageToSend = perPage === undefined ? checked.perPage : requireInteger("perPage", perPage, 1, 100);
  if (pageToSend !== undefined) query.append("page", String(pageToSend));
  if (perPageToSend !== undefined) query.append("per_page", String(perPageToSend));
  return query;
}
