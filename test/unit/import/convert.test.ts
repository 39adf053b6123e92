/**
 * Which records of a zone the import declares, which it skips and why, and what it says it changed,
 * each with its line, as the user reads them in the report: the DNS host's own records (SOA, the
 * apex NS set), classes other than IN, Route 53 aliases as cli53 writes them, types the API lacks
 * (with the way forward for SPF, ALIAS and ANAME), owners outside the zone, and whatever the
 * provider's `check()` refuses (the later of a conflicting pair). Written from RFC 1035 5.1, RFC
 * 7208 3.1 (the SPF type), the spec's record types and the apex NS kept only on request (docs/import.md).
 */
import { describe, expect, it } from "vitest";
import { type ImportOptions, importZones, ZoneInputError } from "../../../provider/import";
import { convertEntries } from "../../../provider/import/convert";

const TYPES = "A, CNAME, TXT, MX, SRV, AAAA, NS, CAA, TLSA, URLFWD, URLFWD301, URLCLO";

function zone(text: string | Uint8Array, options: ImportOptions = {}) {
  const [t] = importZones([{ text, file: "z.zone" }], options);
  if (!t) throw new Error("no template");
  return t;
}

const at = (lines: string[], options: ImportOptions = {}) =>
  zone(`$ORIGIN example.com.\n${lines.join("\n")}\n`, options);

describe("records the DNS host keeps for itself, or the API cannot hold, are skipped with their line", () => {
  it("the SOA and the apex NS set are the DNS host's own", () => {
    const t = zone(
      "example.com. 3600 IN SOA ns1.example.net. h.example.com. 1 2 3 4 5\n@ NS ns1.example.net.\nsub NS ns1.example.net.\n",
    );
    expect(t.skipped).toEqual([
      {
        line: 1,
        text: "example.com. SOA ns1.example.net. h.example.com. 1 2 3 4 5",
        reason: "SOA: the DNS host's own record (the API has none; the service writes it)",
      },
      {
        line: 2,
        text: "example.com. NS ns1.example.net.",
        reason: "the apex NS set is the DNS host's own (kept with --keep-apex-ns)",
      },
    ]);
    expect(t.records.map((r) => [r.line, r.record.name, r.record.type])).toEqual([[3, "sub", "NS"]]);
  });

  it("the apex NS set is kept when asked (--keep-apex-ns)", () => {
    const t = at(["@ NS ns1.example.net.", "@ NS ns2.example.net."], { keepApexNs: true });
    expect(at(["@ A 192.0.2.1", "@ NS ns1.example.net."]).records.map((r) => r.record.type)).toEqual(["A"]);
    expect(t.skipped).toEqual([]);
    expect(t.records.map((r) => r.record)).toEqual([
      { name: "@", type: "NS", content: "ns1.example.net." },
      { name: "@", type: "NS", content: "ns2.example.net." },
    ]);
  });

  it("a class other than IN is skipped, naming it", () => {
    expect(at(['v CH TXT "x"', "h HS A 192.0.2.1"]).skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, "class CH: only Internet (IN) records are DNS template records"],
      [3, "class HS: only Internet (IN) records are DNS template records"],
    ]);
  });

  it("a Route 53 alias as cli53 writes it is skipped with what Route 53 does and the way forward", () => {
    const t = at(["al 86400 AWS ALIAS A lb.example.net. Z123 false"]);
    expect(t.skipped).toEqual([
      {
        line: 2,
        text: "al.example.com. ALIAS A lb.example.net. Z123 false",
        reason:
          'a Route 53 alias (cli53 writes it "AWS ALIAS"): Route 53 answers it with its target\'s addresses as ' +
          "they are at query time, which no record of the API holds; declare A/AAAA records or a URL forward at that name",
      },
    ]);
  });

  it("a type the API has none of is skipped, listing the types it takes", () => {
    const t = at([
      "p PTR x.example.net.",
      's SPF "v=spf1 -all"',
      "a ALIAS lb.example.net.",
      "n ANAME lb.example.net.",
      "e PTR",
    ]);
    expect(t.skipped.map((s) => [s.line, s.text, s.reason])).toEqual([
      [2, "p.example.com. PTR x.example.net.", `the API has no PTR records (it takes ${TYPES})`],
      [
        3,
        's.example.com. SPF "v=spf1 -all"',
        `the API has no SPF records (it takes ${TYPES}); the SPF type is obsolete (RFC 7208 3.1): its TXT twin carries the policy`,
      ],
      [
        4,
        "a.example.com. ALIAS lb.example.net.",
        `the API has no ALIAS records (it takes ${TYPES}): an ALIAS is the DNS host's own, answered with its ` +
          "target's addresses as they are at query time; declare A/AAAA records or a URL forward at that name",
      ],
      [
        5,
        "n.example.com. ANAME lb.example.net.",
        `the API has no ANAME records (it takes ${TYPES}): an ANAME is the DNS host's own, answered with its ` +
          "target's addresses as they are at query time; declare A/AAAA records or a URL forward at that name",
      ],
      // No rdata: the record is shown as its owner and type alone.
      [6, "e.example.com. PTR", `the API has no PTR records (it takes ${TYPES})`],
    ]);
  });

  it("a Route 53 routing policy, as cli53 writes it in the comment, skips the record", () => {
    const t = at([
      'w 60 IN A 192.0.2.1 ; AWS routing="WEIGHTED" weight=10 identifier="blue"',
      "v A 192.0.2.2",
    ]);
    expect(t.skipped.map((s) => [s.line, s.text])).toEqual([[2, "w.example.com. A 192.0.2.1"]]);
    expect(t.skipped[0]?.reason).toMatch(/weight/);
    expect(t.records.map((r) => r.record.name)).toEqual(["v"]);
  });

  it("an owner outside the zone's domain is skipped, naming the domain", () => {
    const t = at(["out.example.org. A 192.0.2.1", "notexample.com. A 192.0.2.2", "in A 192.0.2.3"]);
    expect(t.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, "the owner is outside the zone's domain example.com."],
      [3, "the owner is outside the zone's domain example.com."],
    ]);
    expect(t.records.map((r) => r.record.name)).toEqual(["in"]);
  });

  it("bytes that are not UTF-8, in an owner or the rdata, skip the record, shown as \\xHH", () => {
    const t = zone(
      Buffer.concat([
        Buffer.from("$ORIGIN example.com.\nn"),
        Buffer.from([0xe9]),
        Buffer.from(' A 192.0.2.1\nt TXT "a'),
        Buffer.from([0xfe]),
        Buffer.from('"\nok A 192.0.2.2\nx'),
        Buffer.from([0x80, 0x9f]),
        Buffer.from(" A 192.0.2.3\n"),
      ]),
    );
    const reason =
      "bytes that are not UTF-8 (shown as \\xHH): a name or content of the API is text, and reading them as " +
      "something else would change the record; write the file as UTF-8, or the value with \\DDD escapes";
    expect(t.skipped).toEqual([
      { line: 2, text: "n\\xE9.example.com. A 192.0.2.1", reason },
      { line: 3, text: 't.example.com. TXT "a\\xFE"', reason },
      { line: 5, text: "x\\x80\\x9F.example.com. A 192.0.2.3", reason },
    ]);
    expect(t.records.map((r) => r.record.name)).toEqual(["ok"]);
  });

  it("TXT strings that are separate items are skipped with the reason rdata gives", () => {
    expect(at(['_http._tcp TXT "txtvers=1" "path=/"']).skipped[0]).toEqual({
      line: 2,
      text: '_http._tcp.example.com. TXT "txtvers=1" "path=/"',
      reason: expect.stringMatching(/^2 TXT strings that are separate items/),
    });
  });

  it("rdata of the wrong shape is no skip: the whole import is refused, naming the line", () => {
    expect(() => at(["ok A 192.0.2.1", "m MX mail.example.com."])).toThrow(ZoneInputError);
    expect(() => at(["ok A 192.0.2.1", "m MX mail.example.com."])).toThrow(/^z\.zone:3: expected MX data/);
  });

  it("skips are listed in the order of the lines, whichever step skipped them", () => {
    const t = at(["c CNAME x.example.net.", "p PTR y.", "c A 192.0.2.9", "@ SOA a. b. 1 2 3 4 5"]);
    expect(t.skipped.map((s) => s.line)).toEqual([3, 4, 5]);
  });
});

describe("what check() refuses is skipped with check()'s reason, never sent", () => {
  it("a record refused on its own: its field and reason", () => {
    const t = at(["g A 999.1.1.1", "ok A 192.0.2.1"]);
    expect(t.skipped).toEqual([
      {
        line: 2,
        text: "g.example.com. A 999.1.1.1",
        reason:
          'check() refuses it: content: A records need an IPv4 address as content, e.g. "192.0.2.1"; got "999.1.1.1"',
      },
    ]);
    expect(t.records.map((r) => r.line)).toEqual([3]);
  });

  it("of a conflicting pair the later goes, the reason naming both by their lines", () => {
    const t = at(["c CNAME x.example.net.", "c A 192.0.2.9", "m MX 10 mail", "m MX 10 mail"]);
    expect(t.records.map((r) => r.line)).toEqual([2, 4]);
    expect(t.skipped.map((s) => [s.line, s.reason])).toEqual([
      [
        3,
        'check() refuses it: name: "c" holds both a CNAME (line 2) and an A (line 3); a CNAME must be the only record at its name: remove one of them or give it another name',
      ],
      [5, "check() refuses it: duplicates line 4 (m MX 10 mail.{domainname}.); remove one of them"],
    ]);
  });

  it("what the template checks refuse (a CNAME loop) is skipped, the lines of the loop named", () => {
    const t = at(["d CNAME e", "e CNAME d", "f CNAME x.example.net."]);
    expect(t.records.map((r) => r.line)).toEqual([3, 4]);
    expect(t.skipped.map((s) => [s.line, s.reason])).toEqual([
      [
        2,
        'check() refuses it: content: [cname-loop, RFC 1034 §3.6.2] the CNAME chain "d" -> "e" -> "d" loops (line 2, line 3): resolvers give up on every name in it; fix: point one of these CNAMEs at a name outside the loop, or replace it by A/AAAA records',
      ],
    ]);
  });

  it("a record the template checks refuse on its own (a DMARC record without a policy)", () => {
    expect(at(['_dmarc TXT "v=DMARC1; rua=mailto:d@example.net"']).skipped[0]?.reason).toMatch(
      /^check\(\) refuses it: content: \[dmarc-syntax, RFC 7489 §6\.3, §6\.4\] the record has no policy \(p=\)/,
    );
  });

  it("records past the tenth are named by their own lines", () => {
    const filler = Array.from({ length: 10 }, (_, i) => `f${i} A 192.0.2.${i + 1}`);
    const t = at([...filler, "c CNAME x.example.net.", "c A 192.0.2.99"]);
    expect(t.skipped.map((s) => [s.line, s.reason])).toEqual([
      [
        13,
        'check() refuses it: name: "c" holds both a CNAME (line 12) and an A (line 13); a CNAME must be the only record at its name: remove one of them or give it another name',
      ],
    ]);
  });

  it("a record refused on its own for several reasons: each, joined by ;", () => {
    expect(at(["bad!name A 999.1.1.1"]).skipped[0]?.reason).toMatch(
      /^check\(\) refuses it: name: "bad!name" is not a valid name: [^;]*; content: A records need an IPv4 address/,
    );
  });

  it("a CNAME to itself names its own line", () => {
    expect(at(["ok A 192.0.2.1", "d CNAME d"]).skipped[0]?.reason).toMatch(
      /the CNAME chain "d" -> "d" loops \(line 3\)/,
    );
  });

  it("a warning of the template checks skips nothing", () => {
    const t = at(['@ TXT "v=spf1 +all"']);
    expect(t.skipped).toEqual([]);
    expect(t.records.map((r) => r.record.content)).toEqual(["v=spf1 +all"]);
  });

  it("after a skip, the records still refused in a second round go too", () => {
    // The A beside the CNAME goes in the first round; the loop of the CNAMEs is then found.
    const t = at(["d CNAME e", "d A 192.0.2.1", "e CNAME d"]);
    expect(t.records.map((r) => r.line)).toEqual([4]);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3]);
  });
});

describe("what the import changed, in the order it happened, with the line", () => {
  it("TTLs are counted as dropped ($TTL itself is no record's)", () => {
    const t = zone(
      "$TTL 300\nexample.com. 3600 IN SOA a. b. 1 2 3 4 5\nwww 60 A 192.0.2.1\nx A 192.0.2.2\ny IN 1h A 192.0.2.3\n",
    );
    expect(t.ttlsDropped).toBe(3);
  });

  it("owner lower-cased first, then what reading changed, then the owner's and the rdata's changes", () => {
    const t = at([
      "WWW CNAME Web",
      "\\052 A 192.0.2.1",
      "b TYPE1 \\# 4 C0000201",
      "www.example.com A 192.0.2.7",
    ]);
    expect(t.records.map((r) => [r.record.name, r.record.content])).toEqual([
      ["www", "web.{domainname}."],
      ["*", "192.0.2.1"],
      ["b", "192.0.2.1"],
      ["www.example.com", "192.0.2.7"],
    ]);
    expect(t.changes.map((c) => [c.line, c.change])).toEqual([
      [2, "owner lower-cased"],
      [2, "Web lower-cased"],
      [2, "Web made absolute: web.example.com."],
      [2, "web.example.com. written web.{domainname}."],
      [3, '\\052 read as "*": Route 53\'s octal escape'],
      [4, "TYPE1 read as A"],
      [4, "RFC 3597 generic data read as A data"],
      [
        5,
        "www.example.com.example.com. holds the domain twice: kept so, but a name written without its final dot usually meant www.example.com.; check it, and add the dot in the zone file if so",
      ],
    ]);
  });

  it("an owner outside ASCII is written in its xn-- form, said", () => {
    const t = at(["bücher A 192.0.2.1"]);
    expect(t.records.map((r) => r.record.name)).toEqual(["xn--bcher-kva"]);
    expect(t.changes.map((c) => c.change)).toEqual([
      "bücher.example.com. written in its xn-- form: xn--bcher-kva.example.com.",
    ]);
  });

  it("content as check() normalizes it, said with both forms", () => {
    const t = at(["www AAAA 2001:DB8:0:0::1"]);
    expect(t.records[0]?.record).toEqual({ name: "www", type: "AAAA", content: "2001:db8::1" });
    expect(t.changes).toEqual([{ line: 2, change: "content normalized: 2001:DB8:0:0::1 -> 2001:db8::1" }]);
  });

  it("a skipped record's changes are not reported", () => {
    expect(at(["c CNAME X.example.net.", "c A 192.0.2.9", 'C TXT "v"']).changes.map((c) => c.line)).toEqual([
      2,
    ]);
  });

  it("a DNS host's own settings are reported as dropped, for records kept only", () => {
    const t = at(["f A 192.0.2.10 ; cf_tags=cf-proxied:true", "g A 999.1.1.1 ; cf_tags=cf-proxied:true"]);
    expect(t.dropped).toEqual([
      {
        line: 2,
        change:
          "Cloudflare's proxying (cf-proxied:true) dropped: the API has no proxy, so this name will answer with the A record's own value instead of Cloudflare's addresses, and the server behind it is no longer hidden",
      },
    ]);
  });

  it("what reading said of the zone is passed on as notes", () => {
    expect(at(["a A 192.0.2.1"]).notes).toEqual([
      "the zone's domain, example.com., is the $ORIGIN before its first record",
    ]);
    const entries = [
      {
        line: 1,
        owner: "a.example.com.",
        origin: "example.com.",
        type: "A",
        klass: "IN",
        hasTtl: false,
        ownerCaseChanged: false,
        rdata: [{ text: "192.0.2.1", quoted: false }],
      },
    ];
    const base = { domain: "example.com.", keepDomain: false, keepApexNs: false, file: "f" };
    expect(convertEntries(entries, base).notes).toEqual([]);
    expect(convertEntries(entries, { ...base, notes: ["n"] }).notes).toEqual(["n"]);
  });
});

describe("a zone of the root (convertEntries called directly)", () => {
  it("every owner is under it: its name is the owner without the final dot", () => {
    const entries = [
      {
        line: 1,
        owner: "www.example.",
        origin: ".",
        type: "A",
        klass: "IN",
        hasTtl: true,
        ownerCaseChanged: false,
        rdata: [{ text: "192.0.2.1", quoted: false }],
      },
    ];
    const t = convertEntries(entries, { domain: ".", keepDomain: false, keepApexNs: false, file: "f" });
    expect(t.changes).toEqual([]);
    expect(t.records).toEqual([
      { line: 1, record: { name: "www.example", type: "A", content: "192.0.2.1" } },
    ]);
    expect(t.ttlsDropped).toBe(1);
  });
});
