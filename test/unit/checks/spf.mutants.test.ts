/**
 * SPF records at the edges of RFC 7208's grammar: a macro typed without its braces, top labels with
 * hyphens (the IDN top-level domains), a domain-end right after an empty macro-string, an address
 * missing before its prefix length, and unknown modifiers that share a mechanism's name (§6: ignored).
 */
import { describe, expect, it } from "vitest";
import { passingAll, readSpf } from "../../../provider/checks/spf";

/** The problems of a record, as the user reads them. */
const problems = (content: string) => readSpf(content).problems.map((p) => p.problem);

describe("domain-spec (RFC 7208 §7.1)", () => {
  it('a "%" without braces is refused even when a well-formed macro follows it', () => {
    // "%i" for "%{i}": the later %{d} does not make the first "%" a macro.
    expect(problems("v=spf1 exists:%i._spf.%{d} -all")).toEqual([
      '"exists:%i._spf.%{d}" is malformed: "%" starts a macro such as %{d} or %{ir}, or is written "%%" for a literal "%" (RFC 7208 §7.1)',
    ]);
  });

  it("a top label of several characters, then hyphens, ends a domain (the IDN top-level domains)", () => {
    // toplabel = 1*alphanum "-" *( alphanum / "-" ) alphanum: "xn--p1ai" is the top-level domain .рф.
    expect(problems("v=spf1 include:_spf.example.xn--p1ai -all")).toEqual([]);
    expect(problems("v=spf1 a:mail.example.xn--p1ai. mx:example.ab12-3 -all")).toEqual([]);
    // Hyphens inside, never at an end.
    expect(problems("v=spf1 include:_spf.example.xn--p1ai- -all")).toEqual([
      expect.stringContaining('"_spf.example.xn--p1ai-" is not a domain'),
    ]);
  });

  it("a dot and a top label after an empty macro-string is a domain-end; a bare label is not", () => {
    // domain-spec = macro-string domain-end, and the macro-string may be empty: the grammar takes
    // ".com" as it takes "bad..example" (what a name resolves to is DNS's concern, not syntax).
    expect(problems("v=spf1 include:.com -all")).toEqual([]);
    expect(problems("v=spf1 include:com -all")).toEqual([
      expect.stringContaining('"com" is not a domain: it must end in a dot and a top label'),
    ]);
  });
});

describe("ip4 and ip6 (RFC 7208 §5.6)", () => {
  it("a prefix length with no address before it names the empty address", () => {
    expect(readSpf("v=spf1 ip4:/24 -all").problems).toEqual([
      { problem: '"ip4:/24" is malformed: "" is not an IPv4 address', fix: 'correct "ip4:/24"' },
    ]);
    expect(problems("v=spf1 ip6:/64 -all")).toEqual(['"ip6:/64" is malformed: "" is not an IPv6 address']);
  });
});

describe("an unknown modifier named like a mechanism (RFC 7208 §6: ignored)", () => {
  it('"all=..." does not end the record: a redirect after it is followed', () => {
    expect(problems("v=spf1 all=x redirect=_spf.example.com")).toEqual([]);
    // The mechanism does end it.
    expect(problems("v=spf1 all redirect=_spf.example.com")).toEqual([
      expect.stringContaining(
        '"redirect=_spf.example.com" is never followed: "all" matches every sender first',
      ),
    ]);
  });

  it('"all=..." does not hide the +all after it, which passes every host', () => {
    expect(passingAll(readSpf("v=spf1 all=x +all"))?.text).toBe("+all");
    expect(passingAll(readSpf("v=spf1 all=x -all"))).toBeUndefined();
  });
});
