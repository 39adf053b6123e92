/**
 * Load: one `pulumi up` of 200 DnsTemplateRecords resources against a sandbox rate-limited to 20
 * requests per second. Every resource must be created, none twice, and the rate limit's 429s must be
 * absorbed by the client's retries rather than surface as failures.
 */

import { afterAll, describe, expect, it } from "vitest";
import { createTestStack, domainapi, typeToken, useSandbox, useStack } from "./harness";
import { API_KEY, type DesiredRecord, sortRecords } from "./records-helpers";

const RESOURCES = 200;

function templateOf(i: number): string {
  return `load-${String(i).padStart(3, "0")}`;
}

/** Three records per template, distinct per template so a mix-up between templates would show. */
function recordsOf(i: number): DesiredRecord[] {
  return [
    { name: "@", type: "A", content: `192.0.2.${(i % 250) + 1}` },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "@", type: "TXT", content: `load test ${i}` },
  ];
}

describe("one up of 200 resources against a sandbox limited to 20 requests per second", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });

  const s = useStack(async () => {
    for (let i = 0; i < RESOURCES; i++) sandbox.seedTemplate(templateOf(i), []);
    return createTestStack({
      program: async () => {
        const { DnsTemplateRecords } = domainapi();
        for (let i = 0; i < RESOURCES; i++) {
          new DnsTemplateRecords(`r${i}`, { templateId: templateOf(i), records: recordsOf(i) as never });
        }
        return {};
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    });
  });
  afterAll(async () => {
    sandbox?.setRateLimit(undefined);
  });

  it("creates every resource exactly once, absorbing the 429s", async () => {
    // No burst allowance: two requests closer than 50 ms apart already meet a 429, so the limit
    // bites even though the engine itself paces the creates.
    sandbox.setRateLimit({ perSecond: 20, burst: 1 });
    const started = Date.now();
    const up = await s.up();
    const seconds = (Date.now() - started) / 1000;
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBe(RESOURCES + 1);

    // The limit was actually hit, and every rate-limited request came back and succeeded.
    const limited = sandbox.requests.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const applied = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200);
    expect(applied).toHaveLength(RESOURCES);
    expect(new Set(applied.map((r) => r.path)).size).toBe(RESOURCES);
    // 200 requests at 20 per second cannot take less than 10 s.
    expect(seconds).toBeGreaterThan(10);
    console.log(
      `load: ${RESOURCES} resources in ${seconds.toFixed(1)} s, ${limited.length} requests met a 429`,
    );

    // No duplicate, no loss, and the state holds the ids the API has.
    const resources = await s.resources(typeToken("DnsTemplateRecords"));
    expect(resources).toHaveLength(RESOURCES);
    for (let i = 0; i < RESOURCES; i++) {
      const held = sandbox.templateRecords(templateOf(i)) ?? [];
      expect(sortRecords(held)).toEqual(sortRecords(recordsOf(i)));
      const resource = resources.find((r) => r.outputs?.templateId === templateOf(i));
      const ids = Object.values((resource?.outputs?.ids ?? {}) as Record<string, string>).sort();
      expect(ids).toEqual(held.map((r) => r.record_id).sort());
    }
  });
});
