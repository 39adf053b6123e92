import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalOrder } from "../../../provider/dns/model";
import type { HeldRecord } from "../../../provider/records/corrections";
import { DEFAULT_SAFETY_THRESHOLD } from "../../../provider/records/safety";
import {
  decodeInputs,
  decodeOutputs,
  encodeInputs,
  encodeOutputs,
  recordsOfOutputs,
  type Settings,
} from "../../../provider/records/state";
import { distinctKeyedArb, heldArb } from "./arbitraries";

/** Both views of the same properties: what they declare and what they hold. */
function decode(props: Record<string, unknown>) {
  return { ...decodeInputs(props), ...decodeOutputs(props) };
}

const settings: Settings = { templateId: "tpl-1", purge: true, safetyThreshold: DEFAULT_SAFETY_THRESHOLD };

const settingsArb: fc.Arbitrary<Settings> = fc.record({
  templateId: fc.constantFrom("tpl-1", "42"),
  purge: fc.boolean(),
  safetyThreshold: fc.oneof(
    fc.constant(false as const),
    fc.record({ minExistingRecords: fc.nat(20), maxChangePercent: fc.integer({ min: 0, max: 100 }) }),
  ),
});

/** What the engine hands back: a JSON copy, as it stores properties. */
const viaEngine = (value: object): Record<string, unknown> => JSON.parse(JSON.stringify(value));

describe("records state shape", () => {
  it("round-trips every state through the outputs, ids and keys included, in canonical order", () => {
    fc.assert(
      fc.property(heldArb, settingsArb, (held, s) => {
        const outputs = encodeOutputs(s, held, "summary");
        const decoded = decode(viaEngine(outputs));
        expect(decoded.held).toEqual(canonicalOrder(held));
        expect(decoded.settings).toEqual(s);
        expect(decoded.untracked).toEqual([]);
        expect(recordsOfOutputs(outputs.records, outputs.ids)).toEqual(
          canonicalOrder(held).map(({ key: _key, ...r }) => ({ ...r, recordIds: [r.recordId] })),
        );
        expect(Object.keys(outputs.records)).toEqual(Object.keys(outputs.ids));
        expect(outputs.lastPlan).toBe("summary");
      }),
    );
  });

  it("round-trips keyed inputs: the declared records with their keys, and no held records", () => {
    fc.assert(
      fc.property(distinctKeyedArb, settingsArb, (declared, s) => {
        const inputs = encodeInputs(s, declared);
        expect(Object.keys(inputs.records).sort()).toEqual(declared.map((r) => r.key).sort());
        const decoded = decode(viaEngine(inputs));
        expect(decoded.declared).toEqual(canonicalOrder(declared));
        expect(decoded.held).toEqual([]);
        expect(decoded.settings).toEqual(s);
      }),
    );
  });

  it("reads the earlier array shape, keyed as records are now, and its missing threshold as the default", () => {
    const decoded = decode({
      templateId: "tpl-1",
      purge: true,
      records: [
        { name: "www", type: "A", content: "192.0.2.2", recordId: "rec-2" },
        { name: "@", type: "A", content: "192.0.2.1", recordId: "rec-1" },
      ],
      recordIds: ["rec-2", "rec-1"],
    });
    expect(decoded.held.map((r) => r.recordId)).toEqual(["rec-1", "rec-2"]);
    expect(decoded.held.map((r) => r.key)).toEqual(["@/A", "www/A"]);
    expect(decoded.declared).toEqual(decoded.held.map(({ recordId: _id, ...r }) => r));
    expect(decoded.settings.safetyThreshold).toEqual(DEFAULT_SAFETY_THRESHOLD);
    expect(decoded.untracked).toEqual([]);
  });

  it("takes declared records from keyed or array inputs alike", () => {
    const keyed = encodeOutputs(
      settings,
      [{ name: "@", type: "A", content: "192.0.2.1", recordId: "r", key: "@/A" }],
      "",
    );
    expect(decode({ records: keyed.records }).declared).toEqual([
      { name: "@", type: "A", content: "192.0.2.1", key: "@/A" },
    ]);
    expect(
      decode({ records: [{ name: "@", type: "A", content: "192.0.2.1", recordId: "r" }] }).declared,
    ).toEqual([{ name: "@", type: "A", content: "192.0.2.1", key: "@/A" }]);
    expect(decode({}).declared).toEqual([]);
  });

  it("reads purge and the threshold with their defaults", () => {
    expect(decode({}).settings).toEqual({
      templateId: "",
      purge: true,
      safetyThreshold: DEFAULT_SAFETY_THRESHOLD,
    });
    expect(decode({ purge: false, safetyThreshold: false }).settings).toEqual({
      templateId: "",
      purge: false,
      safetyThreshold: false,
    });
    const threshold = { minExistingRecords: 3, maxChangePercent: 50 };
    expect(decode({ templateId: "7", purge: true, safetyThreshold: threshold }).settings).toEqual({
      templateId: "7",
      purge: true,
      safetyThreshold: threshold,
    });
  });

  it("normalizes what it reads: names, types and host-name contents in one spelling", () => {
    const decoded = decode({
      records: { "www/CNAME": { name: "WWW", type: "cname", content: "Web.Example.NET." } },
      ids: { "www/CNAME": "r1" },
    });
    expect(decoded.held).toEqual([
      { name: "www", type: "CNAME", content: "web.example.net.", recordId: "r1", key: "www/CNAME" },
    ]);
  });

  it("keeps adds of unknown outcome, and reads the earlier flag without a list", () => {
    const outputs = encodeOutputs(settings, [], "", ["www A 192.0.2.1"]);
    expect(outputs.untrackedAdds).toBe(true);
    expect(outputs.untrackedRecords).toEqual(["www A 192.0.2.1"]);
    expect(decode(viaEngine(outputs)).untracked).toEqual(["www A 192.0.2.1"]);
    expect(decode({ untrackedAdds: true }).untracked).toEqual(["an add whose answer was lost"]);
    expect("untrackedAdds" in encodeOutputs(settings, [], "")).toBe(false);
  });

  it("keeps both records of a partly applied state that share a key", () => {
    const twins: HeldRecord[] = [
      { name: "www", type: "A", content: "192.0.2.1", recordId: "r2", key: "www/A" },
      { name: "www", type: "A", content: "192.0.2.1", recordId: "r1", key: "www/A" },
    ];
    const outputs = encodeOutputs(settings, twins, "");
    expect(outputs.ids).toEqual({ "www/A": "r1", "www/A#2": "r2" });
    expect(decode(viaEngine(outputs)).held.map((r) => r.recordId)).toEqual(["r1", "r2"]);
  });
});
