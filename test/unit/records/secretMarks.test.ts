/**
 * Which outputs of DnsTemplateRecords the plugin tells the engine are secret
 * (provider/records/secretMarks.ts): every property that shows a secret the program gave, however it
 * is written there, field by field in the records; and which records arrived secret.
 */
import { describe, expect, it } from "vitest";
import { isSecret, secret } from "../../../provider/host/secretValues";
import { markSecrets, secretRecordMarks } from "../../../provider/records/secretMarks";

const www = { name: "www", type: "A", content: "192.0.2.1" };

describe("outputs that show a secret are marked secret", () => {
  it("whatever the letter case the output writes it in", () => {
    const outs = markSecrets(
      { untrackedRecords: ["mail MX 10 mx1.hidden.example"], lastPlan: "1 to create" },
      ["MX1.Hidden.Example"],
    );
    expect(isSecret(outs.untrackedRecords)).toBe(true);
    expect(outs.lastPlan).toBe("1 to create");
  });

  it("also where the output quotes it with its quotes and backslashes escaped (a TXT of DKIM)", () => {
    const dkim = 'v=DKIM1; n="Rotated Key"; p=MIGf\\x';
    const outs = markSecrets({ lastPlan: `+ CREATE _dk TXT ${dkim}`, templateId: "t" }, [dkim]);
    expect(isSecret(outs.lastPlan)).toBe(true);
    expect(outs.templateId).toBe("t");
  });

  it("a record field by field, in a list or keyed, and the whole record when it is no object", () => {
    const txt = { name: "_k", type: "TXT", content: "Secret-Token-1" };
    const listed = markSecrets({ records: [www, txt] }, ["secret-token-1"]);
    expect(listed.records).toEqual([www, { ...txt, content: secret("Secret-Token-1") }]);
    const keyed = markSecrets({ records: { "_k/TXT": txt, "www/A": www } }, ["Secret-Token-1"]);
    expect(keyed.records).toEqual({ "_k/TXT": { ...txt, content: secret("Secret-Token-1") }, "www/A": www });
    const odd = markSecrets({ records: ["Secret-Token-1 as text", www] }, ["Secret-Token-1"]);
    expect(odd.records).toEqual([secret("Secret-Token-1 as text"), www]);
  });

  it("leaves what is already secret as it is, not wrapped twice", () => {
    const content = secret("Secret-Token-1");
    const outs = markSecrets({ records: [{ ...www, content }], note: secret("Secret-Token-1") }, [
      "Secret-Token-1",
    ]);
    expect(outs.records).toEqual([{ ...www, content }]);
    expect(outs.note).toEqual(secret("Secret-Token-1"));
    const whole = secret({ "www/A": www });
    expect(markSecrets({ records: whole }, ["192.0.2.1"]).records).toBe(whole);
  });

  it("marks the records the core names, by index or key, a field or the whole record, without a secret text", () => {
    const txt = { name: "_k", type: "TXT", content: "t" };
    const byIndex = markSecrets({ records: [www, txt], secretRecords: [1] }, []);
    expect(byIndex.records).toEqual([www, { name: secret("_k"), type: secret("TXT"), content: secret("t") }]);
    const byField = markSecrets(
      { records: { "www/A": www, "_k/TXT": txt }, secretRecords: ["_k/TXT:content"] },
      [],
    );
    expect(byField.records).toEqual({ "www/A": www, "_k/TXT": { ...txt, content: secret("t") } });
    // A mark that is no list names nothing.
    const none = { records: [www], secretRecords: "0" };
    expect(markSecrets(none, [])).toBe(none);
  });

  it("marks nothing where no output shows the secret", () => {
    const outs = markSecrets({ records: [www], lastPlan: "0 to change" }, ["Secret-Token-1"]);
    expect(outs).toEqual({ records: [www], lastPlan: "0 to change" });
  });
});

describe("the records that arrived secret", () => {
  it("are named field by field, a nested secret too, and every record when the list is", () => {
    const mx = { name: "@", type: "MX", content: "mx.example.net", priority: 10 };
    expect(secretRecordMarks({ records: [www, { ...mx, meta: { note: secret("n") } }] })).toEqual(["1:meta"]);
    expect(secretRecordMarks({ records: secret({ "@/MX": mx, "www/A": www }) })).toEqual(["@/MX", "www/A"]);
    expect(secretRecordMarks({ records: [www, "text"] })).toEqual([]);
  });

  it("keep the marks already stored, once each, and drop what is no mark", () => {
    const marks = secretRecordMarks({
      records: [www, { ...www, content: secret("192.0.2.2") }],
      secretRecords: [0, "1:content", { x: 1 }, null],
    });
    expect(marks).toEqual([0, "1:content"]);
    expect(secretRecordMarks({ records: [www], secretRecords: secret(["0:name"]) })).toEqual(["0:name"]);
  });
});
