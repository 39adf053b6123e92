/**
 * Fault matrix, part 2: each fault on the PUT that creates a DnsTemplateRecords resource and on the
 * PATCH that deletes it (the resource removed from the program), under the real engine. After the
 * failure and one more `pulumi up`, the template holds exactly what the program declares (its
 * records after a create, nothing after a delete) and the state agrees, ids included.
 */

import { describe, expect, it } from "vitest";
import { typeToken, useSandbox, useStack } from "./harness";
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

const TEMPLATE = "tpl-4";
const RECORDS = { method: "", path: `^/v2/dns/templates/${TEMPLATE}/records$` };

const records: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
];

type Step = "create PUT" | "delete PATCH";
const cases = FAULTS.flatMap((fault) =>
  (["create PUT", "delete PATCH"] as Step[]).map((step) => ({ fault, step })),
);

describe("fault matrix: the create PUT and the delete PATCH", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const program = { present: false };

  const s = useStack(async () => {
    const withRecords = programFor(TEMPLATE, () => records);
    return matrixStack(sandbox, async () => (program.present ? withRecords() : {}));
  });

  async function expectDeclared(): Promise<void> {
    if (program.present) {
      await expectConverged(s, sandbox, TEMPLATE, records);
    } else {
      expect(sandbox.templateRecords(TEMPLATE)).toEqual([]);
      expect(await s.resources(typeToken("DnsTemplateRecords"))).toEqual([]);
    }
  }

  it.each(cases)("$fault on the $step", async ({ fault, step }: { fault: Fault; step: Step }) => {
    const creating = step === "create PUT";
    expect(program.present).toBe(!creating);
    program.present = creating;
    sandbox.clearRequests();
    inject(sandbox, fault, { ...RECORDS, method: creating ? "PUT" : "PATCH" }, 1);
    if (absorbed(fault)) {
      const up = await s.up();
      expect(up.summary.result).toBe("succeeded");
      expect(mutating(sandbox).map((r) => r.status)).toEqual([429, creating ? 200 : 204]);
    } else {
      const message = await failureOf(s.up());
      expectFailureExplained(message, fault, "replayable");
      sandbox.clearFaults();
      await settled(sandbox);
      const again = await s.up();
      expect(again.summary.result).toBe("succeeded");
    }
    sandbox.clearFaults();
    await expectDeclared();
  });
});
