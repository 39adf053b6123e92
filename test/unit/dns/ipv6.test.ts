/**
 * The hand-written IPv6 parser and RFC 5952 writer against Node's own: `net.isIPv6` says what an
 * address is, and the WHATWG URL serializer (which compresses as RFC 5952 does) says how it is
 * written, with the IPv4-mapped form in mixed notation (RFC 5952 section 5).
 */
import { isIPv6 } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalIPv6, ipv6Pieces } from "../../../provider/dns/ipv6";

const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** What the model did before: `isIPv6` and the URL parser. */
function reference(content: string): string {
  if (!isIPv6(content) || content.includes("%")) return content;
  const compressed = new URL(`http://[${content}]/`).hostname.slice(1, -1);
  const mapped = IPV4_MAPPED.exec(compressed);
  if (!mapped) return compressed;
  const [high, low] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return `::ffff:${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** A piece as a program might write it: any case, maybe with leading zeros. */
const pieceText = fc
  .tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean(), fc.boolean())
  .map(([p, upper, padded]) => {
    const hex = padded ? p.toString(16).padStart(4, "0") : p.toString(16);
    return upper ? hex.toUpperCase() : hex;
  });

/** Pieces biased to zero, so that runs of zeros (and ties between them) are common. */
const pieces = fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
  minLength: 8,
  maxLength: 8,
});

/** An address written in any of its valid forms: full, with one `::`, with an IPv4 tail. */
const writtenAddress = fc
  .tuple(pieces, fc.nat(), fc.nat(), fc.boolean(), fc.boolean())
  .map(([ps, a, b, quadTail, mapped]) => {
    const values = mapped ? [0, 0, 0, 0, 0, 0xffff, ps[6]!, ps[7]!] : ps;
    const texts = values.map((p) => p.toString(16));
    if (quadTail) {
      const [h, l] = [values[6]!, values[7]!];
      texts.splice(6, 2, `${h >> 8}.${h & 255}.${l >> 8}.${l & 255}`);
    }
    // Compress any run of zero pieces (not only the longest): every such text is valid.
    const zeroRuns: Array<[number, number]> = [];
    for (let i = 0; i < texts.length; i++) {
      for (let j = i; j < texts.length && texts[j] === "0"; j++) zeroRuns.push([i, j + 1]);
    }
    if (zeroRuns.length === 0) return texts.join(":");
    const [from, to] = zeroRuns[a % zeroRuns.length]!;
    if (b % 3 === 0) return texts.join(":");
    return `${texts.slice(0, from).join(":")}::${texts.slice(to).join(":")}`;
  });

/** Eight pieces and a `::` besides (it stands for at least one piece): never an address. */
const gapTooMany = fc
  .tuple(fc.array(pieceText, { minLength: 8, maxLength: 8 }), fc.integer({ min: 0, max: 8 }))
  .map(([texts, at]) => `${texts.slice(0, at).join(":")}::${texts.slice(at).join(":")}`);

/** Text from the alphabet of addresses: mostly not addresses, some nearly. */
const nearAddress = fc
  .array(fc.constantFrom(..."0123456789abcdefABCDEF:.:%::g".split(""), "::", "ffff", "0000"), {
    maxLength: 24,
  })
  .map((parts) => parts.join(""));

describe("ipv6", () => {
  it("tells an address as net.isIPv6 does (a zone index is not one here)", () => {
    fc.assert(
      fc.property(fc.oneof(writtenAddress, nearAddress, gapTooMany), (text) => {
        expect(ipv6Pieces(text) !== undefined).toBe(isIPv6(text) && !text.includes("%"));
      }),
      { numRuns: 3000 },
    );
  });

  it("writes every address as the URL serializer does, IPv4-mapped ones in mixed notation", () => {
    fc.assert(
      fc.property(fc.oneof(writtenAddress, nearAddress, gapTooMany, pieceText), (text) => {
        expect(canonicalIPv6(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["::", "::"],
    ["::1", "::1"],
    ["1::", "1::"],
    ["::ffff:c000:0201", "::ffff:192.0.2.1"],
    ["::FFFF:192.0.2.1", "::ffff:192.0.2.1"],
    ["::192.0.2.1", "::c000:201"],
    ["fe80::1%eth0", "fe80::1%eth0"],
    ["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"],
    ["1::2::3", "1::2::3"],
    ["1:2:3:4:5:6:7::8", "1:2:3:4:5:6:7::8"],
    ["1:2:3:4:5:6::192.0.2.1", "1:2:3:4:5:6::192.0.2.1"],
    ["1:2:3:4:5::192.0.2.1", "1:2:3:4:5:0:c000:201"],
    ["192.0.2.1", "192.0.2.1"],
  ])("%s -> %s", (text, canonical) => {
    expect(canonicalIPv6(text)).toBe(canonical);
    expect(canonicalIPv6(text)).toBe(reference(text));
  });
});
