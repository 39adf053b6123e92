/**
 * The arguments of `getContacts`: one zod table that checks them and turns them into the query
 * string of `GET /v2/contacts`.
 *
 * Arguments are camelCase; the query is snake_case in the table's order (the spec's). Search values
 * go out verbatim through `URLSearchParams`, so a comparison sign or a `%` wildcard survives:
 * `connections: ">5"` becomes `connections=%3E5`, `email: "%@example.com"` becomes
 * `email=%25%40example.com`. Arrays repeat the key (`status=ok&status=pending_update`), dates are
 * `YYYY-MM-DDThh:mm:ssZ` in UTC, booleans `true`/`false` (docs/design.md, "Wire format").
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { z } from "zod";
import { CONTACT_STATUSES, type ContactStatus } from "../client/wire";
import { DomainApiBaseError } from "../errors";

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
  /** Fetch this page alone (from 1), in the API's page size. */
  page?: number;
  /**
   * Results per page asked for, 1 to 100 (the service's default is 50). The API may serve fewer:
   * `getContacts` pages by the size the API answers with.
   */
  perPage?: number;
  /** Most contacts to return in all. Not sent: `getContacts` stops fetching once it has enough. */
  limit?: number;
  /** Most page requests in flight at once, 1 to 16. Not sent. */
  concurrency?: number;
}

/**
 * A `getContacts` argument that cannot be used, named in `argument`, with `reason` saying what is
 * wrong and how to fix it. The message reads `getContacts: <argument>: <reason>`; the code is
 * `DOMAINAPI_INVALID_ARGUMENT`.
 */
export class InvalidArgumentError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.InvalidArgumentError");
  /** The first argument at fault, e.g. `"perPage"` or `"status[1]"`. */
  readonly argument: string;
  /** What is wrong with it and how to fix it. */
  readonly reason: string;
  /** Every argument at fault, each with its reason, in the order of the arguments' table. */
  readonly problems: ReadonlyArray<{ readonly argument: string; readonly reason: string }>;

  constructor(
    argument: string,
    reason: string,
    more: ReadonlyArray<{ argument: string; reason: string }> = [],
  ) {
    const problems = [{ argument, reason }, ...more];
    super(
      `getContacts: ${problems.map((p) => `${p.argument}: ${p.reason}`).join("; ")}`,
      "DOMAINAPI_INVALID_ARGUMENT",
    );
    this.argument = argument;
    this.reason = reason;
    this.problems = problems;
  }
}

/** How a value is named in a message: a string quoted, anything else by its kind. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? "invalid Date" : `the Date ${value.toISOString()}`;
  }
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/** A zod `error` option: `<what>; got <the value>`. */
function got(what: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => `${what}; got ${describe(issue.input)}` };
}

/**
 * A union of `options` whose message is the one of the option that matched the type but not the
 * rules (zod would otherwise say only that no option matched), else `<forms>; got <the value>`.
 */
function either<const T extends readonly [z.ZodType, z.ZodType]>(options: T, forms: string) {
  return z.union(options, {
    error: (issue) => {
      if (issue.code === "invalid_union") {
        const near = issue.errors.flat().find((inner) => inner.code !== "invalid_type");
        if (near !== undefined) return near.message;
      }
      return `${forms}; got ${describe(issue.input)}`;
    },
  });
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
  // toISOString writes one fraction of a second, at its end.
  return d.toISOString().replace(/\.\d{3}Z/, "Z");
}

// ---------------------------------------------------------------------------------------------
// The value schemas. Each one checks an argument and gives its query value(s); its messages say
// what is wrong and how to write it instead.

const searchValue = z
  .string(got("must be a string search value"))
  .min(1, { error: "is an empty string; leave it out to match every contact" });

const countryCode = searchValue
  .regex(/^[A-Za-z]{2}$/, got('must be a two-letter ISO 3166-1 country code such as "NL" or "us"'))
  .transform((code) => code.toUpperCase());

const statusList = z
  .array(
    z.enum(CONTACT_STATUSES, {
      error: (issue) => `unknown status ${describe(issue.input)}; use any of ${CONTACT_STATUSES.join(", ")}`,
    }),
    {
      error: (issue) =>
        `must be a list of statuses; ${
          typeof issue.input === "string"
            ? `write status: [${JSON.stringify(issue.input)}]`
            : 'e.g. status: ["ok"]'
        }`,
    },
  )
  .transform((statuses): string[] => statuses);

/** The comparison of a value whose pattern admits one only at its start. */
const COMPARISON = /(?:>=|<=|>|<)/;

const CONNECTIONS_FORMS =
  'must be a whole number such as 5, or a comparison such as ">5", ">=5", "<5" or "<=5"';
const connectionsForms = got(CONNECTIONS_FORMS);
const connectionsValue = either(
  [
    z.number(connectionsForms).int(connectionsForms).nonnegative(connectionsForms).transform(String),
    z.string(connectionsForms).regex(/^(?:>=|<=|>|<)?\d+$/, connectionsForms),
  ],
  CONNECTIONS_FORMS,
);

const DATETIME_FORMS =
  'must be a Date or a UTC datetime "YYYY-MM-DDThh:mm:ssZ" with an optional leading >, <, >= or <=, ' +
  'e.g. ">=2024-01-31T00:00:00Z"';
const dateTimeForms = got(DATETIME_FORMS);
/** zod's ISO datetime at whole seconds, UTC only: it also knows month lengths and leap years. */
// Stryker disable next-line ObjectLiteral: the pattern checked first admits no fraction of a second
const utcSeconds = z.iso.datetime({ precision: 0 });
const dateTimeValue = either(
  [
    z
      .date(dateTimeForms)
      .min(new Date("0000-01-01T00:00:00Z"), got("must be a Date from the year 0000 on"))
      .max(new Date("9999-12-31T23:59:59.999Z"), got("must be a Date up to the year 9999"))
      .transform(formatDateTime),
    z
      .string(dateTimeForms)
      // Stryker disable next-line BooleanLiteral: a refinement's issue would come second, and only an argument's first is told
      .regex(/^(?:>=|<=|>|<)?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, { ...dateTimeForms, abort: true })
      .refine((text) => utcSeconds.safeParse(text.replace(COMPARISON, "")).success, {
        // Feb 30 or hour 24 would be rolled over by Date; it is not a date the user meant.
        error: (issue) => `${describe(issue.input)} is not a real date and time`,
      }),
  ],
  DATETIME_FORMS,
);

const booleanValue = z.boolean(got("must be true or false")).transform(String);

/** A whole number in a range; the message names the range. */
function wholeNumber(min: number, max?: number) {
  const range = max === undefined ? `${min} or more` : `from ${min} to ${max}`;
  const notWhole = got(`must be a whole number ${range}`);
  const outside = { error: (issue: { input?: unknown }) => `must be ${range}; got ${String(issue.input)}` };
  const atLeast = z.number(notWhole).int(notWhole).min(min, outside);
  return max === undefined ? atLeast : atLeast.max(max, outside);
}

// ---------------------------------------------------------------------------------------------
// The table.

interface Row {
  readonly schema: z.ZodType;
  /**
   * What the argument does, for the SDKs' docs (the schema's function spec is generated from
   * {@link ContactsArgsSchema}); the values of an enum and a number's range are added from the schema.
   */
  readonly description: string;
  /** Query parameter the value goes out as; absent for arguments getContacts handles itself. */
  readonly parameter?: string;
  /** Whether `sort` may name this field. */
  readonly sortable?: boolean;
}

const sortForm = `e.g. sort: "-connections,name" or ["-connections", "name"]`;

const sortValue = either(
  [z.string(), z.array(z.unknown())],
  `must be a string or a list of strings, ${sortForm}`,
).transform((value, ctx) => {
  const fail = (message: string) => {
    ctx.issues.push({ code: "custom", message, input: value });
    return z.NEVER;
  };
  const items = typeof value === "string" ? [value] : value;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of items.flatMap((i) => (typeof i === "string" ? i.split(",") : [i]))) {
    if (typeof item !== "string") {
      return fail(`every sort field must be a string, ${sortForm}; got ${describe(item)}`);
    }
    const descending = item.startsWith("-");
    const name = descending ? item.slice(1) : item;
    if (name === "") return fail(`holds an empty field name (a stray "," or "-"), ${sortForm}`);
    const field = SORT_FIELDS.get(name);
    if (field === undefined) {
      const fields = [...new Set(SORT_FIELDS.values())].join(", ");
      return fail(
        `unknown sort field ${JSON.stringify(name)}; sort by any of ${fields} (or their camelCase forms), ` +
          `with a leading "-" for descending`,
      );
    }
    if (seen.has(field)) return fail(`sorts by ${field} twice; keep one`);
    seen.add(field);
    out.push(descending ? `-${field}` : field);
  }
  return out.join(",");
});

const filter = <S extends z.ZodType>(parameter: string, schema: S, description: string) =>
  ({ parameter, schema, description, sortable: true }) as const;

/**
 * Every argument, in the order the spec lists the query parameters: its schema, the query
 * parameter it goes out as (none: not sent, or sent by getContacts per page), and whether the API
 * sorts by that field.
 */
const ARGUMENTS = {
  handle: filter("handle", searchValue, "Handle filter."),
  companyName: filter("company_name", searchValue, "Company name filter."),
  name: filter("name", searchValue, "Name filter."),
  address1: filter("address_1", searchValue, "First address line filter."),
  address2: filter("address_2", searchValue, "Second address line filter."),
  postalCode: filter("postal_code", searchValue, "Postal code filter."),
  city: filter("city", searchValue, "City filter."),
  state: filter("state", searchValue, "State filter."),
  country: filter("country", countryCode, "Two-letter ISO 3166-1 code, any case (sent upper-cased)."),
  phone: filter("phone", searchValue, "Telephone number in e164a format."),
  email: filter("email", searchValue, "E-mail filter, e.g. `%@example.com`."),
  // Not sortable: a contact can hold several statuses, and a list has no order.
  status: {
    parameter: "status",
    schema: statusList,
    description: "Contacts holding any of these statuses.",
    sortable: false,
  },
  connections: filter(
    "connections",
    connectionsValue,
    "A count (`5`) or a comparison (`>5`, `>=5`, `<5`, `<=5`).",
  ),
  dateCreated: filter(
    "date_created",
    dateTimeValue,
    "`YYYY-MM-DDThh:mm:ssZ` with an optional leading `>`, `<`, `>=` or `<=`.",
  ),
  dateLastUpdated: filter("date_last_updated", dateTimeValue, "Same forms as `dateCreated`."),
  autoDelete: filter("auto_delete", booleanValue, "Auto-delete filter."),
  reference: filter("reference", searchValue, "Reference filter."),
  sort: {
    parameter: "sort",
    schema: sortValue,
    description: "`-connections,name`: fields separated by commas; a leading `-` sorts descending.",
  },
  page: { schema: wholeNumber(1), description: "Fetch this page alone, in the API's page size." },
  perPage: {
    schema: wholeNumber(1, 100),
    description: "Results per page asked for (the service's default is 50); the API may serve fewer.",
  },
  limit: { schema: wholeNumber(1), description: "Most contacts to return in all. Not sent." },
  concurrency: { schema: wholeNumber(1, 16), description: "Most page requests in flight at once. Not sent." },
} as const satisfies Record<keyof GetContactsArgs, Row>;

type ArgumentName = keyof typeof ARGUMENTS;

/** Sortable fields by every name they may be given: snake_case (the API's) and camelCase. */
const SORT_FIELDS: ReadonlyMap<string, string> = new Map(
  Object.entries(ARGUMENTS).flatMap(([argument, row]: [string, Row]) =>
    row.sortable && row.parameter !== undefined
      ? [
          [row.parameter, row.parameter],
          [argument, row.parameter],
        ]
      : [],
  ),
);

/**
 * The arguments of `getContacts`, every one optional and described: what `parseContactsArgs`
 * checks with, and what the plugin's function spec (`domainapi:index:getContacts`) is generated
 * from, so the SDKs take the arguments this checks. A program gives its input form; a union that
 * takes text (a count or a comparison, a Date or a datetime, a list or a comma-separated sort) is
 * text in the SDKs.
 */
export const ContactsArgsSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(ARGUMENTS).map(([argument, row]: [string, Row]) => [
      argument,
      row.schema.optional().describe(row.description),
    ]),
  ) as {
    [K in ArgumentName]: z.ZodOptional<(typeof ARGUMENTS)[K]["schema"]>;
  },
);

// The interface above documents the arguments; the table checks them. They must not drift apart:
// the same names, and every documented value accepted by the schema's input type. (The schema's
// input is wider where it checks item by item, as for sort, to name the item at fault.)
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameNames: Same<keyof z.input<typeof ContactsArgsSchema>, keyof GetContactsArgs> = true;
const documentedValuesFit = (args: Required<GetContactsArgs>): z.input<typeof ContactsArgsSchema> => args;
void sameNames;
void documentedValuesFit;

/** `company_name` -> `companyName`, `address_1` -> `address1`: the argument a snake_case key meant. */
function camelCaseOf(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * One issue as the argument it names and the reason, with the fix. `args` are the arguments as
 * given: zod's issues leave out the value they are about.
 */
function problemOf(issue: z.core.$ZodIssue, args: unknown): Array<{ argument: string; reason: string }> {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const meant = camelCaseOf(String(key));
      const hint = Object.hasOwn(ARGUMENTS, meant)
        ? `did you mean ${meant}? (arguments are camelCase)`
        : `known arguments are ${Object.keys(ARGUMENTS).join(", ")}`;
      return { argument: String(key), reason: `unknown argument; ${hint}` };
    });
  }
  if (issue.path.length === 0) {
    return [
      {
        argument: "args",
        reason: `must be an object of filters, e.g. { country: "NL" }; got ${describe(args)}`,
      },
    ];
  }
  const argument = issue.path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join("");
  return [{ argument, reason: issue.message }];
}

/** Every issue, misspelt arguments first (the likeliest cause of the others), one per argument path. */
function toError(issues: readonly z.core.$ZodIssue[], args: unknown): InvalidArgumentError {
  const ordered = [
    ...issues.filter((issue) => issue.code === "unrecognized_keys"),
    ...issues.filter((issue) => issue.code !== "unrecognized_keys"),
  ];
  const seen = new Set<string>();
  const problems = ordered
    .flatMap((issue) => problemOf(issue, args))
    .filter((p) => !seen.has(p.argument) && seen.add(p.argument));
  const [first, ...more] = problems as [
    { argument: string; reason: string },
    ...{ argument: string; reason: string }[],
  ];
  return new InvalidArgumentError(first.argument, first.reason, more);
}

/**
 * The checked arguments of one `getContacts` call: the filters in query form, and the paging
 * settings that `getContacts` applies itself.
 */
export interface ContactsRequest {
  /** Query parameters and values of the filters and sort, in the spec's order; no paging. */
  readonly filters: ReadonlyArray<readonly [parameter: string, value: string]>;
  /** The one page asked for, if any. */
  readonly page?: number;
  /** The page size asked for, if any. */
  readonly perPage?: number;
  /** Most contacts to return, if given. */
  readonly limit?: number;
  /** Most page requests in flight, if given. */
  readonly concurrency?: number;
}

/**
 * Checks every `getContacts` argument and puts it in query form. `undefined` (and an argument set
 * to `undefined`) means not given.
 *
 * @throws InvalidArgumentError naming every argument that is wrong (misspelt arguments before the
 *   others): an unknown argument, an unknown sort field or status, a country that is not two
 *   letters, a malformed comparison, number or datetime, `page < 1`, `perPage` outside 1-100,
 *   `limit < 1`, `concurrency` outside 1-16, or a number that is not whole
 * @example
 * parseContactsArgs({ perPage: 500 }); // throws "getContacts: perPage: must be from 1 to 100; got 500"
 * parseContactsArgs({ country: "nl", limit: 5 }); // { filters: [["country", "NL"]], limit: 5 }
 */
export function parseContactsArgs(args: GetContactsArgs | undefined): ContactsRequest {
  const parsed = ContactsArgsSchema.safeParse(args ?? {});
  if (!parsed.success) throw toError(parsed.error.issues, args);
  const values: Partial<Record<ArgumentName, unknown>> = parsed.data;
  const filters: Array<[string, string]> = [];
  for (const [argument, row] of Object.entries(ARGUMENTS) as Array<[ArgumentName, Row]>) {
    const value = values[argument];
    if (row.parameter === undefined || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) filters.push([row.parameter, String(item)]);
  }
  const { page, perPage, limit, concurrency } = parsed.data;
  return { filters, page, perPage, limit, concurrency };
}

/**
 * The query of one `GET /v2/contacts` request: the filters, then `page` and `per_page` (each sent
 * only when given; by default those of the request). `limit` and `concurrency` are never sent.
 *
 * @example
 * contactsQuery(parseContactsArgs({ connections: ">5", status: ["ok", "pending_update"] }), 2, 100).toString();
 * // "status=ok&status=pending_update&connections=%3E5&page=2&per_page=100"
 */
export function contactsQuery(
  request: ContactsRequest,
  page: number | undefined = request.page,
  perPage: number | undefined = request.perPage,
): URLSearchParams {
  const query = new URLSearchParams(
    request.filters.map(([parameter, value]): [string, string] => [parameter, value]),
  );
  if (page !== undefined) query.append("page", String(page));
  if (perPage !== undefined) query.append("per_page", String(perPage));
  return query;
}
