/**
 * SPF records read term by term against the ABNF of RFC 7208 (§4.5, §5, §6, §7.1, §12): what each
 * mechanism and modifier may carry, the domain-spec with its macros, the CIDR lengths, and the
 * problem a user reads for each permanent error.
 */
import { describe, expect, it } from "vitest";
import { isSpfRecord, passingAll, readSpf, SPF_MECHANISMS } from "../../../provider/checks/spf";

/** The problems of a record, as the user reads them. */
const problems = (content: string) => readSpf(content).problems.map((p) => p.problem);

describe("the version (RFC 7208 §4.5)", () => {
  it("is v=spf1 followed by a space or nothing, in any case; anything else is no SPF record", () => {
    expect(isSpfRecord("v=spf1")).toBe(true);
    expect(isSpfRecord("v=spf1 -all")).toBe(true);
    expect(isSpfRecord("V=SpF1 -all")).toBe(true);
    expect(isSpfRecord("v=spf10 -all")).toBe(false);
    expect(isSpfRecord("v=spf1\t-all")).toBe(false);
    expect(isSpfRecord(" v=spf1 -all")).toBe(false);
    expect(isSpfRecord("xv=spf1 -all")).toBe(false);
    expect(isSpfRecord("google-site-verification=abc")).toBe(false);
  });

  it("a content without it reads as one problem, with the fix", () => {
    expect(readSpf("spf1 -all")).toEqual({
      terms: [],
      lookups: [],
      problems: [{ problem: "the record does not start with v=spf1", fix: 'start it with "v=spf1 "' }],
    });
  });

  it("a bare v=spf1 has no terms and no problem", () => {
    expect(readSpf("v=spf1")).toEqual({ terms: [], problems: [], lookups: [] });
  });
});

describe("terms as read (RFC 7208 §4.6.1, §12)", () => {
  it("each mechanism with its qualifier (+ when none is written), name lower-cased, value after ':'", () => {
    const { terms } = readSpf(
      "v=spf1 MX ~a:Mail.Example.com -ip4:192.0.2.0/24 ?include:_spf.example.net a/24",
    );
    expect(terms).toEqual([
      { text: "MX", kind: "mechanism", name: "mx", qualifier: "+" },
      {
        text: "~a:Mail.Example.com",
        kind: "mechanism",
        name: "a",
        qualifier: "~",
        value: "Mail.Example.com",
      },
      { text: "-ip4:192.0.2.0/24", kind: "mechanism", name: "ip4", qualifier: "-", value: "192.0.2.0/24" },
      {
        text: "?include:_spf.example.net",
        kind: "mechanism",
        name: "include",
        qualifier: "?",
        value: "_spf.example.net",
      },
      { text: "a/24", kind: "mechanism", name: "a", qualifier: "+", value: "/24" },
    ]);
  });

  it("modifiers by name=value, the name lower-cased", () => {
    expect(readSpf("v=spf1 Redirect=_spf.example.com").terms).toEqual([
      { text: "Redirect=_spf.example.com", kind: "modifier", name: "redirect", value: "_spf.example.com" },
    ]);
    expect(readSpf("v=spf1 -all x-custom.mod_1=anything").terms[1]).toEqual({
      text: "x-custom.mod_1=anything",
      kind: "modifier",
      name: "x-custom.mod_1",
      value: "anything",
    });
  });

  it("an unknown mechanism names the mechanisms there are", () => {
    expect(readSpf("v=spf1 mxx -all").problems).toEqual([
      {
        problem: `"mxx" is not a mechanism: an SPF record holds only ${SPF_MECHANISMS.join(", ")} (each with an optional +, -, ~ or ? before it) and name=value modifiers`,
        fix: 'correct or remove "mxx"',
      },
    ]);
    expect(SPF_MECHANISMS).toEqual(["all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"]);
    // A modifier name starts with a letter (§12: name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." )).
    expect(problems("v=spf1 1x=y -all")).toEqual([expect.stringContaining('"1x=y" is not a mechanism')]);
  });

  it("a malformed mechanism is named with its fix", () => {
    expect(readSpf("v=spf1 ip4 -all").problems).toEqual([
      {
        problem: '"ip4" is malformed: ip4 needs ":" and an address, e.g. ip4:192.0.2.0/24',
        fix: 'correct "ip4"',
      },
    ]);
  });
});

describe("mechanisms (RFC 7208 §5)", () => {
  const cases: Array<[string, string[]]> = [
    // all: nothing after it
    ["v=spf1 -all", []],
    ["v=spf1 all/24", ['"all/24" is malformed: "all" takes nothing after it; got "/24"']],
    // include and exists: ":" and a domain-spec
    [
      "v=spf1 exists -all",
      ['"exists" is malformed: exists needs ":" and a domain, e.g. exists:_spf.example.net'],
    ],
    [
      "v=spf1 include/24 -all",
      ['"include/24" is malformed: include needs ":" and a domain, e.g. include:_spf.example.net'],
    ],
    ["v=spf1 include: -all", ['"include:" is malformed: it names no domain']],
    // ptr: optionally ":" and a domain-spec
    ["v=spf1 ptr:example.com -all", []],
    ["v=spf1 ptr/24 -all", ['"ptr/24" is malformed: it is followed by "/24"; write ":" before a domain']],
    ["v=spf1 ptr:localhost -all", [expect.stringContaining('"localhost" is not a domain')]],
    // a and mx: domain, ip4-cidr-length, ip6-cidr-length
    [
      "v=spf1 a.example.com -all",
      ['"a.example.com" is malformed: it is followed by ".example.com"; write ":" before a domain'],
    ],
    ["v=spf1 a: -all", ['"a:" is malformed: it names no domain']],
    ["v=spf1 a:example.com/24//64 -all", []],
    ["v=spf1 mx/0 mx//0 mx/32 mx//128 -all", []],
    [
      "v=spf1 a/33 -all",
      ['"a/33" is malformed: /33 is not a prefix length: it goes from 0 to 32 without leading zeros'],
    ],
    [
      "v=spf1 a//129 -all",
      ['"a//129" is malformed: /129 is not a prefix length: it goes from 0 to 128 without leading zeros'],
    ],
    [
      "v=spf1 a/024 -all",
      ['"a/024" is malformed: /024 is not a prefix length: it goes from 0 to 32 without leading zeros'],
    ],
    [
      "v=spf1 mx/ -all",
      ['"mx/" is malformed: / is not a prefix length: it goes from 0 to 32 without leading zeros'],
    ],
    ["v=spf1 mx:bad..example/24 -all", []],
    [
      "v=spf1 a:example.com//1000 -all",
      [expect.stringContaining("/1000 is not a prefix length: it goes from 0 to 128")],
    ],
    // ip4 and ip6: ":" and an address, optionally a CIDR length
    ["v=spf1 ip4:192.0.2.1 ip4:192.0.2.0/0 ip4:192.0.2.0/32 -all", []],
    ["v=spf1 ip6 -all", ['"ip6" is malformed: ip6 needs ":" and an address, e.g. ip6:2001:db8::/32']],
    ["v=spf1 ip6:192.0.2.1 -all", ['"ip6:192.0.2.1" is malformed: "192.0.2.1" is not an IPv6 address']],
    ["v=spf1 ip4:2001:db8::1 -all", ['"ip4:2001:db8::1" is malformed: "2001:db8::1" is not an IPv4 address']],
    ["v=spf1 ip6:2001:db8::1 ip6:2001:db8::/128 -all", []],
    [
      "v=spf1 ip4:192.0.2.0/08 -all",
      [expect.stringContaining("/08 is not a prefix length: it goes from 0 to 32")],
    ],
    [
      "v=spf1 ip6:2001:db8::/064 -all",
      [expect.stringContaining("/064 is not a prefix length: it goes from 0 to 128")],
    ],
  ];
  it.each(cases)("%j", (content, expected) => {
    expect(problems(content)).toEqual(expected);
  });
});

describe("domain-spec and macros (RFC 7208 §7.1)", () => {
  const cases: Array<[string, string[]]> = [
    // domain-end: a dot and a top label, or a macro
    ["v=spf1 include:example.com. -all", []],
    ["v=spf1 include:_spf.{domainname} -all", []],
    ["v=spf1 include:x.com -all", []],
    ["v=spf1 include:example.x-1 -all", []],
    ["v=spf1 include:example.1-2 -all", []],
    ["v=spf1 include:example.a1b -all", []],
    ["v=spf1 include:example.123 -all", [expect.stringContaining('"example.123" is not a domain')]],
    ["v=spf1 include:example.-ab -all", [expect.stringContaining('"example.-ab" is not a domain')]],
    ["v=spf1 include:example.ab- -all", [expect.stringContaining('"example.ab-" is not a domain')]],
    ["v=spf1 include:example. -all", [expect.stringContaining('"example." is not a domain')]],
    [
      "v=spf1 include:localhost -all",
      [
        '"include:localhost" is malformed: "localhost" is not a domain: it must end in a dot and a top label, e.g. "_spf.example.net" or "{domainname}"',
      ],
    ],
    // macro-expand: %{letter digits r delimiters}, or %% %_ %-
    ["v=spf1 exists:%{i}._spf.%{d} -all", []],
    ["v=spf1 exists:%{ir}.%{v}.%{l1r+-}.%{d2}._spf.example.com -all", []],
    ["v=spf1 exists:%{S}.%{L}.%{O}.%{D}.%{I}.%{P}.%{H}.%{C}.%{R}.%{T}.%{V}.example.com -all", []],
    ["v=spf1 exists:%{l.-+,/_=}.example.com -all", []],
    ["v=spf1 include:example.com.%{d} -all", []],
    ["v=spf1 include:example.com%% -all", []],
    ["v=spf1 include:example.com%_ -all", []],
    ["v=spf1 include:example.com%- -all", []],
    ["v=spf1 include:a%%b.example.com -all", []],
    ["v=spf1 include:%{d}x -all", [expect.stringContaining('"%{d}x" is not a domain')]],
    [
      "v=spf1 include:%{z}.example.com -all",
      [
        '"include:%{z}.example.com" is malformed: "%" starts a macro such as %{d} or %{ir}, or is written "%%" for a literal "%" (RFC 7208 §7.1)',
      ],
    ],
    ["v=spf1 include:%d.example.com -all", [expect.stringContaining('"%" starts a macro')]],
    ["v=spf1 include:example.com% -all", [expect.stringContaining('"%" starts a macro')]],
    ["v=spf1 include:%{d.example.com -all", [expect.stringContaining('"%" starts a macro')]],
    ["v=spf1 include:x.%{dr!}.example.com -all", [expect.stringContaining('"%" starts a macro')]],
    // macro-literal: visible characters except "%" (%x21-24 / %x26-7E)
    ["v=spf1 include:!$&~.example.com -all", []],
    [
      "v=spf1 include:exämple.com -all",
      ['"include:exämple.com" is malformed: it holds "ä", which no SPF domain can (RFC 7208 §7.1)'],
    ],
    ["v=spf1 include:a\u007fb.example.com -all", [expect.stringContaining('it holds "\u007f"')]],
    ["v=spf1 include:a\tb.example.com -all", [expect.stringContaining('it holds "\\t"')]],
  ];
  it.each(cases)("%j", (content, expected) => {
    expect(problems(content)).toEqual(expected);
  });
});

describe("modifiers (RFC 7208 §6, §12)", () => {
  it("redirect and exp take a domain-spec; an unknown modifier a macro-string", () => {
    expect(problems("v=spf1 redirect=_spf.example.com")).toEqual([]);
    expect(problems("v=spf1 -all exp=explain.%{d}")).toEqual([]);
    expect(problems("v=spf1 -all foo=%{d}bar")).toEqual([]);
    expect(readSpf("v=spf1 redirect=").problems).toEqual([
      {
        problem: 'the modifier "redirect=" is malformed: it names no domain',
        fix: 'correct or remove "redirect="',
      },
    ]);
    expect(problems("v=spf1 -all exp=localhost")).toEqual([
      expect.stringContaining('the modifier "exp=localhost" is malformed: "localhost" is not a domain'),
    ]);
    expect(problems("v=spf1 -all foo=50%")).toEqual([
      expect.stringContaining('the modifier "foo=50%" is malformed: "%" starts a macro'),
    ]);
  });

  it("redirect and exp at most once each, naming every copy", () => {
    expect(readSpf("v=spf1 -all exp=a.example.com exp=b.example.com").problems).toEqual([
      {
        problem: "exp= appears 2 times; it may appear at most once (RFC 7208 §6)",
        fix: 'keep one of "exp=a.example.com", "exp=b.example.com"',
      },
    ]);
    expect(
      problems("v=spf1 mx redirect=a.example.com redirect=b.example.com redirect=c.example.com"),
    ).toEqual(["redirect= appears 3 times; it may appear at most once (RFC 7208 §6)"]);
  });

  it("an all anywhere in the record makes a redirect dead, whatever its place or qualifier", () => {
    expect(readSpf("v=spf1 redirect=_spf.example.com ?all").problems).toEqual([
      {
        problem:
          '"redirect=_spf.example.com" is never followed: "?all" matches every sender first (RFC 7208 §6.1)',
        fix: 'remove "?all" to use the redirect, or remove "redirect=_spf.example.com"',
      },
    ]);
    expect(problems("v=spf1 mx exp=explain.example.com")).toEqual([]);
  });
});

describe("DNS lookups (RFC 7208 §4.6.4)", () => {
  it("lists the terms that cost one, as written, in record order", () => {
    expect(
      readSpf(
        "v=spf1 ip4:192.0.2.1 A mx:m.example.com/24 ptr exists:%{i}.x.example.com include:i.example.com ip6:2001:db8::1 -all exp=e.example.com redirect=r.example.com",
      ).lookups,
    ).toEqual([
      "A",
      "mx:m.example.com/24",
      "ptr",
      "exists:%{i}.x.example.com",
      "include:i.example.com",
      "redirect=r.example.com",
    ]);
  });

  it("an unknown mechanism costs none (it is an error of its own)", () => {
    expect(readSpf("v=spf1 mxx includes:x.example.com -all").lookups).toEqual([]);
  });
});

describe("an all that passes every host (RFC 7208 §5.1)", () => {
  it("is the first all, when it is + written or implied", () => {
    expect(passingAll(readSpf("v=spf1 mx +all"))?.text).toBe("+all");
    expect(passingAll(readSpf("v=spf1 mx ALL"))?.text).toBe("ALL");
    expect(passingAll(readSpf("v=spf1 mx all -all"))?.text).toBe("all");
  });

  it("is not a -all, ~all or ?all, nor any all after the first, nor a malformed all", () => {
    for (const content of [
      "v=spf1 -all",
      "v=spf1 ~all",
      "v=spf1 ?all",
      "v=spf1 -all +all",
      "v=spf1 mx",
      "v=spf1 all:x",
    ])
      expect(passingAll(readSpf(content))).toBeUndefined();
  });
});
