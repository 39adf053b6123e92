/**
 * The provider plugin's own pieces, pure: secrets in and out, the detailed diff, a provider's
 * inputs read, checked with up's messages and compared (DiffConfig), an import's state.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/host/engine";
import { isSecret, markSecretSettings, plain, secret } from "../../provider/host/secretValues";
import {
  diffProviderInputs,
  providerInputFailures,
  settingsSourceOf,
  settingsText,
} from "../../provider/host/session";
import { detailedDiff } from "../../provider/propertyDiff";
import * as records from "../../provider/records/provider";
import { markSecrets, secretRecordMarks } from "../../provider/records/secretMarks";
import { decodeInputs, decodeOutputs } from "../../provider/records/state";
import * as restore from "../../provider/restore/provider";

describe("secrets", () => {
  it("unwraps nested secrets and marks the outputs that show a secret's text", () => {
    const { value, secretTexts } = plain({
      records: [{ content: secret("dkim=abc") }],
      templateId: "t",
    });
    expect(value).toEqual({ records: [{ content: "dkim=abc" }], templateId: "t" });
    expect(secretTexts).toEqual(["dkim=abc"]);
    const www = { name: "www", type: "A", content: "192.0.2.1" };
    const outs = markSecrets(
      {
        records: { "@/TXT": { content: "dkim=abc" }, "www/A": www },
        lastPlan: "1 to create",
        templateId: "t",
        untrackedRecords: ["@ TXT dkim=abc"],
      },
      secretTexts,
    );
    // Field by field: the next call still knows which field of which record was secret.
    const records = outs.records as Record<string, Record<string, unknown>>;
    expect(isSecret(records)).toBe(false);
    expect(records["@/TXT"]).toEqual({ content: secret("dkim=abc") });
    expect(records["www/A"]).toEqual(www);
    expect(isSecret(outs.untrackedRecords)).toBe(true);
    expect(outs.lastPlan).toBe("1 to create");
    expect(outs.templateId).toBe("t");
  });

  it("marks the fields the core names secret, also where the stored value differs from the secret's text", () => {
    const mx = { name: "@", type: "MX", content: "mx1.hidden.example", priority: 10 };
    const outs = markSecrets({ records: { "@/MX": mx }, secretRecords: ["@/MX:content"] }, [
      "MX1.Hidden.Example",
    ]);
    expect(outs.records).toEqual({ "@/MX": { ...mx, content: secret("mx1.hidden.example") } });
    // Without a secret text of this call (a later one), the named fields are still marked.
    const later = markSecrets({ records: { "@/MX": mx }, secretRecords: ["@/MX"] }, []);
    expect(isSecret((later.records as Record<string, Record<string, unknown>>)["@/MX"]?.name)).toBe(true);
  });

  it("names the records that arrived secret, field by field, for the core's secretRecords", () => {
    const www = { name: "www", type: "A", content: "192.0.2.1" };
    expect(secretRecordMarks({ records: [www, { name: "_k", type: "TXT", content: secret("k") }] })).toEqual([
      "1:content",
    ]);
    expect(secretRecordMarks({ records: [secret(www), www] })).toEqual([0]);
    expect(secretRecordMarks({ records: secret([www, www]) })).toEqual([0, 1]);
    // Keyed records (the stored inputs), merged with the marks already stored.
    expect(
      secretRecordMarks({
        records: { "www/A": www, "_k/TXT": { name: "_k", type: "TXT", content: secret("k") } },
        secretRecords: ["www/A:name"],
      }),
    ).toEqual(["www/A:name", "_k/TXT:content"]);
    expect(secretRecordMarks({ records: [www] })).toEqual([]);
    expect(secretRecordMarks({ domain: "shop.example" })).toEqual([]);
  });

  it("leaves outputs alone when no input was secret", () => {
    const outs = { records: {}, ids: {} };
    expect(markSecrets(outs, [])).toBe(outs);
  });
});

describe("detailed diff", () => {
  it("names the changed record by its key, and a replacing change as such", () => {
    const olds = {
      templateId: "t",
      records: { "www/A": { content: "1" }, "@/A": { content: "2" } },
      purge: true,
    };
    const news = {
      templateId: "u",
      records: { "www/A": { content: "9" }, "@/A": { content: "2" }, "api/A": { content: "3" } },
    };
    expect(detailedDiff(olds, news, ["templateId"])).toEqual([
      { path: "templateId", kind: "update", replace: true },
      { path: 'records["www/A"]', kind: "update", replace: false },
      { path: 'records["api/A"]', kind: "add", replace: false },
      { path: "purge", kind: "delete", replace: false },
    ]);
  });
});

describe("explicit provider settings", () => {
  it("reads a provider's inputs (secret, numbers, booleans) as text, and nothing else", () => {
    expect(
      settingsText(
        plain({
          apiKey: secret("k-1"),
          baseUrl: "http://127.0.0.1:1",
          timeoutMs: 5000,
          verifyOnRefresh: true,
          version: "0.1.0",
        }).value,
      ),
    ).toEqual({ apiKey: "k-1", baseUrl: "http://127.0.0.1:1", timeoutMs: "5000", verifyOnRefresh: "true" });
  });

  it("checks malformed settings with up's messages, leaves a missing key to up, and marks the key secret", () => {
    const bad = providerInputFailures({ baseUrl: "ftp://x", timeoutMs: "soon", apiKey: "k" }, "provider");
    expect(bad.map((f) => f.property)).toEqual(["baseUrl", "timeoutMs"]);
    expect(bad[0]?.reason).toContain("must use http or https");
    expect(JSON.stringify(bad)).not.toContain('"k"');
    expect(providerInputFailures({ timeoutMs: "soon" }, "stack")[0]?.property).toBe("timeoutMs");
    expect(isSecret(markSecretSettings({ apiKey: "k" }).apiKey)).toBe(true);
    expect(markSecretSettings({ apiKey: secret("k") }).apiKey).toEqual(secret("k"));
    expect(providerInputFailures({}, "provider")).toEqual([]);
    // Unknown in a preview (it comes from another resource): checked once known.
    expect(providerInputFailures({ baseUrl: UNKNOWN }, "provider")).toEqual([]);
  });

  it("replaces on a new base address, updates on a new key, sees a key turned secret as none", () => {
    const p = (v: Record<string, unknown>) => plain(v).value;
    expect(diffProviderInputs(p({ apiKey: "a" }), p({ apiKey: secret("a") }))).toEqual({
      changes: false,
      replaces: [],
    });
    expect(diffProviderInputs({ apiKey: "a" }, { apiKey: "b" })).toEqual({ changes: true, replaces: [] });
    expect(diffProviderInputs({ baseUrl: "http://a" }, { baseUrl: "http://b" })).toEqual({
      changes: true,
      replaces: ["baseUrl"],
    });
    expect(diffProviderInputs({ baseUrl: "http://a/" }, { baseUrl: "http://a" }).replaces).toEqual([]);
    expect(diffProviderInputs({ baseUrl: "http://a" }, { baseUrl: UNKNOWN }).replaces).toEqual(["baseUrl"]);
  });

  it("takes the default provider's settings as the stack config, any other's as its inputs", () => {
    expect(settingsSourceOf("default_0_1_0")).toBe("stack");
    expect(settingsSourceOf("default")).toBe("stack");
    expect(settingsSourceOf("live")).toBe("provider");
    expect(settingsSourceOf("defaulted")).toBe("provider");
    // The engine hands CheckConfig and Configure the provider's URN.
    expect(settingsSourceOf("urn:pulumi:dev::p::pulumi:providers:domainapi::default_0_1_0")).toBe("stack");
    expect(settingsSourceOf("urn:pulumi:dev::p::pulumi:providers:domainapi::default")).toBe("stack");
    expect(settingsSourceOf("urn:pulumi:dev::p::pulumi:providers:domainapi::live")).toBe("provider");
  });
});

describe("import", () => {
  it("reads a template from its id alone: purge by the id's form, no records held, inputs of the schema's shape", () => {
    const owned = records.imported("web");
    expect(decodeOutputs(owned.props).settings).toMatchObject({ templateId: "web", purge: true });
    expect(decodeOutputs(owned.props).held).toEqual([]);
    expect(owned.inputs).toEqual({ templateId: "web", purge: true, records: [] });
    const shared = records.imported("web/1a2b3c4d");
    expect(decodeInputs(shared.inputs).settings).toMatchObject({ templateId: "web", purge: false });
    expect(restore.imported("Shop.Example").props).toEqual({ domain: "shop.example" });
  });
});
