/**
 * Texts that are no IPv6 address, one rule of RFC 4291 2.2 broken in each, as `net.isIPv6` refuses
 * them: a second `::`, a character next to the hex digits in ASCII, a dotted IPv4 tail that
 * `net.isIPv4` would not take. An AAAA record holding one is refused with the example to follow,
 * never stored as some address the text does not spell.
 */
import { isIPv6 } from "node:net";
import { describe, expect, it } from "vitest";
import { canonicalIPv6, ipv6Pieces } from "../../../provider/dns/ipv6";
import { validateRecords } from "../../../provider/dns/validate";

/** What a user reads for an AAAA record of `content`, as `property: reason` lines. */
function aaaaIssues(content: string): string[] {
  return validateRecords([{ name: "www", type: "AAAA", content }]).issues.map(
    (i) => `${i.property}: ${i.reason}`,
  );
}

const refused = (content: string) => [
  `records[0].content: AAAA records need an IPv6 address as content, e.g. "2001:db8::1"; got ${JSON.stringify(content)}`,
];

describe("texts that are no IPv6 address", () => {
  it.each([
    ["a second ::", "1::2::3"],
    ["a second :: at the end", "2001:db8::1::"],
    ["a slash, just below 0", "2001:db8::/"],
    ["an @, just below A", "2001:db8::@"],
    ["a G, just past F", "2001:db8::G"],
    ["a backtick, just below a", "2001:db8::`"],
    ["a g, just past f", "2001:db8::g"],
  ])("%s: %j", (_rule, text) => {
    expect(isIPv6(text)).toBe(false);
    expect(ipv6Pieces(text)).toBeUndefined();
    expect(canonicalIPv6(text)).toBe(text);
    expect(aaaaIssues(text)).toEqual(refused(text));
  });
});

describe("an IPv4 tail that net.isIPv4 would not take", () => {
  it.each([
    ["an empty part", "::ffff:192..2.1"],
    ["a part past 255", "::ffff:192.0.2.256"],
    ["four digits", "::ffff:192.0.2.1000"],
    ["a leading zero", "::ffff:192.0.2.01"],
    ["a letter in a part", "::ffff:192.0.2.a"],
    ["a colon between parts", "::ffff:192.0.2:1"],
    ["a comma between parts", "::ffff:192.0.2,1"],
    ["a fifth part", "::ffff:192.0.2.1.5"],
    ["text after the fourth part", "::ffff:192.0.2.1x"],
    ["three parts", "::ffff:192.0.2"],
  ])("%s: %j", (_rule, text) => {
    expect(isIPv6(text)).toBe(false);
    expect(ipv6Pieces(text)).toBeUndefined();
    expect(aaaaIssues(text)).toEqual(refused(text));
  });

  it("takes a tail of one-digit, two-digit and three-digit parts, 0 and 255 included", () => {
    for (const [text, pieces] of [
      ["::ffff:192.0.2.1", [0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201]],
      ["::ffff:0.0.0.0", [0, 0, 0, 0, 0, 0xffff, 0, 0]],
      ["::ffff:255.10.99.100", [0, 0, 0, 0, 0, 0xffff, 0xff0a, 0x6364]],
    ] as const) {
      expect(isIPv6(text)).toBe(true);
      expect(ipv6Pieces(text)).toEqual(pieces);
      expect(aaaaIssues(text)).toEqual([]);
    }
  });
});
