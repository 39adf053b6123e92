/**
 * Recovery from records removed outside Pulumi, and from answers that cannot be attributed, at the
 * cost docs/design.md allows ("Records changed outside Pulumi"): counted as the sandbox saw the requests (not as the provider says).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);

beforeEach(() => sandbox.reset());

function txt(n: number) {
  return Array.from({ length: n }, (_, i) => ({ name: `h${i}`, type: "TXT", content: `value ${i}` }));
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

async function deployed(templateId: string, declared: Props[], purge: boolean) {
  const inputs = await checked({ templateId, records: declared, purge, safetyThreshold: false });
  const created = await records.create(inputs);
  return { inputs, outs: { ...(created.outs as Props), __provider: PROVIDER } };
}

function changing() {
  return sandbox.requests.filter((r) => r.method !== "GET");
}

function held(templateId: string): string[] {
  return (sandbox.templateRecords(templateId) ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
}

describe("finding vanished records, counted at the sandbox", () => {
  it("a 64-record template wiped at the registrar (purge) converges in at most 66 requests", async () => {
    const declared = txt(64);
    const { inputs, outs } = await deployed("tpl-1", declared, true);
    for (const r of sandbox.templateRecords("tpl-1") ?? []) sandbox.deleteRecord("tpl-1", r.record_id);
    sandbox.clearRequests();
    const changed = declared.map((r, i) => (i === 0 ? { ...r, content: "changed" } : r));
    const news = await checked({ templateId: "tpl-1", records: changed, safetyThreshold: false }, inputs);
    await records.update("tpl-1", outs, news);
    expect(changing().length).toBeLessThanOrEqual(66);
    expect(changing().map((r) => r.method)).toEqual(["PATCH", "PUT"]);
    expect(held("tpl-1")).toEqual(changed.map((r) => `${r.name} ${r.type} ${r.content}`).sort());
  });

  it("one vanished record in 256 (no purge) is found and re-added in at most 19 requests", async () => {
    const declared = txt(256);
    const { inputs, outs } = await deployed("tpl-2", declared, false);
    const gone = (sandbox.templateRecords("tpl-2") ?? []).find((r) => r.name === "h137");
    sandbox.deleteRecord("tpl-2", gone!.record_id);
    sandbox.clearRequests();
    const changed = declared.map((r, i) => (i === 3 ? { ...r, content: "changed" } : r));
    const news = await checked(
      { templateId: "tpl-2", records: changed, purge: false, safetyThreshold: false },
      inputs,
    );
    const result = await records.update("tpl-2/x", outs, news);
    expect(changing().length).toBeLessThanOrEqual(19);
    expect(held("tpl-2")).toEqual(changed.map((r) => `${r.name} ${r.type} ${r.content}`).sort());
    // Every record but the re-added one kept its id.
    const ids = Object.values((result.outs as { ids: Record<string, string> }).ids);
    const before = (outs as Props).ids as Record<string, string>;
    expect(ids.filter((id) => Object.values(before).includes(id))).toHaveLength(255);
  });
});

describe("a PUT whose answer cannot be attributed", () => {
  it("has applied all the same: the state keeps none of the old ids, the next up converges", async () => {
    const declared = txt(4);
    const { inputs, outs } = await deployed("tpl-3", declared, true);
    const lost = { name: "new", type: "TXT", content: "after" };
    const news = await checked({ templateId: "tpl-3", records: [...declared, lost] }, inputs);
    // An earlier add of unknown outcome makes the update a PUT; the service answers it with another count.
    const untracked = { ...outs, untrackedAdds: true, untrackedRecords: ["x TXT y"] };
    sandbox.addFault({
      method: "PUT",
      respondAfterApply: {
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({ record_id: ["9001", "9002"] }),
      },
    });
    const failure = await records.update("tpl-3", untracked, news).then(
      () => undefined,
      (err: { properties?: Props }) => err,
    );
    const state = failure?.properties as { ids: Record<string, string>; untrackedRecords: string[] };
    expect(state.ids).toEqual({});
    expect(state.untrackedRecords.sort()).toEqual(
      [...declared, lost].map((r) => `${r.name} TXT ${r.content}`).sort(),
    );
    // The PUT applied: the template holds the declared records, under ids the state never believed.
    expect(held("tpl-3")).toEqual([...declared, lost].map((r) => `${r.name} ${r.type} ${r.content}`).sort());

    sandbox.clearFaults();
    const again = await records.update("tpl-3", { ...state, __provider: PROVIDER }, news);
    const ids = Object.values((again.outs as { ids: Record<string, string> }).ids).sort();
    expect(ids).toEqual((sandbox.templateRecords("tpl-3") ?? []).map((r) => r.record_id).sort());
    expect((again.outs as Props).untrackedRecords).toBeUndefined();
  });
});

describe("adds of unknown outcome without purge", () => {
  it("diff sets the declared one aside (no CREATE in the preview), and forgets one no longer declared", async () => {
    const declared = txt(2);
    const { inputs, outs } = await deployed("tpl-4", declared, false);
    const lost = { name: "lost", type: "TXT", content: "maybe" };
    const withLost = { ...outs, untrackedAdds: true, untrackedRecords: ["lost TXT maybe"] };
    const still = await checked(
      { templateId: "tpl-4", records: [...declared, lost], purge: false, safetyThreshold: false },
      inputs,
    );
    const kept = await records.diff("tpl-4/x", withLost, still);
    expect(kept.changes).toBe(false);
    sandbox.clearRequests();
    const updated = await records.update("tpl-4/x", withLost, still);
    expect(changing()).toEqual([]);
    expect((updated.outs as Props).untrackedRecords).toEqual(["lost TXT maybe"]);

    const without = await checked(
      { templateId: "tpl-4", records: declared, purge: false, safetyThreshold: false },
      inputs,
    );
    const forget = await records.diff("tpl-4/x", withLost, without);
    expect(forget.changes).toBe(true);
    const forgotten = await records.update("tpl-4/x", withLost, without);
    expect(changing()).toEqual([]);
    expect((forgotten.outs as Props).untrackedRecords).toBeUndefined();
  });
});

describe("progress", () => {
  it("logs each correction as it is carried out, with its id, so a long `up` says what it is doing", async () => {
    const said: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      said.push(String(line));
    });
    try {
      const inputs = await checked({ templateId: "tpl-5", records: txt(3), purge: false });
      await records.create(inputs);
    } finally {
      spy.mockRestore();
    }
    const ids = (sandbox.templateRecords("tpl-5") ?? []).map((r) => r.record_id);
    const done = said.filter((l) => l.startsWith("info: [runtime] template tpl-5: + CREATE"));
    // One line per add, after its answer: in the order sent, each naming the id the API gave.
    expect(done).toEqual(
      txt(3).map(
        (r, i) => `info: [runtime] template tpl-5: + CREATE ${r.name} TXT ${r.content} (id ${ids[i]})`,
      ),
    );
  });

  it("says the corrections of one request in one message, a line each (one engine call per request)", async () => {
    const { outs } = await deployed("tpl-4", txt(3), true);
    const ids = (sandbox.templateRecords("tpl-4") ?? []).map((r) => r.record_id);
    const said: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      said.push(String(line));
    });
    try {
      await records.delete("tpl-4", outs);
    } finally {
      spy.mockRestore();
    }
    const deletes = said.filter((m) => m.includes("- DELETE"));
    expect(deletes).toHaveLength(1);
    expect(deletes[0]?.split("\n")).toEqual(
      txt(3).map(
        (r, i) =>
          `${i === 0 ? "info: [runtime] " : ""}template tpl-4: - DELETE ${r.name} TXT ${r.content} (id ${ids[i]} removed)`,
      ),
    );
  });
});
