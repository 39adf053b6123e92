/**
 * The shapes of stored properties the state decoder reads (records/state.ts), beyond the round
 * trips: a value the engine does not know yet during a preview, in either shape; a URL forward that
 * owns several ids; ids that are no ids; a template brought in by `pulumi import`; records of the
 * earlier array shape without an id, or written otherwise than normalized.
 */
import { describe, expect, it } from "vitest";
import { containsUnknown, UNKNOWN } from "../../../provider/host/engine";
import { DEFAULT_SAFETY_THRESHOLD } from "../../../provider/records/safety";
import {
  decodeInputs,
  decodeOutputs,
  encodeOutputs,
  recordsOfOutputs,
  type Settings,
} from "../../../provider/records/state";

const www = { name: "www", type: "A", content: "192.0.2.1" };
const settings: Settings = { templateId: "t", purge: true, safetyThreshold: DEFAULT_SAFETY_THRESHOLD };

describe("a value not known yet (a preview)", () => {
  it("makes the declaration unknown, in the keyed shape, the array shape, or as the records themselves", () => {
    for (const records of [
      { "www/A": www, "api/A": { ...www, name: "api", content: UNKNOWN } },
      [www, { ...www, name: UNKNOWN }],
      UNKNOWN,
    ]) {
      expect(decodeInputs({ templateId: "t", records }, containsUnknown)).toBeUndefined();
    }
  });

  it("leaves a known declaration as it is", () => {
    const wanted = decodeInputs({ templateId: "t", records: { "www/A": www } }, containsUnknown);
    expect(wanted).toEqual({ settings, declared: [{ ...www, key: "www/A" }] });
    expect(decodeInputs({ templateId: "t", records: [www] }, containsUnknown)?.declared).toEqual([
      { ...www, key: "www/A" },
    ]);
    expect(decodeInputs({ templateId: "t" }, containsUnknown)?.declared).toEqual([]);
  });
});

describe("the ids beside the records", () => {
  const forward = { name: "go", type: "URLFWD", content: "https://example.com/" } as const;

  it("of a URL forward that owns several: the first its own, all of them kept and shown", () => {
    const outputs = encodeOutputs(
      settings,
      [{ ...forward, recordId: "f1", madeIds: ["f2", "f3"], key: "go/URLFWD" }],
      "1 to create",
    );
    expect(outputs.ids).toEqual({ "go/URLFWD": ["f1", "f2", "f3"] });
    expect(decodeOutputs(outputs).held).toEqual([
      { ...forward, recordId: "f1", madeIds: ["f2", "f3"], key: "go/URLFWD" },
    ]);
    expect(recordsOfOutputs(outputs.records, outputs.ids)).toEqual([
      { ...forward, recordId: "f1", recordIds: ["f1", "f2", "f3"] },
    ]);
    // A list of one id is a record's own id and no more.
    expect(decodeOutputs({ records: { "go/URLFWD": forward }, ids: { "go/URLFWD": ["f1"] } }).held).toEqual([
      { ...forward, recordId: "f1", key: "go/URLFWD" },
    ]);
    expect(
      encodeOutputs(settings, [{ ...forward, recordId: "f1", madeIds: [], key: "go/URLFWD" }], "").ids,
    ).toEqual({
      "go/URLFWD": "f1",
    });
  });

  it("that are no ids hold nothing: an empty list, a list of other values, a number", () => {
    const records = { "www/A": www };
    for (const id of [[], ["r1", 2], 7, null]) {
      const holding = decodeOutputs({ records, ids: { "www/A": id } });
      expect(holding.held, JSON.stringify(id)).toEqual([]);
    }
    expect(decodeOutputs({ records, ids: "r1" }).held).toEqual([]);
  });
});

describe("other stored shapes", () => {
  it("a template brought in by pulumi import says it may hold records never seen", () => {
    expect(decodeOutputs({ templateId: "t", records: {}, ids: {}, unlisted: true })).toEqual({
      settings,
      held: [],
      untracked: [],
      unlisted: true,
    });
    expect(decodeOutputs({ templateId: "t", records: {}, ids: {} })).not.toHaveProperty("unlisted");
  });

  it("a record of the array shape without an id is declared, not held; its numbers are kept", () => {
    const mx = { name: "@", type: "mx", content: "MX1.Example.NET", priority: 10, recordId: "r9" };
    const props = { records: [www, mx] };
    expect(decodeOutputs(props).held).toEqual([
      { name: "@", type: "MX", content: "mx1.example.net", priority: 10, recordId: "r9", key: "@/MX" },
    ]);
    expect(decodeInputs(props).declared).toEqual([
      { name: "@", type: "MX", content: "mx1.example.net", priority: 10, key: "@/MX" },
      { ...www, key: "www/A" },
    ]);
  });

  it("a name stored as a number reads as its text", () => {
    const props = { records: { "7/A": { ...www, name: 7 } }, ids: { "7/A": "r7" } };
    expect(decodeOutputs(props).held).toEqual([{ ...www, name: "7", recordId: "r7", key: "7/A" }]);
  });

  it("adds of unknown outcome stored as any values read as text", () => {
    expect(decodeOutputs({ untrackedRecords: ["www A 192.0.2.1", 7] }).untracked).toEqual([
      "www A 192.0.2.1",
      "7",
    ]);
    expect(decodeOutputs({ untrackedAdds: "yes" }).untracked).toEqual([]);
  });
});

describe("records of a partly applied state that share a key", () => {
  it("are all kept, under the key and then #2, #3", () => {
    type Held = Parameters<typeof encodeOutputs>[1][number];
    const twin = (recordId: string): Held => ({ ...www, type: "A", recordId, key: "www/A" });
    const outputs = encodeOutputs(settings, [twin("r3"), twin("r1"), twin("r2")], "");
    expect(outputs.ids).toEqual({ "www/A": "r1", "www/A#2": "r2", "www/A#3": "r3" });
  });
});
