/**
 * The inputs of a DnsTemplateRecords resource as a whole (records/inputs.ts): properties that are no
 * object are refused as missing; a template check that fails refuses the inputs and keeps the
 * warnings of the others; a wrong lifted rule is an issue; valid records come back in canonical
 * order, with no `liftedChecks` where none is lifted.
 */
import { describe, expect, it } from "vitest";
import { validateTemplateRecordsInputs } from "../../../provider/records/inputs";

const spf = (content: string) => ({ name: "www", type: "TXT", content });

describe("validateTemplateRecordsInputs, as a whole", () => {
  it("refuses properties that are no object as missing every required input", () => {
    for (const raw of [null, "records", [1]]) {
      const result = validateTemplateRecordsInputs(raw);
      expect(result.inputs).toBeUndefined();
      expect(result.issues.map((i) => i.property)).toEqual(["templateId", "records"]);
    }
  });

  it("refuses a template check that fails, on the record's path, and keeps the other checks' warnings", () => {
    const result = validateTemplateRecordsInputs({
      templateId: "t",
      records: [spf("v=spf1 -all"), spf("v=spf1 +all")],
    });
    expect(result.inputs).toBeUndefined();
    expect(result.issues).toEqual([
      {
        property: "records[1].content",
        reason: expect.stringMatching(/^\[spf-single-record, RFC 7208 §3\.2\] /),
      },
    ]);
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^template "t": records\[1\]\.content \(www TXT v=spf1 \+all\): \[spf-pass-all, /,
      ),
    ]);
  });

  it("keeps the warnings of valid inputs", () => {
    const result = validateTemplateRecordsInputs({ templateId: "t", records: [spf("v=spf1 +all")] });
    expect(result.issues).toEqual([]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^template "t": records\[0\]\.content .*\[spf-pass-all, /),
    ]);
  });

  it("names a rule that cannot be lifted", () => {
    const result = validateTemplateRecordsInputs({ templateId: "t", records: [], liftedChecks: ["nope"] });
    expect(result.inputs).toBeUndefined();
    expect(result.issues).toEqual([
      {
        property: "liftedChecks[0]",
        reason: expect.stringMatching(/^"nope" is not a rule; the rules that can be lifted are /),
      },
    ]);
  });

  it("gives the records in canonical order, and no liftedChecks where none is lifted", () => {
    const result = validateTemplateRecordsInputs({
      templateId: "t",
      records: [
        { name: "www", type: "A", content: "192.0.2.9" },
        { name: "api", type: "A", content: "192.0.2.1" },
      ],
    });
    expect(result.inputs?.records.map((r) => r.name)).toEqual(["api", "www"]);
    expect(result.inputs).not.toHaveProperty("liftedChecks");
  });
});
