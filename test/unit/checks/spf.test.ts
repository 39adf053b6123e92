/**
 * The SPF rules of the template checks (RFC 7208): the RFC's own records pass, its permanent errors
 * fire with the path, rule, section and fix a user reads, and lookups are counted term by term.
 */
import { describe, expect, it } from "vitest";
import { findingText } from "../../../provider/checks/rules";
import { readSpf } from "../../../provider/checks/spf";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

function findings(records: RecordSpec[]) {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}
const txt = (content: string, name = "@"): RecordSpec => ({ name, type: "TXT", content });

describe("SPF syntax (RFC 7208 §4.6.1, §12)", () => {
  // RFC 7208 Appendix A: the example records of the RFC itself, and the examples of §5 and §6.
  const passing = [
    "v=spf1 +all",
    "v=spf1 a -all",
    "v=spf1 a:example.org -all",
    "v=spf1 mx -all",
    "v=spf1 mx:example.org -all",
    "v=spf1 mx mx:example.org -all",
    "v=spf1 mx/30 mx:example.org/30 -all",
    "v=spf1 ptr -all",
    "v=spf1 ip4:192.0.2.128/28 -all",
    "v=spf1 include:example.com include:example.net -all",
    "v=spf1 redirect=_spf.example.com",
    "v=spf1 mx:example.com -all",
    "v=spf1 -ip4:192.0.2.0/24 a//96 +all",
    "v=spf1 exists:%{ir}.%{l1r+-}._spf.%{d} -all",
    "v=spf1 mx -all exp=explain._spf.%{d}",
    "v=spf1 ip6:2001:db8::/32 ~all",
    "V=SPF1 MX -ALL",
    "v=spf1 include:_spf.{domainname} ?all",
    "v=spf1 mx  -all ",
  ];
  it.each(passing)("RFC 7208 Appendix A / §5 example %j passes (an +all only warns)", (content) => {
    expect(readSpf(content).problems).toEqual([]);
    // A deciding +all is legal, and authorises every host: the one finding is that warning.
    const expected = /\+all$/.test(content.trim()) ? ["spf-pass-all"] : [];
    expect(findings([txt(content)]).map((f) => f.rule)).toEqual(expected);
  });

  const failing: Array<[string, RegExp]> = [
    ["v=spf1 foo -all", /"foo" is not a mechanism/],
    ["v=spf1 include -all", /"include" is malformed: include needs ":" and a domain/],
    ["v=spf1 ip4:192.0.2.1/33 -all", /\/33 is not a prefix length: it goes from 0 to 32/],
    ["v=spf1 ip4:192.0.2.300 -all", /"192\.0\.2\.300" is not an IPv4 address/],
    ["v=spf1 ip6:2001:db8::/129 -all", /\/129 is not a prefix length: it goes from 0 to 128/],
    ["v=spf1 a:localhost -all", /"localhost" is not a domain: it must end in a dot and a top label/],
    ["v=spf1 exists:%{x}.example.com -all", /"%" starts a macro/],
    [
      "v=spf1 redirect=a.example.com redirect=b.example.com",
      /redirect= appears 2 times; it may appear at most once \(RFC 7208 §6\)/,
    ],
    [
      "v=spf1 -all redirect=_spf.example.com",
      /is never followed: "-all" matches every sender first \(RFC 7208 §6\.1\)/,
    ],
    ["v=spf1 all:x", /"all" takes nothing after it/],
  ];
  it.each(failing)("RFC 7208 §4.6.1/§12 permanent error in %j fires", (content, problem) => {
    const [f, ...rest] = findings([txt("x", "www"), txt(content)]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "spf-syntax", severity: "error", path: "records[1].content" });
    expect(f?.problem).toMatch(problem);
  });

  it("the message a user reads names the rule, the section, the problem and the fix", () => {
    const [f] = findings([txt("v=spf1 ip4:192.0.2.1/33 -all")]);
    expect(findingText(f!)).toBe(
      '[spf-syntax, RFC 7208 §4.6.1, §12] "ip4:192.0.2.1/33" is malformed: /33 is not a prefix length: it goes from 0 to 32 without leading zeros, a permanent error for receivers; fix: correct "ip4:192.0.2.1/33"',
    );
  });

  it("a TXT that is not SPF (v=spf10, a verification token) is not read as SPF (RFC 7208 §4.5)", () => {
    expect(findings([txt("v=spf10 -all"), txt("google-site-verification=abc"), txt("v=spf1 -all")])).toEqual(
      [],
    );
  });
});

describe("one SPF record per name (RFC 7208 §3.2)", () => {
  it("a second v=spf1 TXT at one name fires on the later record, naming the first and the fix", () => {
    const [f, ...rest] = findings([
      txt("v=spf1 mx -all"),
      txt("v=spf1 mx -all", "mail"),
      txt("v=spf1 include:_spf.mailhost.example -all"),
    ]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "spf-single-record", severity: "error", path: "records[2].content" });
    expect(findingText(f!)).toBe(
      '[spf-single-record, RFC 7208 §3.2] a second v=spf1 record at "@" (the first is records[0]); receivers then treat the name as having no SPF record at all (a permanent error); fix: merge the two into one record and remove records[2], e.g. "v=spf1 include:a.example include:b.example -all"',
    );
  });

  it("one SPF record at each of two names passes", () => {
    expect(findings([txt("v=spf1 mx -all"), txt("v=spf1 -all", "www")])).toEqual([]);
  });
});

describe("the record's own DNS lookups (RFC 7208 §4.6.4)", () => {
  it("counts include, a, mx, ptr, exists and redirect, one each, and not ip4, ip6, all or exp", () => {
    const reading = readSpf(
      "v=spf1 a mx ptr ip4:192.0.2.1 ip6:2001:db8::1 include:a.example exists:%{i}.b.example exp=c.example redirect=d.example",
    );
    expect(reading.lookups).toEqual([
      "a",
      "mx",
      "ptr",
      "include:a.example",
      "exists:%{i}.b.example",
      "redirect=d.example",
    ]);
  });

  const includes = (n: number) =>
    `v=spf1 ${Array.from({ length: n }, (_, i) => `include:s${i}.example.net`).join(" ")} -all`;

  it("10 lookups pass", () => {
    expect(findings([txt(includes(10))])).toEqual([]);
  });

  it("11 lookups fire, each lookup shown, with the count and the fix", () => {
    const [f, ...rest] = findings([txt(`${includes(10).replace(" -all", "")} mx -all`)]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "spf-lookup-limit", severity: "error", path: "records[0].content" });
    expect(findingText(f!)).toBe(
      "[spf-lookup-limit, RFC 7208 §4.6.4] the record itself needs 11 DNS lookups (include:s0.example.net, include:s1.example.net, include:s2.example.net, include:s3.example.net, include:s4.example.net, include:s5.example.net, include:s6.example.net, include:s7.example.net, include:s8.example.net, include:s9.example.net, mx), more than the 10 receivers allow: they fail it (a permanent error), before counting what each include needs further; fix: bring it to 10 or fewer: replace a, mx or include terms by the ip4:/ip6: ranges they stand for, or move some senders to a subdomain's own SPF record",
    );
  });
});
