/**
 * DNS as the read, under the engine: a template used by two domains is verified with
 * domainapi-verify after `up`; a record changed or removed through the API behind Pulumi's back
 * shows in `pulumi refresh` (read from the witness domain's DNS, no API request), the next
 * preview plans the one correction, and after `up` both domains verify again. One stack.
 */
import { describe, expect, it } from "vitest";
import { domainapi, useSandbox, useStack } from "./harness";
import { API_KEY, recordIdOf, recordsStack } from "./records-helpers";

const RECORDS = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "mail", type: "A", content: "192.0.2.25" },
];
const DOMAINS = { "shop.example": "web", "other.example": "web" };

describe("refresh by DNS and domainapi-verify", () => {
  const sandbox = useSandbox({ apiKey: API_KEY, dnsPort: 0, dnsDomains: DOMAINS });
  const s = useStack(() =>
    recordsStack(
      sandbox,
      async () => {
        const { DnsTemplateRecords } = domainapi();
        const web = new DnsTemplateRecords("web", {
          templateId: "web",
          records: RECORDS as never,
          verifyDomain: "shop.example",
        });
        return { lastPlan: web.lastPlan };
      },
      { "domainapi:dnsServers": sandbox.dnsAddress! },
    ),
  );

  async function verified(): Promise<boolean> {
    const report = await domainapi().verifyDomains({
      declared: await s.exportState(),
      domains: DOMAINS,
      servers: [sandbox.dnsAddress!],
    });
    expect(
      report.domains.map((d) => [d.domain, d.verdict?.missing, d.verdict?.different, d.verdict?.extra]),
    ).toEqual([
      ["shop.example", [], [], []],
      ["other.example", [], [], []],
    ]);
    return report.passed;
  }

  /** Changes the template through the API, as someone outside Pulumi would. */
  async function patchBehindTheBack(body: unknown): Promise<void> {
    const response = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(204);
  }

  it("verifies both domains after up; a change behind Pulumi's back is read by refresh, planned, set back", async () => {
    await s.up();
    expect(await verified()).toBe(true);

    // Changed through the API behind Pulumi's back: refresh reads it from DNS, asks the API nothing.
    await patchBehindTheBack({
      update: [{ record_id: recordIdOf(sandbox, "web", "@", "A"), name: "@", content: "192.0.2.99" }],
    });
    sandbox.clearRequests();
    const refresh = await s.refresh();
    expect(sandbox.requests).toEqual([]);
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    expect(refresh.stdout + refresh.stderr).toMatch(
      /changed: @ A 192\.0\.2\.10 is published as @ A 192\.0\.2\.99/,
    );

    // The next preview plans the one update that sets it back.
    const preview = await s.preview();
    expect(preview.changeSummary.update).toBe(1);
    expect(preview.stdout).toMatch(/0 to create, 1 to update, 0 to delete/);
    expect(sandbox.requests).toEqual([]);
    await s.up();
    expect(sandbox.templateRecords("web")?.find((r) => r.name === "@" && r.type === "A")?.content).toBe(
      "192.0.2.10",
    );
    expect(await verified()).toBe(true);

    // Removed behind Pulumi's back: refresh shows it gone, the preview plans its add.
    sandbox.deleteRecord("web", recordIdOf(sandbox, "web", "mail", "A"));
    sandbox.clearRequests();
    const second = await s.refresh();
    expect(sandbox.requests).toEqual([]);
    expect(second.stdout + second.stderr).toMatch(/gone: mail A 192\.0\.2\.25 is not published/);
    const again = await s.preview();
    expect(again.stdout).toMatch(/1 to create, 0 to update, 0 to delete/);
    await s.up();
    expect(await verified()).toBe(true);
  });
});
