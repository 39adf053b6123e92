/**
 * The wire schemas as the spec and docs/design.md ("Wire format", "Reading responses") describe
 * them: what a request body may hold before it is sent, how liberally a contacts page is read
 * (`page` or `current_page`, `connections` as a number or a numeric string, absent fields), and
 * the message that names each field of a body that does not fit.
 */
import { describe, expect, test } from "vitest";
import {
  CONTACT_STATUSES,
  ContactListResponseSchema,
  ContactSchema,
  DelItemSchema,
  describeIssues,
  PatchRecordsBodySchema,
  PutRecordsBodySchema,
  RECORD_TYPES,
  UpdateItemSchema,
  URL_FORWARD_TYPES,
} from "../../../provider/client/wire";

/** The message for a value that does not fit, as an error names its fields. */
function problemOf(
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  value: unknown,
): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return describeIssues(result.error as Parameters<typeof describeIssues>[0]);
}

const PAGINATION = { current_page: 1, per_page: 50, total_pages: 1, total_results: 1 };

describe("record types (the spec's list)", () => {
  test("are the twelve the spec names, three of them URL forwards", () => {
    expect(RECORD_TYPES).toEqual([
      "A",
      "CNAME",
      "TXT",
      "MX",
      "SRV",
      "AAAA",
      "NS",
      "CAA",
      "TLSA",
      "URLFWD",
      "URLFWD301",
      "URLCLO",
    ]);
    expect([...URL_FORWARD_TYPES]).toEqual(["URLFWD", "URLFWD301", "URLCLO"]);
    expect(CONTACT_STATUSES).toEqual(["ok", "pending_update", "pending_validation"]);
  });
});

describe("request bodies (nothing is sent that the spec does not allow)", () => {
  test("a PUT record: a name, a listed type as one string, numbers 0 to 65535", () => {
    const ok = { name: "@", type: "SRV", content: "sip.example.net", priority: 0, weight: 65535, port: 5060 };
    expect(PutRecordsBodySchema.parse({ records: [ok] })).toEqual({ records: [ok] });
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, name: "" }] })).toMatch(
      /^records\[0\]\.name: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, type: ["SRV"] }] })).toMatch(
      /^records\[0\]\.type: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, type: "SPF" }] })).toMatch(
      /^records\[0\]\.type: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, port: 65536 }] })).toMatch(
      /^records\[0\]\.port: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, weight: -1 }] })).toMatch(
      /^records\[0\]\.weight: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, priority: 1.5 }] })).toMatch(
      /^records\[0\]\.priority: /,
    );
    expect(problemOf(PutRecordsBodySchema, { records: [{ ...ok, priority: null }] })).toMatch(
      /^records\[0\]\.priority: /,
    );
    // An empty PUT is a legal request: it empties the template.
    expect(PutRecordsBodySchema.parse({ records: [] })).toEqual({ records: [] });
  });

  test("a PATCH: arrays at the top level, each one absent or non-empty", () => {
    const add = [{ name: "www", type: "A", content: "192.0.2.1" }];
    expect(PatchRecordsBodySchema.parse({ add })).toEqual({ add });
    for (const field of ["add", "update", "del"])
      expect(problemOf(PatchRecordsBodySchema, { [field]: [] })).toMatch(new RegExp(`^${field}: `));
  });

  test("an update item carries no type (type is not a field of update) and names a record id", () => {
    expect(UpdateItemSchema.parse({ record_id: "r1", name: "@", content: "x", type: "A" })).toEqual({
      record_id: "r1",
      name: "@",
      content: "x",
    });
    expect(problemOf(UpdateItemSchema, { record_id: "", name: "@", content: "x" })).toMatch(/^record_id: /);
    expect(problemOf(UpdateItemSchema, { record_id: "r1", name: "", content: "x" })).toMatch(/^name: /);
    expect(problemOf(UpdateItemSchema, { record_id: "r1", name: "@", content: "x", port: 70000 })).toMatch(
      /^port: /,
    );
    expect(problemOf(DelItemSchema, { record_id: "" })).toMatch(/^record_id: /);
  });
});

describe("a contacts page, read liberally", () => {
  const contact = { handle: "H1" };

  test("the page number comes from current_page or page (the samples' name); current_page wins", () => {
    const read = (p: object) => ContactListResponseSchema.parse({ data: [], pagination: p }).pagination;
    expect(read({ per_page: 50, total_pages: 3, total_results: 120, page: 2 })).toEqual({
      currentPage: 2,
      perPage: 50,
      totalPages: 3,
      totalResults: 120,
    });
    expect(read({ ...PAGINATION, current_page: 3, page: 2 }).currentPage).toBe(3);
  });

  test("a page with neither, or a page of 0, is refused naming the field", () => {
    const { current_page: _, ...without } = PAGINATION;
    expect(problemOf(ContactListResponseSchema, { data: [], pagination: without })).toBe(
      "pagination.current_page: expected current_page or page",
    );
    expect(
      problemOf(ContactListResponseSchema, { data: [], pagination: { ...PAGINATION, current_page: 0 } }),
    ).toMatch(/^pagination\.current_page: /);
    expect(problemOf(ContactListResponseSchema, { data: [], pagination: { ...without, page: 0 } })).toMatch(
      /^pagination\.page: /,
    );
  });

  test("an empty listing has 0 pages and 0 results; per_page is at least 1", () => {
    const empty = { ...PAGINATION, total_pages: 0, total_results: 0 };
    expect(ContactListResponseSchema.parse({ data: [], pagination: empty }).pagination.totalPages).toBe(0);
    expect(
      problemOf(ContactListResponseSchema, { data: [], pagination: { ...PAGINATION, per_page: 0 } }),
    ).toMatch(/^pagination\.per_page: /);
    expect(
      problemOf(ContactListResponseSchema, { data: [], pagination: { ...PAGINATION, total_pages: -1 } }),
    ).toMatch(/^pagination\.total_pages: /);
    expect(
      problemOf(ContactListResponseSchema, { data: [], pagination: { ...PAGINATION, total_results: 1.5 } }),
    ).toMatch(/^pagination\.total_results: /);
  });

  test("connections: a whole number, or a string of digits read as one", () => {
    const connections = (value: unknown) =>
      ContactListResponseSchema.parse({ data: [{ ...contact, connections: value }], pagination: PAGINATION })
        .data[0]?.connections;
    expect(connections(5)).toBe(5);
    expect(connections("12")).toBe(12);
    expect(connections("007")).toBe(7);
    for (const bad of ["x", "-1", "1.5", "", " 3", "3 ", 1.5, true]) {
      expect(
        problemOf(ContactListResponseSchema, {
          data: [{ ...contact, connections: bad }],
          pagination: PAGINATION,
        }),
      ).toBe("data[0].connections: expected a non-negative integer or a numeric string");
    }
    expect(
      problemOf(ContactListResponseSchema, {
        data: [{ ...contact, connections: -1 }],
        pagination: PAGINATION,
      }),
    ).toMatch(/^data\[0\]\.connections: .*>=0/);
  });

  test("each field of the API's contact is exposed under its camelCase name; unknown fields are dropped", () => {
    expect(
      ContactSchema.parse({
        handle: "H1",
        company_name: "Acme",
        name: "Ada",
        address_1: "1 Road",
        address_2: "Floor 2",
        postal_code: "1000 AA",
        city: "Town",
        state: "NH",
        country: "NL",
        phone: "+31.201234567",
        email: "ada@example.com",
        status: ["ok", "pending_update"],
        connections: 3,
        date_created: "2026-01-01T00:00:00Z",
        date_last_updated: "2026-01-02T00:00:00Z",
        auto_delete: true,
        reference: "ref-1",
        surprise: "ignored",
      }),
    ).toStrictEqual({
      handle: "H1",
      companyName: "Acme",
      name: "Ada",
      address1: "1 Road",
      address2: "Floor 2",
      postalCode: "1000 AA",
      city: "Town",
      state: "NH",
      country: "NL",
      phone: "+31.201234567",
      email: "ada@example.com",
      status: ["ok", "pending_update"],
      connections: 3,
      dateCreated: "2026-01-01T00:00:00Z",
      dateLastUpdated: "2026-01-02T00:00:00Z",
      autoDelete: true,
      reference: "ref-1",
    });
  });

  test("a contact without a handle, or with an empty one, is refused naming it", () => {
    expect(problemOf(ContactListResponseSchema, { data: [{}], pagination: PAGINATION })).toMatch(
      /^data\[0\]\.handle: /,
    );
    expect(
      problemOf(ContactListResponseSchema, { data: [contact, { handle: "" }], pagination: PAGINATION }),
    ).toMatch(/^data\[1\]\.handle: /);
  });
});

describe("describeIssues", () => {
  test("names each field by its property path, the body itself as (body)", () => {
    expect(problemOf(ContactListResponseSchema, "not an object")).toMatch(/^\(body\): expected object/);
    expect(
      problemOf(ContactListResponseSchema, { data: [], pagination: { ...PAGINATION, per_page: "50" } }),
    ).toBe("pagination.per_page: expected number, received string");
  });

  test("lists five problems, then says how many more there are", () => {
    const data = Array.from({ length: 8 }, () => ({}));
    const message = problemOf(ContactListResponseSchema, { data, pagination: PAGINATION });
    expect(message).toBe(
      [0, 1, 2, 3, 4].map((i) => `data[${i}].handle: expected string, received undefined`).join("; ") +
        "; and 3 more",
    );
    const five = problemOf(ContactListResponseSchema, { data: data.slice(0, 5), pagination: PAGINATION });
    expect(five.split("; ")).toHaveLength(5);
    expect(five).not.toContain("more");
  });

  test("a smaller limit lists fewer", () => {
    const result = ContactListResponseSchema.safeParse({ data: [{}, {}, {}], pagination: PAGINATION });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(describeIssues(result.error, 1)).toBe(
        "data[0].handle: expected string, received undefined; and 2 more",
      );
  });
});
