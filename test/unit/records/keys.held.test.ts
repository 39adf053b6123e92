/**
 * The keys of records held in a state of the earlier array shape (records with their ids, keyed
 * when read, by `keyRecords` in records/keys.ts): what the preview shows for each record the
 * template holds. Such a state may hold the same values more than once (a partly applied run) or
 * an MX stored without a priority (the state codec keeps a record's numbers as it finds them).
 */
import { describe, expect, it } from "vitest";
import { decodeOutputs } from "../../../provider/records/state";

/** The keys of a state of the array shape, as `key -> id`, in canonical order. */
function keysOf(records: Array<Record<string, unknown>>): string[] {
  return decodeOutputs({ templateId: "tpl-1", records }).held.map((r) => `${r.key} -> ${r.recordId}`);
}

describe("keys of held records", () => {
  it("gives copies of the same values distinct keys, numbered in id order whatever the state's order", () => {
    const www = { name: "www", type: "A", content: "192.0.2.1" };
    const expected = ["www/A/192.0.2.1 -> r1", "www/A/192.0.2.1#2 -> r2", "www/A/192.0.2.1#3 -> r3"];
    for (const ids of [
      ["r1", "r2", "r3"],
      ["r3", "r1", "r2"],
      ["r2", "r3", "r1"],
    ]) {
      expect(keysOf(ids.map((recordId) => ({ ...www, recordId })))).toEqual(expected);
    }
  });

  it("keys an MX without a priority by its content, beside one of the same host with a priority", () => {
    const mx = { name: "@", type: "MX", content: "mx1.example.net" };
    expect(
      keysOf([
        { ...mx, priority: 10, recordId: "r1" },
        { ...mx, recordId: "r2" },
      ]),
    ).toEqual(["@/MX/mx1.example.net -> r2", "@/MX/10 mx1.example.net -> r1"]);
  });
});
