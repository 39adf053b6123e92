/**
 * Records changed outside Pulumi: the sandbox's out-of-band changes happen behind the provider's
 * back, and every later `pulumi up` / `destroy` converges instead of failing or leaving records.
 */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
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

  async function deployed(templateId: string): Promise<TestStack> {
    desired.records = base;
    const stack = await recordsStack(
      sandbox,
      programFor(templateId, () => desired.records),
    );
    await stack.up();
    return stack;
  }

  describe("updates, one after another on one stack (each starts from the last one's converged state)", () => {
    beforeAll(async () => {
      s = await deployed("tpl-1");
    });
    beforeEach(async () => {
      // What the test before left: the template, the state and the program agree.
      await expectConverged(s!, sandbox, "tpl-1", desired.records);
    });
    afterAll(async () => {
      await s?.cleanup();
      s = undefined;
      sandbox.reset();
    });

    it("an update that changes another record still applies when one record vanished", async () => {
      sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
      desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.99" } : r));
      // The update's first PATCH verifies "mail" too (verified updates): its 404 is noticed, and with
      // purge one PUT leaves the template exactly as declared, "mail" included.
      await s!.up();
      const held = sandbox.templateRecords("tpl-1") ?? [];
      expect(held.find((r) => r.name === "www")?.content).toBe("192.0.2.99");
      await expectConverged(s!, sandbox, "tpl-1", desired.records);
    });

    it("an update of the very record that vanished re-adds it", async () => {
      sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "www", "A"));
      desired.records = base.map((r) => (r.name === "www" ? { ...r, content: "192.0.2.77" } : r));
      const up = await s!.up();
      expect(up.stdout + up.stderr).toMatch(/removed outside Pulumi/);
      await expectConverged(s!, sandbox, "tpl-1", desired.records);
    });

    it("a delete of records of which several vanished removes the rest", async () => {
      sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "www", "A"));
      sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "mail", "A"));
      desired.records = base.filter((r) => r.type === "MX");
      await s!.up({});
      await expectConverged(s!, sandbox, "tpl-1", desired.records);
    });
  });

  describe("a stack of its own per case", () => {
    afterEach(async () => {
      await s?.cleanup();
      s = undefined;
      sandbox.reset();
    });

    it("destroy removes every record still there when one vanished", async () => {
      s = await deployed("tpl-1");
      sandbox.deleteRecord("tpl-1", recordIdOf(sandbox, "tpl-1", "@", "MX"));
      await s.destroy();
      expect(sandbox.templateRecords("tpl-1")).toEqual([]);
      expect(await s.resources()).toEqual([]);
    });

    it("with the template itself gone, up fails naming the template, and destroy succeeds", async () => {
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
      // The same stack, its resource still in the state: destroy finds the template gone, which is done.
      const destroy = await s.destroy();
      expect(destroy.summary.result).toBe("succeeded");
      expect(await s.resources()).toEqual([]);
    });
  });
});
