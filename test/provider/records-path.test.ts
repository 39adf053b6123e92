/**
 * One `pulumi up` of a two-record change, driven through the provider methods the way the engine
 * calls them (check, diff, update), counting how often the record list changes shape and how often
 * a plan is made. The pure modules are wrapped, not replaced: every call still runs the real code.
 */
import { describe, expect, it, vi } from "vitest";
import * as plan from "../../provider/records/plan";
import * as records from "../../provider/records/provider";
import * as state from "../../provider/records/state";
import * as validate from "../../provider/records/validate";
import { PROVIDER, useConfiguredSandbox } from "./helpers";

// vi.mock calls are hoisted above the imports: the modules above are the wrapped ones.
vi.mock("../../provider/records/plan", async (original) => {
  const real = await original<typeof import("../../provider/records/plan")>();
  return { ...real, planUpdate: vi.fn(real.planUpdate), pairRecords: vi.fn(real.pairRecords) };
});
vi.mock("../../provider/records/state", async (original) => {
  const real = await original<typeof import("../../provider/records/state")>();
  return {
    ...real,
    decode: vi.fn(real.decode),
    encodeInputs: vi.fn(real.encodeInputs),
    encodeOutputs: vi.fn(real.encodeOutputs),
    keyDeclared: vi.fn(real.keyDeclared),
  };
});
vi.mock("../../provider/records/validate", async (original) => {
  const real = await original<typeof import("../../provider/records/validate")>();
  return { ...real, validateTemplateRecordsInputs: vi.fn(real.validateTemplateRecordsInputs) };
});

type Props = Record<string, unknown>;
useConfiguredSandbox(records);

function counts() {
  const calls = (f: unknown) => (f as { mock: { calls: unknown[] } }).mock.calls.length;
  return {
    // The record list changes shape: program list -> normalized list (validate), list -> keyed
    // records (keyDeclared), keyed records -> stored map (encodeInputs, encodeOutputs), stored
    // map -> keyed records (decode).
    conversions:
      calls(validate.validateTemplateRecordsInputs) +
      calls(state.keyDeclared) +
      calls(state.encodeInputs) +
      calls(state.encodeOutputs) +
      calls(state.decode),
    byMethod: {
      validate: calls(validate.validateTemplateRecordsInputs),
      keyDeclared: calls(state.keyDeclared),
      encodeInputs: calls(state.encodeInputs),
      encodeOutputs: calls(state.encodeOutputs),
      decode: calls(state.decode),
    },
    planUpdate: calls(plan.planUpdate),
    pairRecords: calls(plan.pairRecords),
  };
}

describe("the records path of one update", () => {
  it("decodes once per stored value, plans once in diff and once in update, encodes once per method", async () => {
    const program = [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ];
    const first = await records.check({}, { __provider: PROVIDER, templateId: "tpl-1", records: program });
    const created = await records.create({ ...(first.inputs as Props), __provider: PROVIDER });
    vi.clearAllMocks();

    // The engine's calls for one `pulumi up` that changes one of the two records.
    const changed = program.map((r) => (r.type === "A" ? { ...r, content: "192.0.2.11" } : r));
    const checked = await records.check(first.inputs as Props, {
      __provider: PROVIDER,
      templateId: "tpl-1",
      records: changed,
    });
    const news = { ...(checked.inputs as Props), __provider: PROVIDER };
    const atCheck = counts();
    const { changes } = await records.diff("tpl-1", created.outs as Props, news);
    expect(changes).toBe(true);
    const atDiff = counts();
    await records.update("tpl-1", created.outs as Props, news);
    const atUpdate = counts();

    // check: validate the program's list, decode the old inputs, key, encode: 4 conversions; the
    // pairing that keeps keys (and feeds the safety check) is the planner's own, made once.
    expect(atCheck.byMethod).toEqual({
      validate: 1,
      keyDeclared: 1,
      encodeInputs: 1,
      encodeOutputs: 0,
      decode: 1,
    });
    expect(atCheck.pairRecords).toBe(1);
    expect(atCheck.planUpdate).toBe(0);
    // diff: decode olds and news, plan once (the preview logs that plan).
    expect(atDiff.conversions - atCheck.conversions).toBe(2);
    expect(atDiff.planUpdate).toBe(1);
    // update: decode olds and news, plan once, carry it out, encode the outputs once.
    expect(atUpdate.conversions - atDiff.conversions).toBe(3);
    expect(atUpdate.byMethod.encodeOutputs).toBe(1);
    expect(atUpdate.planUpdate).toBe(2);
    console.info(
      `one update: ${atUpdate.conversions} shape conversions (${JSON.stringify(atUpdate.byMethod)}), ` +
        `planUpdate ${atUpdate.planUpdate} times (diff, update), plus the pairing check() makes for keys and the safety check`,
    );
  });
});
