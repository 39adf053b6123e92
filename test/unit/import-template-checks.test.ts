/**
 * What the template checks refuse is skipped by the import, as what record validation refuses is:
 * the program an import writes must pass `check()`, and a zone exported from a DNS host may hold
 * two SPF records at a name or an unparsable DMARC record (served, and broken, today).
 */
import { describe, expect, it } from "vitest";
import { importZones } from "../../provider/import";
import { validateTemplateRecordsInputs } from "../../provider/records/inputs";

const ZONE = `$ORIGIN example.com.
@       TXT "v=spf1 mx -all"
@       TXT "v=spf1 include:_spf.example.net ~all"
_dmarc  TXT "v=DMARC1; p=maybe"
www     A   192.0.2.10
`;

describe("domainapi-import and the template checks", () => {
  // Imported in each test, never while tests are collected: a mutation run attributes code run
  // outside a test to every test.
  const imported = () => importZones([{ text: ZONE, file: "web.zone" }])[0];

  it("skips the later of two SPF records and an unparsable DMARC record, each with its line and rule", () => {
    const web = imported();
    expect(web?.skipped.map((s) => [s.line, s.reason.match(/\[([a-z-]+),/)?.[1]])).toEqual([
      [3, "spf-single-record"],
      [4, "dmarc-syntax"],
    ]);
    expect(web?.records.map(({ record: r }) => `${r.name} ${r.type} ${r.content}`)).toEqual([
      "@ TXT v=spf1 mx -all",
      "www A 192.0.2.10",
    ]);
  });

  it("writes records that check() accepts with no failure", () => {
    const web = imported();
    const { issues } = validateTemplateRecordsInputs({
      templateId: "web",
      records: web?.records.map((r) => r.record) ?? [],
    });
    expect(issues).toEqual([]);
  });
});
