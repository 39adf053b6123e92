/**
 * The template checks do not depend on where records stand: a CNAME loop is found once, at the
 * same record, whatever the declaration order; DMARC records are read at every `_dmarc` name,
 * `_dmarc.<sub>` included (RFC 7489 §6.6.3: a subdomain's policy record), and only there.
 */
import { describe, expect, it } from "vitest";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate, templateNameOf } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

function findings(records: RecordSpec[]) {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}
const cname = (name: string, content: string): RecordSpec => ({ name, type: "CNAME", content });
const a = (name: string): RecordSpec => ({ name, type: "A", content: "192.0.2.1" });
/** `records` with fillers, so that `at` gives each record's index (records[2] before records[10]). */
function placed(at: Record<number, RecordSpec>): RecordSpec[] {
  return Array.from({ length: 11 }, (_, i) => at[i] ?? a(`host${i}`));
}

describe("a CNAME loop is found once, at its first record by path, whatever the order", () => {
  it("a loop entered from a chain declared first fires at the loop's first record, records[2] before records[10]", () => {
    const fs = findings(
      placed({
        0: cname("in", "x.{domainname}"),
        2: cname("y", "x.{domainname}"),
        10: cname("x", "y.{domainname}"),
      }),
    );
    expect(fs).toHaveLength(1);
    expect(fs[0]?.path).toBe("records[2].content");
    expect(findingText(fs[0]!)).toBe(
      '[cname-loop, RFC 1034 §3.6.2] the CNAME chain "x" -> "y" -> "x" loops (records[10], records[2]): resolvers give up on every name in it; fix: point one of these CNAMEs at a name outside the loop, or replace it by A/AAAA records',
    );
  });

  it.each([
    [
      "the loop first, the chain into it last",
      { 2: cname("x", "y.{domainname}"), 3: cname("y", "x.{domainname}"), 10: cname("in", "y.{domainname}") },
    ],
    [
      "the chain into it first",
      { 2: cname("in", "y.{domainname}"), 3: cname("x", "y.{domainname}"), 10: cname("y", "x.{domainname}") },
    ],
    [
      "the loop's records apart",
      { 2: cname("y", "x.{domainname}"), 5: cname("in", "x.{domainname}"), 10: cname("x", "y.{domainname}") },
    ],
  ])("%s: one finding", (_, at) => {
    const fs = findings(placed(at));
    expect(fs.map((f) => f.rule)).toEqual(["cname-loop"]);
  });

  it("two loops are two findings, each at its own first record", () => {
    const fs = findings([
      cname("b", "a.{domainname}"),
      cname("p", "q.{domainname}"),
      cname("a", "b.{domainname}"),
      cname("q", "p.{domainname}"),
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([
      ["cname-loop", "records[0].content"],
      ["cname-loop", "records[1].content"],
    ]);
  });
});

describe("DMARC at every _dmarc name (RFC 7489 §6.6.3)", () => {
  const txt = (name: string, content: string): RecordSpec => ({ name, type: "TXT", content });

  it("a record a receiver cannot parse at _dmarc.<sub> fires, at its path", () => {
    const fs = findings([txt("_dmarc", "v=DMARC1; p=none"), txt("_dmarc.shop", "v=DMARC1; p=block")]);
    expect(fs.map((f) => [f.rule, f.path, f.problem])).toEqual([
      [
        "dmarc-syntax",
        "records[1].content",
        "p=block is not a policy, so receivers cannot parse this DMARC record",
      ],
    ]);
  });

  it("a second record at _dmarc.<sub> fires; one at each of two names does not", () => {
    const fs = findings([
      txt("_dmarc.shop", "v=DMARC1; p=none"),
      txt("_dmarc", "v=DMARC1; p=none"),
      txt("_dmarc.shop", "v=DMARC1; p=reject"),
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([["dmarc-single-record", "records[2].content"]]);
    expect(fs[0]?.problem).toBe(
      'a second TXT record at "_dmarc.shop" (the first is records[0]); with more than one, receivers apply no DMARC policy at all',
    );
  });

  it.each(["_dmarcs", "shop._dmarc", "x_dmarc", "_dmarc-old"])("a TXT at %j is no DMARC record", (name) => {
    expect(findings([txt(name, "v=DMARC1; p=block"), txt(name, "anything")])).toEqual([]);
  });
});

describe("which records each rule reads, and the order of the findings", () => {
  it("findings come in rule order (SPF, DMARC, CNAME loops, CAA, targets), whatever the records' order", () => {
    const fs = findings([
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "@", type: "CAA", content: '0 issue "%%%%%"' },
      cname("loop", "loop.{domainname}"),
      { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=block" },
      { name: "@", type: "TXT", content: "v=spf1 mx -all" },
      { name: "@", type: "TXT", content: "v=spf1 -all" },
      cname("mail", "mailhost.example.net."),
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([
      ["spf-single-record", "records[5].content"],
      ["dmarc-syntax", "records[3].content"],
      ["cname-loop", "records[2].content"],
      ["caa-syntax", "records[1].content"],
      ["target-is-cname", "records[0].content"],
    ]);
  });

  it("only MX, SRV and NS targets are held to be no CNAME: a TXT or a CNAME naming one is not", () => {
    expect(
      findings([
        cname("mail", "mailhost.example.net."),
        { name: "info", type: "TXT", content: "mail.{domainname}." },
        cname("smtp", "mail.{domainname}."),
      ]),
    ).toEqual([]);
  });

  it('a CAA content that is not flags tag "value" is one syntax error, no unknown tag', () => {
    const fs = findings([{ name: "@", type: "CAA", content: "0 issue letsencrypt.org" }]);
    expect(fs.map((f) => [f.rule, f.problem])).toEqual([
      [
        "caa-syntax",
        'the content is not flags tag "value", and a CA that cannot parse a CAA set issues no certificate',
      ],
    ]);
  });

  it("the first CNAME declared at a name is the one a chain follows", () => {
    const fs = findings([
      cname("www", "app.{domainname}"),
      cname("www", "cdn.example.net."),
      cname("app", "www.{domainname}"),
    ]);
    expect(fs.map((f) => [f.rule, f.path])).toEqual([["cname-loop", "records[0].content"]]);
  });

  it.each([".{domainname}", "{domainname}.{domainname}", "a.{domainname}.{domainname}."])(
    "%j is no name of the template",
    (content) => {
      expect(templateNameOf(content)).toBeUndefined();
    },
  );
});
