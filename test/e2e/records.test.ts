/**
 * DnsTemplateRecords under the real engine, against the sandbox: request counts per change, ids
 * kept, partial failure and recovery, purge: false, the safety threshold, destroy, secrets.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { typeToken, useSandbox, useStack } from "./harness";
import {
  API_KEY,
  type DesiredRecord,
  expectConverged,
  mutating,
  programFor,
  recordsStack,
  sortRecords,
} from "./records-helpers";

const base: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
];

describe("DnsTemplateRecords (purge, the default)", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const desired = { records: base.slice() };

  const s = useStack(() =>
    recordsStack(
      sandbox,
      programFor("tpl-1", () => desired.records),
    ),
  );

  it("creates the template's records with one PUT and exposes their ids", async () => {
    sandbox.clearRequests();
    const up = await s.up();
    expect(up.summary.result).toBe("succeeded");
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PUT"]);
    const ids = up.outputs.recordIds?.value as string[];
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("makes no request on a second up, a preview or a refresh (which keeps the state as it is)", async () => {
    sandbox.clearRequests();
    const before = await s.resources(typeToken("DnsTemplateRecords"));
    const up = await s.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2 });
    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    const refresh = await s.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect((await s.resources(typeToken("DnsTemplateRecords")))[0]?.outputs).toEqual(before[0]?.outputs);
    expect(sandbox.requests).toEqual([]);
  });

  it("sees no change when the program reorders its records", async () => {
    desired.records = [...base].reverse();
    sandbox.clearRequests();
    const up = await s.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2 });
    expect(sandbox.requests).toEqual([]);
  });

  it("changes one record with one PATCH update and keeps every id", async () => {
    const before = sandbox.templateRecords("tpl-1") ?? [];
    desired.records = base.map((r) => (r.type === "MX" ? { ...r, priority: 20 } : r));
    sandbox.clearRequests();
    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    expect(mutating(sandbox)).toEqual([]);
    const up = await s.up();
    // The plan's summary and its corrections reach a plain `pulumi up`, no flags needed.
    expect(up.stdout).toMatch(
      /template tpl-1: 0 to create, 1 to update, 0 to delete, 3 unchanged \(1 request\)/,
    );
    expect(up.stdout).toMatch(/~ MODIFY @ MX mx1\.example\.net priority 10 -> 20/);
    expect(up.stdout).not.toMatch(/debug: domainapi: PATCH/);
    const sent = mutating(sandbox);
    expect(sent.map((r) => r.method)).toEqual(["PATCH"]);
    // The change, and the verification of the three records it leaves unchanged (same values).
    const held = new Map(before.map((r) => [r.record_id, r]));
    const items = (sent[0]!.body as { update: Array<Record<string, unknown>> }).update;
    expect(Object.keys(sent[0]?.body as object)).toEqual(["update"]);
    expect(items).toHaveLength(4);
    expect(items).toContainEqual({
      record_id: expect.any(String),
      name: "@",
      content: "mx1.example.net",
      priority: 20,
    });
    for (const item of items.filter((i) => i.priority !== 20)) {
      const { record_id, ...values } = held.get(item.record_id as string) as unknown as Record<
        string,
        unknown
      >;
      expect({ record_id, ...values }).toMatchObject(item);
    }
    const after = sandbox.templateRecords("tpl-1") ?? [];
    expect(after.map((r) => r.record_id).sort()).toEqual(before.map((r) => r.record_id).sort());
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("adds three records with three PATCH requests, one add each", async () => {
    desired.records = [
      ...desired.records,
      { name: "api", type: "A", content: "192.0.2.20" },
      { name: "api", type: "AAAA", content: "2001:db8::20" },
      { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
    ];
    sandbox.clearRequests();
    const up = await s.up({ debug: true });
    // With --debug, every request shows: method, path, status, duration, attempt.
    expect(up.stdout).toMatch(
      /debug: domainapi: PATCH \/v2\/dns\/templates\/tpl-1\/records -> 200 in \d+ ms \(attempt 1\)/,
    );
    expect(up.stdout).not.toContain(API_KEY);
    const sent = mutating(sandbox);
    expect(sent.map((r) => r.method)).toEqual(["PATCH", "PATCH", "PATCH"]);
    for (const r of sent) expect((r.body as { add: unknown[] }).add).toHaveLength(1);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("changes a type with one PATCH that deletes and adds", async () => {
    desired.records = desired.records.map((r) =>
      r.name === "www" ? { name: "www", type: "A", content: "192.0.2.30" } : r,
    );
    sandbox.clearRequests();
    await s.up();
    const sent = mutating(sandbox);
    expect(sent).toHaveLength(1);
    // The del and the add, and the verification of every record the change leaves alone.
    const body = sent[0]!.body as { add: unknown[]; del: unknown[]; update: unknown[] };
    expect(Object.keys(body).sort()).toEqual(["add", "del", "update"]);
    expect([body.add.length, body.del.length, body.update.length]).toEqual([
      1,
      1,
      desired.records.length - 1,
    ]);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("recovers from a failed second PATCH: the next up finishes with no duplicate and no loss", async () => {
    desired.records = [
      ...desired.records,
      { name: "a1", type: "A", content: "192.0.2.41" },
      { name: "a2", type: "A", content: "192.0.2.42" },
      { name: "a3", type: "A", content: "192.0.2.43" },
    ];
    sandbox.clearRequests();
    sandbox.addFault({
      method: "PATCH",
      path: "^/v2/dns/templates/tpl-1/records$",
      nth: 2,
      respond: { status: 500 },
    });
    await expect(s.up()).rejects.toThrow(/500/);
    sandbox.clearFaults();
    // The state holds exactly what the API applied: the first add.
    const held = (await s.resources()).find((r) => r.type.endsWith("DnsTemplateRecords"));
    expect(Object.keys((held?.outputs?.ids ?? {}) as object)).toHaveLength(
      (sandbox.templateRecords("tpl-1") ?? []).length,
    );
    sandbox.clearRequests();
    await s.up();
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("keeps the API key out of the state and the engine's output", async () => {
    const exported = await s.exportText();
    expect(exported).toContain("domainapi:apiKey"); // the config is there, encrypted
    expect(exported).not.toContain(API_KEY);
    expect(s.storedText()).not.toContain(API_KEY);
    expect(s.transcript()).not.toContain(API_KEY);
    const held = (await s.resources()).find((r) => r.type.endsWith("DnsTemplateRecords"));
    const provider = String(held?.inputs?.__provider);
    expect(provider.length).toBeLessThanOrEqual(2048);
    expect(provider).not.toContain(API_KEY);
    expect(provider).not.toContain(process.cwd());
  });

  it("destroys by deleting the records it holds", async () => {
    sandbox.clearRequests();
    await s.destroy();
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH"]);
    expect(sandbox.templateRecords("tpl-1")).toEqual([]);
    expect(await s.resources()).toEqual([]);
  });
});

describe("DnsTemplateRecords with purge: false", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const mine: DesiredRecord[] = [
    { name: "shop", type: "A", content: "192.0.2.50" },
    { name: "shop", type: "AAAA", content: "2001:db8::50" },
  ];
  const foreign = [{ name: "legacy", type: "TXT", content: "owned by someone else" }];

  const s = useStack(async () => {
    sandbox.seedTemplate("web", foreign);
    return recordsStack(
      sandbox,
      programFor("web", () => mine, { purge: false }),
    );
  });

  it("adds only its records on create and removes only its records on destroy", async () => {
    sandbox.clearRequests();
    await s.up();
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
    const held = sortRecords(sandbox.templateRecords("web") ?? []);
    expect(held).toEqual(sortRecords([...foreign, ...mine]));
    await s.destroy();
    expect(sortRecords(sandbox.templateRecords("web") ?? [])).toEqual(sortRecords(foreign));
  });
});

describe("DnsTemplateRecords safety threshold", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const twelve: DesiredRecord[] = Array.from({ length: 12 }, (_, i) => ({
    name: `h${i}`,
    type: "A",
    content: `192.0.2.${i + 1}`,
  }));
  const desired = {
    records: twelve,
    threshold: undefined as undefined | false | { maxChangePercent: number },
  };

  const s = useStack(() =>
    recordsStack(
      sandbox,
      programFor("tpl-2", () => desired.records, { safetyThreshold: () => desired.threshold }),
    ),
  );
  beforeAll(async () => {
    await s.up();
  });

  it("stops a mass delete in preview, with the counts and the input that allows it", async () => {
    desired.records = twelve.slice(0, 6);
    sandbox.clearRequests();
    const failure = await s.preview().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(failure).toMatch(/6 of 12/);
    expect(failure).toMatch(/maxChangePercent/);
    expect(sandbox.requests).toEqual([]);
  });

  it("lets the same change through when the threshold allows it", async () => {
    desired.threshold = { maxChangePercent: 60 };
    await s.up();
    await expectConverged(s, sandbox, "tpl-2", desired.records);
  });
});
