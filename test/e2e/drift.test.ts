/**
 * Records changed outside Pulumi: the sandbox's out-of-band changes happen behind the provider's
 * back, and every later `pulumi up` / `destroy` converges instead of failing or leaving records.
 */

import { afterEach, describe, expect, it } from "vitest";
import { type TestStack, useSandbox } from "./harness";
import {
  API_KEY,
  type DesiredRecord,
  expectConverged,
  programFor,
  recordIdOf,
  recordsStack,
} from "./records-helpers";

const base: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "A", content: "192.0.2.11" },
  { name: "mail", type: "A", content: "192.0.2.12" },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
];

describe("records changed outside Pulumi", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  let s: TestStack | undefined;
  const desired = { records: base };

  afterEach(async () => {
    await s?.cleanup();
    s = undefined;
    sandbox.reset();
  });

  async function deployed(templateId: string): Promise<TestStack> {
    desired.records = base;
    const stack = await recordsStack(
      sandbox,
      programFor(templateId, () => desired.records),
    );
    await stack.up();
    return stack;
  }

  it("an update that changes another record still applies when one record vanished", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.99" } : r));
    // The update's first PATCH verifies "mail" too (verified updates): its 404 is noticed, and with
    // purge one PUT leaves the template exactly as declared, "mail" included.
    await s.up();
    const held = sandbox.templateRecords("tpl-1") ?? [];
    expect(held.find((r) => r.name === "www")?.content).toBe("192.0.2.99");
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("an update of the very record that vanished re-adds it", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "www", "A"));
    desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.77" } : r));
    const up = await s.up();
    expect(up.stdout + up.stderr).toMatch(/removed outside Pulumi/);
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("a delete of records of which several vanished removes the rest", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "www", "A"));
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
    desired.records = base.filter((r) => r.type === "MX");
    await s.up({});
    await expectConverged(s, sandbox, "tpl-1", desired.records);
  });

  it("destroy removes every record still there when one vanished", async () => {
    s = await deployed("tpl-1");
    sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "@", "MX"));
    await s.destroy();
    expect(sandbox.templateRecords("tpl-1")).toEqual([]);
    expect(await s.resources()).toEqual([]);
  });

  it("destroy succeeds when the template itself is gone", async () => {
    s = await deployed("tpl-3");
    sandbox.deleteTemplate("tpl-3");
    const destroy = await s.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await s.resources()).toEqual([]);
  });

  it("up fails naming the template when the template is gone", async () => {
    s = await deployed("tpl-3");
    sandbox.deleteTemplate("tpl-3");
    desired.records = [...base, { name: "new", type: "A", content: "192.0.2.50" }];
    const failure = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(failure).toMatch(/template "tpl-3" was not found/);
    expect(failure).toMatch(/DOMAINAPI_TEMPLATE_NOT_FOUND/);
    expect(failure).toMatch(/templateId/);
  });
});
