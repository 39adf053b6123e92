/**
 * The DMARC rules of the template checks (RFC 7489): the RFC's example records pass at `_dmarc`
 * names, what a receiver cannot parse fires with the path, rule, section and fix, and a second
 * record at one `_dmarc` name fires.
 */
import { describe, expect, it } from "vitest";
import { isDmarcRecord, readDmarc } from "../../../provider/checks/dmarc";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

function findings(records: RecordSpec[]) {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}
const dmarc = (content: string, name = "_dmarc"): RecordSpec => ({ name, type: "TXT", content });

describe("DMARC syntax at _dmarc names (RFC 7489 §6.3, §6.4)", () => {
  // RFC 7489 Appendix B.2, and the §6.3 tags in their forms.
  const passing = [
    "v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com",
    "v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@thirdparty.example.net",
    "v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@thirdparty.example.net; pct=25",
    "v=DMARC1; p=reject; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net!10m",
    "v=DMARC1; p=reject; sp=none; adkim=s; aspf=r; fo=1:d; rf=afrf; ri=86400; pct=100;",
    "v=DMARC1;p=none",
    "v=DMARC1; p=none; rua=mailto:dmarc@{domainname}",
    "v=DMARC1; p=none; future=tag",
  ];
  it.each(passing)("RFC 7489 Appendix B example %j passes silently", (content) => {
    expect(readDmarc(content).problems).toEqual([]);
    expect(findings([dmarc(content), dmarc(content, "_dmarc.shop")])).toEqual([]);
  });

  const failing: Array<[string, RegExp]> = [
    ["v=DMARC1; rua=mailto:d@example.com", /the record has no policy \(p=\)/],
    ["p=none; v=DMARC1", /a DMARC record starts with v=DMARC1/],
    ["v=dmarc1; p=none", /a DMARC record starts with v=DMARC1 \(exactly so\)/],
    ["v=DMARC1; p=block", /p=block is not a policy/],
    ["v=DMARC1; p=none; sp=allow", /sp=allow is not a policy/],
    ["v=DMARC1; p=none; pct=150", /pct=150 is not a percentage/],
    ["v=DMARC1; p=none; rua=dmarc@example.com", /rua address "dmarc@example\.com" is not a URI/],
    [
      "v=DMARC1; p=none; ruf=ftp://example.com/r",
      /has the scheme ftp:, which receivers do not send reports to/,
    ],
    ["v=DMARC1; p=none; adkim=x", /adkim=x is not an alignment mode/],
    ["v=DMARC1; p=none; fo=2", /fo=2 is not a list of failure options/],
    ["v=DMARC1; p=none; ri=daily", /ri=daily is not a number of seconds/],
    ["v=DMARC1; p=none; p=reject", /the tag p appears more than once/],
    ["v=DMARC1; p=none;; pct=5", /an empty tag/],
    ["v=DMARC1 p=none", /a DMARC record starts with v=DMARC1/],
  ];
  it.each(failing)("RFC 7489 §6.3/§6.4: %j fires", (content, problem) => {
    const fs = findings([dmarc(content)]);
    expect(fs.length).toBeGreaterThan(0);
    for (const f of fs)
      expect(f).toMatchObject({ rule: "dmarc-syntax", severity: "error", path: "records[0].content" });
    expect(fs.map((f) => f.problem).join("\n")).toMatch(problem);
  });

  it("the message a user reads names the rule, the section, the problem and the fix", () => {
    const [f] = findings([dmarc("v=DMARC1; p=quarantine; pct=150")]);
    expect(findingText(f!)).toBe(
      "[dmarc-syntax, RFC 7489 §6.3, §6.4] pct=150 is not a percentage, so receivers cannot parse this DMARC record; fix: write pct= with a whole number from 0 to 100",
    );
  });

  it("a DMARC-looking TXT outside _dmarc names, and other types at _dmarc, are not read as DMARC", () => {
    expect(
      findings([
        dmarc("v=DMARC1; p=bogus", "@"),
        { name: "_dmarc", type: "CNAME", content: "d.example.net." },
      ]),
    ).toEqual([]);
  });
});

describe("one DMARC record per _dmarc name (RFC 7489 §6.6.3)", () => {
  it("a second TXT at _dmarc fires on the later one", () => {
    const fs = findings([dmarc("v=DMARC1; p=none"), dmarc("v=DMARC1; p=reject")]);
    expect(fs).toHaveLength(1);
    expect(findingText(fs[0]!)).toBe(
      '[dmarc-single-record, RFC 7489 §6.6.3] a second TXT record at "_dmarc" (the first is records[0]); with more than one, receivers apply no DMARC policy at all; fix: keep one DMARC record at "_dmarc" and remove records[1]',
    );
    expect(fs[0]?.path).toBe("records[1].content");
  });
});

describe("the size limit of a report URI (RFC 7489 §6.2, §6.4 dmarc-uri)", () => {
  // §6.2: "!" then a decimal number, then optionally a unit k, m, g or t; no unit means bytes.
  it.each([
    "rua=mailto:a@b.example!10m",
    "rua=mailto:a@b.example!10k",
    "rua=mailto:a@b.example!1g",
    "rua=mailto:a@b.example!100",
    "rua=mailto:a@b.example!2t",
    "rua=mailto:a@b.example!10M",
    "ruf=mailto:a@b.example!50m,mailto:c@d.example",
    "rua=https://reports.example/dmarc!1g",
  ])("%j is accepted", (tag) => {
    expect(findings([dmarc(`v=DMARC1; p=none; ${tag}`)])).toEqual([]);
  });

  it.each([
    ["rua=mailto:a@b.example!", "rua", "mailto:a@b.example!", "!"],
    ["rua=mailto:a@b.example!m", "rua", "mailto:a@b.example!m", "!m"],
    ["ruf=mailto:a@b.example!10x", "ruf", "mailto:a@b.example!10x", "!10x"],
    ["rua=mailto:a@b.example!10mb", "rua", "mailto:a@b.example!10mb", "!10mb"],
    ["rua=mailto:a@b.example!-5", "rua", "mailto:a@b.example!-5", "!-5"],
    ["rua=mailto:a@b.example!1.5m", "rua", "mailto:a@b.example!1.5m", "!1.5m"],
    ["rua=mailto:c@d.example,mailto:a@b.example!", "rua", "mailto:a@b.example!", "!"],
  ])("%j is refused, naming the URI and its malformed size", (tag, name, uri, size) => {
    const fs = findings([dmarc(`v=DMARC1; p=none; ${tag}`)]);
    expect(fs).toHaveLength(1);
    expect(findingText(fs[0]!)).toBe(
      `[dmarc-syntax, RFC 7489 §6.3, §6.4] ${name} URI "${uri}" has a malformed size limit "${size}", so receivers cannot parse this DMARC record; fix: write "!" then a whole number and optionally k, m, g or t, e.g. !10m, or drop the "!"`,
    );
  });
});

describe("what a DMARC record's problems say, problem and fix (RFC 7489 §6.3, §6.4)", () => {
  const cases: Array<[string, Array<[string, string]>]> = [
    [
      "v=DMARC1; rua=mailto:d@example.com",
      [["the record has no policy (p=)", 'add "p=none" (or quarantine or reject) right after v=DMARC1']],
    ],
    [
      "p=none; v=DMARC1",
      [
        [
          'a DMARC record starts with v=DMARC1 (exactly so), and this one starts with "p=none; v=DMARC1"',
          'start it with "v=DMARC1; p=none" (or quarantine or reject)',
        ],
      ],
    ],
    ["v=DMARC1; p=block", [["p=block is not a policy", "write p=none, p=quarantine or p=reject"]]],
    [
      "v=DMARC1; p=none; sp=allow",
      [["sp=allow is not a policy", "write sp=none, sp=quarantine or sp=reject"]],
    ],
    [
      "v=DMARC1; p=none; pct=150",
      [["pct=150 is not a percentage", "write pct= with a whole number from 0 to 100"]],
    ],
    [
      "v=DMARC1; p=none; pct=1000",
      [["pct=1000 is not a percentage", "write pct= with a whole number from 0 to 100"]],
    ],
    [
      "v=DMARC1; p=none; rua=dmarc@example.com",
      [['rua address "dmarc@example.com" is not a URI', "write rua=mailto:dmarc@example.com"]],
    ],
    [
      "v=DMARC1; p=none; rua=not a uri",
      [['rua value "not a uri" is not a URI', "give a mailto: URI, e.g. rua=mailto:dmarc@example.com"]],
    ],
    [
      "v=DMARC1; p=none; rua=mailto:nobody",
      [['rua URI "mailto:nobody" names no e-mail address', "write rua=mailto:dmarc@example.com"]],
    ],
    [
      "v=DMARC1; p=none; ruf=ftp://example.com/r",
      [
        [
          'ruf URI "ftp://example.com/r" has the scheme ftp:, which receivers do not send reports to (RFC 7489 §6.2: mailto: is the one every receiver supports)',
          "use a mailto: URI, e.g. ruf=mailto:dmarc@example.com",
        ],
      ],
    ],
    [
      "v=DMARC1; p=none; adkim=x",
      [["adkim=x is not an alignment mode", "write adkim=r (relaxed) or adkim=s (strict)"]],
    ],
    [
      "v=DMARC1; p=none; aspf=relaxed",
      [["aspf=relaxed is not an alignment mode", "write aspf=r (relaxed) or aspf=s (strict)"]],
    ],
    [
      "v=DMARC1; p=none; fo=2",
      [
        [
          "fo=2 is not a list of failure options",
          "write fo= with 0, 1, d or s, separated by ':', e.g. fo=1:d",
        ],
      ],
    ],
    [
      "v=DMARC1; p=none; rf=afrf;iodef",
      [['"iodef" is not a tag=value pair', "write it as tag=value, or remove it"]],
    ],
    ["v=DMARC1; p=none; rf=", [["rf= is not a list of report formats", "write rf=afrf"]]],
    [
      "v=DMARC1; p=none; ri=daily",
      [["ri=daily is not a number of seconds", "write ri= with whole seconds, e.g. ri=86400"]],
    ],
    [
      "v=DMARC1; p=none; ri=4294967296",
      [["ri=4294967296 is not a number of seconds", "write ri= with whole seconds, e.g. ri=86400"]],
    ],
    ["v=DMARC1; p=none; p=reject", [["the tag p appears more than once", "keep one p="]]],
    ["v=DMARC1; p=none;; pct=5", [['an empty tag (";;" or a leading ";")', 'separate tags with one ";"']]],
    [";v=DMARC1; p=none", [['an empty tag (";;" or a leading ";")', 'separate tags with one ";"']]],
    [
      "v=DMARC1; p=none; rua=",
      [["rua= is empty", "give a URI, e.g. rua=mailto:dmarc@example.com, or remove the tag"]],
    ],
    [
      "v=DMARC1; p=none; garbage",
      [['"garbage" is not a tag=value pair', "write it as tag=value, or remove it"]],
    ],
  ];
  it.each(cases)("%j", (content, problems) => {
    expect(readDmarc(content).problems.map((p) => [p.problem, p.fix])).toEqual(problems);
  });

  it.each([
    "v=DMARC1; p=none; pct=0",
    "v=DMARC1; p=none; pct=100",
    "v=DMARC1; p=none; ri=4294967295",
    "v=DMARC1; p=none; fo=0:1:d:s",
    "v=DMARC1; p=none; fo=0 : 1",
    "v=DMARC1; p=none; rf=afrf:iodef",
    "v = DMARC1 ; p = none",
    "v=DMARC1; P=REJECT; SP=Quarantine; ADKIM=S; ASPF=R",
    "v=DMARC1; p=none; future=1; future=2",
    "v=DMARC1; p=none; rua=mailto:a@b.example,https://reports.example/dmarc",
    "v=DMARC1; p=none; rua=mailto:dmarc%2Bteam@example.com",
  ])("the bounds and forms the RFC allows pass: %j", (content) => {
    expect(readDmarc(content).problems).toEqual([]);
  });

  it("reads the tags in order, names lower-cased and values trimmed", () => {
    expect(readDmarc("v=DMARC1;  P = reject ; RUA=mailto:a@b.example ;").tags).toEqual([
      ["v", "DMARC1"],
      ["p", "reject"],
      ["rua", "mailto:a@b.example"],
    ]);
  });

  it("names every problem of a record, not only the first", () => {
    expect(
      readDmarc("v=DMARC1; p=none; pct=101; adkim=x; rua=mailto:a@b.example,ftp://x.example").problems.map(
        (p) => p.problem,
      ),
    ).toEqual([
      "pct=101 is not a percentage",
      "adkim=x is not an alignment mode",
      'rua URI "ftp://x.example" has the scheme ftp:, which receivers do not send reports to (RFC 7489 §6.2: mailto: is the one every receiver supports)',
    ]);
  });
});

describe("which TXT records present themselves as DMARC", () => {
  it.each([
    ["v=DMARC1; p=none", true],
    ["v=DMARC1", true],
    ["v = DMARC1 ;p=none", true],
    ["v=DMARC1p=none", false],
    ["v=spf1 -all", false],
    [" v=DMARC1; p=none", false],
    ["x v=DMARC1", false],
  ] as const)("%j: %s", (content, expected) => {
    expect(isDmarcRecord(content)).toBe(expected);
  });
});

describe("the exact forms of RFC 7489 §6.4, where a looser reading would let a typo through", () => {
  const problems = (content: string) => readDmarc(content).problems.map((p) => p.problem);

  it.each([
    ["pct=1e2", "pct=1e2 is not a percentage"],
    ["pct=0x5", "pct=0x5 is not a percentage"],
    ["ri=1e3", "ri=1e3 is not a number of seconds"],
    ["ri=0x10", "ri=0x10 is not a number of seconds"],
    ["fo=1:x", "fo=1:x is not a list of failure options"],
    ["fo=x:1", "fo=x:1 is not a list of failure options"],
    ["rf=afrf:", "rf=afrf: is not a list of report formats"],
    ["rf=:afrf", "rf=:afrf is not a list of report formats"],
  ])("a number or list with something before or after it, %j, fires", (tag, problem) => {
    expect(problems(`v=DMARC1; p=none; ${tag}`)).toEqual([problem]);
  });

  it.each(["rf=afrf : iodef", "rf=afrf\t:\tiodef", "fo=0 : d"])(
    "spaces and tabs around a list's ':' are allowed (*WSP): %j",
    (tag) => {
      expect(problems(`v=DMARC1; p=none; ${tag}`)).toEqual([]);
    },
  );

  it.each([
    "v=DMARC1; p=none; rua=http://reports.example/dmarc",
    "v=DMARC1; p=none; rua=https://reports.example/dmarc",
    "v=DMARC1; p=none; ruf=http://reports.example/dmarc!10m",
  ])("an http: or https: report URI is a URI receivers may use: %j", (content) => {
    expect(problems(content)).toEqual([]);
  });

  it.each([
    ["rua=dmarc@example.com junk", 'rua value "dmarc@example.com junk" is not a URI'],
    ["rua=mailto:dmarc team@example.com", 'rua URI "mailto:dmarc team@example.com" names no e-mail address'],
    ["rua=mailto:dmarc@example.com junk", 'rua URI "mailto:dmarc@example.com junk" names no e-mail address'],
  ])("a URI with words around its address is no address: %j", (tag, problem) => {
    expect(problems(`v=DMARC1; p=none; ${tag}`)).toEqual([problem]);
  });

  it("a URI of a list is named without the spaces around it", () => {
    expect(problems("v=DMARC1; p=none; rua=mailto:a@b.example , ftp://x.example")).toEqual([
      'rua URI "ftp://x.example" has the scheme ftp:, which receivers do not send reports to (RFC 7489 §6.2: mailto: is the one every receiver supports)',
    ]);
  });

  it("a tag=value pair with a word before it is no pair, even when what follows the word is one", () => {
    expect(problems("v=DMARC1; p=none; x rua=mailto:a@b.example")).toEqual([
      '"x rua=mailto:a@b.example" is not a tag=value pair',
    ]);
  });

  it("a value's surrounding whitespace (a line break of a zone file's record) is no part of it", () => {
    expect(readDmarc("v=DMARC1; p=\nreject; rua=\r\nmailto:a@b.example")).toEqual({
      tags: [
        ["v", "DMARC1"],
        ["p", "reject"],
        ["rua", "mailto:a@b.example"],
      ],
      problems: [],
    });
  });

  it.each(["p=none", "p=quarantine", "p=reject", "p=None", "p=REJECT"])(
    "each policy of §6.3, in any case, is a policy: %j",
    (tag) => {
      expect(problems(`v=DMARC1; ${tag}`)).toEqual([]);
    },
  );

  it.each(["v", "p", "sp", "rua", "ruf", "adkim", "aspf", "ri", "fo", "rf", "pct"])(
    "the tag %s of §6.3, given twice, fires",
    (name) => {
      expect(problems(`v=DMARC1; p=none; ${name}=1; ${name}=2`)).toContain(
        `the tag ${name} appears more than once`,
      );
    },
  );

  it("a record that is not v=DMARC1 first fires, whatever its first tag's value", () => {
    expect(problems("version=DMARC1; p=none")).toEqual([
      'a DMARC record starts with v=DMARC1 (exactly so), and this one starts with "version=DMARC1; p=no"',
    ]);
  });

  it("names the first 20 characters of a long record that does not start with v=DMARC1", () => {
    expect(problems("p=reject; rua=mailto:dmarc-reports@example.com; v=DMARC1")[0]).toBe(
      'a DMARC record starts with v=DMARC1 (exactly so), and this one starts with "p=reject; rua=mailto"',
    );
  });

  it("an empty record says it is not DMARC and has no policy, and nothing of an empty tag", () => {
    expect(problems("")).toEqual([
      'a DMARC record starts with v=DMARC1 (exactly so), and this one starts with ""',
      "the record has no policy (p=)",
    ]);
    expect(problems(";")).toEqual([
      'a DMARC record starts with v=DMARC1 (exactly so), and this one starts with ";"',
      'an empty tag (";;" or a leading ";")',
      "the record has no policy (p=)",
    ]);
  });
});
