/**
 * The response schemas read what other APIs send where the spec says "not shown" or its samples
 * differ: record ids as numbers, contact fields as null.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ContactSchema, describeIssues, RecordIdsResponseSchema } from "../../../provider/client/wire";

describe("record ids", () => {
  test("strings and whole numbers are read as strings, in order", () => {
    expect(RecordIdsResponseSchema.parse({ record_id: ["a1", 101, "0", 0] })).toEqual({
      record_id: ["a1", "101", "0", "0"],
    });
  });

  test.each([
    [[true], "record_id[0]: expected string (or a whole number)"],
    [[{ id: 1 }], "record_id[0]: expected string (or a whole number)"],
    [["ok", 1.5], "record_id[1]"],
    [[-1], "record_id[0]"],
    [[2 ** 60], "record_id[0]"],
    [[""], "record_id[0]"],
  ])("%j is refused, naming the element", (ids, problem) => {
    const result = RecordIdsResponseSchema.safeParse({ record_id: ids });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error)).toContain(problem);
  });

  test("any safe whole number reads as its decimal string", () => {
    fc.assert(
      fc.property(fc.array(fc.maxSafeNat(), { maxLength: 5 }), (ids) => {
        expect(RecordIdsResponseSchema.parse({ record_id: ids }).record_id).toEqual(ids.map(String));
      }),
    );
  });
});

describe("contacts with null fields", () => {
  const FULL = {
    handle: "H1",
    company_name: "Acme",
    name: "Ada",
    address_1: "1 Road",
    address_2: "",
    postal_code: "1000",
    city: "Town",
    state: "",
    country: "NL",
    phone: "+31.201234567",
    email: "ada@example.com",
    status: ["ok"],
    connections: 3,
    date_created: "2026-01-01T00:00:00Z",
    date_last_updated: "2026-01-02T00:00:00Z",
    auto_delete: false,
    reference: "ref",
  };
  const NULLABLE = Object.keys(FULL).filter((k) => k !== "handle") as Array<keyof typeof FULL>;

  test("any set of fields but the handle sent as null reads as those fields absent, the rest intact", () => {
    fc.assert(
      fc.property(fc.subarray(NULLABLE), (nulled) => {
        const wire: Record<string, unknown> = { ...FULL };
        for (const key of nulled) wire[key] = null;
        const contact = ContactSchema.parse(wire);
        const all = ContactSchema.parse(FULL);
        for (const [key, value] of Object.entries(contact)) {
          expect(value).not.toBeNull();
          if (value !== undefined) expect(value).toEqual(all[key as keyof typeof all]);
        }
        const present = Object.values(contact).filter((v) => v !== undefined).length;
        expect(present).toBe(NULLABLE.length + 1 - nulled.length);
      }),
    );
  });

  test("a null handle is still an error: a contact without its identifier cannot be used", () => {
    const result = ContactSchema.safeParse({ ...FULL, handle: null });
    expect(result.success).toBe(false);
  });
});
