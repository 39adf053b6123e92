/**
 * The rules across names (CNAME loops, MX/SRV/NS targets that are CNAMEs), `{domainname}` as the
 * domain, and lifting: through the record validation and `check()`, as a preview meets them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readLiftedChecks, verdictOf } from "../../../provider/checks/lift";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate, templateNameOf } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";
import { configureFrom } from "../../../provider/host/session";
import { validateTemplateRecordsInputs } from "../../../provider/records/inputs";
import * as provider from "../../../provider/records/provider";

function findings(records: RecordSpec[]) {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}
const cname = (name: string, content: string): RecordSpec => ({ name, type: "CNAME", content });

describe("{domainname} counts as the domain", () => {
  it.each([
    ["{domainname}", "@"],
    ["{domainname}.", "@"],
    ["mail.{domainname}.", "mail"],
    ["a.b.{domainname}", "a.b"],
    ["MAIL.{domainname}", "mail"],
    ["mail.example.net.", undefined],
    ["mail.{domainname}.example.net", undefined],
  ])("%j is the template's name %j", (content, name) => {
    expect(templateNameOf(content)).toBe(name);
  });
});

describe("CNAME loops inside the template (RFC 1034 §3.6.2)", () => {
  it("a two-name loop fires once, at its first record, naming the chain, both paths and the fix", () => {
    const fs = findings([
      { name: "@", type: "A", content: "192.0.2.1" },
      cname("www", "app.{domainname}."),
      cname("app", "www.{domainname}"),
    ]);
    expect(fs).toHaveLength(1);
    expect(fs[0]?.path).toBe("records[1].content");
    expect(findingText(fs[0]!)).toBe(
      '[cname-loop, RFC 1034 §3.6.2] the CNAME chain "www" -> "app" -> "www" loops (records[1], records[2]): resolvers give up on every name in it; fix: point one of these CNAMEs at a name outside the loop, or replace it by A/AAAA records',
    );
  });

  it("a CNAME to itself fires; a chain into the loop fires once, for the loop", () => {
    expect(findings([cname("self", "self.{domainname}.")]).map((f) => f.rule)).toEqual(["cname-loop"]);
    const fs = findings([
      cname("in", "a.{domainname}"),
      cname("a", "b.{domainname}"),
      cname("b", "a.{domainname}"),
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([["cname-loop", "records[1].content"]]);
  });

  it("RFC 1034 §3.6.2's chains that end (in the template or outside it) pass", () => {
    expect(
      findings([
        cname("www", "app.{domainname}."),
        cname("app", "lb.{domainname}."),
        { name: "lb", type: "A", content: "192.0.2.1" },
        cname("cdn", "cdn.example.net."),
        cname("shop", "{domainname}."),
      ]),
    ).toEqual([]);
  });
});

describe("MX, SRV and NS targets that are CNAMEs of the template warn (RFC 2181 §10.3, RFC 2782)", () => {
  it("an MX at a CNAME of the template warns with the CNAME's target as the fix", () => {
    const fs = findings([
      cname("mail", "mailhost.example.net."),
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
    ]);
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ rule: "target-is-cname", severity: "warning", path: "records[1].content" });
    expect(findingText(fs[0]!)).toBe(
      '[target-is-cname, RFC 2181 §10.3, RFC 2782] the MX target "mail.{domainname}." is the CNAME records[0] of this template (mail CNAME mailhost.example.net.); MX targets must be a host\'s own name, and many mail servers refuse to deliver to an alias; fix: point the MX record at the CNAME\'s target "mailhost.example.net.", or give "mail" A/AAAA records instead of the CNAME',
    );
  });

  it("SRV and NS targets are checked too; a target with its own A record, or outside the template, passes", () => {
    const fs = findings([
      cname("sip", "sip.example.net."),
      { name: "_sip._tcp", type: "SRV", content: "sip.{domainname}", priority: 1, weight: 1, port: 5060 },
      { name: "sub", type: "NS", content: "sip.{domainname}." },
      { name: "mx1", type: "A", content: "192.0.2.25" },
      { name: "@", type: "MX", content: "mx1.{domainname}.", priority: 10 },
      { name: "@", type: "MX", content: "sip.example.net.", priority: 20 },
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([
      ["target-is-cname", "records[1].content"],
      ["target-is-cname", "records[2].content"],
    ]);
  });
});

describe("lifting a rule (liftedChecks)", () => {
  const twoSpf = [
    { name: "@", type: "TXT", content: "v=spf1 mx -all" },
    { name: "@", type: "TXT", content: "v=spf1 -all" },
  ];

  it("reads a list of error rules; a warning rule, an unknown name, a repeat or a non-list is refused naming the fix", () => {
    expect(readLiftedChecks(undefined)).toEqual({ lifted: [], issues: [] });
    expect(readLiftedChecks(["spf-lookup-limit", "cname-loop"]).lifted).toEqual([
      "spf-lookup-limit",
      "cname-loop",
    ]);
    expect(readLiftedChecks(["target-is-cname", "spf-lookups", "cname-loop", "cname-loop"]).issues).toEqual([
      {
        property: "liftedChecks[0]",
        reason:
          '"target-is-cname" only warns, so there is nothing to lift: remove it (the rules that can be lifted are spf-single-record, spf-syntax, spf-lookup-limit, dmarc-syntax, dmarc-single-record, cname-loop, caa-syntax)',
      },
      {
        property: "liftedChecks[1]",
        reason:
          '"spf-lookups" is not a rule; the rules that can be lifted are spf-single-record, spf-syntax, spf-lookup-limit, dmarc-syntax, dmarc-single-record, cname-loop, caa-syntax',
      },
      { property: "liftedChecks[3]", reason: '"cname-loop" is listed twice; remove one' },
    ]);
    expect(readLiftedChecks("spf-syntax").issues[0]?.property).toBe("liftedChecks");
  });

  it("an error fails validation with its path and rule; lifted, it passes and is a warning that names the lift", () => {
    const refused = validateTemplateRecordsInputs({ templateId: "t", records: twoSpf });
    expect(refused.inputs).toBeUndefined();
    expect(refused.issues).toEqual([
      {
        property: "records[1].content",
        reason: expect.stringMatching(/^\[spf-single-record, RFC 7208 §3\.2\] a second v=spf1/),
      },
    ]);
    const lifted = validateTemplateRecordsInputs({
      templateId: "t",
      records: twoSpf,
      liftedChecks: ["spf-single-record"],
    });
    expect(lifted.issues).toEqual([]);
    expect(lifted.inputs?.liftedChecks).toEqual(["spf-single-record"]);
    expect(lifted.warnings).toEqual([
      expect.stringMatching(
        /^template "t": records\[1\]\.content \(@ TXT v=spf1 -all\): \[spf-single-record, RFC 7208 §3\.2\] .* \[lifted by liftedChecks: not failing the preview\]$/,
      ),
    ]);
  });

  it("a lift that finds nothing is named; warnings of warning rules show without a lift", () => {
    const { warnings } = verdictOf(
      findings([
        cname("mail", "m.example.net."),
        { name: "@", type: "MX", content: "mail.{domainname}", priority: 1 },
      ]),
      ["cname-loop"],
      'template "t"',
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^template "t": records\[1\]\.content \(@ MX 1 mail\.\{domainname\}\): \[target-is-cname/,
      ),
      'template "t": liftedChecks lifts "cname-loop", which finds nothing here; remove it from liftedChecks',
    ]);
  });
});

describe("check(): what a preview reports", () => {
  beforeAll(() => configureFrom({ apiKey: "checks-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

  it("fails with the path, rule and fix in the reason; lifted, passes and keeps liftedChecks in the inputs", async () => {
    const records = [
      { name: "@", type: "TXT", content: "v=spf1 mx -all" },
      { name: "@", type: "TXT", content: "v=spf1 include:_spf.mailhost.example -all" },
    ];
    const failed = await provider.check({}, { templateId: "t", records });
    expect(failed.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^records\[1\]\.content: \[spf-single-record, RFC 7208 §3\.2\] .*; fix: merge the two into one record and remove records\[1\]/,
        ),
      },
    ]);
    const passed = await provider.check(
      {},
      { templateId: "t", records, liftedChecks: ["spf-single-record"] },
    );
    expect(passed.failures).toBeUndefined();
    expect(passed.inputs?.liftedChecks).toEqual(["spf-single-record"]);
    const plain = await provider.check({}, { templateId: "t", records: records.slice(0, 1) });
    expect(plain.inputs).not.toHaveProperty("liftedChecks");
  });
});
