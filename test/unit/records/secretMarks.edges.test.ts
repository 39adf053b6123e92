/**
 * The secret marks at their edges (provider/records/secretMarks.ts): a property with no value shows
 * no secret, however short the secret; a record field that holds a secret anywhere inside, beside
 * plain values, arrived secret.
 */
import { describe, expect, it } from "vitest";
import { secret } from "../../../provider/host/secretValues";
import { markSecrets, secretRecordMarks } from "../../../provider/records/secretMarks";

describe("the secret marks at their edges", () => {
  it("leave a property without a value as it is, whatever the secret text", () => {
    const outs = markSecrets({ lastPlan: "1 to create", verifyDomain: undefined }, ["e", "here"]);
    expect(outs).toEqual({ lastPlan: secret("1 to create"), verifyDomain: undefined });
    expect(Object.hasOwn(outs, "verifyDomain")).toBe(true);
  });

  it("name a field that holds a secret beside plain values, and not one that holds none", () => {
    const www = { name: "www", type: "A", content: "192.0.2.1" };
    const records = [
      { ...www, meta: ["plain", secret("hidden")] },
      { ...www, meta: {} },
      { ...www, meta: { a: "plain", b: { c: secret("hidden") } } },
    ];
    expect(secretRecordMarks({ records })).toEqual(["0:meta", "2:meta"]);
  });
});
