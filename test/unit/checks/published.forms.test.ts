/**
 * What a domain publishes, written back as records of its template (host names under the domain
 * as `{domainname}`, RFC 4343 case, RFC 5952 IPv6), and the cases of the comparison the first
 * tests leave out: questions asked once, the apex NS (compared, unlike a delegation), CAA and TLSA
 * in the forms servers send, nested wildcards, CNAMEs the template declares itself.
 */
import { describe, expect, it } from "vitest";
import {
  comparePublished,
  isPublishedType,
  ownerName,
  publishedRecord,
  questionsFor,
  verdictPasses,
} from "../../../provider/checks/published";
import type { PublishedValue, RRset } from "../../../provider/client/resolver";
import type { RecordSpec } from "../../../provider/dns/model";

const D = "shop.example";

function answer(name: string, type: RRset["type"], values: PublishedValue[]): RRset {
  return { name, type, outcome: values.length > 0 ? "answer" : "nodata", values };
}

function answersFor(records: RecordSpec[], given: RRset[]): RRset[] {
  const byKey = new Map(given.map((a) => [`${a.name} ${a.type}`, a]));
  return questionsFor(records, D).map((q) => byKey.get(`${q.name} ${q.type}`) ?? answer(q.name, q.type, []));
}

describe("a published value as a record of the template", () => {
  it.each<[PublishedValue, RecordSpec]>([
    [
      { type: "A", value: "192.0.2.1" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ],
    [
      { type: "AAAA", value: "2001:DB8:0:0:0:0:0:1" },
      { name: "www", type: "AAAA", content: "2001:db8::1" },
    ],
    [
      { type: "CNAME", value: "Shop.Example." },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ],
    [
      { type: "CNAME", value: "cdn.shop.example" },
      { name: "www", type: "CNAME", content: "cdn.{domainname}." },
    ],
    [
      { type: "CNAME", value: "cdn.example.net" },
      { name: "www", type: "CNAME", content: "cdn.example.net." },
    ],
    [
      { type: "CNAME", value: "notshop.example" },
      { name: "www", type: "CNAME", content: "notshop.example." },
    ],
    [
      { type: "NS", value: "" },
      { name: "www", type: "NS", content: "." },
    ],
    [
      { type: "MX", priority: 5, exchange: "MAIL.shop.example." },
      { name: "www", type: "MX", content: "mail.{domainname}.", priority: 5 },
    ],
    [
      { type: "SRV", priority: 1, weight: 2, port: 3, target: "sip.example.net" },
      { name: "www", type: "SRV", content: "sip.example.net.", priority: 1, weight: 2, port: 3 },
    ],
    [
      { type: "TXT", strings: ["v=spf1 ", "-all"] },
      { name: "www", type: "TXT", content: "v=spf1 -all" },
    ],
    [
      { type: "CAA", flags: 128, tag: "ISSUE", value: "ca.example.net" },
      { name: "www", type: "CAA", content: '128 issue "ca.example.net"' },
    ],
    [
      { type: "TLSA", usage: 3, selector: 1, matchingType: 2, data: "ABCDEF" },
      { name: "www", type: "TLSA", content: "3 1 2 abcdef" },
    ],
  ])("%j", (value, record) => {
    expect(publishedRecord("www", value, D)).toEqual(record);
  });
});

describe("names and types", () => {
  it("an owner is absolute and in lower case; @ and the empty name are the domain", () => {
    expect(ownerName("@", D)).toBe(D);
    expect(ownerName("", D)).toBe(D);
    expect(ownerName("WWW.Api", D)).toBe("www.api.shop.example");
  });

  it("the published types are the record types a template declares, not the forwards", () => {
    for (const type of ["A", "AAAA", "CNAME", "NS", "MX", "SRV", "TXT", "CAA", "TLSA"])
      expect(isPublishedType(type)).toBe(true);
    for (const type of ["URLFWD", "URLFWD301", "URLCLO", "SPF", "toString", "a"])
      expect(isPublishedType(type)).toBe(false);
  });

  it("each question is asked once, however many records share the name and type", () => {
    const records: RecordSpec[] = [
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "@", type: "A", content: "192.0.2.2" },
      { name: "www", type: "CNAME", content: "{domainname}." },
      { name: "go", type: "URLFWD", content: "https://a.example/" },
      { name: "go", type: "URLCLO", content: "https://b.example/" },
      { name: "@", type: "NS", content: "ns1.example.net." },
    ];
    expect(questionsFor(records, D)).toEqual([
      { name: "shop.example", type: "A" },
      { name: "shop.example", type: "CNAME" },
      { name: "www.shop.example", type: "CNAME" },
      { name: "go.shop.example", type: "A" },
      { name: "go.shop.example", type: "AAAA" },
      { name: "go.shop.example", type: "CNAME" },
      { name: "shop.example", type: "NS" },
    ]);
  });
});

describe("the comparison", () => {
  it("the apex NS set is compared (it is the zone's own, not a delegation)", () => {
    const records: RecordSpec[] = [{ name: "@", type: "NS", content: "ns1.example.net." }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [answer(D, "NS", [{ type: "NS", value: "ns2.example.net" }])]),
      false,
    );
    expect(verdict.unchecked).toEqual([]);
    expect(verdict.different).toEqual([
      { declared: records[0], published: { name: "@", type: "NS", content: "ns2.example.net." } },
    ]);
  });

  it("CAA flags and TLSA fields are compared as numbers, TLSA data without case", () => {
    const records: RecordSpec[] = [
      { name: "@", type: "CAA", content: '0 issue "ca.example.net"' },
      { name: "_443._tcp", type: "TLSA", content: "3 1 1 ABCD" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(D, "CAA", [{ type: "CAA", flags: 0, tag: "issue", value: "ca.example.net" }]),
        answer(`_443._tcp.${D}`, "TLSA", [
          { type: "TLSA", usage: 3, selector: 1, matchingType: 1, data: "abcd" },
        ]),
      ]),
      true,
    );
    expect(verdict.served).toEqual(records);
    expect(verdictPasses(verdict)).toBe(true);
  });

  it("a CAA value that differs only in case is another value", () => {
    const records: RecordSpec[] = [{ name: "@", type: "CAA", content: '0 issue "CA.example.net"' }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(D, "CAA", [{ type: "CAA", flags: 0, tag: "issue", value: "ca.example.net" }]),
      ]),
      false,
    );
    expect(verdict.different).toHaveLength(1);
    expect(verdictPasses(verdict)).toBe(false);
  });

  it("SRV compares priority, weight, port and target", () => {
    const srv: RecordSpec = {
      name: "_sip._tcp",
      type: "SRV",
      content: "sip.{domainname}",
      priority: 1,
      weight: 2,
      port: 5060,
    };
    const at = `_sip._tcp.${D}`;
    const served = (v: Partial<{ priority: number; weight: number; port: number; target: string }>) =>
      comparePublished(
        [srv],
        D,
        answersFor(
          [srv],
          [
            answer(at, "SRV", [
              { type: "SRV", priority: 1, weight: 2, port: 5060, target: `sip.${D}`, ...v },
            ]),
          ],
        ),
        false,
      ).served.length === 1;
    expect(served({})).toBe(true);
    expect(served({ priority: 2 })).toBe(false);
    expect(served({ weight: 3 })).toBe(false);
    expect(served({ port: 5061 })).toBe(false);
    expect(served({ target: "sip.example.net" })).toBe(false);
  });

  it("a wildcard covers names more than one label below it", () => {
    const records: RecordSpec[] = [
      { name: "*.api", type: "A", content: "192.0.2.7" },
      { name: "v1.eu.api", type: "A", content: "192.0.2.1" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(`*.api.${D}`, "A", [{ type: "A", value: "192.0.2.7" }]),
        answer(`v1.eu.api.${D}`, "A", [{ type: "A", value: "192.0.2.7" }]),
      ]),
      true,
    );
    expect(verdict.missing).toEqual([records[1]]);
    expect(verdict.extra).toEqual([]);
  });

  it("a wildcard's own values beside a declared record at a name are not extras; other values are", () => {
    const records: RecordSpec[] = [
      { name: "*", type: "TXT", content: "wild" },
      { name: "www", type: "TXT", content: "mine" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(`*.${D}`, "TXT", [{ type: "TXT", strings: ["wild"] }]),
        answer(`www.${D}`, "TXT", [
          { type: "TXT", strings: ["mine"] },
          { type: "TXT", strings: ["wild"] },
          { type: "TXT", strings: ["stray"] },
        ]),
      ]),
      true,
    );
    expect(verdict.served).toEqual(records);
    expect(verdict.extra).toEqual([{ name: "www", type: "TXT", content: "stray" }]);
  });

  it("a CNAME the template declares at a name is no extra there, though it hides the other types", () => {
    const records: RecordSpec[] = [
      { name: "www", type: "CNAME", content: "cdn.example.net." },
      { name: "www", type: "TXT", content: "hidden" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [answer(`www.${D}`, "CNAME", [{ type: "CNAME", value: "cdn.example.net" }])]),
      true,
    );
    expect(verdict.served).toEqual([records[0]]);
    expect(verdict.different).toEqual([
      { declared: records[1], published: { name: "www", type: "CNAME", content: "cdn.example.net." } },
    ]);
    expect(verdict.extra).toEqual([]);
  });

  it("a CNAME at a URL forward's name makes it different, but is never counted extra", () => {
    const records: RecordSpec[] = [{ name: "go", type: "URLFWD", content: "https://example.net/" }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [answer(`go.${D}`, "CNAME", [{ type: "CNAME", value: "fwd.example.net" }])]),
      true,
    );
    expect(verdict.different).toHaveLength(1);
    expect(verdict.extra).toEqual([]);
  });

  it("passes only with nothing missing, different or extra", () => {
    const empty = { domain: D, served: [], missing: [], different: [], extra: [], unchecked: [] };
    const r: RecordSpec = { name: "@", type: "A", content: "192.0.2.1" };
    expect(verdictPasses(empty)).toBe(true);
    expect(verdictPasses({ ...empty, unchecked: [{ record: r, reason: "x" }] })).toBe(true);
    expect(verdictPasses({ ...empty, missing: [r] })).toBe(false);
    expect(verdictPasses({ ...empty, different: [{ declared: r, published: r }] })).toBe(false);
    expect(verdictPasses({ ...empty, extra: [r] })).toBe(false);
  });
});
