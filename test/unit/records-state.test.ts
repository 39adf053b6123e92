import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SAFETY_THRESHOLD } from "../../provider/records/plan";
import { canonicalOrder, type StateRecord } from "../../provider/records/rules";
import {
  desiredRecords,
  joinRecordIds,
  readState,
  settingsOf,
  writeOutputs,
} from "../../provider/records/state";

const recordArb = fc
  .record({
    name: fc.constantFrom("@", "www", "api", "mail"),
    type: fc.constantFrom("A" as const, "TXT" as const, "MX" as const),
    content: fc.constantFrom("192.0.2.1", "192.0.2.2", "mx.example.net", "v=spf1"),
    priority: fc.integer({ min: 0, max: 50 }),
  })
  .map(({ priority, ...r }) => (r.type === "MX" ? { ...r, priority } : r));

const stateArb = fc
  .array(recordArb, { maxLength: 20 })
  .map((rs) => rs.map((r, i): StateRecord => ({ ...r, recordId: `rec-${i + 1}` })));

const inputs = { templateId: "tpl-1", records: {}, purge: true, safetyThreshold: DEFAULT_SAFETY_THRESHOLD };

describe("records state shape", () => {
  it("round-trips every state through the outputs, ids included, in canonical order", () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        const outputs = writeOutputs(inputs, state, "summary");
        expect(readState(outputs as unknown as Record<string, unknown>).records).toEqual(
          canonicalOrder(state),
        );
        expect(joinRecordIds(outputs.records, outputs.ids)).toEqual(canonicalOrder(state));
        expect(Object.keys(outputs.records)).toEqual(Object.keys(outputs.ids));
      }),
    );
  });

  it("reads the earlier array shape, and its missing threshold as the default", () => {
    const state = readState({
      templateId: "tpl-1",
      purge: true,
      records: [
        { name: "www", type: "A", content: "192.0.2.2", recordId: "rec-2" },
        { name: "@", type: "A", content: "192.0.2.1", recordId: "rec-1" },
      ],
      recordIds: ["rec-2", "rec-1"],
    });
    expect(state.records.map((r) => r.recordId)).toEqual(["rec-1", "rec-2"]);
    expect(state.safetyThreshold).toEqual(DEFAULT_SAFETY_THRESHOLD);
    expect(state.untrackedAdds).toBe(false);
  });

  it("takes desired records from keyed or array inputs alike", () => {
    const keyed = writeOutputs(inputs, [{ name: "@", type: "A", content: "192.0.2.1", recordId: "r" }], "");
    expect(desiredRecords({ records: keyed.records })).toEqual([
      { name: "@", type: "A", content: "192.0.2.1" },
    ]);
    expect(
      desiredRecords({ records: [{ name: "@", type: "A", content: "192.0.2.1", recordId: "r" }] }),
    ).toEqual([{ name: "@", type: "A", content: "192.0.2.1" }]);
    expect(desiredRecords({})).toEqual([]);
  });

  it("reads purge and the threshold with their defaults", () => {
    expect(settingsOf({})).toEqual({ purge: true, safetyThreshold: DEFAULT_SAFETY_THRESHOLD });
    expect(settingsOf({ purge: false, safetyThreshold: false })).toEqual({
      purge: false,
      safetyThreshold: false,
    });
    const threshold = { minExistingRecords: 3, maxChangePercent: 50 };
    expect(settingsOf({ purge: true, safetyThreshold: threshold })).toEqual({
      purge: true,
      safetyThreshold: threshold,
    });
  });
});
