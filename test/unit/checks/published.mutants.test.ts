/**
 * The comparison with what a domain publishes, in the cases the other files leave out: records
 * written in other presentation forms of the same value (RFC 5952 IPv6, RFC 8659 CAA, RFC 6698
 * TLSA, RFC 1035 whitespace), wildcards only by whole labels (RFC 4592), a wildcard's own extras,
 * a wildcard CNAME synthesized at a vanished name, and a URL forward that lacks its A.
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

describe("one value, other presentation forms", () => {
  it("a declared IPv6 address in its long form is served by the same address", () => {
    const records: RecordSpec[] = [{ name: "@", type: "AAAA", content: "2001:DB8:0:0:0:0:0:1" }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [answer(D, "AAAA", [{ type: "AAAA", value: "2001:db8::1" }])]),
      true,
    );
    expect(verdict).toMatchObject({ served: records, different: [], missing: [], extra: [] });
  });

  it("a CAA record with flags above 9, a tag in capitals and several spaces is served by its value", () => {
    const published = answer(D, "CAA", [
      { type: "CAA", flags: 128, tag: "issue", value: "ca.example.net" },
      { type: "CAA", flags: 0, tag: "iodef", value: "mailto:sec@example.net" },
    ]);
    const records: RecordSpec[] = [
      { name: "@", type: "CAA", content: '0  iodef  "mailto:sec@example.net"' },
      { name: "@", type: "CAA", content: '128 ISSUE "ca.example.net"' },
    ];
    const verdict = comparePublished(records, D, answersFor(records, [published]), true);
    expect(verdict).toMatchObject({ served: records, different: [], missing: [], extra: [] });
  });

  it("a CAA content with anything before its flags or after its value is not the published record", () => {
    const published = answer(D, "CAA", [{ type: "CAA", flags: 0, tag: "issue", value: "ca.example.net" }]);
    for (const content of ['x0 issue "ca.example.net"', '0 issue "ca.example.net" x']) {
      const records: RecordSpec[] = [{ name: "@", type: "CAA", content }];
      const verdict = comparePublished(records, D, answersFor(records, [published]), false);
      expect(verdict.served).toEqual([]);
      expect(verdict.different).toEqual([
        { declared: records[0], published: { name: "@", type: "CAA", content: '0 issue "ca.example.net"' } },
      ]);
    }
  });

  it("TLSA fields compare as numbers, however many digits and spaces they are written with", () => {
    const published = answer(`_443._tcp.${D}`, "TLSA", [
      { type: "TLSA", usage: 3, selector: 1, matchingType: 1, data: "abcd" },
    ]);
    for (const content of [
      "03 1 1 ABCD",
      "3 01 1 ABCD",
      "3 1 01 ABCD",
      "3  1 1 ABCD",
      "3 1  1 ABCD",
      "3 1 1  ABCD",
    ]) {
      const records: RecordSpec[] = [{ name: "_443._tcp", type: "TLSA", content }];
      const verdict = comparePublished(records, D, answersFor(records, [published]), true);
      expect({ content, served: verdict.served }).toEqual({ content, served: records });
    }
  });

  it("a TLSA content with anything before its fields or after its data is not the published record", () => {
    const published = answer(`_443._tcp.${D}`, "TLSA", [
      { type: "TLSA", usage: 3, selector: 1, matchingType: 1, data: "abcd" },
    ]);
    for (const content of ["x3 1 1 ABCD", "3 1 1 ABCD x"]) {
      const records: RecordSpec[] = [{ name: "_443._tcp", type: "TLSA", content }];
      const verdict = comparePublished(records, D, answersFor(records, [published]), false);
      expect({ content, served: verdict.served }).toEqual({ content, served: [] });
    }
  });
});

describe("wildcards (RFC 4592)", () => {
  it("cover a name only by whole labels: *.b does not cover ab", () => {
    const records: RecordSpec[] = [
      { name: "*.b", type: "TXT", content: "wild" },
      { name: "ab", type: "TXT", content: "mine" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(`*.b.${D}`, "TXT", [{ type: "TXT", strings: ["wild"] }]),
        answer(`ab.${D}`, "TXT", [
          { type: "TXT", strings: ["mine"] },
          { type: "TXT", strings: ["wild"] },
        ]),
      ]),
      true,
    );
    expect(verdict.served).toEqual(records);
    expect(verdict.extra).toEqual([{ name: "ab", type: "TXT", content: "wild" }]);
  });

  it("a value served at the wildcard's own name that it does not declare is an extra there", () => {
    const records: RecordSpec[] = [{ name: "*", type: "A", content: "192.0.2.7" }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(`*.${D}`, "A", [
          { type: "A", value: "192.0.2.7" },
          { type: "A", value: "192.0.2.8" },
        ]),
      ]),
      true,
    );
    expect(verdict.served).toEqual(records);
    expect(verdict.extra).toEqual([{ name: "*", type: "A", content: "192.0.2.8" }]);
  });

  it("a wildcard CNAME synthesized at a vanished name is the wildcard's: the record there is missing, not aliased", () => {
    const records: RecordSpec[] = [
      { name: "*", type: "CNAME", content: "cdn.example.net." },
      { name: "www", type: "A", content: "192.0.2.1" },
    ];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [
        answer(`*.${D}`, "CNAME", [{ type: "CNAME", value: "cdn.example.net" }]),
        answer(`www.${D}`, "CNAME", [{ type: "CNAME", value: "cdn.example.net" }]),
      ]),
      true,
    );
    expect(verdict.served).toEqual([records[0]]);
    expect(verdict.missing).toEqual([records[1]]);
    expect(verdict.different).toEqual([]);
    expect(verdict.extra).toEqual([]);
  });
});

describe("URL forwards", () => {
  it("a forward whose name has an AAAA but no A is missing", () => {
    const records: RecordSpec[] = [{ name: "go", type: "URLFWD301", content: "https://example.net/" }];
    const verdict = comparePublished(
      records,
      D,
      answersFor(records, [answer(`go.${D}`, "AAAA", [{ type: "AAAA", value: "2001:db8::80" }])]),
      true,
    );
    expect(verdict.missing).toEqual(records);
    expect(verdict.served).toEqual([]);
  });
});
