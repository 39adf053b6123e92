/**
 * Fault matrix, part 1: each fault on each PATCH of a three-request update, under the real engine.
 * After the failure and one more `pulumi up`, the template holds exactly the desired records (none
 * duplicated or lost) and the state holds exactly the template's records with their ids. A fault
 * that leaves the outcome of an add unknowable must say so and say what to do.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { useSandbox, useStack } from "./harness";
import { API_KEY, type DesiredRecord, expectConverged, mutating, programFor } from "./records-helpers";
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

const TEMPLATE = "tpl-3";
const PATCH = { method: "PATCH", path: `^/v2/dns/templates/${TEMPLATE}/records$` };

const base: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
];

/**
 * Two record sets; going from either to the other is one update, three records of another type
 * added and three removed: three PATCH requests (the first with every del and update and one add,
 * then one add each).
 */
const sets: DesiredRecord[][] = [
  [
    ...base,
    { name: "www", type: "A", content: "192.0.2.1" },
    ...[1, 2, 3].map((i) => ({ name: `x${i}`, type: "TXT", content: `x ${i}` })),
  ],
  [
    ...base,
    { name: "www", type: "A", content: "192.0.2.2" },
    ...[1, 2, 3].map((i) => ({ name: `y${i}`, type: "AAAA", content: `2001:db8::${i}` })),
  ],
];

const cases = FAULTS.flatMap((fault) => [1, 2, 3].map((patch) => ({ fault, patch })));

describe("fault matrix: each PATCH of a three-request update", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  let turn = 0;
  const desired = { records: sets[0] as DesiredRecord[] };

  const s = useStack(() =>
    matrixStack(
      sandbox,
      programFor(TEMPLATE, () => desired.records),
    ),
  );
  beforeAll(async () => {
    await s.up();
    await expectConverged(s, sandbox, TEMPLATE, desired.records);
  });

  it("plans the toggle between the two sets as three PATCH requests", async () => {
    desired.records = sets[++turn % 2] as DesiredRecord[];
    sandbox.clearRequests();
    await s.up();
    const sent = mutating(sandbox);
    expect(sent.map((r) => r.method)).toEqual(["PATCH", "PATCH", "PATCH"]);
    expect(Object.keys(sent[0]?.body as object).sort()).toEqual(["add", "del", "update"]);
    await expectConverged(s, sandbox, TEMPLATE, desired.records);
  });

  it.each(cases)("$fault on PATCH $patch of 3", async ({ fault, patch }: { fault: Fault; patch: number }) => {
    desired.records = sets[++turn % 2] as DesiredRecord[];
    sandbox.clearRequests();
    inject(sandbox, fault, PATCH, patch);
    if (absorbed(fault)) {
      const up = await s.up();
      expect(up.summary.result).toBe("succeeded");
      expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(1);
      expect(mutating(sandbox).filter((r) => r.status === 200)).toHaveLength(3);
    } else {
      const message = await failureOf(s.up());
      expectFailureExplained(message, fault, "once");
      sandbox.clearFaults();
      await settled(sandbox);
      const again = await s.up();
      expect(again.summary.result).toBe("succeeded");
    }
    sandbox.clearFaults();
    await expectConverged(s, sandbox, TEMPLATE, desired.records);
  });
});
