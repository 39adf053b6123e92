/**
 * The comparison of declared records with an authoritative server's answers, as DNS compares
 * them (RFC 4343 case, absolute names, RFC 1035 character-strings, RFC 1034 CNAMEs, RFC 4592
 * wildcards), on answers written as Node's resolver returns them.
 */
import { describe, expect, it } from "vitest";
import { comparePublished, questionsFor } from "../../../provider/checks/published";
import type { PublishedValue, RRset } from "../../../provider/client/resolver";
import type { RecordSpec } from "../../../provider/dns/model";

const D = "shop.example";

function answer(name: string, type: RRset["type"], values: PublishedValue[]): RRset {
  return { name, type, outcome: values.length > 0 ? "answer" : "nodata", values };
}

/** Answers for every question of `records`, NODATA unless given. */
function answersFor(records: RecordSpec[], given: RRset[]): RRset[] {
  const byKey = new Map(given.map((a) => [`${a.name} ${a.type}`, a]));
  return questionsFor(records, D).map((q) => byKey.get(`${q.name} ${q.type}`) ?? answer(q.name, q.type, []));
}

describe("questionsFor", () => {
  it("asks each declared name and type, A and AAAA for a forward, the CNAME of every other name, no delegation", () => {
    const records: RecordSpec[] = [
      { name: "@", type: "MX", content: "mx.example.net", priority: 1 },
      { name: "www", type: "CNAME", content: "{domainname}." },
      { name: "go", type: "URLFWD", content: "https://example.net/" },
      { name: "sub", type: "NS", content: "ns1.example.net" },
    ];
    expect(questionsFor(records, D)).toEqual([
      { name: "shop.example", type: "MX" },
      { name: "shop.example", type: "CNAME" },
      { name: "www.shop.example", type: "CNAME" },
      { name: "go.shop.example", type: "A" },
      { name: "go.shop.example", type: "AAAA" },
      { name: "go.shop.example", type: "CNAME" },
    ]);
  });
});

describe("comparePublished", () => {
  it("compares host names without case or trailing dot, {domainname} as the domain, IPv6 in one form, CAA tags without case", () => {
    const records: RecordSpec[] = [
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "www", type: "CNAME", content: "target.example.net" },
      { name: "@", type: "AAAA", content: "2001:db8::1" },
      { name: "@", type: "CAA", content: '0 Issue "letsencrypt.org"' },
      { name: "_443._tcp", type: "TLSA", content: "3 1 1 AB12" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer("shop.example", "MX", [{ type: "MX", priority: 10, exchange: "MAIL.Shop.Example" }]),
        answer("www.shop.example", "CNAME", [{ type: "CNAME", value: "Target.Example.NET." }]),
        answer("shop.example", "AAAA", [{ type: "AAAA", value: "2001:DB8:0:0:0:0:0:1" }]),
        answer("shop.example", "CAA", [{ type: "CAA", flags: 0, tag: "issue", value: "letsencrypt.org" }]),
        answer("_443._tcp.shop.example", "TLSA", [
          { type: "TLSA", usage: 3, selector: 1, matchingType: 1, data: "ab12" },
        ]),
      ]),
      true,
    );
    expect(verdict).toMatchObject({ missing: [], different: [], extra: [] });
    expect(verdict.served).toHaveLength(5);
  });

  it("joins the strings of a TXT answer (a server splits text at 255 bytes)", () => {
    const records: RecordSpec[] = [{ name: "@", type: "TXT", content: `${"a".repeat(255)}b` }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer("shop.example", "TXT", [{ type: "TXT", strings: ["a".repeat(255), "b"] }]),
      ]),
      true,
    );
    expect(verdict.served).toEqual(records);
  });

  it("reads a changed value as different, a lost one as missing, an unaccounted one as extra (with purge only)", () => {
    const records: RecordSpec[] = [
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "@", type: "A", content: "192.0.2.2" },
      { name: "@", type: "MX", content: "mx.example.net", priority: 10 },
      { name: "www", type: "A", content: "192.0.2.3" },
    ];
    const answers = answersFor(records, [
      answer("shop.example", "A", [
        { type: "A", value: "192.0.2.1" },
        { type: "A", value: "192.0.2.9" },
        { type: "A", value: "192.0.2.8" },
      ]),
      answer("shop.example", "MX", [{ type: "MX", priority: 20, exchange: "mx.example.net" }]),
    ]);
    const purged = comparePublished(records, D, answers, true);
    expect(purged.served).toEqual([records[0]]);
    expect(purged.different).toEqual([
      { declared: records[1], published: { name: "@", type: "A", content: "192.0.2.8" } },
      {
        declared: records[2],
        published: { name: "@", type: "MX", content: "mx.example.net.", priority: 20 },
      },
    ]);
    expect(purged.missing).toEqual([records[3]]);
    expect(purged.extra).toEqual([{ name: "@", type: "A", content: "192.0.2.9" }]);
    expect(comparePublished(records, D, answers, false).extra).toEqual([]);
  });

  it("takes a CNAME at a name as the answer for every other type there", () => {
    const records: RecordSpec[] = [{ name: "www", type: "A", content: "192.0.2.1" }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        // What a resolver returns for A at an alias: the chain's addresses; the CNAME tells.
        answer("www.shop.example", "A", [{ type: "A", value: "192.0.2.1" }]),
        answer("www.shop.example", "CNAME", [{ type: "CNAME", value: "shop.example" }]),
      ]),
      true,
    );
    expect(verdict.served).toEqual([]);
    expect(verdict.different).toEqual([
      { declared: records[0], published: { name: "www", type: "CNAME", content: "{domainname}." } },
    ]);
    expect(verdict.extra).toEqual([{ name: "www", type: "CNAME", content: "{domainname}." }]);
  });

  it("serves a URL forward when its name has an A and an AAAA, whatever their addresses", () => {
    const records: RecordSpec[] = [{ name: "go", type: "URLFWD", content: "https://example.net/" }];
    const both = answersFor(records, [
      answer("go.shop.example", "A", [{ type: "A", value: "203.0.113.80" }]),
      answer("go.shop.example", "AAAA", [{ type: "AAAA", value: "2001:db8::80" }]),
    ]);
    expect(comparePublished(records, D, both, true)).toMatchObject({ served: records, extra: [] });
    const onlyA = answersFor(records, [
      answer("go.shop.example", "A", [{ type: "A", value: "203.0.113.80" }]),
    ]);
    expect(comparePublished(records, D, onlyA, true).missing).toEqual(records);
  });

  it("takes a wildcard's values at a vanished name as the wildcard's: the record is missing, nothing is extra", () => {
    const records: RecordSpec[] = [
      { name: "*", type: "A", content: "192.0.2.7" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer("*.shop.example", "A", [{ type: "A", value: "192.0.2.7" }]),
        answer("www.shop.example", "A", [{ type: "A", value: "192.0.2.7" }]),
      ]),
      true,
    );
    expect(verdict.served).toEqual([records[0]]);
    expect(verdict.missing).toEqual([records[1]]);
    expect(verdict.different).toEqual([]);
    expect(verdict.extra).toEqual([]);
  });

  it("does not compare an NS record below the apex (a delegation is answered with a referral)", () => {
    const records: RecordSpec[] = [{ name: "sub", type: "NS", content: "ns1.example.net" }];
    const verdict = comparePublished(records, D, [], true);
    expect(verdict.unchecked).toEqual([{ record: records[0], reason: expect.stringMatching(/delegation/) }]);
    expect(verdict.missing).toEqual([]);
  });
});
