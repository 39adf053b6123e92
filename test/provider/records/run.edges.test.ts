/**
 * The run loop (records/run.ts) at its edges, against the sandbox: a refused plan that recovers from
 * an interrupted run says why a plan reviewed elsewhere cannot hold it; a plan with nothing to send
 * keeps what the resource held; once the engine is gone nothing is sent and the journal entry stays,
 * the only record of the run.
 */
import { describe, expect, it } from "vitest";
import { appliedAt, parseExpectation } from "../../../provider/host/expectation";
import { engineGone, watchEngine } from "../../../provider/host/lifeline";
import { client } from "../../../provider/host/session";
import type { RunJournal } from "../../../provider/records/interrupted";
import {
  type Declaration,
  type HeldRecord,
  type Holding,
  type KeyedRecord,
  planResource,
} from "../../../provider/records/plan";
import * as records from "../../../provider/records/provider";
import { converge } from "../../../provider/records/run";
import { useConfiguredSandbox } from "../helpers";

const sandbox = useConfiguredSandbox(records);

const settings = { templateId: "web", purge: false, safetyThreshold: false as const };
const rec = (name: string, content: string): KeyedRecord => ({ name, type: "A", content, key: `${name}/A` });
const apex = rec("@", "192.0.2.1");
const www = rec("www", "192.0.2.2");

function seeded(rs: KeyedRecord[]): Holding {
  sandbox.reset();
  const ids = sandbox.seedTemplate(
    "web",
    rs.map(({ key: _, ...r }) => r),
  );
  return { settings, held: rs.map((r, i): HeldRecord => ({ ...r, recordId: ids[i]! })), untracked: [] };
}
const declare = (declared: KeyedRecord[]): Declaration => ({ settings, declared });
const OTHER_DIGEST = "0123456789abcdef0123456789abcdef";

describe("a plan refused under the reviewed plans", () => {
  it("says, for a recovery from an interrupted run, that only this machine's journal knows it", async () => {
    const holding = seeded([apex]);
    const plan = { ...planResource(holding, declare([apex, www])), interrupted: "an add of www A 192.0.2.2" };
    const reviewed = appliedAt(parseExpectation(`web=${OTHER_DIGEST}`), {
      account: undefined,
      purge: false,
      safetyThreshold: false,
    });
    const refused = converge(client(), holding, plan, { declaration: declare([apex, www]), reviewed });
    await expect(refused).rejects.toThrow(
      /This plan recovers from an interrupted run \(an add of www A 192\.0\.2\.2\), which only this machine's journal knows: a plan reviewed elsewhere cannot include it\. Preview on this machine and review that plan, or run one `pulumi up` without DOMAINAPI_EXPECT_PLAN; the journal entry stays until then\.$/,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it("says nothing of an interrupted run when the plan is an ordinary one", async () => {
    const holding = seeded([apex]);
    const plan = planResource(holding, declare([apex, www]));
    const reviewed = appliedAt(parseExpectation(`web=${OTHER_DIGEST}`), {
      account: undefined,
      purge: false,
      safetyThreshold: false,
    });
    const refused = converge(client(), holding, plan, { declaration: declare([apex, www]), reviewed });
    await expect(refused).rejects.toThrow(/DOMAINAPI_EXPECT_PLAN|reviewed/);
    await expect(refused).rejects.not.toThrow(/interrupted run/);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a plan with nothing to send", () => {
  it("returns what the resource held, and sends nothing", async () => {
    const holding = seeded([apex, www]);
    const plan = planResource(holding, declare([apex, www]));
    expect(plan.requests).toEqual([]);
    const run = await converge(client(), holding, plan, { declaration: declare([apex, www]) });
    expect(run.failure).toBeUndefined();
    expect(run.held).toEqual(holding.held);
    expect(sandbox.requests).toEqual([]);
  });
});

// Last: the engine's absence is process-wide, and this file's module state ends with it.
describe("once the engine is gone", () => {
  it("sends nothing, fails the run, and keeps the journal entry", async () => {
    const holding = seeded([apex]);
    // Nothing listens on port 1: two failed health checks in a row and the engine is gone.
    const stop = watchEngine("127.0.0.1:1", () => undefined);
    try {
      for (let waited = 0; !engineGone() && waited < 10_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      stop();
    }
    expect(engineGone()).toBe(true);
    const events: string[] = [];
    const journal: RunJournal = { sending: () => events.push("sending"), clear: () => events.push("clear") };
    const run = await converge(client(), holding, planResource(holding, declare([apex, www])), {
      declaration: declare([apex, www]),
      journal,
    });
    expect(String(run.failure)).toContain(
      "the Pulumi engine that started this provider is gone; nothing more is sent",
    );
    expect(sandbox.requests).toEqual([]);
    expect(events).toEqual([]);
    expect(run.held).toEqual(holding.held);
  });
});
