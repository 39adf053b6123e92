/**
 * Fault matrix, part 3: each fault on the restore POST of a DomainRestore, and on a page past the
 * first of a getContacts listing, under the real engine. After the failure and one more `pulumi
 * up`, the domain is restored exactly once and the state records the restore; the listing's outputs
 * equal the sandbox's contacts.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainapi, type TestStack, typeToken, useSandbox } from "./harness";
import { API_KEY } from "./records-helpers";
import {
  absorbed,
  expectFailureExplained,
  FAULTS,
  type Fault,
  failureOf,
  inject,
  matrixStack,
  settled,
} from "./reliability-faults";

const RESTORE = { method: "POST", path: "^/v2/domains/[^/]+/restore$" };
const CONTACTS = { method: "GET", path: "^/v2/contacts$" };

const sandbox = useSandbox({ apiKey: API_KEY, contacts: 120 });

describe("fault matrix: the restore POST", () => {
  let s: TestStack;
  const inputs = { domain: "" };

  beforeAll(async () => {
    s = await matrixStack(sandbox, async () => {
      const { DomainRestore } = domainapi();
      const restored = new DomainRestore("restore", { domain: inputs.domain });
      return { domain: restored.domain, restoredAt: restored.restoredAt };
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  it.each(FAULTS)("%s on the restore POST", async (fault: Fault) => {
    // A fresh quarantined domain per case: the program's domain changes, so the stack restores it.
    inputs.domain = `${fault.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.example`;
    sandbox.setDomain(inputs.domain, "quarantined");
    sandbox.clearRequests();
    inject(sandbox, fault, RESTORE, 1);
    if (absorbed(fault)) {
      const up = await s.up();
      expect(up.summary.result).toBe("succeeded");
      expect(sandbox.requests.map((r) => r.status)).toEqual([429, 204]);
    } else {
      const message = await failureOf(s.up());
      expectFailureExplained(message, fault, "once");
      sandbox.clearFaults();
      await settled(sandbox);
      const again = await s.up();
      expect(again.summary.result).toBe("succeeded");
    }
    sandbox.clearFaults();
    expect(sandbox.domainStatus(inputs.domain)).toBe("active");
    // Restored exactly once, and the state records it.
    const applied = sandbox.requests.filter((r) => r.method === "POST" && r.status === 204);
    expect(applied.map((r) => r.path)).toEqual([`/v2/domains/${inputs.domain}/restore`]);
    const held = await s.resources(typeToken("DomainRestore"));
    expect(held.map((r) => r.outputs?.domain)).toEqual([inputs.domain]);
  });
});

describe("fault matrix: a page of the contacts listing", () => {
  let s: TestStack;
  const PER_PAGE = 20;

  beforeAll(async () => {
    s = await matrixStack(sandbox, async () => {
      const { getContactsOutput } = domainapi();
      const all = getContactsOutput({ perPage: PER_PAGE, sort: "handle" });
      return { handles: all.contacts.apply((cs) => cs.map((c) => c.handle)), total: all.total };
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  /**
   * The listing fetches page 1, then pages 2-6 four at a time, so which page is the third request
   * is not fixed; the faults therefore hold every contacts request from the third on (at most 12
   * requests: six pages, each tried twice), which fails whichever page is third and its retry.
   */
  it.each(FAULTS)("%s on page 3 of 6 and after", async (fault: Fault) => {
    sandbox.clearRequests();
    inject(sandbox, fault, CONTACTS, 3, 10);
    let outputs: Record<string, { value: unknown }>;
    if (absorbed(fault)) {
      const up = await s.up();
      expect(up.summary.result).toBe("succeeded");
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(1);
      outputs = up.outputs;
    } else {
      const message = await failureOf(s.up());
      expectFailureExplained(message, fault, "read");
      sandbox.clearFaults();
      await settled(sandbox);
      const again = await s.up();
      expect(again.summary.result).toBe("succeeded");
      outputs = again.outputs;
    }
    sandbox.clearFaults();
    const expected = sandbox.state.contacts.map((c) => c.handle).sort();
    expect(expected).toHaveLength(120);
    expect(outputs.handles?.value).toEqual(expected);
    expect(outputs.total?.value).toBe(120);
    // What the engine stored is what the sandbox holds.
    expect((await s.stack.outputs()).handles?.value).toEqual(expected);
  });
});
