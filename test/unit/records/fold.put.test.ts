/**
 * A PUT's answer (docs/design.md, "Record ids"): "one id per submitted record", attributed by
 * position. An answer that cannot be read so (another count, an id twice, an empty id) has applied
 * all the same: none of the old ids are held, and every record it wrote is of unknown outcome.
 */
import { describe, expect, it } from "vitest";
import {
  createCorrection,
  type HeldRecord,
  type KeyedRecord,
  putOf,
  requestOf,
} from "../../../provider/records/corrections";
import { UnattributableAnswerError } from "../../../provider/records/errors";
import { foldOutcome, type Tracked } from "../../../provider/records/fold";

const www: KeyedRecord = { name: "www", type: "A", content: "192.0.2.1", key: "www/A" };
const mx: KeyedRecord = { name: "@", type: "MX", content: "mx1.example.net", priority: 10, key: "@/MX" };
const before: Tracked = {
  held: [{ name: "old", type: "TXT", content: "gone", recordId: "r1", key: "old/TXT" }],
  untracked: [],
};

describe("foldOutcome: a PUT's ids", () => {
  it("are attributed by position, in the PUT's canonical order", () => {
    const put = putOf([www, mx]);
    const { state, failure } = foldOutcome(before, put, { kind: "accepted", ids: ["n1", "n2"] });
    expect(failure).toBeUndefined();
    expect(state.held).toEqual([
      { ...mx, recordId: "n1" },
      { ...www, recordId: "n2" },
    ]);
  });

  it.each([
    [["n1", "n1"], "an id twice"],
    [["n1", ""], "an empty id"],
  ])("answered with %j (%s): cannot be attributed, and every record is of unknown outcome", (ids) => {
    const put = putOf([www, mx]);
    const { state, failure } = foldOutcome(before, put, { kind: "accepted", ids });
    expect(failure).toBeInstanceOf(UnattributableAnswerError);
    expect(failure?.message).toBe(
      `the service's answer cannot be attributed to the request: the PUT of 2 record(s) was answered with 2 record id(s) (${JSON.stringify(ids)}); the request has applied all the same`,
    );
    expect(state).toEqual({ held: [], untracked: ["@ MX 10 mx1.example.net", "www A 192.0.2.1"] });
  });

  it("of no records, answered with no id, empties the template", () => {
    const { state, failure } = foldOutcome(before, putOf([]), { kind: "accepted", ids: [] });
    expect(failure).toBeUndefined();
    expect(state).toEqual({ held: [], untracked: [] });
  });
});

describe("foldOutcome: ids a URL forward owns", () => {
  const forward: HeldRecord = {
    name: "go",
    type: "URLFWD",
    content: "https://example.com/",
    recordId: "f1",
    madeIds: ["f2", "f3"],
    key: "go/URLFWD",
  };
  const owning: Tracked = { held: [forward], untracked: [] };

  it("a forward answered with one id holds it alone, owning nothing else", () => {
    const add: KeyedRecord = {
      name: "to",
      type: "URLFWD301",
      content: "https://example.org/",
      key: "to/URLFWD301",
    };
    const { state } = foldOutcome({ held: [], untracked: [] }, requestOf([createCorrection(add)]), {
      kind: "accepted",
      ids: ["n1"],
    });
    expect(state.held).toEqual([{ ...add, recordId: "n1" }]);
  });

  it.each([
    ["a URL forward", { name: "to", type: "URLCLO", content: "https://example.org/", key: "to/URLCLO" }],
    ["a TXT record", { name: "t", type: "TXT", content: "x", key: "t/TXT" }],
  ] as const)("%s answered with an id a held forward's made record has cannot be attributed", (_, add) => {
    const { state, failure } = foldOutcome(owning, requestOf([createCorrection(add)]), {
      kind: "accepted",
      ids: ["f2"],
    });
    expect(failure).toBeInstanceOf(UnattributableAnswerError);
    expect(state).toEqual({ held: [forward], untracked: [`${add.name} ${add.type} ${add.content}`] });
  });
});

describe("foldOutcome: a PATCH of several adds", () => {
  it("answered with one id twice cannot be attributed: both adds are of unknown outcome", () => {
    const a: KeyedRecord = { name: "a", type: "TXT", content: "one", key: "a/TXT" };
    const b: KeyedRecord = { name: "b", type: "TXT", content: "two", key: "b/TXT" };
    const request = requestOf([createCorrection(a), createCorrection(b)]);
    const { state, failure } = foldOutcome({ held: [], untracked: [] }, request, {
      kind: "accepted",
      ids: ["n1", "n1"],
    });
    expect(failure?.message).toContain(
      'the record id "n1" came back for a new record, but it is empty or already in use',
    );
    expect(state).toEqual({ held: [], untracked: ["a TXT one", "b TXT two"] });
  });
});
