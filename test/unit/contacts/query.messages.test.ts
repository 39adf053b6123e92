/**
 * What getContacts says about arguments it cannot use (provider/contacts/query.ts), beyond the
 * common cases of query.test.ts: how each kind of wrong value is named, several faults in one
 * message, one fault per argument, and the edges of the datetime and year forms (the API's
 * `YYYY-MM-DDThh:mm:ssZ`, ISO 8601 at whole seconds in UTC).
 */
import { describe, expect, it } from "vitest";
import {
  formatDateTime,
  type GetContactsArgs,
  InvalidArgumentError,
  parseContactsArgs,
} from "../../../provider/contacts/query";

function rejects(args: unknown): InvalidArgumentError {
  try {
    parseContactsArgs(args as GetContactsArgs);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error("expected an InvalidArgumentError, nothing was thrown");
}

const DATETIME_FORMS =
  'must be a Date or a UTC datetime "YYYY-MM-DDThh:mm:ssZ" with an optional leading >, <, >= or <=, ' +
  'e.g. ">=2024-01-31T00:00:00Z"';

describe("a wrong value is named by what it is", () => {
  it("null, a list, an object, a number, a boolean, a string, a Date", () => {
    expect(rejects({ name: null }).reason).toBe("must be a string search value; got null");
    expect(rejects({ name: ["Jan"] }).reason).toBe("must be a string search value; got a list");
    expect(rejects({ name: { like: "Jan" } }).reason).toBe("must be a string search value; got an object");
    expect(rejects({ city: 12 }).reason).toBe("must be a string search value; got number 12");
    expect(rejects({ city: false }).reason).toBe("must be a string search value; got boolean false");
    expect(rejects({ autoDelete: "true" }).reason).toBe('must be true or false; got "true"');
    expect(rejects({ autoDelete: new Date(Date.UTC(2024, 0, 31)) }).reason).toBe(
      "must be true or false; got the Date 2024-01-31T00:00:00.000Z",
    );
  });

  it("the arguments themselves when they are not an object", () => {
    expect(rejects(["NL"]).message).toBe(
      'getContacts: args: must be an object of filters, e.g. { country: "NL" }; got a list',
    );
    expect(rejects("NL").message).toBe(
      'getContacts: args: must be an object of filters, e.g. { country: "NL" }; got "NL"',
    );
  });

  it("a status that is neither a list nor a string is shown the list form", () => {
    expect(rejects({ status: 5 }).message).toBe(
      'getContacts: status: must be a list of statuses; e.g. status: ["ok"]',
    );
    expect(rejects({ status: [5] }).reason).toBe(
      "unknown status number 5; use any of ok, pending_update, pending_validation",
    );
  });

  it("a sort field that is not a string is named, with the forms", () => {
    expect(rejects({ sort: ["name", null] }).reason).toBe(
      'every sort field must be a string, e.g. sort: "-connections,name" or ["-connections", "name"]; got null',
    );
    expect(rejects({ sort: "name,,city" }).reason).toBe(
      'holds an empty field name (a stray "," or "-"), e.g. sort: "-connections,name" or ["-connections", "name"]',
    );
    expect(rejects({ sort: { by: "name" } }).reason).toBe(
      'must be a string or a list of strings, e.g. sort: "-connections,name" or ["-connections", "name"]; got an object',
    );
  });

  it("a snake_case name of several words is told its camelCase form", () => {
    expect(rejects({ date_last_updated: "2024-01-31T00:00:00Z" }).reason).toBe(
      "unknown argument; did you mean dateLastUpdated? (arguments are camelCase)",
    );
    expect(rejects({ auto_delete: true }).reason).toBe(
      "unknown argument; did you mean autoDelete? (arguments are camelCase)",
    );
  });
});

describe("several faults", () => {
  it("are all named in one message, in the order of the arguments' table", () => {
    const error = rejects({ perPage: 0, name: 5, country: "NLD", colour: "red" });
    expect(error.problems.map((p) => p.argument)).toEqual(["colour", "name", "country", "perPage"]);
    expect(error.argument).toBe("colour");
    expect(error.message).toBe(
      "getContacts: colour: unknown argument; known arguments are handle, companyName, name, address1, " +
        "address2, postalCode, city, state, country, phone, email, status, connections, dateCreated, " +
        "dateLastUpdated, autoDelete, reference, sort, page, perPage, limit, concurrency; " +
        "name: must be a string search value; got number 5; " +
        'country: must be a two-letter ISO 3166-1 country code such as "NL" or "us"; got "NLD"; ' +
        "perPage: must be from 1 to 100; got 0",
    );
  });

  it("one argument wrong in two ways is named once, for the first", () => {
    const error = rejects({ perPage: 0.5 });
    expect(error.problems).toEqual([
      { argument: "perPage", reason: "must be a whole number from 1 to 100; got number 0.5" },
    ]);
    expect(rejects({ status: ["gone", "lost"] }).problems.map((p) => p.argument)).toEqual([
      "status[0]",
      "status[1]",
    ]);
  });
});

describe("the edges of the datetime form", () => {
  it("text before or after the datetime is refused as a malformed form, not as an impossible date", () => {
    for (const dateCreated of [
      "2024-01-31T00:00:00Z ",
      "on 2024-01-31T00:00:00Z",
      "2024-01-31T00:00:00ZZ",
      ">>2024-01-31T00:00:00Z",
      "2024-1-31T00:00:00Z",
    ]) {
      expect(rejects({ dateCreated }).reason, dateCreated).toBe(
        `${DATETIME_FORMS}; got ${JSON.stringify(dateCreated)}`,
      );
    }
  });

  it("every comparison sign is taken off before the date is checked", () => {
    for (const sign of [">", "<", ">=", "<="]) {
      expect(parseContactsArgs({ dateLastUpdated: `${sign}2024-02-29T12:00:00Z` }).filters).toEqual([
        ["date_last_updated", `${sign}2024-02-29T12:00:00Z`],
      ]);
      expect(rejects({ dateLastUpdated: `${sign}2023-02-29T12:00:00Z` }).reason).toBe(
        `"${sign}2023-02-29T12:00:00Z" is not a real date and time`,
      );
    }
  });

  it("a Date from the year 0000 to 9999 is written; one before is refused, saying so", () => {
    const first = new Date("0000-01-01T00:00:00Z");
    expect(parseContactsArgs({ dateCreated: first }).filters).toEqual([
      ["date_created", "0000-01-01T00:00:00Z"],
    ]);
    const last = new Date("9999-12-31T23:59:59.999Z");
    expect(parseContactsArgs({ dateCreated: last }).filters).toEqual([
      ["date_created", "9999-12-31T23:59:59Z"],
    ]);
    const before = new Date(first.getTime() - 1);
    expect(rejects({ dateCreated: before }).reason).toBe(
      "must be a Date from the year 0000 on; got the Date -000001-12-31T23:59:59.999Z",
    );
  });
});

describe("formatDateTime", () => {
  it("refuses a year before 0000 as it refuses one after 9999", () => {
    expect(() => formatDateTime(new Date(Date.UTC(-1, 0, 1)))).toThrow(
      new RangeError("the year -1 cannot be written as YYYY"),
    );
    expect(formatDateTime(new Date("0000-06-01T08:30:00.250Z"))).toBe("0000-06-01T08:30:00Z");
  });
});

describe("InvalidArgumentError", () => {
  it("is known by its brand across copies of the package", () => {
    const copy = Object.defineProperty(new Error("m"), Symbol.for("pulumi-domainapi.InvalidArgumentError"), {
      value: true,
    });
    expect(copy).toBeInstanceOf(InvalidArgumentError);
    expect(new Error("m")).not.toBeInstanceOf(InvalidArgumentError);
  });
});
