/**
 * What an accepted answer's ids mean for the held records (`foldOutcome`, docs/design.md "Record
 * ids"): a URL forward added alone owns every id its add was answered with (one to three: its own,
 * and those of the A and AAAA records the service made for it); any other add takes one id each;
 * ids that are empty, repeated or already held cannot be attributed, and the add is then of unknown
 * outcome while the rest of the request stays applied. A verification re-keys a record as declared.
 */
import { describe, expect, it } from "vitest";
import {
  createCorrection,
  deleteCorrection,
  type HeldRecord,
  type KeyedRecord,
  requestOf,
  updateCorrection,
  verifyCorrection,
} from "../../../provider/records/corrections";
import { UnattributableAnswerError } from "../../../provider/records/errors";
import { foldOutcome, type Tracked, withoutVanished } from "../../../provider/records/fold";

const a: HeldRecord = { name: "a", type: "TXT", content: "one", recordId: "r1", key: "a/TXT" };
const b: HeldRecord = { name: "b", type: "TXT", content: "two", recordId: "r2", key: "b/TXT" };
const go: KeyedRecord = { name: "go", type: "URLFWD", content: "https://example.com/", key: "go/URLFWD" };
const c: KeyedRecord = { name: "c", type: "TXT", content: "three", key: "c/TXT" };
const before: Tracked = { held: [a, b], untracked: [] };

/** The held records as `id [made ids] name key`. */
const shown = (state: Tracked) =>
  state.held.map((r) => `${[r.recordId, ...(r.madeIds ?? [])].join(",")} ${r.name} ${r.key}`);

describe("a URL forward added alone", () => {
  // Made in each test, not when the file is collected: its code is then covered test by test.
  const deleteAndAdd = () => requestOf([deleteCorrection(a), createCorrection(go)]);

  it("owns every id of its answer, the smallest as its own, and the rest of the request applies", () => {
    const request = deleteAndAdd();
    for (const [ids, owned] of [
      [["f1"], "f1"],
      [["f3", "f1"], "f1,f3"],
      [["f3", "f1", "f2"], "f1,f2,f3"],
    ] as const) {
      const { state, failure } = foldOutcome(before, request, { kind: "accepted", ids: [...ids] });
      expect(failure).toBeUndefined();
      expect(shown(state)).toEqual(["r2 b b/TXT", `${owned} go go/URLFWD`]);
    }
  });

  it("answered with an id empty, repeated or already held: of unknown outcome, the delete applied", () => {
    const request = deleteAndAdd();
    for (const ids of [["f1", ""], ["f1", "f1"], ["f1", "r2"], ["r2"]]) {
      const { state, failure } = foldOutcome(before, request, { kind: "accepted", ids });
      expect(failure, JSON.stringify(ids)).toBeInstanceOf(UnattributableAnswerError);
      expect(failure?.message).toBe(
        `the service's answer cannot be attributed to the request: the ids ${JSON.stringify(ids)} came back for a URL forward, ` +
          "but one is empty, repeated or already in use; the request has applied all the same",
      );
      expect(shown(state)).toEqual(["r2 b b/TXT"]);
      expect(state.untracked).toEqual(["go URLFWD https://example.com/"]);
    }
  });

  it("answered with no id, or with more than it can own, cannot be attributed either", () => {
    const request = deleteAndAdd();
    for (const ids of [[], ["f1", "f2", "f3", "f4"]]) {
      const { state, failure } = foldOutcome(before, request, { kind: "accepted", ids });
      expect(failure?.message).toContain(
        `the request added 1 record(s) but ${ids.length} record id(s) came back`,
      );
      expect(state.untracked).toEqual(["go URLFWD https://example.com/"]);
    }
  });

  it("with another add beside it takes one id like any add", () => {
    const both = requestOf([createCorrection(go), createCorrection(c)]);
    const { state, failure } = foldOutcome(before, both, { kind: "accepted", ids: ["n1", "n2"] });
    expect(failure).toBeUndefined();
    expect(shown(state)).toEqual(["r1 a a/TXT", "r2 b b/TXT", "n2 c c/TXT", "n1 go go/URLFWD"]);
  });
});

describe("other answers", () => {
  it("an add answered with an id empty or already held cannot be attributed", () => {
    const request = requestOf([createCorrection(c)]);
    for (const id of ["", "r2"]) {
      const { state, failure } = foldOutcome(before, request, { kind: "accepted", ids: [id] });
      expect(failure?.message).toContain(
        `the record id "${id}" came back for a new record, but it is empty or already in use`,
      );
      expect(state).toEqual({ held: [a, b], untracked: ["c TXT three"] });
    }
  });

  it("a verification keys the record as declared; an update of a record already gone stays gone", () => {
    const request = requestOf([
      verifyCorrection(a, { ...a, key: "a/TXT/one" }),
      deleteCorrection(b),
      updateCorrection(b, { name: "b", type: "TXT", content: "2", key: "b/TXT" }),
    ]);
    const { state } = foldOutcome(before, request, { kind: "accepted", ids: [] });
    expect(shown(state)).toEqual(["r1 a a/TXT/one"]);
  });

  it("a forward found vanished by any of its ids goes with all of them", () => {
    const forward: HeldRecord = { ...go, recordId: "f1", madeIds: ["f2", "f3"] };
    const gone = deleteCorrection({ ...forward, madeIds: [] });
    expect(withoutVanished([a, forward], [gone]).map((r) => r.recordId)).toEqual(["r1"]);
    const byMade = deleteCorrection({ ...a, recordId: "f3" });
    expect(withoutVanished([a, forward], [byMade]).map((r) => r.recordId)).toEqual(["r1"]);
    expect(withoutVanished([a, forward], [verifyCorrection(a, a)]).map((r) => r.recordId)).toEqual(["f1"]);
  });
});
