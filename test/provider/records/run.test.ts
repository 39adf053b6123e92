/**
 * The run loop's refusal policies, through the provider's methods against the sandbox: a removal
 * takes a record already gone, or a template gone, as done; a verification lets vanished records
 * leave the state and goes on; an update that finds the template gone fails naming it. Counted as
 * the sandbox saw the requests.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);

beforeEach(() => sandbox.reset());

const txt = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `h${i}`, type: "TXT", content: `value ${i}` }));

async function deployed(templateId: string, purge: boolean, n = 3) {
  const checked = await records.check({}, { __provider: PROVIDER, templateId, records: txt(n), purge });
  expect(checked.failures ?? []).toEqual([]);
  const inputs = { ...(checked.inputs as Props), __provider: PROVIDER };
  const created = await records.create(inputs);
  sandbox.clearRequests();
  return { id: created.id, inputs, outs: { ...(created.outs as Props), __provider: PROVIDER } };
}

function changing(): string[] {
  return sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method);
}

/** Runs `action` with the provider's messages captured (without an engine they go to the console). */
async function saying<T>(action: () => Promise<T>): Promise<{ result: T; said: string }> {
  const said: string[] = [];
  const spies = (["log", "error", "warn"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((line: unknown) => void said.push(String(line))),
  );
  try {
    return { result: await action(), said: said.join("\n") };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("a removal (delete)", () => {
  it("is done when the template is gone: the PUT that empties it is refused, and it says so", async () => {
    // With purge, after an add of unknown outcome, a removal is one PUT of no records.
    const { id, outs } = await deployed("tpl-1", true);
    const lost = { ...outs, untrackedAdds: true, untrackedRecords: ["lost TXT maybe"] };
    sandbox.deleteTemplate("tpl-1");
    const { said } = await saying(() => records.delete(id, lost));
    expect(changing()).toEqual(["PUT"]);
    expect(said).toMatch(/template tpl-1 no longer exists; nothing left to remove/);
  });

  it("is done when the template is gone under its PATCH: every record is found gone, in n + 1 requests", async () => {
    const { id, outs } = await deployed("tpl-1", false);
    sandbox.deleteTemplate("tpl-1");
    const { said } = await saying(() => records.delete(id, outs));
    expect(changing()).toEqual(["PATCH", "PATCH", "PATCH", "PATCH"]);
    expect(said).toMatch(
      /records removed outside Pulumi or by an interrupted run: h0 TXT value 0 .*; h1 TXT .*; h2 TXT /,
    );
  });

  it("is done for a record already gone: the others are removed, the gone one is not re-added", async () => {
    const { id, outs } = await deployed("tpl-1", false);
    const gone = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.name === "h1");
    sandbox.deleteRecord("tpl-1", gone!.record_id);
    const { said } = await saying(() => records.delete(id, outs));
    expect(sandbox.templateRecords("tpl-1")).toEqual([]);
    expect(changing().every((m) => m === "PATCH")).toBe(true);
    expect(said).toContain(
      `records removed outside Pulumi or by an interrupted run: h1 TXT value 1 (${gone!.record_id}, was to be deleted)`,
    );
    // A run killed after its destroy applied leaves the same trace: the command for a lost journal is named.
    expect(said).toContain("`DOMAINAPI_REWRITE=tpl-1 pulumi up` rewrites the template exactly with one PUT");
    expect(said).not.toMatch(/CREATE|recovering/);
  });
});

describe("an update", () => {
  it("fails naming the template when it is gone, whatever the plan's requests", async () => {
    const { id, inputs, outs } = await deployed("tpl-1", false);
    sandbox.deleteTemplate("tpl-1");
    const changed = await records.check(inputs, {
      __provider: PROVIDER,
      templateId: "tpl-1",
      records: txt(2),
      purge: false,
    });
    const news = { ...(changed.inputs as Props), __provider: PROVIDER };
    const err = await records.update(id, outs, news).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string; cause?: { code?: string } },
    );
    expect(err).toBeDefined();
    // A PATCH naming ids is refused; the search finds every record gone; the re-add, naming no id,
    // can only be refused because the template is gone.
    expect(err?.message).toMatch(/template "tpl-1" was not found/);
  });
});

describe("an add whose answer cannot be read", () => {
  it("is tracked as of unknown outcome (it applied; its id never came), never forgotten and never re-sent", async () => {
    const checked = await records.check(
      {},
      { __provider: PROVIDER, templateId: "tpl-1", records: txt(2), purge: false },
    );
    const inputs = { ...(checked.inputs as Props), __provider: PROVIDER };
    // The second add applies, and its answer is not the API's JSON.
    sandbox.addFault({
      method: "PATCH",
      nth: 2,
      respondAfterApply: { status: 200, body: "<html>ok</html>" },
    });
    const err = await records.create(inputs).then(
      () => undefined,
      (e: unknown) => e as Error & { properties?: Props },
    );
    expect(err).toBeDefined();
    expect(sandbox.templateRecords("tpl-1")?.map((r) => r.name)).toEqual(["h0", "h1"]);
    expect(err?.properties?.untrackedRecords).toEqual(["h1 TXT value 1"]);
    expect(Object.keys((err?.properties?.ids as Props) ?? {})).toEqual(["h0/TXT"]);
  });
});
