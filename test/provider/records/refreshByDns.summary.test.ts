/**
 * Refresh by DNS of a state that holds no summary (`lastPlan`), as a state edited by hand or
 * written elsewhere may: the schema makes `lastPlan` a required string, so the refreshed outputs
 * carry it as the empty text, not as something made up. Against the sandbox's DNS server;
 * nothing reaches the API.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { refreshByDns } from "../../../provider/records/refreshByDns";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: "refresh-summary-key-7c1d",
    dnsPort: 0,
    dnsDomains: { "shop.example": "web" },
  });
});
afterAll(async () => {
  await sandbox?.close();
});

/** The sandbox's DNS server as the `dnsServers` setting gives it. */
function server(): { host: string; port: number; address: string } {
  const address = sandbox.dnsAddress as string;
  const colon = address.lastIndexOf(":");
  return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)), address };
}

it("a refresh that finds a record changed writes an empty lastPlan for a state that held none", async () => {
  const [id] = sandbox.seedTemplate("web", [{ name: "@", type: "A", content: "192.0.2.77" }]);
  const props: Record<string, unknown> = {
    templateId: "web",
    purge: false,
    records: { "@/A": { name: "@", type: "A", content: "192.0.2.10" } },
    ids: { "@/A": id },
    verifyDomain: "shop.example",
  };
  const result = await refreshByDns("web", props, "shop.example", [server()]);
  expect(sandbox.requests).toEqual([]);
  const outs = result.props as Record<string, unknown>;
  // The record as published, under its id: the refresh did find the change.
  expect(outs.records).toEqual({ "@/A": expect.objectContaining({ content: "192.0.2.77" }) });
  expect(outs.lastPlan).toBe("");
});
