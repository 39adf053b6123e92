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
