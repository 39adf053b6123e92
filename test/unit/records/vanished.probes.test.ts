/**
 * The search for vanished records (`searchVanished`) on small examples, probe by probe: the
 * questions it skips because their answer is known, and what a request that names no record id
 * leaves to search (docs/design.md, "Records changed outside Pulumi").
 */
import { describe, expect, it } from "vitest";
import { toUpdateItem } from "../../../provider/dns/model";
import type { Correction, HeldRecord, NamingCorrection } from "../../../provider/records/corrections";
import { searchVanished, type VanishedSearch } from "../../../provider/records/vanished";

const held = (id: string): HeldRecord => ({
  name: id,
  type: "TXT",
  content: id,
  recordId: id,
  key: `${id}/TXT`,
});
const verify = (id: string): Correction => ({
  kind: "verify",
  from: held(id),
  to: held(id),
  update: toUpdateItem(id, held(id)),
});
const del = (id: string): Correction => ({
  kind: "delete",
  record: held(id),
  message: `- DELETE ${id}`,
  del: [{ record_id: id }],
});
const create: Correction = {
  kind: "create",
  record: { name: "n", type: "TXT", content: "x", key: "n/TXT" },
  message: "+ CREATE n TXT x",
  add: { name: "n", type: "TXT", content: "x" },
};

const idOf = (c: NamingCorrection) => (c.kind === "delete" ? c.record.recordId : c.from.recordId);

/** Runs a search against a template where the records `gone` vanished: each probe, as ids, and what it found. */
function search(
  refused: Correction[],
  gone: string[],
  purge = false,
): { probes: string[][]; found: VanishedSearch } {
  const it = searchVanished(refused, { purge });
  const probes: string[][] = [];
  let step = it.next();
  while (!step.done) {
    const ids = step.value.map(idOf);
    probes.push(ids);
    step = it.next(!ids.some((id) => gone.includes(id)));
  }
  return { probes, found: step.value };
}

describe("questions whose answer is known are not asked", () => {
  it("the last record of a refused request, when the others were accepted", () => {
    const { probes, found } = search(["a", "b"].map(verify), ["b"]);
    expect(probes).toEqual([["a"]]);
    expect(found.vanished.map(idOf)).toEqual(["b"]);
  });

  it("the rest of a refused request, when it is all that is left: halved without asking about the whole", () => {
    const { probes, found } = search(["a", "b", "c"].map(verify), ["c"]);
    expect(probes).toEqual([["a"], ["b"]]);
    expect(found.vanished.map(idOf)).toEqual(["c"]);
  });

  it("a probe never reaches past the records of the request", () => {
    const { probes, found } = search(["a", "b", "c", "d"].map(verify), ["d"]);
    expect(probes).toEqual([["a"], ["b", "c"]]);
    expect(found.vanished.map(idOf)).toEqual(["d"]);
  });

  it("once a vanished record is found the rest is no longer known refused: it is asked about", () => {
    const { probes, found } = search(["a", "b", "c"].map(verify), ["a"]);
    expect(probes).toEqual([["a"], ["b"], ["c"]]);
    expect(found.vanished.map(idOf)).toEqual(["a"]);
  });
});

describe("with purge", () => {
  it("a refused request of deletions only: searched as without purge, never with an empty probe", () => {
    const refused = ["a", "b", "c"].map(del);
    const withPurge = search(refused, ["c"], true);
    expect(withPurge.probes).toEqual(search(refused, ["c"], false).probes);
    expect(withPurge.probes.every((p) => p.length > 0)).toBe(true);
    expect(withPurge.found).toEqual({ vanished: [refused[2]], rewrite: false });
  });

  it("records to keep all there: the deletions are searched after them", () => {
    const refused = [verify("k"), del("a"), del("b")];
    const { probes, found } = search(refused, ["b"], true);
    expect(probes).toEqual([["k"], ["a"]]);
    expect(found).toEqual({ vanished: [refused[2]], rewrite: false });
  });
});

describe("a request that names no record id", () => {
  it("leaves nothing to search: no probe, nothing vanished, no rewrite, with or without purge", () => {
    for (const purge of [false, true]) {
      for (const refused of [[], [create]]) {
        expect(search(refused, [], purge)).toEqual({ probes: [], found: { vanished: [], rewrite: false } });
      }
    }
  });
});
