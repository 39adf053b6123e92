import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTACT_STATUSES } from "../../../provider/client/wire";
import {
  contactsQuery,
  formatDateTime,
  type GetContactsArgs,
  InvalidArgumentError,
  parseContactsArgs,
} from "../../../provider/contacts/query";

/** The query of a request with these arguments (page and per_page as given, or as the arguments say). */
function buildContactsQuery(
  args: GetContactsArgs | undefined,
  page?: number,
  perPage?: number,
): URLSearchParams {
  return contactsQuery(parseContactsArgs(args), page, perPage);
}

/** Runs `fn` and returns the InvalidArgumentError it throws. */
function invalid(fn: () => unknown): InvalidArgumentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error("expected an InvalidArgumentError, nothing was thrown");
}

function rejects(args: unknown): InvalidArgumentError {
  return invalid(() => parseContactsArgs(args as GetContactsArgs));
}

describe("buildContactsQuery", () => {
  it("sends nothing for no arguments", () => {
    expect(buildContactsQuery(undefined).toString()).toBe("");
    expect(buildContactsQuery({}).toString()).toBe("");
  });

  it("passes comparison signs and wildcards through verbatim, encoded by URLSearchParams", () => {
    expect(buildContactsQuery({ connections: ">5" }).toString()).toBe("connections=%3E5");
    expect(buildContactsQuery({ email: "%@example.com" }).toString()).toBe("email=%25%40example.com");
    expect(buildContactsQuery({ name: "Jan & Piet=1+2" }).toString()).toBe("name=Jan+%26+Piet%3D1%2B2");
  });

  it("sends every filter snake_case in the spec's order, whatever the argument order", () => {
    const query = buildContactsQuery({
      concurrency: 4,
      limit: 10,
      perPage: 25,
      page: 3,
      sort: ["-connections", "companyName"],
      reference: "ref-1",
      autoDelete: false,
      dateLastUpdated: "<2024-02-01T00:00:00Z",
      dateCreated: new Date(Date.UTC(2024, 0, 31, 23, 59, 58, 999)),
      connections: 2,
      status: ["ok", "pending_update"],
      email: "a@b.c",
      phone: "+31.201234567",
      country: "nl",
      state: "NH",
      city: "Amsterdam",
      postalCode: "1011AB",
      address2: "2nd floor",
      address1: "Dam 1",
      name: "Jan",
      companyName: "ACME",
      handle: "JAN-1",
    } as GetContactsArgs);
    expect([...query.entries()]).toEqual([
      ["handle", "JAN-1"],
      ["company_name", "ACME"],
      ["name", "Jan"],
      ["address_1", "Dam 1"],
      ["address_2", "2nd floor"],
      ["postal_code", "1011AB"],
      ["city", "Amsterdam"],
      ["state", "NH"],
      ["country", "NL"],
      ["phone", "+31.201234567"],
      ["email", "a@b.c"],
      ["status", "ok"],
      ["status", "pending_update"],
      ["connections", "2"],
      ["date_created", "2024-01-31T23:59:58Z"],
      ["date_last_updated", "<2024-02-01T00:00:00Z"],
      ["auto_delete", "false"],
      ["reference", "ref-1"],
      ["sort", "-connections,company_name"],
      ["page", "3"],
      ["per_page", "25"],
    ]);
  });

  it("lets explicit page and perPage win over the arguments", () => {
    expect(buildContactsQuery({ page: 1, perPage: 10 }, 4, 100).toString()).toBe("page=4&per_page=100");
    expect(buildContactsQuery({ page: 2 }, undefined, 50).toString()).toBe("page=2&per_page=50");
    // getContacts pages by the size the API answered with, which the arguments' range does not bind.
    expect(buildContactsQuery({ perPage: 50 }, 3, 250).toString()).toBe("page=3&per_page=250");
  });

  it("accepts the sort as one string, snake_case or camelCase, and sends snake_case", () => {
    expect(buildContactsQuery({ sort: "-connections,name" }).get("sort")).toBe("-connections,name");
    expect(buildContactsQuery({ sort: "dateLastUpdated,-address_1" }).get("sort")).toBe(
      "date_last_updated,-address_1",
    );
    expect(buildContactsQuery({ sort: ["autoDelete"] }).get("sort")).toBe("auto_delete");
  });

  it("treats an argument set to undefined as not given", () => {
    expect(buildContactsQuery({ name: undefined, page: undefined }).toString()).toBe("");
  });

  it("sends true as true", () => {
    expect(buildContactsQuery({ autoDelete: true }).toString()).toBe("auto_delete=true");
  });
});

describe("parseContactsArgs: what it refuses", () => {
  it("names unknown arguments and suggests the camelCase spelling", () => {
    expect(rejects({ company_name: "x" }).message).toBe(
      "getContacts: company_name: unknown argument; did you mean companyName? (arguments are camelCase)",
    );
    expect(rejects({ address_1: "x" }).message).toMatch(/did you mean address1\?/);
    const error = rejects({ colour: "red" });
    expect(error.argument).toBe("colour");
    expect(error.reason).toMatch(/^unknown argument; known arguments are handle, companyName, name, /);
  });

  it("refuses unknown and repeated sort fields and empty entries", () => {
    expect(rejects({ sort: "-size" }).message).toMatch(
      /^getContacts: sort: unknown sort field "size"; sort by any of handle, company_name, .* \(or their camelCase forms\), with a leading "-" for descending$/,
    );
    expect(rejects({ sort: "-status" }).reason).toMatch(/^unknown sort field "status"/);
    expect(rejects({ sort: "name,-name" }).reason).toBe("sorts by name twice; keep one");
    expect(rejects({ sort: "name," }).reason).toMatch(/^holds an empty field name/);
    expect(rejects({ sort: ["-"] }).reason).toMatch(/^holds an empty field name/);
    expect(rejects({ sort: 5 }).reason).toMatch(/^must be a string or a list of strings/);
    expect(rejects({ sort: ["name", 5] }).reason).toMatch(/^every sort field must be a string/);
  });

  it("refuses a country that is not two letters, and accepts any case", () => {
    expect(rejects({ country: "NLD" }).message).toBe(
      'getContacts: country: must be a two-letter ISO 3166-1 country code such as "NL" or "us"; got "NLD"',
    );
    expect(rejects({ country: "N1" }).argument).toBe("country");
    expect(buildContactsQuery({ country: "De" }).get("country")).toBe("DE");
  });

  it("refuses malformed connections", () => {
    for (const connections of ["=>5", ">", "5.5", "> 5", "!=5", -1, 1.5, true]) {
      expect(rejects({ connections }).message).toMatch(
        /^getContacts: connections: must be a whole number such as 5, or a comparison such as ">5", ">=5", "<5" or "<=5"; got /,
      );
    }
    expect(rejects({ connections: -1 }).reason).toMatch(/; got number -1$/);
    expect(rejects({ connections: "=>5" }).reason).toMatch(/; got "=>5"$/);
    expect(rejects({ connections: true }).reason).toMatch(/; got boolean true$/);
    for (const connections of ["5", ">5", ">=5", "<5", "<=10", 0]) {
      expect(() => parseContactsArgs({ connections })).not.toThrow();
    }
  });

  it("refuses malformed and impossible datetimes", () => {
    for (const dateCreated of [
      "2024-01-31",
      "2024-01-31T00:00:00.000Z",
      "2024-01-31T00:00:00+01:00",
      "=2024-01-31T00:00:00Z",
      5,
    ]) {
      expect(rejects({ dateCreated }).message).toMatch(
        /^getContacts: dateCreated: must be a Date or a UTC datetime "YYYY-MM-DDThh:mm:ssZ" with an optional leading >, <, >= or <=, e.g. ">=2024-01-31T00:00:00Z"; got /,
      );
    }
    expect(rejects({ dateLastUpdated: "2024-02-30T00:00:00Z" }).message).toBe(
      'getContacts: dateLastUpdated: "2024-02-30T00:00:00Z" is not a real date and time',
    );
    expect(rejects({ dateCreated: "2024-01-01T24:00:00Z" }).argument).toBe("dateCreated");
    expect(rejects({ dateCreated: new Date(Number.NaN) }).reason).toMatch(/got invalid Date$/);
    expect(() => parseContactsArgs({ dateCreated: ">=2024-02-29T23:59:59Z" })).not.toThrow();
    expect(rejects({ dateCreated: new Date(Date.UTC(10_000, 0, 1)) }).message).toBe(
      "getContacts: dateCreated: must be a Date up to the year 9999; got the Date +010000-01-01T00:00:00.000Z",
    );
    expect(rejects({ dateCreated: "2023-02-29T00:00:00Z" }).reason).toBe(
      '"2023-02-29T00:00:00Z" is not a real date and time',
    );
    expect(rejects({ dateCreated: "<=2024-04-31T00:00:00Z" }).reason).toMatch(/is not a real date and time$/);
    expect(parseContactsArgs({ dateCreated: "<=2000-02-29T00:00:00Z" }).filters).toEqual([
      ["date_created", "<=2000-02-29T00:00:00Z"],
    ]);
  });

  it("names a misspelt argument before any other fault, and the first fault otherwise", () => {
    expect(rejects({ perPage: 0, company_name: "x" }).argument).toBe("company_name");
    expect(rejects({ name: 5, perPage: 0 }).argument).toBe("name");
    expect(parseContactsArgs(null as unknown as GetContactsArgs).filters).toEqual([]);
  });

  it("refuses page, perPage, limit and concurrency out of range or not whole", () => {
    expect(rejects({ page: 0 }).message).toBe("getContacts: page: must be 1 or more; got 0");
    expect(rejects({ perPage: 101 }).message).toBe("getContacts: perPage: must be from 1 to 100; got 101");
    expect(rejects({ perPage: 0 }).argument).toBe("perPage");
    expect(rejects({ limit: 0 }).message).toBe("getContacts: limit: must be 1 or more; got 0");
    expect(rejects({ concurrency: 17 }).message).toBe(
      "getContacts: concurrency: must be from 1 to 16; got 17",
    );
    expect(rejects({ concurrency: 0 }).argument).toBe("concurrency");
    expect(rejects({ page: 1.5 }).message).toBe(
      "getContacts: page: must be a whole number 1 or more; got number 1.5",
    );
    expect(rejects({ limit: "10" }).message).toBe(
      'getContacts: limit: must be a whole number 1 or more; got "10"',
    );
  });

  it("refuses unknown statuses, naming the element", () => {
    expect(rejects({ status: ["ok", "deleted"] }).message).toBe(
      'getContacts: status[1]: unknown status "deleted"; use any of ok, pending_update, pending_validation',
    );
    expect(rejects({ status: "ok" }).message).toBe(
      'getContacts: status: must be a list of statuses; write status: ["ok"]',
    );
  });

  it("refuses wrong types and empty search values", () => {
    expect(rejects({ name: 5 }).message).toBe(
      "getContacts: name: must be a string search value; got number 5",
    );
    expect(rejects({ email: "" }).message).toBe(
      "getContacts: email: is an empty string; leave it out to match every contact",
    );
    expect(rejects({ autoDelete: "yes" }).message).toBe(
      'getContacts: autoDelete: must be true or false; got "yes"',
    );
    expect(rejects([]).message).toMatch(/^getContacts: args: must be an object of filters/);
  });

  it("is an Error with argument and reason", () => {
    const error = new InvalidArgumentError("perPage", "must be from 1 to 100; got 500");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("InvalidArgumentError");
    expect(error.message).toBe("getContacts: perPage: must be from 1 to 100; got 500");
    expect([error.argument, error.reason]).toEqual(["perPage", "must be from 1 to 100; got 500"]);
  });
});

describe("formatDateTime", () => {
  it("writes UTC without fractional seconds", () => {
    expect(formatDateTime(new Date(Date.UTC(2024, 0, 31, 12, 5, 9, 750)))).toBe("2024-01-31T12:05:09Z");
    expect(formatDateTime(new Date("2024-06-01T02:00:00+02:00"))).toBe("2024-06-01T00:00:00Z");
  });

  it("refuses dates it cannot write", () => {
    expect(() => formatDateTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatDateTime(new Date(Date.UTC(10_000, 0, 1)))).toThrow(
      "the year 10000 cannot be written as YYYY",
    );
  });
});

describe("buildContactsQuery: properties", () => {
  const searchValue = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" });
  const comparison = fc.constantFrom("", ">", "<", ">=", "<=");
  const dateArb = fc.date({
    min: new Date(Date.UTC(1970, 0, 1)),
    max: new Date(Date.UTC(2100, 0, 1)),
    noInvalidDate: true,
  });

  it("round-trips through URLSearchParams parsing", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            handle: searchValue,
            name: searchValue,
            email: searchValue,
            city: searchValue,
            country: fc.stringMatching(/^[A-Za-z]{2}$/),
            status: fc.subarray([...CONTACT_STATUSES]),
            connections: fc.oneof(
              fc.nat(),
              fc.tuple(comparison, fc.nat()).map(([op, n]) => `${op}${n}`),
            ),
            dateCreated: fc.oneof(
              dateArb,
              fc.tuple(comparison, dateArb).map(([op, d]) => `${op}${formatDateTime(d)}`),
            ),
            autoDelete: fc.boolean(),
            page: fc.integer({ min: 1, max: 1000 }),
            perPage: fc.integer({ min: 1, max: 100 }),
          },
          { requiredKeys: [] },
        ),
        (args) => {
          const parsed = new URLSearchParams(buildContactsQuery(args).toString());
          const expected: Array<[string, string]> = [];
          if (args.handle !== undefined) expected.push(["handle", args.handle]);
          if (args.name !== undefined) expected.push(["name", args.name]);
          if (args.city !== undefined) expected.push(["city", args.city]);
          if (args.country !== undefined) expected.push(["country", args.country.toUpperCase()]);
          if (args.email !== undefined) expected.push(["email", args.email]);
          for (const s of args.status ?? []) expected.push(["status", s]);
          if (args.connections !== undefined) expected.push(["connections", String(args.connections)]);
          if (args.dateCreated !== undefined) {
            const d = args.dateCreated;
            expected.push(["date_created", d instanceof Date ? formatDateTime(d) : d]);
          }
          if (args.autoDelete !== undefined) expected.push(["auto_delete", String(args.autoDelete)]);
          if (args.page !== undefined) expected.push(["page", String(args.page)]);
          if (args.perPage !== undefined) expected.push(["per_page", String(args.perPage)]);
          const order = [
            "handle",
            "name",
            "city",
            "country",
            "email",
            "status",
            "connections",
            "date_created",
            "auto_delete",
            "page",
            "per_page",
          ];
          const sortByParam = (entries: Array<[string, string]>) =>
            entries
              .map((e, i) => ({ e, i }))
              .sort((a, b) => order.indexOf(a.e[0]) - order.indexOf(b.e[0]) || a.i - b.i)
              .map((x) => x.e);
          expect([...parsed.entries()]).toEqual(sortByParam(expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("formats every date so that it parses back to the same second", () => {
    fc.assert(
      fc.property(dateArb, (d) => {
        const text = formatDateTime(d);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(new Date(text).getTime()).toBe(Math.floor(d.getTime() / 1000) * 1000);
      }),
    );
  });
});
