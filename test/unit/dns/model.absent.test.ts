/**
 * The record model at the edges its other tests leave: a number that an MX or SRV record held in a
 * state written before it was required lacks (never written, sent or shown as "undefined"), and
 * host contents that are ASCII but no host name (never said to hold characters outside ASCII, even
 * when the UTS #46 mapping of a URL host would make one of them).
 */
import { describe, expect, it } from "vitest";
import type { RecordType } from "../../../provider/client/wire";
import {
  canonicalOrder,
  compareRecords,
  describeRecord,
  normalizeRecord,
  numbersOf,
  RECORD_MODEL,
  type RecordSpec,
  toUpdateItem,
  toWireRecord,
} from "../../../provider/dns/model";

/** An SRV record without its weight, as a state written before the weight was required holds it. */
const noWeight: RecordSpec = {
  name: "_sip._tcp",
  type: "SRV",
  content: "sip.example.net",
  priority: 10,
  port: 5060,
};
const withWeight: RecordSpec = { ...noWeight, weight: 0 };

describe("a number the record lacks", () => {
  it("is no field of its normal form, its wire record or its update item", () => {
    expect(Object.keys(normalizeRecord(noWeight)).sort()).toEqual([
      "content",
      "name",
      "port",
      "priority",
      "type",
    ]);
    expect(Object.keys(toWireRecord(noWeight)).sort()).toEqual([
      "content",
      "name",
      "port",
      "priority",
      "type",
    ]);
    expect(Object.keys(toUpdateItem("r1", noWeight)).sort()).toEqual([
      "content",
      "name",
      "port",
      "priority",
      "record_id",
    ]);
    expect(Object.keys(numbersOf(noWeight)).sort()).toEqual(["port", "priority"]);
  });

  it("is left out of how the record reads", () => {
    expect(describeRecord(noWeight)).toBe("_sip._tcp SRV 10 5060 sip.example.net");
    expect(describeRecord({ name: "@", type: "MX", content: "mx1.example.net" })).toBe(
      "@ MX mx1.example.net",
    );
  });

  it("sorts before any value of it, whichever side it is on", () => {
    expect(compareRecords(noWeight, withWeight)).toBeLessThan(0);
    expect(compareRecords(withWeight, noWeight)).toBeGreaterThan(0);
    expect(compareRecords(noWeight, { ...noWeight })).toBe(0);
    expect(canonicalOrder([withWeight, noWeight])).toEqual([noWeight, withWeight]);
  });
});

describe("host contents in ASCII that are no host name", () => {
  const problem = (type: RecordType, content: string) => RECORD_MODEL[type].contentProblem(content);
  it.each([
    ["CNAME", "www.example.net/path", "target.example.net."],
    ["MX", "ex%61mple.net", "mx1.example.net"],
    ["NS", "ns1\t.example.net", "ns1.example.net"],
  ] as const)("%s %j is refused as no host name", (type, content, example) => {
    expect(problem(type, content)).toBe(
      `"${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", optionally with {domainname} and a final dot, e.g. "${example}"`,
    );
  });
});
