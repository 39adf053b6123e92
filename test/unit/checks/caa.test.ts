/**
 * The CAA rules of the template checks (RFC 8659): the RFC's examples pass, a value a CA cannot
 * parse and reserved flag bits fail, and a tag outside the IANA registry warns.
 */
import { describe, expect, it } from "vitest";
import { readCaa } from "../../../provider/checks/caa";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

function findings(records: RecordSpec[]) {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}
const caa = (content: string): RecordSpec => ({ name: "@", type: "CAA", content });

describe("CAA flags, tag and value (RFC 8659 §4.1-§4.4)", () => {
  // RFC 8659 §4 examples, and the registry's other tags.
  const passing = [
    '0 issue "ca1.example.net"',
    '0 issue "ca1.example.net; account=230123"',
    '0 issue "ca1.example.net; policy=ev"',
    '0 issuewild ";"',
    '0 issue ";"',
    '0 issue ""',
    '0 iodef "mailto:security@example.com"',
    '0 iodef "https://iodef.example.com/"',
    '128 issue "ca1.example.net"',
    '0 contactemail "security@example.com"',
    '0 issue "letsencrypt.org; validationmethods=dns-01"',
    '0 iodef "mailto:caa@{domainname}"',
  ];
  it.each(passing)("RFC 8659 example %j passes silently", (content) => {
    expect(readCaa(content).problems).toEqual([]);
    expect(findings([caa(content)])).toEqual([]);
  });

  const failing: Array<[string, RegExp]> = [
    ['0 issue "%%%%%"', /"%%%%%" is not a CA's domain name/],
    ['0 issue "ca1.example.net; account 230123"', /the parameter "account 230123" is not key=value/],
    ['0 iodef "security@example.com"', /iodef "security@example\.com" is not a mailto:, http: or https: URL/],
    ['1 issue "ca1.example.net"', /the flags 1 set reserved bits/],
    ['255 issue "ca1.example.net"', /the flags 255 set reserved bits/],
    ['0 contactemail "security"', /contactemail "security" is not an e-mail address/],
  ];
  it.each(failing)("RFC 8659 §4: %j fires as caa-syntax", (content, problem) => {
    const [f, ...rest] = findings([caa(content)]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "caa-syntax", severity: "error", path: "records[0].content" });
    expect(f?.problem).toMatch(problem);
  });

  it("the message a user reads names the rule, the section, the problem and the fix (RFC 8659 §4.2's %%%%% example)", () => {
    const [f] = findings([caa('0 issue "%%%%%"')]);
    expect(findingText(f!)).toBe(
      '[caa-syntax, RFC 8659 §4.1] "%%%%%" is not a CA\'s domain name, so no CA can read this issue property, and a CA that cannot parse a CAA set issues no certificate; fix: write the CA\'s domain, e.g. issue "letsencrypt.org", or issue ";" to allow no CA',
    );
  });
});

describe("CAA tags outside the registry warn (RFC 8659 §4.1, §7.2)", () => {
  it("RFC 8659 §4.5's critical unknown tag (128 tbs) warns that no CA will issue", () => {
    const [f, ...rest] = findings([caa('128 tbs "Unknown"')]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "caa-unknown-tag", severity: "warning" });
    expect(findingText(f!)).toBe(
      '[caa-unknown-tag, RFC 8659 §4.1, §7.2] the CAA tag "tbs" is not in the IANA registry (almost always a typo); with the critical flag (128) set, no CA will issue a certificate for the domain; fix: use one of issue, issuewild, iodef, contactemail, contactphone, issuevmc, issuemail',
    );
  });

  it("a typo of issue warns and says CAs ignore it; tags compare without case", () => {
    expect(findings([caa('0 isue "letsencrypt.org"')])[0]?.problem).toMatch(
      /"isue" is not in the IANA registry.*CAs ignore it/,
    );
    expect(findings([caa('0 ISSUE "letsencrypt.org"')])).toEqual([]);
  });
});

describe("what a CAA record's problems say, and the forms RFC 8659 §4 allows", () => {
  const problems = (content: string) => readCaa(content).problems.map((p) => [p.problem, p.fix]);
  const notDomain = (issuer: string, tag: string) => [
    `"${issuer}" is not a CA's domain name, so no CA can read this ${tag} property`,
    `write the CA's domain, e.g. ${tag} "letsencrypt.org", or ${tag} ";" to allow no CA`,
  ];

  it.each([
    '0 issue " ca1.example.net ; account=230123 "',
    '0 issue "ca1.example.net; account=230123; policy=ev"',
    '0 issue "ca1.example.net; account=230123 ; policy=ev"',
    '0 issue "ca1.example.net; "',
    '0 issue "pki.{domainname}"',
    '0 iodef "http://iodef.example.com/"',
    '0 iodef "https://{domainname}"',
    '0 contactphone "+1 (555) 123-4567"',
  ])("%j passes: whitespace around the parts, several parameters, the domain's placeholder", (content) => {
    expect(problems(content)).toEqual([]);
    expect(findings([caa(content)])).toEqual([]);
  });

  it.each(["issue", "issuewild", "issuevmc", "issuemail"])(
    "the issuer of %s is read as a domain name (RFC 8659 §4.2, RFC 9495)",
    (tag) => {
      expect(problems(`0 ${tag} "%%%%%"`)).toEqual([notDomain("%%%%%", tag)]);
      expect(problems(`0 ${tag} "ca1.example.net"`)).toEqual([]);
    },
  );

  it("names the issuer without the spaces around it", () => {
    expect(problems('0 issue "  ca_1.example.net ; account=1"')).toEqual([
      notDomain("ca_1.example.net", "issue"),
    ]);
  });

  it("a parameter that is not key=value says so and how to write one", () => {
    expect(problems('0 issue "ca1.example.net; account=1; policy ev"')).toEqual([
      [
        'the parameter "policy ev" is not key=value (letters, digits and "-" in the key; no spaces or ";" in the value)',
        'write parameters as issue "ca.example.net; account=12345"',
      ],
    ]);
  });

  it.each([
    ['0 iodef "security@example.com"'],
    ['0 iodef "ftp://iodef.example.com/"'],
    ['0 iodef "https://"'],
  ])("an iodef that is no mailto:, http: or https: URL says so: %j", (content) => {
    const value = /"(.*)"/.exec(content)![1];
    expect(problems(content)).toEqual([
      [
        `iodef "${value}" is not a mailto:, http: or https: URL (RFC 8659 §4.4)`,
        'write iodef "mailto:security@example.com" or iodef "https://iodef.example.com/"',
      ],
    ]);
  });

  it.each(["security@example.com junk", "junk security@example.com", "security"])(
    "contactemail %j is not an e-mail address",
    (value) => {
      expect(problems(`0 contactemail "${value}"`)).toEqual([
        [`contactemail "${value}" is not an e-mail address`, 'write contactemail "security@example.com"'],
      ]);
    },
  );

  it.each([1, 64, 129, 255, 256, 999])("the flags %i set reserved bits", (flags) => {
    expect(problems(`${flags} issue "ca1.example.net"`)).toEqual([
      [
        `the flags ${flags} set reserved bits: only 128 (issuer critical) is defined, every other bit must be 0`,
        "write flags 0, or 128 to make the property critical",
      ],
    ]);
  });

  it.each([
    '0 issue "ca1.example.net" ',
    'x0 issue "ca1.example.net"',
    "0 issue ca1.example.net",
    '1000 issue "ca1.example.net"',
    '0 issue "ca1.example.net" "x"',
  ])('%j is not flags tag "value"', (content) => {
    expect(readCaa(content)).toEqual({
      flags: 0,
      tag: "",
      value: "",
      known: false,
      problems: [
        { problem: 'the content is not flags tag "value"', fix: 'write e.g. 0 issue "letsencrypt.org"' },
      ],
    });
  });

  it("reads flags, the tag lower-cased, the value, and whether the registry knows the tag", () => {
    expect(readCaa('128 IssueWild "ca1.example.net"')).toEqual({
      flags: 128,
      tag: "issuewild",
      value: "ca1.example.net",
      known: true,
      problems: [],
    });
    expect(readCaa('0 tbs "x"')).toMatchObject({ tag: "tbs", known: false, problems: [] });
  });
});
