import { describe, expect, it } from "vitest";
import {
  containsUnknown,
  PROVIDER_KEY,
  UNKNOWN,
  unknownInputs,
  withoutProvider,
} from "../../provider/host/engine";

describe("engine facts", () => {
  it("uses the engine's own unknown marker and provider key", () => {
    expect(UNKNOWN).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
    expect(PROVIDER_KEY).toBe("__provider");
  });

  it("finds an unknown value however deep it is nested", () => {
    expect(containsUnknown(UNKNOWN)).toBe(true);
    expect(containsUnknown({ records: [{ name: "@", content: UNKNOWN }] })).toBe(true);
    expect(containsUnknown({ records: { "@/A": { content: UNKNOWN } } })).toBe(true);
    expect(containsUnknown({ templateId: "tpl-1", records: [{ content: "192.0.2.1" }] })).toBe(false);
    expect(containsUnknown(null)).toBe(false);
    expect(containsUnknown(undefined)).toBe(false);
  });

  it("refuses each input name the resource does not take, the provider key aside", () => {
    expect(
      unknownInputs(
        { __provider: "x", templateId: "t", colour: "blue", record: [] },
        ["templateId", "records", "purge", "safetyThreshold"],
        "DnsTemplateRecords",
      ),
    ).toEqual([
      {
        property: "colour",
        reason: "unknown input; DnsTemplateRecords takes templateId, records, purge and safetyThreshold",
      },
      {
        property: "record",
        reason: "unknown input; DnsTemplateRecords takes templateId, records, purge and safetyThreshold",
      },
    ]);
    expect(
      unknownInputs({ domain: "a.example", trigger: 1 }, ["domain", "triggers"], "DomainRestore"),
    ).toEqual([{ property: "trigger", reason: "unknown input; DomainRestore takes domain and triggers" }]);
    expect(
      unknownInputs({ __provider: "x", domain: UNKNOWN }, ["domain", "triggers"], "DomainRestore"),
    ).toEqual([]);
  });

  it("drops the provider key and keeps everything else", () => {
    expect(withoutProvider({ __provider: "x", domain: "a.example", triggers: [1] })).toEqual({
      domain: "a.example",
      triggers: [1],
    });
  });
});
