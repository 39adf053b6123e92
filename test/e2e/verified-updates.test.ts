/**
 * Verified updates under the real engine: records deleted behind the provider's back (the
 * sandbox's admin routes) are found by the update's own first PATCH, and every case ends with the
 * sandbox holding exactly the declared records (plus foreign ones), the state's ids equal to the
 * sandbox's, and nothing duplicated. Refresh verifies only when `DOMAINAPI_VERIFY_ON_REFRESH` is set
 * for the command; never during a preview's refresh through a stack setting.
 */

import type { Sandbox, SandboxRecord } from "domainapi-sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { type TestStack, useSandbox } from "./harness";
import {
  API_KEY,
  type DesiredRecord,
  expectConverged,
  mutating,
  programFor,
  recordIdOf,
  recordsStack,
  sortRecords,
} from "./records-helpers";

const base: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "A", content: "192.0.2.11" },
  { name: "mail", type: "A", content: "192.0.2.12" },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
];

/** The template's records that are not the foreign one, for the convergence check. */
function ours(sandbox: Sandbox, templateId: string): SandboxRecord[] {
  return (sandbox.templateRecords(templateId) ?? []).filter((r) => r.name !== "legacy");
}

const sandbox = useSandbox({ apiKey: API_KEY });
let s: TestStack | undefined;

afterEach(async () => {
  await s?.cleanup();
  s = undefined;
  sandbox.reset();
});

describe("verified updates: records removed outside Pulumi", () => {
  const desired = { records: base };

  async function deployed(templateId: string, purge?: boolean): Promise<TestStack> {
    desired.records = base;
    const stack = await recordsStack(
      sandbox,
      programFor(templateId, () => desired.records, purge === undefined ? {} : { purge }),
    );
    await stack.up();
    return stack;
  }

  it("an untouched record deleted, then an up that changes another: one PUT restores it (purge)", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.99" } : r));
    sandbox.clearRequests();
    const up = await s.up();
    const out = up.stdout + up.stderr;
    // With purge the search stops as soon as the rewrite is certain: the refused PATCH, then the PUT.
    expect(out).toMatch(
      /a record this resource keeps was removed outside Pulumi or by an interrupted run; the template is rewritten with one PUT/,
    );
    expect(out).toMatch(/every record id is new/);
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH", "PUT"]);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
    // The next up, with no change, sends nothing.
    sandbox.clearRequests();
    await s.up();
    expect(mutating(sandbox)).toEqual([]);
  });

  it("without purge, the vanished record is added again and a foreign record survives", async () => {
    sandbox.seedTemplate("tpl-2", [{ name: "legacy", type: "TXT", content: "made by hand" }]);
    s = await deployed("tpl-2", false);
    sandbox.deleteRecord("tpl-2", recordIdOf(sandbox, "tpl-2", "mail", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.99" } : r));
    sandbox.clearRequests();
    const up = await s.up();
    expect(up.stdout + up.stderr).toMatch(
      /records removed outside Pulumi or by an interrupted run: mail A 192\.0\.2\.12/,
    );
    // Never an add beside the records a request names (it could be answered 404), and no PUT.
    for (const r of mutating(sandbox)) {
      expect(r.method).toBe("PATCH");
      const body = r.body as { add?: unknown[]; update?: unknown[]; del?: unknown[] };
      if (body.add) expect(body.update ?? body.del).toBeUndefined();
    }
    expect(sandbox.templateRecords("tpl-2")?.filter((r) => r.name === "legacy")).toHaveLength(1);
    expect(sortRecords(ours(sandbox, "tpl-2"))).toEqual(sortRecords(desired.records));
    await expectOursConverged(s, sandbox, "tpl-2");
  });

  it("several untouched records deleted, and every record deleted: each converges", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "@", "TXT"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.98" } : r));
    await s.up();
    await expectConverged(s, sandbox, "tpl-1", desired.records);

    for (const r of sandbox.templateRecords("tpl-1") ?? []) sandbox.deleteRecord("tpl-1", r.record_id);
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.97" } : r));
    sandbox.clearRequests();
    const up = await s.up();
    expect(up.stdout + up.stderr).toMatch(/a record this resource keeps was removed outside Pulumi/);
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH", "PUT"]);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("a record deleted and the same record changed in the program", async () => {
    s = await deployed("tpl-2", false);
    sandbox.deleteRecord("tpl-2", recordIdOf(sandbox, "tpl-2", "www", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.77" } : r));
    await s.up();
    await expectConverged(s, sandbox, "tpl-2", desired.records);
  });

  it("a dropped connection, then a 503, on the verifying PATCH: the next up converges", async () => {
    s = await deployed("tpl-1", false);
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.55" } : r));
    // Every attempt of the first PATCH is dropped before it applies, then answered 503.
    sandbox.addFault({ method: "PATCH", drop: "before", times: 10 });
    // The verifying PATCH carries no add: it is resent as maxRetries allows, then the up fails
    // saying so (the error in full is asserted in test/provider/records/provider.test.ts).
    await expect(s.up()).rejects.toThrow(
      /PATCH \/v2\/dns\/templates\/tpl-1\/records lost the connection[\s\S]*The request is safe to repeat: run the operation again/,
    );
    sandbox.clearFaults();
    sandbox.addFault({ method: "PATCH", respond: { status: 503 }, times: 10 });
    await expect(s.up()).rejects.toThrow(
      /PATCH \/v2\/dns\/templates\/tpl-1\/records returned 503 Service Unavailable[\s\S]*outcome: not-applied/,
    );
    sandbox.clearFaults();
    await s.up();
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });
});

/** The state holds exactly our records of the template with the API's ids (the foreign one aside). */
async function expectOursConverged(s: TestStack, sandbox: Sandbox, templateId: string): Promise<void> {
  const [resource] = await s.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
  const ids = Object.values((resource!.outputs as { ids: Record<string, string> }).ids).sort();
  expect(ids).toEqual(
    ours(sandbox, templateId)
      .map((r) => r.record_id)
      .sort(),
  );
}

describe("refresh", () => {
  function stack(verifyOnRefresh: boolean): Promise<TestStack> {
    const env: Record<string, string> = verifyOnRefresh ? { DOMAINAPI_VERIFY_ON_REFRESH: "1" } : {};
    return recordsStack(
      sandbox,
      programFor("tpl-4", () => base),
      {},
      env,
    );
  }

  it("a stack setting of verification never makes a preview write: preview --refresh sends nothing", async () => {
    s = await recordsStack(
      sandbox,
      programFor("tpl-4", () => base),
      { "domainapi:verifyOnRefresh": "true" },
    );
    await s.up();
    sandbox.deleteRecord("tpl-4", recordIdOf(sandbox, "tpl-4", "mail", "A"));
    sandbox.clearRequests();
    const preview = await s.preview({ refresh: true });
    expect(sandbox.requests).toEqual([]);
    expect(preview.stdout + preview.stderr).toMatch(/domainapi:verifyOnRefresh is not read/);
  });

  it("with verification on, a record gone leaves the state, the preview shows it to create, up restores it", async () => {
    s = await stack(true);
    await s.up();
    sandbox.deleteRecord("tpl-4", recordIdOf(sandbox, "tpl-4", "mail", "A"));
    sandbox.clearRequests();
    await s.refresh();
    // Verification only: PATCHes that re-state held records, never an add or a delete.
    const sent = mutating(sandbox);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r.method).toBe("PATCH");
      expect(Object.keys(r.body as object)).toEqual(["update"]);
    }
    const [resource] = await s.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
    const held = Object.values((resource!.outputs as { records: Record<string, DesiredRecord> }).records);
    expect(held.map((r) => r.name).sort()).toEqual(["@", "@", "@", "www"]);

    const preview = await s.preview({ diff: true });
    expect(preview.changeSummary?.update).toBe(1);
    // The keyed diff shows the one record to create, and the plan says so.
    expect(preview.stdout).toMatch(/\+ mail\/A\s*: \{/);
    expect(preview.stdout + preview.stderr).toMatch(/\+ CREATE mail A 192\.0\.2\.12/);
    await s.up();
    await expectConverged(s, sandbox, "tpl-4", base);
  });

  it("with verification off, refresh sends nothing and keeps the state", async () => {
    s = await stack(false);
    await s.up();
    sandbox.deleteRecord("tpl-4", recordIdOf(sandbox, "tpl-4", "mail", "A"));
    sandbox.clearRequests();
    await s.refresh();
    expect(sandbox.requests).toEqual([]);
    const [resource] = await s.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
    expect(Object.keys((resource!.outputs as { ids: object }).ids)).toHaveLength(base.length);
  });
});
