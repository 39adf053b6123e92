/**
 * Every spelling of one IPv6 address has one RFC 5952 form: hex digits in any case and with
 * leading zeros (RFC 4291 2.2 allows both; RFC 5952 4.1 and 4.3 write neither), and only the
 * IPv4-mapped prefix ::ffff:0:0/96 (RFC 4291 2.5.5.2) is written in the mixed notation of RFC
 * 5952 section 5. The canonical form of an address is taken from the WHATWG URL serializer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalIPv6, ipv6Pieces } from "../../../provider/dns/ipv6";

/** Pieces biased to zero, so that runs of zeros (and ties between them) are common. */
const piecesArb = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
  minLength: 8,
  maxLength: 8,
});

/** The canonical form by the URL serializer (hex throughout: only for addresses that are not IPv4-mapped). */
const serialized = (pieces: readonly number[]): string =>
  new URL(`http://[${pieces.map((p) => p.toString(16)).join(":")}]/`).hostname.slice(1, -1);

/**
 * The canonical text respelled: each hex digit in either case, each group maybe padded to four
 * digits with leading zeros, the `::` kept where it is.
 */
function respell(canonical: string, upper: readonly boolean[], padded: readonly boolean[]): string {
  return canonical
    .split(":")
    .map((group, i) => {
      if (group === "") return group;
      const wide = padded[i % padded.length] ? group.padStart(4, "0") : group;
      return upper[i % upper.length] ? wide.toUpperCase() : wide;
    })
    .join(":");
}

const isMapped = (p: readonly number[]) => p.slice(0, 5).every((x) => x === 0) && p[5] === 0xffff;

describe("canonicalIPv6: one form for every spelling", () => {
  it("writes an address in any case, with or without leading zeros, as the URL serializer does", () => {
    fc.assert(
      fc.property(
        piecesArb.filter((p) => !isMapped(p)),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        (pieces, upper, padded) => {
          const canonical = serialized(pieces);
          const text = respell(canonical, upper, padded);
          expect(canonicalIPv6(text)).toBe(canonical);
          expect(ipv6Pieces(text)).toEqual(pieces);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:dB8::a", "2001:db8::a"],
    ["2001:db8::00a", "2001:db8::a"],
    ["02001:db8::1", "02001:db8::1"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["1:0:0:2:0:0:3:4", "1::2:0:0:3:4"],
    ["1:0:0:2::3:4", "1::2:0:0:3:4"],
    ["1::0:2:3:4:5:6", "1::2:3:4:5:6"],
    ["1:2:3:4:5:6:7:0", "1:2:3:4:5:6:7:0"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
  ])("%s -> %s", (text, canonical) => {
    expect(canonicalIPv6(text)).toBe(canonical);
  });
});

describe("canonicalIPv6: the mixed notation, for IPv4-mapped addresses only", () => {
  it("writes ::ffff:0:0/96 with its IPv4 address dotted, however it was written", () => {
    for (const text of [
      "::ffff:c000:201",
      "0:0:0:0:0:FFFF:C000:0201",
      "::ffff:192.0.2.1",
      "0::ffff:192.0.2.1",
    ]) {
      expect(canonicalIPv6(text)).toBe("::ffff:192.0.2.1");
    }
    expect(canonicalIPv6("::ffff:0:0")).toBe("::ffff:0.0.0.0");
    expect(canonicalIPv6("::ffff:ffff:ffff")).toBe("::ffff:255.255.255.255");
  });

  it.each([
    ["1::ffff:c000:201", "1::ffff:c000:201"],
    ["0:1::ffff:c000:201", "0:1::ffff:c000:201"],
    ["::1:0:0:ffff:c000:201", "::1:0:0:ffff:c000:201"],
    ["::1:0:ffff:c000:201", "::1:0:ffff:c000:201"],
    ["::1:ffff:c000:201", "::1:ffff:c000:201"],
    ["::fffe:c000:201", "::fffe:c000:201"],
    ["::ffff:0:c000:201", "::ffff:0:c000:201"],
  ])("%s is not IPv4-mapped: %s, all hex", (text, canonical) => {
    expect(canonicalIPv6(text)).toBe(canonical);
    expect(canonical).toBe(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  });
});

describe("ipv6Pieces: what is not an address", () => {
  it.each([
    "",
    ":",
    "1",
    "::1:",
    ":1::",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7:8::",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::1.2.3",
  ])("%j is not one", (text) => {
    expect(ipv6Pieces(text)).toBeUndefined();
    expect(canonicalIPv6(text)).toBe(text);
  });
});
