/**
 * What the builders say to a program that passes them a wrong argument: the builder, the argument's
 * path and the fix, word for word (the message is all a user has to act on); and the records they
 * write, whole, in the order of their documentation.
 */
import { describe, expect, it } from "vitest";
import { BuilderArgumentError, caa, dmarc, spf } from "../../../provider/checks/builders";

/** The message a call throws; fails when it does not throw a BuilderArgumentError. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(BuilderArgumentError);
    return (err as Error).message;
  }
  throw new Error("expected the builder to refuse its arguments");
}

const EMAIL_EXAMPLE = 'e.g. rua: ["mailto:dmarc@example.com"]';

describe("spf() refuses, naming the argument", () => {
  it.each<[string, unknown, string]>([
    ["name", { name: 5 }, 'spf: name: the record\'s name must be a string, e.g. "@" or "mail"'],
    ["a", { a: "yes" }, "spf: a: a is true or false"],
    ["mx", { mx: 1 }, "spf: mx: mx is true or false"],
    ["ip4", { ip4: "192.0.2.1" }, 'spf: ip4: expected a list, e.g. ip4: ["192.0.2.0/24"]'],
    [
      "ip4[1]",
      { ip4: ["192.0.2.1", 5] },
      'spf: ip4[1]: each entry must be a string, e.g. ip4: ["192.0.2.0/24"]',
    ],
    ["ip6", { ip6: "x" }, 'spf: ip6: expected a list, e.g. ip6: ["2001:db8::/32"]'],
    [
      "include[0]",
      { include: [1] },
      'spf: include[0]: each entry must be a string, e.g. include: ["_spf.example.net"]',
    ],
    ["exists", { exists: {} }, 'spf: exists: expected a list, e.g. exists: ["%{i}._spf.example.net"]'],
    ["redirect", { redirect: 1 }, 'spf: redirect: redirect is a domain, e.g. "_spf.example.net"'],
    [
      "all",
      { all: "pass" },
      'spf: all: all is "fail" (-all), "softfail" (~all) or "neutral" (?all); "pass" (+all) would let anyone send',
    ],
    [
      "an unknown argument",
      { ipv4: [] },
      "spf: ipv4: unknown argument; spf takes name, a, mx, ip4, ip6, include, exists, redirect, all",
    ],
    [
      "a term SPF cannot read",
      { ip4: ["300.1.1.1"] },
      'spf: ip4[0]: "ip4:300.1.1.1" is malformed: "300.1.1.1" is not an IPv4 address; correct "ip4:300.1.1.1"',
    ],
    [
      "an empty domain",
      { include: [""] },
      'spf: include[0]: "include:" is malformed: it names no domain; correct "include:"',
    ],
    [
      "a term with a space",
      { exists: ["a b.example.net"] },
      'spf: exists[0]: "exists:a b.example.net" must be one term without spaces',
    ],
  ])("%s", (_, args, message) => {
    expect(refusal(() => spf(args as never))).toBe(message);
  });

  it("no arguments at all is the strictest record", () => {
    expect(spf(undefined as never).record).toEqual({ name: "@", type: "TXT", content: "v=spf1 -all" });
  });

  it("writes the terms in the order receivers should try them, and counts their lookups", () => {
    expect(
      spf({
        name: "mail",
        redirect: "_spf.example.org",
        exists: ["%{i}._spf.example.net"],
        include: ["_spf.example.net"],
        ip6: ["2001:db8::/32"],
        ip4: ["192.0.2.0/24"],
        mx: true,
        a: true,
      }),
    ).toEqual({
      record: {
        name: "mail",
        type: "TXT",
        content:
          "v=spf1 a mx ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.example.net exists:%{i}._spf.example.net redirect=_spf.example.org",
      },
      lookups: 5,
      lookupTerms: [
        "a",
        "mx",
        "include:_spf.example.net",
        "exists:%{i}._spf.example.net",
        "redirect=_spf.example.org",
      ],
    });
    expect(spf({ all: "softfail" }).record.content).toBe("v=spf1 ~all");
    expect(spf({ all: "neutral" }).record.content).toBe("v=spf1 ?all");
    expect(spf({ all: "fail" }).record.content).toBe("v=spf1 -all");
  });
});

describe("dmarc() refuses, naming the argument", () => {
  it.each<[string, unknown, string]>([
    ["policy", { policy: "block" }, 'dmarc: policy: policy is "none", "quarantine" or "reject"'],
    [
      "subdomainPolicy",
      { policy: "none", subdomainPolicy: "x" },
      'dmarc: subdomainPolicy: subdomainPolicy is "none", "quarantine" or "reject"',
    ],
    [
      "percent above 100",
      { policy: "none", percent: 101 },
      "dmarc: percent: percent is a whole number from 0 to 100",
    ],
    [
      "percent below 0",
      { policy: "none", percent: -1 },
      "dmarc: percent: percent is a whole number from 0 to 100",
    ],
    [
      "a fraction of a percent",
      { policy: "none", percent: 1.5 },
      "dmarc: percent: percent is a whole number from 0 to 100",
    ],
    [
      "percent as text",
      { policy: "none", percent: "5" },
      "dmarc: percent: percent is a whole number from 0 to 100",
    ],
    ["adkim", { policy: "none", adkim: "loose" }, 'dmarc: adkim: adkim is "relaxed" or "strict"'],
    ["aspf", { policy: "none", aspf: "loose" }, 'dmarc: aspf: aspf is "relaxed" or "strict"'],
    [
      "failureOptions[0]",
      { policy: "none", failureOptions: ["2"] },
      'dmarc: failureOptions[0]: each failure option is "0", "1", "d" or "s"',
    ],
    [
      "a negative reportInterval",
      { policy: "none", reportInterval: -1 },
      "dmarc: reportInterval: reportInterval is whole seconds, e.g. 86400",
    ],
    [
      "a fractional reportInterval",
      { policy: "none", reportInterval: 1.5 },
      "dmarc: reportInterval: reportInterval is whole seconds, e.g. 86400",
    ],
    [
      "a reportInterval as text",
      { policy: "none", reportInterval: "1" },
      "dmarc: reportInterval: reportInterval is whole seconds, e.g. 86400",
    ],
    [
      "a reportInterval beyond 32 bits",
      { policy: "none", reportInterval: 2 ** 32 },
      "dmarc: reportInterval: reportInterval is at most 4294967295 seconds",
    ],
    ["rua", { policy: "none", rua: "mailto:a@example.com" }, `dmarc: rua: expected a list, ${EMAIL_EXAMPLE}`],
    [
      "ruf[0]",
      { policy: "none", ruf: [3] },
      'dmarc: ruf[0]: each entry must be a string, e.g. ruf: ["mailto:dmarc@example.com"]',
    ],
    ["name", { policy: "none", name: 1 }, 'dmarc: name: the record\'s name must be a string, e.g. "_dmarc"'],
  ])("%s", (_, args, message) => {
    expect(refusal(() => dmarc(args as never))).toBe(message);
  });

  it("takes the edges of its ranges", () => {
    expect(dmarc({ policy: "none", percent: 0, reportInterval: 0 }).record.content).toBe(
      "v=DMARC1; p=none; pct=0; ri=0",
    );
    expect(dmarc({ policy: "none", percent: 100, reportInterval: 2 ** 32 - 1 }).record.content).toBe(
      "v=DMARC1; p=none; pct=100; ri=4294967295",
    );
  });

  it("writes v and p first, then every tag given, in a fixed order", () => {
    expect(
      dmarc({
        reportInterval: 3600,
        failureOptions: ["1", "d"],
        aspf: "relaxed",
        adkim: "strict",
        ruf: ["mailto:f@example.com"],
        rua: ["mailto:a@example.com", "mailto:b@example.com"],
        percent: 50,
        subdomainPolicy: "quarantine",
        policy: "reject",
        name: "_dmarc.Shop",
      }).record,
    ).toEqual({
      name: "_dmarc.Shop",
      type: "TXT",
      content:
        "v=DMARC1; p=reject; sp=quarantine; pct=50; rua=mailto:a@example.com,mailto:b@example.com; ruf=mailto:f@example.com; adkim=s; aspf=r; fo=1:d; ri=3600",
    });
    expect(dmarc({ policy: "none", aspf: "strict", adkim: "relaxed" }).record.content).toBe(
      "v=DMARC1; p=none; adkim=r; aspf=s",
    );
  });
});

describe("caa() refuses, naming the argument", () => {
  it.each<[string, unknown, string]>([
    [
      "tag",
      { tag: "isue", value: "x" },
      "caa: tag: tag is one of issue, issuewild, iodef, contactemail, contactphone, issuevmc, issuemail",
    ],
    ["value", { tag: "issue", value: 1 }, 'caa: value: value is a string, e.g. "letsencrypt.org"'],
    ["critical", { tag: "issue", value: "x", critical: "yes" }, "caa: critical: critical is true or false"],
    [
      "a value with a control character",
      { tag: "issue", value: "a\nb" },
      'caa: value: "a\\nb" holds a \'"\' or a control character, which a CAA value cannot',
    ],
    [
      "a value with a quote",
      { tag: "issue", value: 'a"b' },
      'caa: value: "a\\"b" holds a \'"\' or a control character, which a CAA value cannot',
    ],
    [
      "a value no CA can read",
      { tag: "issue", value: "not a domain!" },
      'caa: value: "not a domain!" is not a CA\'s domain name, so no CA can read this issue property; write the CA\'s domain, e.g. issue "letsencrypt.org", or issue ";" to allow no CA',
    ],
  ])("%s", (_, args, message) => {
    expect(refusal(() => caa(args as never))).toBe(message);
  });

  it("writes the flags, the tag and the quoted value; critical is 128", () => {
    expect(caa({ tag: "issue", value: "ca.example.net", critical: true }).record).toEqual({
      name: "@",
      type: "CAA",
      content: '128 issue "ca.example.net"',
    });
    expect(caa({ name: "shop", tag: "issuewild", value: ";" }).record.content).toBe('0 issuewild ";"');
  });
});

describe("a name the record validation refuses", () => {
  it("is named as the name argument, with the validation's own reason", () => {
    for (const [builder, call] of [
      ["spf", () => spf({ name: "bad name!" })],
      ["caa", () => caa({ name: "bad name!", tag: "issue", value: "ca.example.net" })],
    ] as const) {
      expect(refusal(call)).toMatch(new RegExp(`^${builder}: name: "bad name!" is not a valid name: `));
    }
  });
});
