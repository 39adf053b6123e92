/**
 * What `check()` refuses, when a record refused on its own is also one of a refused pair
 * (docs/import.md, "what check() would refuse": the later record of a pair is skipped): the record
 * that is wrong on its own is skipped with its own reasons, all of them (validation's and the
 * template checks'), and the other record of the pair, which no longer has anything beside it, is
 * kept, so the import loses no valid record to one it skipped.
 */
import { describe, expect, it } from "vitest";
import { convertEntries } from "../../../provider/import/convert";

const OPTIONS = { domain: "example.com.", keepDomain: false, keepApexNs: false, file: "example.com.zone" };

/** A record as the zone reader gives it: `owner` relative to example.com. */
function entry(line: number, owner: string, type: string, text: string, quoted = false) {
  return {
    line,
    owner: owner === "@" ? "example.com." : `${owner}.example.com.`,
    origin: "example.com.",
    type,
    klass: "IN",
    hasTtl: false,
    ownerCaseChanged: false,
    rdata: [{ text, quoted }],
  };
}

const DMARC_SYNTAX =
  "check() refuses it: content: [dmarc-syntax, RFC 7489 §6.3, §6.4] p=bogus is not a policy, so receivers cannot parse this DMARC record; fix: write p=none, p=quarantine or p=reject";

describe("the template checks", () => {
  it("an unparsable DMARC record before a good one: only the unparsable one is skipped", () => {
    const t = convertEntries(
      [
        entry(1, "_dmarc", "TXT", "v=DMARC1; p=bogus", true),
        entry(2, "_dmarc", "TXT", "v=DMARC1; p=none", true),
      ],
      OPTIONS,
    );
    expect(t.skipped).toEqual([
      { line: 1, text: '_dmarc.example.com. TXT "v=DMARC1; p=bogus"', reason: DMARC_SYNTAX },
    ]);
    expect(t.records).toEqual([
      { line: 2, record: { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=none" } },
    ]);
  });

  it("an unparsable DMARC record after a good one is skipped for what it is, not as the second one", () => {
    const t = convertEntries(
      [
        entry(1, "_dmarc", "TXT", "v=DMARC1; p=none", true),
        entry(2, "_dmarc", "TXT", "v=DMARC1; p=bogus", true),
      ],
      OPTIONS,
    );
    expect(t.skipped).toEqual([
      { line: 2, text: '_dmarc.example.com. TXT "v=DMARC1; p=bogus"', reason: DMARC_SYNTAX },
    ]);
    expect(t.records.map((r) => r.line)).toEqual([1]);
  });
});

describe("record validation", () => {
  it("a CNAME with a content no name has, beside an A: only the CNAME is skipped, the A is kept", () => {
    const t = convertEntries(
      [entry(1, "c", "CNAME", "bad name!."), entry(2, "c", "A", "192.0.2.1")],
      OPTIONS,
    );
    expect(t.skipped.map((s) => s.line)).toEqual([1]);
    expect(t.skipped[0]?.reason).toMatch(/^check\(\) refuses it: content: "bad name!\." is not a host name/);
    expect(t.records).toEqual([{ line: 2, record: { name: "c", type: "A", content: "192.0.2.1" } }]);
  });

  it("a pair whose records are each valid still loses its later record, with the pair as the reason", () => {
    const t = convertEntries(
      [entry(1, "c", "CNAME", "example.net."), entry(2, "c", "A", "192.0.2.1")],
      OPTIONS,
    );
    expect(t.skipped).toEqual([
      {
        line: 2,
        text: "c.example.com. A 192.0.2.1",
        reason:
          'check() refuses it: name: "c" holds both a CNAME (line 1) and an A (line 2); a CNAME must be the only record at its name: remove one of them or give it another name',
      },
    ]);
    expect(t.records.map((r) => r.line)).toEqual([1]);
  });
});

it("a record both validation and a template check refuse is skipped with both reasons", () => {
  const label = "a".repeat(64);
  const includes = Array.from({ length: 11 }, (_, i) => `include:s${i}.example.net`).join(" ");
  const t = convertEntries([entry(1, label, "TXT", `v=spf1 ${includes} -all`, true)], OPTIONS);
  expect(t.skipped.map((s) => s.line)).toEqual([1]);
  expect(t.skipped[0]?.reason).toMatch(
    new RegExp(
      `^check\\(\\) refuses it: name: the label "${label}" is 64 characters long; DNS labels hold at most 63; content: \\[spf-lookup-limit, RFC 7208 §4\\.6\\.4\\] the record itself needs 11 DNS lookups`,
    ),
  );
});
