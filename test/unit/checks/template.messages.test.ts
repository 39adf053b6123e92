/**
 * The findings of the template checks word for word, as the preview and the PR plan show them:
 * a user acts on the problem and the fix, so each is pinned whole.
 */
import { describe, expect, it } from "vitest";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

const check = (records: RecordSpec[]) =>
  checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));

describe("the words of each finding", () => {
  it("spf-pass-all: says why +all lets forged mail through, and how to end the record", () => {
    const [f] = check([{ name: "mail", type: "TXT", content: "v=spf1 ip4:192.0.2.0/24 all" }]);
    expect(findingText(f!)).toBe(
      '[spf-pass-all, RFC 7208 §5.1] "all" authorises every host on the Internet to send mail as "mail": "all" matches any sender, ' +
        'and its qualifier "+" (the default when none is written) means pass, so receivers accept forged mail; ' +
        'fix: end the record with "-all" (or "~all" while you test) after the senders it lists, e.g. "v=spf1 include:_spf.example.net -all"',
    );
  });

  it("spf-syntax: the problem, marked as a permanent error for receivers, with its fix", () => {
    const [f] = check([{ name: "@", type: "TXT", content: "v=spf1 a:localhost -all" }]);
    expect(f).toMatchObject({
      problem:
        '"a:localhost" is malformed: "localhost" is not a domain: it must end in a dot and a top label, e.g. "_spf.example.net" or "{domainname}", a permanent error for receivers',
      fix: 'correct "a:localhost"',
      path: "records[0].content",
      record: "@ TXT v=spf1 a:localhost -all",
    });
  });

  it("spf-lookup-limit: names every lookup of the record, in order", () => {
    const terms = ["a", "mx", "ptr", ...Array.from({ length: 8 }, (_, i) => `include:i${i}.example.net`)];
    const [f] = check([{ name: "@", type: "TXT", content: `v=spf1 ${terms.join(" ")} -all` }]);
    expect(f?.rule).toBe("spf-lookup-limit");
    expect(f?.problem).toBe(
      `the record itself needs 11 DNS lookups (${terms.join(", ")}), more than the 10 receivers allow: they fail it (a permanent error), before counting what each include needs further`,
    );
  });
});

describe("what counts as one name", () => {
  it("SPF and DMARC records are grouped by their exact name, not across names", () => {
    expect(
      check([
        { name: "@", type: "TXT", content: "v=spf1 -all" },
        { name: "mail", type: "TXT", content: "v=spf1 -all" },
        { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=none" },
        { name: "_dmarc.mail", type: "TXT", content: "v=DMARC1; p=none" },
      ]),
    ).toEqual([]);
  });

  it("a DMARC record is read at _dmarc and below it, never at a name that only starts alike", () => {
    const bad = "v=DMARC1; p=block";
    expect(check([{ name: "_dmarc.shop", type: "TXT", content: bad }]).map((f) => f.rule)).toEqual([
      "dmarc-syntax",
    ]);
    expect(check([{ name: "_dmarcx", type: "TXT", content: bad }])).toEqual([]);
    expect(check([{ name: "x._dmarc", type: "TXT", content: bad }])).toEqual([]);
    // Not a TXT: the record validation owns it, not the DMARC rules.
    expect(check([{ name: "_dmarc", type: "CNAME", content: "dmarc.example.net." }])).toEqual([]);
  });

  it("an SPF record is a TXT: other types holding v=spf1 are not read", () => {
    expect(check([{ name: "@", type: "CNAME", content: "v=spf1 foo" }])).toEqual([]);
  });
});

describe("CAA findings", () => {
  it("an unknown tag without the critical flag: CAs ignore it", () => {
    const [f] = check([{ name: "@", type: "CAA", content: '0 issuer "ca.example.net"' }]);
    expect(f?.problem).toBe(
      'the CAA tag "issuer" is not in the IANA registry (almost always a typo); CAs ignore it',
    );
    expect(f?.severity).toBe("warning");
  });

  it("only the critical bit (128) makes an unknown tag stop every CA; a reserved bit is an error of its own", () => {
    const found = check([{ name: "@", type: "CAA", content: '1 issuer "ca.example.net"' }]);
    expect(found.map((f) => f.rule)).toEqual(["caa-syntax", "caa-unknown-tag"]);
    expect(found[1]?.problem).toMatch(/; CAs ignore it$/);
    const critical = check([{ name: "@", type: "CAA", content: '129 issuer "ca.example.net"' }]);
    expect(critical[1]?.problem).toMatch(/with the critical flag \(128\) set, no CA will issue/);
  });
});
