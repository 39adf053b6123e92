/**
 * The provider plugin's own pieces, pure: secrets in and out, the detailed diff, a provider's
 * inputs turned into the session's settings (and checked with up's messages), an import's state.
 */
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../provider/config";
import { UNKNOWN } from "../../provider/engine";
import { PartialFailure } from "../../provider/partialFailure";
import { detailedDiff } from "../../provider/plugin/diff";
import {
  checkProviderInputs,
  configureRequestOf,
  providerSettingsChanged,
  settingsOf,
} from "../../provider/plugin/host";
import { importedState, pluginFailure, TOKENS, typeOfUrn } from "../../provider/plugin/provider";
import { isSecret, markSecrets, secret, unwrapSecrets } from "../../provider/plugin/secrets";
import { decodeInputs, decodeOutputs } from "../../provider/records/state";

describe("secrets", () => {
  it("unwraps nested secrets and marks the outputs that show a secret's text", () => {
    const { value, secretTexts } = unwrapSecrets({
      records: [{ content: secret("dkim=abc") }],
      templateId: "t",
    });
    expect(value).toEqual({ records: [{ content: "dkim=abc" }], templateId: "t" });
    expect(secretTexts).toEqual(["dkim=abc"]);
    const outs = markSecrets(
      { records: { "@/TXT": { content: "dkim=abc" } }, lastPlan: "1 to create", templateId: "t" },
      secretTexts,
    );
    expect(isSecret(outs.records)).toBe(true);
    expect(outs.lastPlan).toBe("1 to create");
    expect(outs.templateId).toBe("t");
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
  it("reads a provider's inputs (secret, numbers, booleans) as the session's settings", () => {
    const settings = settingsOf({
      apiKey: secret("k-1"),
      baseUrl: "http://127.0.0.1:1",
      timeoutMs: 5000,
      verifyOnRefresh: true,
      version: "0.1.0",
    });
    expect(settings).toEqual({
      apiKey: "k-1",
      baseUrl: "http://127.0.0.1:1",
      timeoutMs: "5000",
      verifyOnRefresh: "true",
    });
    const req = configureRequestOf(settings);
    expect(req.config.get("domainapi:apiKey")).toBe("k-1");
    expect(req.config.get("domainapi:verifyOnRefresh")).toBe("true");
    expect(req.config.get("domainapi:maxRetries")).toBeUndefined();
    // What the session resolves from them (env empty: the inputs alone).
    const lookup = (k: string) => req.config.get(`domainapi:${k}`);
    expect(resolveConfig(lookup, {})).toMatchObject({
      apiKey: "k-1",
      baseUrl: "http://127.0.0.1:1",
      timeoutMs: 5000,
    });
  });

  it("checks malformed settings with up's messages, leaves a missing key to up, and marks the key secret", () => {
    const bad = checkProviderInputs({ baseUrl: "ftp://x", timeoutMs: "soon", apiKey: "k" });
    expect(bad.failures.map((f) => f.property)).toEqual(["baseUrl", "timeoutMs"]);
    expect(bad.failures[0]?.reason).toContain("must use http or https");
    expect(isSecret(bad.inputs.apiKey)).toBe(true);
    expect(JSON.stringify(bad.failures)).not.toContain('"k"');
    expect(checkProviderInputs({}).failures).toEqual([]);
    // Unknown in a preview (it comes from another resource): checked once known.
    expect(checkProviderInputs({ baseUrl: UNKNOWN }).failures).toEqual([]);
  });

  it("sees a changed key as a change, a key turned secret as none", () => {
    expect(providerSettingsChanged({ apiKey: "a" }, { apiKey: secret("a") })).toBe(false);
    expect(providerSettingsChanged({ apiKey: "a" }, { apiKey: "b" })).toBe(true);
  });
});

describe("import", () => {
  it("reads a template from its id alone: purge by the id's form, no records held", () => {
    expect(typeOfUrn("urn:pulumi:dev::p::domainapi:index:DnsTemplateRecords::web")).toBe(TOKENS.records);
    const owned = importedState(TOKENS.records, "web");
    expect(decodeOutputs(owned.props).settings).toMatchObject({ templateId: "web", purge: true });
    expect(decodeOutputs(owned.props).held).toEqual([]);
    const shared = importedState(TOKENS.records, "web/1a2b3c4d");
    expect(decodeInputs(shared.inputs).settings).toMatchObject({ templateId: "web", purge: false });
    expect(importedState(TOKENS.restore, "Shop.Example").props).toEqual({ domain: "shop.example" });
  });
});

describe("a failure part-way", () => {
  it("reaches the SDK's host with the state so far, in values it can send, secrets marked", () => {
    const err = new PartialFailure(
      "2nd PATCH failed",
      "tpl-1",
      { templateId: "tpl-1", records: { "@/TXT": { content: "dkim=abc", priority: undefined } } },
      {},
    );
    const sent = pluginFailure(err, ["dkim=abc"]) as {
      id: string;
      properties: Record<string, unknown>;
      message: string;
    };
    expect(sent.message).toBe("2nd PATCH failed");
    expect(sent.id).toBe("tpl-1");
    expect(Object.keys(sent.properties)).toEqual(["templateId", "records"]);
    expect(sent.properties.records).toEqual(secret({ "@/TXT": { content: "dkim=abc" } }));
    const other = new Error("401");
    expect(pluginFailure(other, [])).toBe(other);
  });
});
