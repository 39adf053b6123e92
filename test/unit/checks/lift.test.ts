/**
 * Lifting an error rule for one resource (a resource may lift a named error rule for itself, never
 * silently): the lift input as read, and the verdict on a
 * template's findings, each line as the preview and the PR plan show it.
 */
import { describe, expect, it } from "vitest";
import { readLiftedChecks, verdictOf } from "../../../provider/checks/lift";
import { type Finding, findingText } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";

function findings(records: RecordSpec[]): Finding[] {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })));
}

const LIFTABLE =
  "spf-single-record, spf-syntax, spf-lookup-limit, dmarc-syntax, dmarc-single-record, cname-loop, caa-syntax";

// Two errors of two rules, and a warning.
const template: RecordSpec[] = [
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  { name: "@", type: "TXT", content: "v=spf1 -all" },
  { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=block" },
  { name: "mail", type: "CNAME", content: "mailhost.example.net." },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
];

describe("the verdict on a template's findings", () => {
  const all = findings(template);

  it("lifting one rule lifts that rule only: the other rule's error still fails the preview", () => {
    expect(all.map((f) => f.rule)).toEqual(["spf-single-record", "dmarc-syntax", "target-is-cname"]);
    const { errors, warnings } = verdictOf(all, ["spf-single-record"], 'template "t"');
    expect(errors.map((f) => [f.rule, f.path])).toEqual([["dmarc-syntax", "records[2].content"]]);
    expect(warnings).toEqual([
      `template "t": records[1].content (@ TXT v=spf1 -all): ${findingText(all[0]!)} [lifted by liftedChecks: not failing the preview]`,
      `template "t": records[4].content (@ MX 10 mail.{domainname}.): ${findingText(all[2]!)}`,
    ]);
  });

  it("without a lift every error fails and only the warning shows", () => {
    const { errors, warnings } = verdictOf(all, []);
    expect(errors).toEqual([all[0], all[1]]);
    expect(warnings).toEqual([`records[4].content (@ MX 10 mail.{domainname}.): ${findingText(all[2]!)}`]);
  });

  it("lifting both rules fails nothing; every line names its record as the caller asks", () => {
    const { errors, warnings } = verdictOf(
      all,
      ["dmarc-syntax", "spf-single-record"],
      undefined,
      (f) => f.record,
    );
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      `@ TXT v=spf1 -all: ${findingText(all[0]!)} [lifted by liftedChecks: not failing the preview]`,
      `_dmarc TXT v=DMARC1; p=block: ${findingText(all[1]!)} [lifted by liftedChecks: not failing the preview]`,
      `@ MX 10 mail.{domainname}.: ${findingText(all[2]!)}`,
    ]);
  });

  it("a lifted rule that finds nothing is named, and one that finds something is not", () => {
    const { warnings } = verdictOf(all, ["spf-single-record", "cname-loop", "caa-syntax"]);
    expect(warnings.filter((w) => w.startsWith("liftedChecks"))).toEqual([
      'liftedChecks lifts "cname-loop", which finds nothing here; remove it from liftedChecks',
      'liftedChecks lifts "caa-syntax", which finds nothing here; remove it from liftedChecks',
    ]);
  });
});

describe("the liftedChecks input", () => {
  it("absent or null lifts nothing and refuses nothing", () => {
    expect(readLiftedChecks(undefined)).toEqual({ lifted: [], issues: [] });
    expect(readLiftedChecks(null)).toEqual({ lifted: [], issues: [] });
    expect(readLiftedChecks([])).toEqual({ lifted: [], issues: [] });
  });

  it("what is not a list is refused at the input's path, with an example", () => {
    expect(readLiftedChecks("spf-syntax", "resources.site.liftedChecks")).toEqual({
      lifted: [],
      issues: [
        {
          property: "resources.site.liftedChecks",
          reason: 'expected a list of rule names, e.g. liftedChecks: ["spf-lookup-limit"]',
        },
      ],
    });
  });

  it("an item that is no rule's name is refused at its index, listing the rules that can be lifted", () => {
    expect(readLiftedChecks([42, "cname-loop", null, "CNAME-LOOP"], "lift")).toEqual({
      lifted: ["cname-loop"],
      issues: [
        { property: "lift[0]", reason: `42 is not a rule; the rules that can be lifted are ${LIFTABLE}` },
        { property: "lift[2]", reason: `null is not a rule; the rules that can be lifted are ${LIFTABLE}` },
        {
          property: "lift[3]",
          reason: `"CNAME-LOOP" is not a rule; the rules that can be lifted are ${LIFTABLE}`,
        },
      ],
    });
  });

  it("each error rule can be lifted, each warning rule is refused as nothing to lift", () => {
    for (const rule of LIFTABLE.split(", "))
      expect(readLiftedChecks([rule])).toEqual({ lifted: [rule], issues: [] });
    for (const rule of ["target-is-cname", "caa-unknown-tag", "spf-pass-all"]) {
      expect(readLiftedChecks([rule]).issues).toEqual([
        {
          property: `liftedChecks[0]`,
          reason: `"${rule}" only warns, so there is nothing to lift: remove it (the rules that can be lifted are ${LIFTABLE})`,
        },
      ]);
    }
  });
});
