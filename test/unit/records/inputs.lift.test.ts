/**
 * A DnsTemplateRecords resource's inputs with their template checks (records/inputs.ts): a lifted
 * error rule lets the inputs through, kept in them and said as a warning on the program's path; a
 * wrong input stops before the template checks run, so nothing is said twice.
 */
import { describe, expect, it } from "vitest";
import { validateTemplateRecordsInputs } from "../../../provider/records/inputs";

const spf = (content: string) => ({ name: "www", type: "TXT", content });

describe("validateTemplateRecordsInputs with liftedChecks", () => {
  it("lets a lifted error through, keeps the lift in the inputs and says it as a warning", () => {
    const result = validateTemplateRecordsInputs({
      templateId: "t",
      records: [spf("v=spf1 -all"), spf("v=spf1 ~all")],
      liftedChecks: ["spf-single-record"],
    });
    expect(result.issues).toEqual([]);
    expect(result.inputs?.liftedChecks).toEqual(["spf-single-record"]);
    expect(result.inputs?.records).toHaveLength(2);
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^template "t": records\[1\]\.content \(www TXT v=spf1 ~all\): \[spf-single-record, .*\[lifted by liftedChecks: not failing the preview\]$/,
      ),
    ]);
  });

  it("says nothing of the records' checks while an input is wrong", () => {
    const result = validateTemplateRecordsInputs({ records: [spf("v=spf1 +all")] });
    expect(result).toEqual({
      issues: [{ property: "templateId", reason: expect.any(String) }],
      warnings: [],
    });
  });

  it("a wrong purge with records that would warn: only the issue", () => {
    const result = validateTemplateRecordsInputs({
      templateId: "t",
      records: [spf("v=spf1 +all")],
      purge: 1,
    });
    expect(result.issues.map((i) => i.property)).toEqual(["purge"]);
    expect(result.warnings).toEqual([]);
    expect(result.inputs).toBeUndefined();
  });
});
