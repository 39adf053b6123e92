import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalOrder,
  compareRecords,
  describeRecord,
  identityOf,
  normalizeRecord,
  numberFieldsOf,
  numbersOf,
  RECORD_MODEL,
  type RecordSpec,
  toUpdateItem,
  toWireRecord,
} from "../../../provider/dns/model";
import { validateRecords } from "../../../provider/dns/validate";
import { recordArb, recordsArb } from "../records/arbitraries";

const VALID: Record<"MX" | "SRV", RecordSpec> = {
  MX: { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  SRV: { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
};

/** Two records are the same record exactly when their identities are equal (ids aside). */
const sameRecord = (a: RecordSpec, b: RecordSpec): boolean => identityOf(a) === identityOf(b);

describe("model: order, equality and wire forms", () => {
  const a: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };

  it("orders by name, type, content, then numbers, absent numbers first", () => {
    const records: RecordSpec[] = [
      { name: "www", type: "TXT", content: "a" },
      { name: "@", type: "MX", content: "mx.example.net", priority: 20 },
      { name: "@", type: "MX", content: "mx.example.net", priority: 10 },
      { name: "@", type: "A", content: "192.0.2.9" },
      a,
    ];
    expect(canonicalOrder(records).map(describeRecord)).toEqual([
      "@ A 192.0.2.9",
      "@ MX 10 mx.example.net",
      "@ MX 20 mx.example.net",
      "www A 192.0.2.1",
      "www TXT a",
    ]);
    expect(compareRecords({ ...a, priority: 1 }, a)).toBeGreaterThan(0);
  });

  it("breaks ties between equal records by id, whatever the input order", () => {
    const x = { ...a, recordId: "b" };
    const y = { ...a, recordId: "a" };
    expect(canonicalOrder([x, y])).toEqual([y, x]);
    expect(canonicalOrder([y, x])).toEqual([y, x]);
  });

  it("compares everything but the id", () => {
    expect(sameRecord(a, { ...a, recordId: "r1" } as RecordSpec)).toBe(true);
    expect(sameRecord(a, { ...a, content: "192.0.2.2" })).toBe(false);
    expect(sameRecord(VALID.MX!, { ...VALID.MX!, priority: 11 })).toBe(false);
  });

  it("sends only the numbers a type takes, never null", () => {
    expect(toWireRecord(VALID.SRV!)).toEqual(VALID.SRV);
    expect(toWireRecord({ ...a, priority: 3 } as RecordSpec)).toEqual(a);
    expect(toWireRecord({ ...VALID.MX!, weight: 1 })).toEqual(VALID.MX);
    expect(toWireRecord({ ...a, recordId: "r9" } as RecordSpec)).toEqual(a);
  });

  it("builds update items without type", () => {
    expect(toUpdateItem("r7", { ...VALID.MX!, priority: 20 })).toEqual({
      record_id: "r7",
      name: "@",
      content: "mx1.example.net",
      priority: 20,
    });
    expect(toUpdateItem("r8", a)).toEqual({ record_id: "r8", name: "www", content: "192.0.2.1" });
  });

  it("knows which numbers each type takes", () => {
    expect(numberFieldsOf("SRV")).toEqual(["priority", "weight", "port"]);
    expect(numberFieldsOf("MX")).toEqual(["priority"]);
    expect(numberFieldsOf("CAA")).toEqual([]);
  });
});

describe("model: normal form", () => {
  it("lower-cases names, host-name contents and IPv6, keeps other contents and drops numbers a type does not take", () => {
    expect(
      normalizeRecord({ name: "WWW", type: "CNAME", content: "Web.Example.NET.", priority: 1 } as RecordSpec),
    ).toEqual({ name: "www", type: "CNAME", content: "web.example.net." });
    expect(normalizeRecord({ name: "@", type: "AAAA", content: "2001:DB8:0:0:0:0:0:1" })).toEqual({
      name: "@",
      type: "AAAA",
      content: "2001:db8::1",
    });
    expect(normalizeRecord({ name: "X", type: "TXT", content: "Hello" })).toEqual({
      name: "x",
      type: "TXT",
      content: "Hello",
    });
    expect(normalizeRecord({ ...VALID.SRV, content: "SIP.Example.net" })).toEqual(VALID.SRV);
  });

  it("leaves what is not an address alone, for validation to refuse", () => {
    expect(normalizeRecord({ name: "@", type: "AAAA", content: "fe80::1%eth0" }).content).toBe(
      "fe80::1%eth0",
    );
    expect(normalizeRecord({ name: "@", type: "AAAA", content: "nope" }).content).toBe("nope");
  });

  it("has one row per record type, each with an example its own check accepts", () => {
    for (const [type, row] of Object.entries(RECORD_MODEL)) {
      expect(row.contentProblem(row.example), type).toBeUndefined();
      expect(row.normalize(row.example), type).toBe(row.example);
    }
  });

  it("takes a record's numbers only from the fields its type takes", () => {
    expect(numbersOf({ name: "@", type: "A", content: "192.0.2.1", priority: 3 } as RecordSpec)).toEqual({});
    expect(numbersOf({ ...VALID.MX, weight: 1 } as RecordSpec)).toEqual({ priority: 10 });
    expect(numbersOf(VALID.SRV)).toEqual({ priority: 10, weight: 5, port: 5060 });
  });

  it("describes a record with its numbers before its content", () => {
    expect(describeRecord(VALID.SRV)).toBe("_sip._tcp SRV 10 5 5060 sip.example.net");
    expect(describeRecord({ name: "www", type: "A", content: "192.0.2.1" })).toBe("www A 192.0.2.1");
  });
});

describe("model: properties", () => {
  it("normalizes idempotently", () => {
    fc.assert(
      fc.property(recordArb, fc.boolean(), (r, upper) => {
        const spelled = upper ? { ...r, name: r.name.toUpperCase(), content: r.content.toUpperCase() } : r;
        const once = normalizeRecord(spelled);
        expect(normalizeRecord(once)).toEqual(once);
      }),
    );
  });

  it("orders totally: equal exactly when the identities are, and antisymmetric", () => {
    fc.assert(
      fc.property(recordArb, recordArb, (a, b) => {
        expect(compareRecords(a, b) === 0).toBe(identityOf(a) === identityOf(b));
        expect(Math.sign(compareRecords(a, b))).toBe(-Math.sign(compareRecords(b, a)) || 0);
      }),
    );
  });

  it("gives one canonical order whatever the input order", () => {
    fc.assert(
      fc.property(
        recordsArb.chain((rs) =>
          fc.tuple(fc.constant(rs), fc.shuffledSubarray(rs, { minLength: rs.length })),
        ),
        ([records, shuffled]) => {
          const ordered = canonicalOrder(records);
          expect(canonicalOrder(shuffled)).toEqual(ordered);
          for (let i = 1; i < ordered.length; i++) {
            expect(compareRecords(ordered[i - 1]!, ordered[i]!)).toBeLessThanOrEqual(0);
          }
        },
      ),
    );
  });

  it("sends exactly the numbers the type takes, on the wire and in update items", () => {
    fc.assert(
      fc.property(recordArb, fc.string({ minLength: 1, maxLength: 5 }), (r, id) => {
        const wire = toWireRecord(r);
        const update = toUpdateItem(id, r);
        expect(Object.keys(wire).sort()).toEqual(
          ["content", "name", "type", ...numberFieldsOf(r.type)].sort(),
        );
        expect(update).toEqual({ record_id: id, name: r.name, content: r.content, ...numbersOf(r) });
      }),
    );
  });
});

describe("RFC 5952 form of IPv6 addresses", () => {
  // model.ts promises "IPv6 addresses in RFC 5952 form". RFC 5952 section 5 recommends the mixed
  // notation for IPv4-mapped addresses (::ffff:0:0/96), as glibc's inet_ntop writes them; the
  // WHATWG URL serializer used by canonicalIPv6 writes them in hex instead, so a
  // program's "::ffff:192.0.2.1" is stored and shown as "::ffff:c000:201".
  it("keeps the dotted form of an IPv4-mapped address", () => {
    expect(normalizeRecord({ name: "@", type: "AAAA", content: "::ffff:192.0.2.1" }).content).toBe(
      "::ffff:192.0.2.1",
    );
    expect(normalizeRecord({ name: "@", type: "AAAA", content: "::FFFF:C000:0201" }).content).toBe(
      "::ffff:192.0.2.1",
    );
    expect(validateRecords([{ name: "@", type: "AAAA", content: "::ffff:192.0.2.1" }]).records).toEqual([
      { name: "@", type: "AAAA", content: "::ffff:192.0.2.1" },
    ]);
  });
});
