/**
 * What an outcome of one planned request means for the records a resource holds (`foldOutcome`):
 * the run loop folds every answer through it, so each case here is a state a failure part-way
 * leaves behind.
 */
import { describe, expect, it } from "vitest";
import {
  createCorrection,
  deleteCorrection,
  type HeldRecord,
  type KeyedRecord,
  putOf,
  requestOf,
  updateCorrection,
} from "../../../provider/records/corrections";
import { UnattributableAnswerError } from "../../../provider/records/errors";
import { foldOutcome, type Outcome, type Tracked } from "../../../provider/records/fold";

const held: HeldRecord[] = [
  { name: "a", type: "TXT", content: "one", recordId: "r1", key: "a/TXT" },
  { name: "b", type: "TXT", content: "two", recordId: "r2", key: "b/TXT" },
];
const added: KeyedRecord = { name: "c", type: "TXT", content: "three", key: "c/TXT" };
const before: Tracked = { held, untracked: ["old TXT earlier"] };
const error = new Error("the API's answer");

/** A PATCH that deletes a, updates b and adds c (made in each test: its code is then covered test by test). */
const patch = () =>
  requestOf([
    deleteCorrection(held[0]!),
    updateCorrection(held[1]!, { name: "b", type: "TXT", content: "2", key: "b/TXT" }),
    createCorrection(added),
  ]);
const put = () => putOf([added, { name: "d", type: "TXT", content: "four", key: "d/TXT" }]);

describe("foldOutcome: a PATCH", () => {
  it("applies an accepted request: the delete gone, the update in place with its id, the add under its new id", () => {
    const { state, failure } = foldOutcome(before, patch(), { kind: "accepted", ids: ["n1"] });
    expect(failure).toBeUndefined();
    expect(state.held.map((r) => `${r.recordId} ${r.name} ${r.content}`)).toEqual(["r2 b 2", "n1 c three"]);
    expect(state.untracked).toEqual(["old TXT earlier"]);
  });

  it("keeps an add whose answer cannot be attributed as of unknown outcome, and applies the rest", () => {
    const { state, failure } = foldOutcome(before, patch(), { kind: "accepted", ids: ["n1", "n2"] });
    expect(failure).toBeInstanceOf(UnattributableAnswerError);
    expect(state.held.map((r) => `${r.recordId} ${r.name} ${r.content}`)).toEqual(["r2 b 2"]);
    expect(state.untracked).toEqual(["old TXT earlier", "c TXT three"]);
  });

  it("tracks an add that may have applied as of unknown outcome, never as done or as not sent", () => {
    const { state } = foldOutcome(before, patch(), { kind: "unknown", error });
    expect(state.held).toEqual(held);
    expect(state.untracked).toEqual(["old TXT earlier", "c TXT three"]);
  });

  it("changes nothing for a refusal, a failure that did not apply, or a template gone", () => {
    for (const kind of ["refused", "failed", "template-gone"] as const) {
      const outcome: Outcome = { kind, error };
      expect(foldOutcome(before, patch(), outcome), kind).toEqual({ state: before });
    }
  });
});

describe("foldOutcome: a PUT", () => {
  it("holds exactly the records it wrote, ids by position, and nothing of unknown outcome", () => {
    const { state } = foldOutcome(before, put(), { kind: "accepted", ids: ["n1", "n2"] });
    expect(state.held.map((r) => `${r.recordId} ${r.name}`)).toEqual(["n1 c", "n2 d"]);
    expect(state.untracked).toEqual([]);
  });

  it("that may have applied, or whose answer cannot be attributed, leaves none of the old ids and every record of unknown outcome", () => {
    const unknown = foldOutcome(before, put(), { kind: "unknown", error });
    expect(unknown.state).toEqual({ held: [], untracked: ["c TXT three", "d TXT four"] });
    const miscounted = foldOutcome(before, put(), { kind: "accepted", ids: ["n1"] });
    expect(miscounted.failure).toBeInstanceOf(UnattributableAnswerError);
    expect(miscounted.state).toEqual({ held: [], untracked: ["c TXT three", "d TXT four"] });
  });

  it("to a template gone leaves nothing held; one that did not apply changes nothing", () => {
    expect(foldOutcome(before, put(), { kind: "template-gone", error }).state).toEqual({
      held: [],
      untracked: [],
    });
    expect(foldOutcome(before, put(), { kind: "failed", error })).toEqual({ state: before });
  });
});
