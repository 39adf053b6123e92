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

  it("says a TTL, in any case, is not in the API rather than only unknown", () => {
    expect(unknownInputs({ TTL: 300, ttl: 60 }, ["templateId", "records"], "DnsTemplateRecords")).toEqual([
      {
        property: "TTL",
        reason: "DnsTemplateRecords has no TTL: the API sets none (its records have no TTL field); remove it",
      },
      {
        property: "ttl",
        reason: "DnsTemplateRecords has no TTL: the API sets none (its records have no TTL field); remove it",
      },
    ]);
    // A name that holds "ttl" is another input, refused as unknown.
    expect(unknownInputs({ ttlSeconds: 1 }, ["domain"], "DomainRestore")).toEqual([
      { property: "ttlSeconds", reason: "unknown input; DomainRestore takes domain" },
    ]);
  });

  it("finds no unknown where there is none, at any depth", () => {
    expect(containsUnknown([])).toBe(false);
    expect(containsUnknown({})).toBe(false);
    expect(containsUnknown([["a", 1, null], [{ b: [true] }]])).toBe(false);
    expect(containsUnknown([["a"], [{ b: [UNKNOWN] }]])).toBe(true);
    expect(containsUnknown(`${UNKNOWN} `)).toBe(false);
    expect(containsUnknown(0)).toBe(false);
    expect(containsUnknown({ a: "x", b: { c: "y" }, d: UNKNOWN })).toBe(true);
    expect(containsUnknown([1, 2, UNKNOWN])).toBe(true);
  });
});
