/**
 * What the DnsTemplateRecords methods tell a user at their edges: the warning for a
 * `verifyOnRefresh` setting that is not read, which values of `DOMAINAPI_VERIFY_ON_REFRESH` switch
 * a refresh's verification on, what `pulumi import` starts from and says, when a diff reports a
 * change that sends no record, and the line a create with purge says at check time.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/host/engine";
import * as records from "../../../provider/records/provider";
import { API_KEY } from "../../../sandbox/test/helpers";
import { configureFor, PROVIDER, useConfiguredSandbox, useConsoleLines } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);
const said = useConsoleLines();

/** Every line said, without the SDK's prefix. */
function lines(): string[] {
  return said.flatMap((m) => m.split("\n")).map((l) => l.replace(/^(info|warning): \[runtime\] /, ""));
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

const web = [
  { name: "www", type: "A", content: "192.0.2.1" },
  { name: "api", type: "A", content: "192.0.2.2" },
];

/** A template created through the provider (create's outputs are what the state holds). */
async function created(extra: Props = {}): Promise<{ inputs: Props; outs: Props; id: string }> {
  const inputs = await checked({ templateId: "tpl-1", records: web, ...extra });
  const made = await records.create(inputs);
  sandbox.clearRequests();
  said.length = 0;
  return { inputs, outs: made.outs as Props, id: made.id };
}

describe("a domainapi:verifyOnRefresh setting", () => {
  afterEach(() => configureFor(records, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 }));

  it("is not read, and configure says so with what to run instead", () => {
    const values: Record<string, string> = {
      "domainapi:apiKey": API_KEY,
      "domainapi:baseUrl": sandbox.url,
      "domainapi:verifyOnRefresh": "true",
    };
    records.configure({
      config: { get: (k: string) => values[k], require: (k: string) => values[k] as string },
    });
    expect(lines()).toEqual([
      "domainapi:verifyOnRefresh is not read: a setting would also verify (a write request) during " +
        "`pulumi preview --refresh`, which a provider cannot tell from `pulumi refresh`. Remove it and run " +
        "`DOMAINAPI_VERIFY_ON_REFRESH=1 pulumi refresh` when you want one refresh to verify the records.",
    ]);
  });

  it("says nothing when the stack config has none", () => {
    configureFor(records, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 });
    expect(lines()).toEqual([]);
  });
});

describe("DOMAINAPI_VERIFY_ON_REFRESH", () => {
  const saved = process.env.DOMAINAPI_VERIFY_ON_REFRESH;
  beforeEach(() => {
    delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
    else process.env.DOMAINAPI_VERIFY_ON_REFRESH = saved;
  });

  it("verifies on 1, true, on or yes, in any case and with blanks around", async () => {
    const { outs, id } = await created();
    for (const value of ["1", "true", " TRUE ", "on", "On", "yes", "YES\n"]) {
      process.env.DOMAINAPI_VERIFY_ON_REFRESH = value;
      sandbox.clearRequests();
      const read = await records.read(id, outs);
      // One request re-states every held record; nothing vanished, so the state stays as it was.
      expect(
        sandbox.requests.map((r) => r.method),
        JSON.stringify(value),
      ).toEqual(["PATCH"]);
      expect(read).toEqual({ id, props: outs });
    }
  });

  it("sends nothing for any other value", async () => {
    const { outs, id } = await created();
    for (const value of ["", "0", "false", "off", "no", "y", "truee", "1 1"]) {
      process.env.DOMAINAPI_VERIFY_ON_REFRESH = value;
      const read = await records.read(id, outs);
      expect(sandbox.requests, JSON.stringify(value)).toEqual([]);
      expect(read).toEqual({ id, props: outs });
    }
  });
});

describe("pulumi import", () => {
  it("of a template id (purge) holds no record, marks the template unlisted and says what the next up does", () => {
    const { props, inputs } = records.imported("tpl-9");
    expect(props).toMatchObject({
      templateId: "tpl-9",
      purge: true,
      unlisted: true,
      lastPlan: "imported: the API cannot list a template's records, so none are held",
    });
    expect(inputs).toEqual({ templateId: "tpl-9", purge: true, records: [] });
    expect(lines()).toEqual([
      "template tpl-9 imported: the API cannot list a template's records, so the resource holds none; " +
        "with purge: true, the first `pulumi up` that declares records replaces whatever the template holds " +
        "with exactly them (one PUT; records: [] leaves it as it is).",
    ]);
  });

  it("of a shared id (<templateId>/<suffix>) holds no record, is not unlisted, and adds on the next up", () => {
    const { props, inputs } = records.imported("tpl-9/1a2b3c4d");
    expect(props).toMatchObject({ templateId: "tpl-9", purge: false });
    expect(props).not.toHaveProperty("unlisted");
    expect(inputs).toEqual({ templateId: "tpl-9", purge: false, records: [] });
    expect(lines()).toEqual([
      "template tpl-9 imported: the API cannot list a template's records, so the resource holds none; " +
        "without purge, the next `pulumi up` adds the declared records and leaves the template's other records alone.",
    ]);
  });

  it("keeps the default safety threshold in what it starts from", () => {
    expect(records.imported("t").inputs).toEqual({ templateId: "t", purge: true, records: [] });
    expect(records.imported("t").props.safetyThreshold).toEqual({
      minExistingRecords: 10,
      maxChangePercent: 30,
    });
  });
});

describe("diff of a change that sends no record", () => {
  it("reports a change of purge alone, of the safety threshold alone, and none when both stay", async () => {
    const { inputs, outs, id } = await created();
    expect(await records.diff(id, outs, inputs)).toEqual({ changes: false });
    const unpurged = await checked({ templateId: "tpl-1", records: web, purge: false }, inputs);
    expect(await records.diff(id, outs, unpurged)).toEqual({ changes: true });
    const looser = await checked(
      { templateId: "tpl-1", records: web, safetyThreshold: { maxChangePercent: 50 } },
      inputs,
    );
    expect(await records.diff(id, outs, looser)).toEqual({ changes: true });
    const off = await checked({ templateId: "tpl-1", records: web, safetyThreshold: false }, inputs);
    expect(await records.diff(id, outs, off)).toEqual({ changes: true });
    // None of them is a record to announce, nor a request.
    expect(lines()).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("check of a create", () => {
  it("with purge, says that its PUT replaces what the template holds; without, says nothing", async () => {
    await checked({ templateId: "tpl-1", records: web });
    expect(lines()).toEqual([
      "template tpl-1: 2 to create (1 request: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown)",
    ]);
    said.length = 0;
    await checked({ templateId: "tpl-1", records: web, purge: false });
    expect(lines()).toEqual([]);
  });

  it("of an update says no such line (the diff says the plan)", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    said.length = 0;
    await checked(
      { templateId: "tpl-1", records: [...web, { name: "m", type: "A", content: "192.0.2.3" }] },
      inputs,
    );
    expect(lines()).toEqual([]);
  });
});

describe("diff of what the records do not say", () => {
  it("a templateId not known yet is a replacement", async () => {
    const { outs, inputs, id } = await created();
    expect(await records.diff(id, outs, { ...inputs, templateId: UNKNOWN })).toEqual({
      changes: true,
      replaces: ["templateId"],
    });
  });

  it("a new witness domain changes the resource though no record changes; the same one does not", async () => {
    const { outs, id } = await created({ verifyDomain: "shop.example" });
    expect(outs.verifyDomain).toBe("shop.example");
    const same = await checked({ templateId: "tpl-1", records: web, verifyDomain: "Shop.Example." });
    expect(await records.diff(id, outs, same)).toEqual({ changes: false });
    const other = await checked({ templateId: "tpl-1", records: web, verifyDomain: "other.example" });
    expect(await records.diff(id, outs, other)).toEqual({ changes: true });
    const none = await checked({ templateId: "tpl-1", records: web });
    expect(await records.diff(id, outs, none)).toEqual({ changes: true });
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a failure the API answers", () => {
  it("fails the delete, and the records stay", async () => {
    const { outs, id } = await created();
    sandbox.addFault({ method: "PATCH", respond: { status: 500 } });
    await expect(records.delete(id, outs)).rejects.toThrow(/500/);
    sandbox.clearFaults();
    expect((sandbox.templateRecords("tpl-1") ?? []).length).toBe(2);
  });

  it("fails a verifying refresh, and sends nothing more", async () => {
    const { outs, id } = await created();
    const saved = process.env.DOMAINAPI_VERIFY_ON_REFRESH;
    process.env.DOMAINAPI_VERIFY_ON_REFRESH = "1";
    try {
      sandbox.addFault({ method: "PATCH", respond: { status: 500 } });
      await expect(records.read(id, outs)).rejects.toThrow(/500/);
    } finally {
      sandbox.clearFaults();
      if (saved === undefined) delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
      else process.env.DOMAINAPI_VERIFY_ON_REFRESH = saved;
    }
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH"]);
  });
});

describe("what check() keeps of the other inputs", () => {
  it("keeps the lifted rules and the witness (as sent), and adds neither when not given", async () => {
    const spf = { name: "@", type: "TXT", content: "v=spf1 -all" };
    const kept = await checked({
      templateId: "tpl-1",
      records: [spf, { ...spf, content: "v=spf1 ~all" }],
      liftedChecks: ["spf-single-record"],
      verifyDomain: "Shop.Example.",
    });
    expect(kept.liftedChecks).toEqual(["spf-single-record"]);
    expect(kept.verifyDomain).toBe("shop.example");
    const plain = await checked({ templateId: "tpl-1", records: web });
    expect(plain).not.toHaveProperty("liftedChecks");
    expect(plain).not.toHaveProperty("verifyDomain");
  });

  it("judges the safety threshold only against the same template: a new templateId is a new template", async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({
      name: `h${i}`,
      type: "A",
      content: `192.0.2.${i}`,
    }));
    const olds = await checked({ templateId: "tpl-1", records: twelve });
    const moved = await records.check(olds, { templateId: "tpl-2", records: twelve.slice(0, 2) });
    expect(moved.failures ?? []).toEqual([]);
    const kept = await records.check(olds, { templateId: "tpl-1", records: twelve.slice(0, 2) });
    expect(kept.failures?.[0]?.reason).toMatch(/^refusing to update or delete 10 of 12 /);
  });
});

describe("diff of an add of unknown outcome", () => {
  it("says the record set aside in every preview, and sees a change when the program no longer declares it", async () => {
    const { inputs, outs, id } = await created({ purge: false });
    const b = { name: "b", type: "A", content: "192.0.2.9" };
    const next = await checked({ templateId: "tpl-1", purge: false, records: [...web, b] }, inputs);
    // The second PATCH adds "b"; its connection drops after the sandbox applied it.
    sandbox.addFault({ method: "PATCH", nth: 2, drop: "after" });
    const partial = await records.update(id, outs, next).then(
      () => expect.unreachable("the update should fail"),
      (err: Error & { properties?: Props }) => err.properties as Props,
    );
    sandbox.clearFaults();
    sandbox.clearRequests();
    said.length = 0;
    await records.diff(id, partial, next);
    expect(lines().filter((l) => l.includes("b A 192.0.2.9")).length).toBeGreaterThan(0);
    said.length = 0;
    // No longer declared: nothing to send for it, but the state stops tracking it.
    const dropped = await checked({ templateId: "tpl-1", purge: false, records: web }, next);
    expect(await records.diff(id, partial, dropped)).toEqual({ changes: true });
    expect(lines()).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });
});
