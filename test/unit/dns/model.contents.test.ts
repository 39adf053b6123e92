/**
 * What each record type's content may be, at the edges its RFC draws: a host name of RFC 1035
 * labels (63 characters each, 253 in all without the final dot, a hyphen never first or last, an
 * underscore allowed as RFC 2181 11 allows any label), never an address (RFC 1123 2.1); the null MX
 * and SRV of RFC 7505 and RFC 2782; CAA flags of 8 bits (RFC 8659); TLSA fields (RFC 6698); URL
 * forwards as absolute http(s) URLs. And the reason a user reads for each refusal.
 */
import { describe, expect, it } from "vitest";
import type { RecordType } from "../../../provider/client/wire";
import { RECORD_MODEL } from "../../../provider/dns/model";

const problem = (type: RecordType, content: string) => RECORD_MODEL[type].contentProblem(content);
const NOT_A_HOST = (content: string, example: string) =>
  `"${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", optionally with {domainname} and a final dot, e.g. "${example}"`;

describe("host names (CNAME, NS, MX, SRV)", () => {
  const labels = ["a".repeat(63), "b".repeat(63), "c".repeat(63)];

  it("a label of 63 characters is a label, one of 64 is not", () => {
    expect(problem("CNAME", `${"a".repeat(63)}.example`)).toBeUndefined();
    const long = `${"a".repeat(64)}.example`;
    expect(problem("CNAME", long)).toBe(NOT_A_HOST(long, "target.example.net."));
  });

  it("253 characters before the final dot are a name, 254 are not", () => {
    expect(problem("NS", `${[...labels, "d".repeat(61)].join(".")}.`)).toBeUndefined();
    expect(problem("NS", [...labels, "d".repeat(61)].join("."))).toBeUndefined();
    const long = [...labels, "d".repeat(62)].join(".");
    expect(problem("NS", long)).toBe(NOT_A_HOST(long, "ns1.example.net"));
    expect(problem("NS", `${long}.`)).toBe(NOT_A_HOST(`${long}.`, "ns1.example.net"));
  });

  it("a hyphen inside a label, never first or last; underscores and single characters anywhere", () => {
    for (const host of ["a", "a-b.example", "_a_", "a_b-c.x", "x.", "1.example", "a1-2b.example"]) {
      expect(problem("MX", host)).toBeUndefined();
    }
    for (const host of ["-a.example", "a-.example", "a..example", ".a", "..", "a b.example"]) {
      expect(problem("MX", host)).toBe(NOT_A_HOST(host, "mx1.example.net"));
    }
  });

  it("the placeholder stands for the domain, wherever it is; any other brace is refused", () => {
    for (const host of ["{domainname}", "{domainname}.", "mail.{domainname}", "x{domainname}"]) {
      expect(problem("CNAME", host)).toBeUndefined();
    }
    for (const host of ["{x}", "}", "{", "{DOMAINNAME}"]) {
      expect(problem("CNAME", host)).toBe(
        `"${host}" holds a "{" or "}": the only placeholder is {domainname} (all lower case)`,
      );
    }
  });

  it("a single dot is the null MX and the null SRV, and no target of a CNAME or NS", () => {
    expect(problem("MX", ".")).toBeUndefined();
    expect(problem("SRV", ".")).toBeUndefined();
    expect(problem("CNAME", ".")).toBe(NOT_A_HOST(".", "target.example.net."));
    expect(problem("NS", ".")).toBe(NOT_A_HOST(".", "ns1.example.net"));
  });

  it.each([
    ["CNAME", "192.0.2.1", "target.example.net."],
    ["NS", "2001:db8::1", "ns1.example.net"],
    ["MX", "::1", "mx1.example.net"],
    ["SRV", "10.0.0.1", "sip.example.net"],
  ] as const)("%s to the address %s: a host name, not an address", (type, content, example) => {
    expect(problem(type, content)).toBe(
      `"${content}" is an IP address, and ${type} records point at a host name (RFC 1123 2.1); give the name of a host that has an A or AAAA record, e.g. "${example}"`,
    );
  });

  it("a name outside ASCII: its ASCII form, when that form is a host name", () => {
    expect(problem("CNAME", "bücher.example")).toBe(
      `"bücher.example" holds characters outside ASCII; DNS writes this host "xn--bcher-kva.example" (UTS #46, as Node's url.domainToASCII maps it): write "xn--bcher-kva.example" instead`,
    );
    expect(problem("MX", "例え。jp")).toMatch(
      /DNS writes this host "xn--r8jz45g\.jp" .*: write "xn--r8jz45g\.jp" instead$/,
    );
    expect(problem("CNAME", "bücher .example")).toBe(NOT_A_HOST("bücher .example", "target.example.net."));
  });

  it("empty, or @: what to write instead", () => {
    expect(problem("CNAME", "")).toBe(
      'CNAME records need a host name as content, e.g. "target.example.net."',
    );
    expect(problem("NS", "@")).toBe(
      '"@" is not a host name here; write "{domainname}." for the apex of the domain',
    );
  });
});

describe("CAA, TLSA, TXT and URL forwards", () => {
  it("CAA flags from 0 to 255, written with at most three digits; one space between the parts", () => {
    for (const content of ['0 issue "x"', '255 issue "x"', '00 issue "a"', '128 iodef "mailto:a@b"']) {
      expect(problem("CAA", content)).toBeUndefined();
    }
    expect(problem("CAA", '256 issue "x"')).toBe("CAA flags go from 0 to 255 (usually 0); got 256");
    for (const content of [
      '1000 issue "x"',
      '0 issue "x',
      '0  issue "a"',
      '0 issue "a"b"',
      '0 issue "a" ',
      ' 0 issue "a"',
    ]) {
      expect(problem("CAA", content)).toBe(
        `CAA content has the form flags tag "value", e.g. 0 issue "letsencrypt.org"; got ${JSON.stringify(content)}`,
      );
    }
  });

  it("TLSA usage up to 3, selector up to 1, matching type up to 2, whole bytes in either case", () => {
    for (const content of ["3 1 2 ab", "0 0 0 AB", "2 0 1 aBcD"])
      expect(problem("TLSA", content)).toBeUndefined();
    for (const content of ["3 1 1 ", "3 1 1 ab cd", "3 1 ab", " 3 1 1 ab"]) {
      expect(problem("TLSA", content)).toBe(
        `TLSA content has the form "usage selector matching-type hex", e.g. "3 1 1 ab12cd34"; got ${JSON.stringify(content)}`,
      );
    }
  });

  it("TXT: any text that is not blank", () => {
    expect(problem("TXT", "a")).toBeUndefined();
    for (const content of ["", " ", "\t "]) {
      expect(problem("TXT", content)).toBe('TXT records need non-empty text as content, e.g. "v=spf1 -all"');
    }
  });

  it("URL forwards: an absolute http(s) URL, the placeholder as its host, no whitespace anywhere", () => {
    for (const content of ["https://{domainname}/x", "http://a.example", "https://a.example/p?q=1#f"]) {
      expect(problem("URLFWD", content)).toBeUndefined();
    }
    for (const content of [
      "https://a.example/ x",
      "https://a.example/\t",
      "mailto:x@y",
      "https://",
      "a.example/",
    ]) {
      expect(problem("URLFWD301", content)).toBe(
        `URLFWD301 records need an absolute http(s) URL as content, e.g. "https://www.example.net/"; got ${JSON.stringify(content)}`,
      );
    }
  });
});

describe("one row per type", () => {
  it("the numbers each type takes, which types are URL forwards, and the example in its reasons", () => {
    const rows = Object.fromEntries(
      Object.entries(RECORD_MODEL).map(([type, row]) => [
        type,
        [row.numbers.join(","), row.urlForward ?? false, row.example],
      ]),
    );
    expect(rows).toEqual({
      A: ["", false, "192.0.2.1"],
      AAAA: ["", false, "2001:db8::1"],
      CNAME: ["", false, "target.example.net."],
      NS: ["", false, "ns1.example.net"],
      MX: ["priority", false, "mx1.example.net"],
      SRV: ["priority,weight,port", false, "sip.example.net"],
      TXT: ["", false, "v=spf1 -all"],
      CAA: ["", false, '0 issue "letsencrypt.org"'],
      TLSA: ["", false, "3 1 1 ab12cd34"],
      URLFWD: ["", true, "https://www.example.net/"],
      URLFWD301: ["", true, "https://www.example.net/"],
      URLCLO: ["", true, "https://www.example.net/"],
    });
  });

  it("only host names compare without case; text, CAA, TLSA and URLs are kept as written", () => {
    expect(RECORD_MODEL.MX.normalize("MX1.Example.NET")).toBe("mx1.example.net");
    expect(RECORD_MODEL.AAAA.normalize("2001:DB8:0::1")).toBe("2001:db8::1");
    for (const type of ["TXT", "CAA", "TLSA", "URLFWD", "A"] as const) {
      expect(RECORD_MODEL[type].normalize('AbC "X"')).toBe('AbC "X"');
    }
  });
});
