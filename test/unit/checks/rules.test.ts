/**
 * The rules as a user meets them: each one fired by a template that breaks it, its finding cited
 * with the RFC section it rests on, and an error or a warning as docs/design.md ("Template
 * checks") says; and the rule names that `liftedChecks` accepts.
 */
import { describe, expect, it } from "vitest";
import { findingText, isRuleName, RULE_NAMES } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

const txt = (name: string, content: string): RecordSpec => ({ name, type: "TXT", content });
const elevenIncludes = `v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i}.example.net`).join(" ")} -all`;

/** For each rule: a template that breaks it (and no other rule), its severity, and its citation. */
const BREAKING: Array<[string, RecordSpec[], "error" | "warning", string]> = [
  ["spf-single-record", [txt("@", "v=spf1 mx -all"), txt("@", "v=spf1 -all")], "error", "RFC 7208 §3.2"],
  ["spf-syntax", [txt("@", "v=spf1 foo -all")], "error", "RFC 7208 §4.6.1, §12"],
  ["spf-lookup-limit", [txt("@", elevenIncludes)], "error", "RFC 7208 §4.6.4"],
  ["dmarc-syntax", [txt("_dmarc", "v=DMARC1; p=block")], "error", "RFC 7489 §6.3, §6.4"],
  [
    "dmarc-single-record",
    [txt("_dmarc", "v=DMARC1; p=none"), txt("_dmarc", "v=DMARC1; p=reject")],
    "error",
    "RFC 7489 §6.6.3",
  ],
  [
    "cname-loop",
    [
      { name: "a", type: "CNAME", content: "b.{domainname}." },
      { name: "b", type: "CNAME", content: "a.{domainname}." },
    ],
    "error",
    "RFC 1034 §3.6.2",
  ],
  ["caa-syntax", [{ name: "@", type: "CAA", content: 'issue "letsencrypt.org"' }], "error", "RFC 8659 §4.1"],
  [
    "target-is-cname",
    [
      { name: "mail", type: "CNAME", content: "mailhost.example.net." },
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
    ],
    "warning",
    "RFC 2181 §10.3, RFC 2782",
  ],
  [
    "caa-unknown-tag",
    [{ name: "@", type: "CAA", content: '0 isue "letsencrypt.org"' }],
    "warning",
    "RFC 8659 §4.1, §7.2",
  ],
  ["spf-pass-all", [txt("@", "v=spf1 mx +all")], "warning", "RFC 7208 §5.1"],
];

describe("each rule", () => {
  it("is broken by one template of the table, and every rule is in it", () => {
    expect(BREAKING.map(([rule]) => rule).sort()).toEqual([...RULE_NAMES].sort());
  });

  it.each(BREAKING)(
    "%s: fires with its severity, and its finding cites %s",
    (rule, records, severity, rfc) => {
      const found = checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
      expect(found.map((f) => [f.rule, f.severity])).toEqual([[rule, severity]]);
      const f = found[0]!;
      expect(findingText(f)).toBe(`[${rule}, ${rfc}] ${f.problem}; fix: ${f.fix}`);
    },
  );
});

describe("rule names (liftedChecks)", () => {
  it("are the stable names, in the order errors then warnings are documented", () => {
    expect(RULE_NAMES).toEqual([
      "spf-single-record",
      "spf-syntax",
      "spf-lookup-limit",
      "dmarc-syntax",
      "dmarc-single-record",
      "cname-loop",
      "caa-syntax",
      "target-is-cname",
      "caa-unknown-tag",
      "spf-pass-all",
    ]);
  });

  it("are recognised exactly: not by another case, a prefix or an inherited property", () => {
    for (const name of RULE_NAMES) expect(isRuleName(name)).toBe(true);
    for (const name of ["SPF-SYNTAX", "spf", "spf-syntax ", "", "toString", "constructor"])
      expect(isRuleName(name)).toBe(false);
  });
});
