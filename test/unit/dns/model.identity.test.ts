/**
 * What makes two records one: every field but the id (a record's SRV weight and port as much as
 * its priority), the order of records equal but for their ids (a record without one first, as an
 * absent number sorts first), and host contents outside ASCII whose ASCII form is still no host
 * name (refused as such, never with advice to write a form that would be refused in turn).
 */
import { describe, expect, it } from "vitest";
import { canonicalOrder, identityOf, RECORD_MODEL, type RecordSpec } from "../../../provider/dns/model";
import { validateRecords } from "../../../provider/dns/validate";

function srv(numbers: { priority: number; weight: number; port: number }): RecordSpec {
  return { name: "_sip._tcp", type: "SRV", content: "sip.example.net", ...numbers };
}

describe("two records that differ in one number are two records", () => {
  it.each([
    ["weight", { priority: 10, weight: 5, port: 5060 }, { priority: 10, weight: 20, port: 5060 }],
    ["port", { priority: 10, weight: 5, port: 5060 }, { priority: 10, weight: 5, port: 5061 }],
    [
      "weight, the other's 0",
      { priority: 10, weight: 0, port: 5060 },
      { priority: 10, weight: 5, port: 5060 },
    ],
  ])("SRV records apart only in %s", (_what, a, b) => {
    expect(identityOf(srv(a))).not.toBe(identityOf(srv(b)));
    expect(validateRecords([srv(a), srv(b)])).toEqual({ records: [srv(a), srv(b)], issues: [] });
  });

  it("the same numbers written twice are a duplicate", () => {
    const numbers = { priority: 10, weight: 5, port: 5060 };
    expect(validateRecords([srv(numbers), srv(numbers)]).issues).toEqual([
      {
        property: "records[1]",
        reason: "duplicates records[0] (_sip._tcp SRV 10 5 5060 sip.example.net); remove one of them",
      },
    ]);
  });
});

describe("records equal but for their ids", () => {
  it("a record without an id comes before those with one, whatever the input order", () => {
    const declared: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
    const held = { ...declared, recordId: "1001" };
    const other = { ...declared, recordId: "1002" };
    for (const input of [
      [other, held, declared],
      [declared, other, held],
      [held, declared, other],
    ]) {
      expect(canonicalOrder(input)).toEqual([declared, held, other]);
    }
  });
});

describe("a host outside ASCII with no ASCII form that is a host name", () => {
  const notAHost = (content: string, example: string) =>
    `"${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", optionally with {domainname} and a final dot, e.g. "${example}"`;

  it.each([
    ["MX", "mx.bücher..example", "mx1.example.net"],
    ["CNAME", `${"x".repeat(62)}ü.example.`, "target.example.net."],
  ] as const)("%s %j: its ASCII form is no host name either", (type, content, example) => {
    expect(RECORD_MODEL[type].contentProblem(content)).toBe(notAHost(content, example));
  });

  // The URL host parser behind the mapping cuts at "/", "?", "#" and "", drops tabs and decodes "%":
  // its answer for these would offer "bücher.example" for a text that says more.
  it.each([
    ["CNAME", "bücher.example/x", "target.example.net."],
    ["NS", "ns1.bücher.example?x", "ns1.example.net"],
    ["MX", "bücher.example#x", "mx1.example.net"],
    ["SRV", "bücher.example\\x", "sip.example.net"],
    ["CNAME", "bü%63her.example", "target.example.net."],
    ["NS", "bü\tcher.example", "ns1.example.net"],
  ] as const)("%s %j: no form that drops or changes part of it", (type, content, example) => {
    expect(RECORD_MODEL[type].contentProblem(content)).toBe(notAHost(content, example));
  });
});
