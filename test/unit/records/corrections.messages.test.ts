/**
 * A correction's message for people (records/corrections.ts): a number a held record lacks (a
 * state written before it was required) reads `(none)`; the type is never passed to the masking,
 * every other value is; a PUT names no record id, so a 404 to it is about the template.
 */
import { describe, expect, it } from "vitest";
import {
  correctionMessage,
  type HeldRecord,
  namesRecordIds,
  putOf,
  updateCorrection,
} from "../../../provider/records/corrections";

const srv = (fields: Partial<HeldRecord>): HeldRecord => ({
  name: "_sip._tcp",
  type: "SRV",
  content: "sip.example.net",
  recordId: "r1",
  key: "_sip._tcp/SRV",
  ...fields,
});

describe("a correction's message", () => {
  it("says (none) for a number one side lacks", () => {
    const from = srv({ priority: 10, port: 5060 });
    const to = srv({ priority: 10, weight: 5, port: 5060 });
    expect(updateCorrection(from, to).message).toBe(
      "~ MODIFY _sip._tcp SRV sip.example.net weight (none) -> 5",
    );
    expect(updateCorrection(to, from).message).toBe(
      "~ MODIFY _sip._tcp SRV sip.example.net weight 5 -> (none)",
    );
  });

  it("passes every value but the type to the masking", () => {
    const from = srv({ priority: 10, weight: 5, port: 5060 });
    const to = srv({ priority: 20, weight: 5, port: 5060 });
    const shown: Array<string | number> = [];
    const message = correctionMessage(updateCorrection(from, to), (v) => {
      shown.push(v);
      return "*";
    });
    expect(message).toBe("~ MODIFY * SRV * priority * -> *");
    expect(shown).not.toContain("SRV");
  });
});

describe("a PUT", () => {
  it("names no record id: a 404 to it is about the template", () => {
    const put = putOf([{ name: "www", type: "A", content: "192.0.2.1", key: "www/A" }]);
    expect(namesRecordIds(put)).toBe(false);
  });
});
