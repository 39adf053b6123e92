/**
 * Behaviour of provider/records that contradicts its own documentation, pinned by a failing test
 * each until the module is fixed (then the test moves to the module's own test file).
 */
import { describe, expect, it } from "vitest";
import { normalizeRecord } from "../../provider/records/model";
import { validateRecords } from "../../provider/records/validate";

describe("model: RFC 5952 form of IPv6 addresses", () => {
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
