/** The inputs of a DnsTemplateRecords resource checked as a whole (provider/records/inputs.ts). */
import { describe, expect, it } from "vitest";
import { validateTemplateRecordsInputs } from "../../../provider/records/inputs";
import { DEFAULT_SAFETY_THRESHOLD } from "../../../provider/records/safety";

describe("validateTemplateRecordsInputs", () => {
  it("returns the normalized inputs, ignoring keys it does not know", () => {
    expect(
      validateTemplateRecordsInputs({
        templateId: "7",
        records: [{ name: "WWW", type: "a", content: "192.0.2.1" }],
        __provider: "serialized",
      }),
    ).toEqual({
      inputs: {
        templateId: "7",
        records: [{ name: "www", type: "A", content: "192.0.2.1" }],
        purge: true,
        safetyThreshold: DEFAULT_SAFETY_THRESHOLD,
      },
      issues: [],
      warnings: [],
    });
  });

  it("collects the issues of every input", () => {
    const result = validateTemplateRecordsInputs({
      records: [{}],
      safetyThreshold: { maxChangePercent: -1 },
    });
    expect(result.inputs).toBeUndefined();
    expect(result.issues.map((i) => i.property)).toEqual([
      "templateId",
      "records[0].name",
      "records[0].type",
      "records[0].content",
      "safetyThreshold.maxChangePercent",
    ]);
  });
});

describe("validateTemplateRecordsInputs: purge", () => {
  it("takes a boolean or nothing, and refuses anything else in its place among the issues", () => {
    for (const purge of [true, false, undefined, null]) {
      const result = validateTemplateRecordsInputs({ templateId: "7", records: [], purge });
      expect(result.issues).toEqual([]);
      expect(result.inputs?.purge).toBe(purge !== false);
    }
    const result = validateTemplateRecordsInputs({
      records: [],
      purge: "yes",
      safetyThreshold: { maxChangePercent: -1 },
    });
    expect(result.inputs).toBeUndefined();
    expect(result.issues.map((i) => i.property)).toEqual([
      "templateId",
      "purge",
      "safetyThreshold.maxChangePercent",
    ]);
    expect(result.issues[1]?.reason).toBe(
      "expected true (the resource owns the whole template) or false (only its own records)",
    );
  });
});
