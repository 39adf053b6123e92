/**
 * The engine's secret wrapper as the plugin sees it (provider/host/secretValues.ts): what is a
 * secret, what plain values and secret texts an operation gets from its inputs (the texts then
 * masked in every message), and the settings kept secret whatever the program gave.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { isSecret, markSecretSettings, plain, secret } from "../../../provider/host/secretValues";

const SIG = pulumi.runtime.specialSigKey;
const SECRET = pulumi.runtime.specialSecretSig;

describe("the secret wrapper", () => {
  it("is the engine's: its signature key with the secret signature, and the value", () => {
    expect(secret("hunter2")).toEqual({ [SIG]: SECRET, value: "hunter2" });
    expect(isSecret({ [SIG]: SECRET, value: 1 })).toBe(true);
  });

  it("nothing else is a secret", () => {
    for (const v of [null, undefined, "x", 1, [], {}, { value: "x" }, { [SIG]: "other", value: "x" }])
      expect(isSecret(v)).toBe(false);
  });
});

describe("plain values and the texts to mask", () => {
  it("unwraps secrets at any depth and lists the texts found inside them", () => {
    const { value, secretTexts } = plain({
      templateId: "web",
      apiKey: secret("dk_live_1"),
      records: [
        { name: "@", content: secret("v=DKIM1; p=abc") },
        secret({ name: "mail", priority: 10, ttl: null, note: undefined, blank: "" }),
      ],
      nested: { deep: [secret(["a", 2, true])] },
    });
    expect(value).toEqual({
      templateId: "web",
      apiKey: "dk_live_1",
      records: [
        { name: "@", content: "v=DKIM1; p=abc" },
        { name: "mail", priority: 10, ttl: null, note: undefined, blank: "" },
      ],
      nested: { deep: [["a", 2, true]] },
    });
    // Nothing outside a secret; never null, undefined or an empty text (masking "" would mask everything).
    expect(secretTexts).toEqual(["dk_live_1", "v=DKIM1; p=abc", "mail", "10", "a", "2", "true"]);
  });

  it("no secret: the same values, nothing to mask", () => {
    const props = { a: "x", b: [1, { c: null }] };
    expect(plain(props)).toEqual({ value: props, secretTexts: [] });
  });
});

describe("the settings kept secret", () => {
  it("wraps the key when the program gave it plain, leaves a wrapped one and the rest as they are", () => {
    expect(
      markSecretSettings({ apiKey: "dk_live_1", baseUrl: "https://api.example.com", timeoutMs: 5 }),
    ).toEqual({
      apiKey: secret("dk_live_1"),
      baseUrl: "https://api.example.com",
      timeoutMs: 5,
    });
    const wrapped = secret("dk_live_2");
    expect(markSecretSettings({ apiKey: wrapped }).apiKey).toBe(wrapped);
    expect(markSecretSettings({ baseUrl: "x" })).toEqual({ baseUrl: "x" });
  });

  it("leaves the inputs it was given untouched", () => {
    const inputs = { apiKey: "dk_live_1" };
    markSecretSettings(inputs);
    expect(inputs).toEqual({ apiKey: "dk_live_1" });
  });
});
