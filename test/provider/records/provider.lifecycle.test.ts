/**
 * The DnsTemplateRecords provider's methods at the edges of a resource's life, against the sandbox:
 * a preview with values not known yet keeps the inputs it was given; an update that fails with
 * nothing held still records the state reached; a refresh that sends nothing reads no reviewed plan;
 * a verifying refresh that finds a record gone keeps the last plan's text; `pulumi import` of an id
 * whose template id is empty leaves check to refuse it by name; a create without purge has its
 * intent journal on disk while its add is out, one with purge has none.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox, useConsoleLines } from "../helpers";
import { checked, deployed as deployedTemplate, type Props, txt } from "./deployed";

const sandbox = useConfiguredSandbox(records);
useConsoleLines();

const ENV = ["DOMAINAPI_VERIFY_ON_REFRESH", "DOMAINAPI_EXPECT_PLAN", "DOMAINAPI_STATE_DIR"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

beforeEach(() => {
  sandbox.reset();
  // The files a run leaves on the machine go to a directory of this test's own.
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "records-lifecycle-"));
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** A template created, with its requests forgotten: each test counts its own. */
async function deployed(templateId: string, declared: Props[]) {
  const made = await deployedTemplate(templateId, declared);
  sandbox.clearRequests();
  return made;
}

function changing(): string[] {
  return sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method);
}

describe("check during a preview with values not known yet", () => {
  it("hands the engine back exactly the inputs it was given, and no failure", async () => {
    // The engine's placeholder for a value known only after another resource is created.
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const news = { templateId: "tpl-1", records: [{ name: "@", type: "A", content: unknown }] };
    const result = await records.check({}, news);
    expect(result.inputs).toEqual(news);
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("an update that fails before anything is held", () => {
  it("still hands the engine the state reached, so the next run starts from what exists", async () => {
    const { id, inputs, outs } = await deployed("tpl-1", []);
    const news = await checked(
      { templateId: "tpl-1", records: txt(1), purge: false, safetyThreshold: false },
      inputs,
    );
    sandbox.addFault({ method: "PATCH", respond: { status: 422 } });
    const err = await records.update(id, outs, news).then(
      () => undefined,
      (e: unknown) => e as Error & { properties?: Props },
    );
    expect(err).toBeDefined();
    expect(err?.message).toMatch(/422/);
    expect(err?.properties).toMatchObject({ templateId: "tpl-1", records: {}, ids: {} });
    expect(String(err?.properties?.lastPlan)).toMatch(/^failed: /);
  });
});

describe("a refresh", () => {
  it("that sends nothing keeps the state, and does not read a reviewed plan it has nothing to hold to", async () => {
    const { id, outs } = await deployed("tpl-2", txt(2));
    delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
    process.env.DOMAINAPI_EXPECT_PLAN = "not-a-pair";
    const result = await records.read(id, outs);
    expect(result).toEqual({ id, props: outs });
    expect(changing()).toEqual([]);
  });

  it("that verifies and finds a record gone keeps the text of the last plan", async () => {
    const { id, outs } = await deployed("tpl-3", txt(2));
    const gone = (sandbox.templateRecords("tpl-3") ?? []).find((r) => r.name === "h1");
    sandbox.deleteRecord("tpl-3", gone!.record_id);
    process.env.DOMAINAPI_VERIFY_ON_REFRESH = "1";
    const result = await records.read(id, outs);
    expect(Object.keys(result.props?.ids as Props)).toEqual(["h0/TXT"]);
    expect(result.props?.lastPlan).toBe(outs.lastPlan);
    expect(String(outs.lastPlan)).not.toBe("");
  });

  it("that verifies and finds a record gone, from a state without a last plan, leaves its text empty", async () => {
    const { id, outs } = await deployed("tpl-4", txt(2));
    const { lastPlan: _, ...bare } = outs;
    const gone = (sandbox.templateRecords("tpl-4") ?? []).find((r) => r.name === "h0");
    sandbox.deleteRecord("tpl-4", gone!.record_id);
    // As a shell or a CI file may leave it: spaces around, any case.
    process.env.DOMAINAPI_VERIFY_ON_REFRESH = " Yes ";
    const result = await records.read(id, bare);
    expect(Object.keys(result.props?.ids as Props)).toEqual(["h1/TXT"]);
    expect(result.props?.lastPlan).toBe("");
  });
});

describe("pulumi import of an id whose template id is empty (`/<suffix>`)", () => {
  it('starts from a shared resource of template id "", which check then refuses by name', async () => {
    const { inputs } = records.imported("/1a2b3c4d");
    expect(inputs).toEqual({ templateId: "", purge: false, records: [] });
    const result = await records.check({}, { ...inputs, __provider: PROVIDER });
    expect(result.failures).toEqual([
      {
        property: "templateId",
        reason: 'the template id is empty; give the template\'s id, e.g. templateId: "12345"',
      },
    ]);
  });
});

/** The intent journal's entries on disk, in its directory under DOMAINAPI_STATE_DIR. */
function journalEntries(): string[] {
  const root = join(process.env.DOMAINAPI_STATE_DIR ?? "", "journal");
  try {
    return readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
}

/** Whether a journal entry was on disk at some moment while `call` was out. */
async function journaledWhile(call: Promise<unknown>): Promise<boolean> {
  let done = false;
  const ended = call.finally(() => {
    done = true;
  });
  let seen = false;
  while (!done) {
    if (journalEntries().length > 0) seen = true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await ended;
  return seen;
}

describe("the intent journal of a create", () => {
  it("without purge is on disk while its add is out, and gone once it is answered", async () => {
    const inputs = await checked({
      templateId: "tpl-5",
      records: txt(1),
      purge: false,
      safetyThreshold: false,
    });
    sandbox.addFault({ method: "PATCH", latencyMs: 300 });
    expect(await journaledWhile(records.create(inputs))).toBe(true);
    expect(journalEntries()).toEqual([]);
  });

  it("with purge is not written: sending its PUT again is already its recovery", async () => {
    const inputs = await checked({
      templateId: "tpl-5",
      records: txt(1),
      purge: true,
      safetyThreshold: false,
    });
    sandbox.addFault({ method: "PUT", latencyMs: 300 });
    expect(await journaledWhile(records.create(inputs))).toBe(false);
  });
});
