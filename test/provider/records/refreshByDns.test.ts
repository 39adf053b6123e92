/**
 * Refresh by DNS, at the provider's methods: a DnsTemplateRecords with a witness domain is read
 * from what the sandbox's DNS server publishes for that domain, and the read sends nothing to the
 * API. The next diff and update then set the template back as declared.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConsoleLines } from "../helpers";

const API_KEY = "refresh-dns-key-7c2d";
type Props = Record<string, unknown>;

let sandbox: Sandbox;

function configure(dnsServers: string): void {
  const values: Record<string, string> = {
    "domainapi:apiKey": API_KEY,
    "domainapi:baseUrl": sandbox.url,
    "domainapi:maxRetries": "0",
    "domainapi:timeoutMs": "2000",
    "domainapi:dnsServers": dnsServers,
  };
  records.configure({
    config: { get: (k: string) => values[k], require: (k: string) => values[k] as string },
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, dnsPort: 0, dnsDomains: { "shop.example": "web" } });
  configure(sandbox.dnsAddress!);
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

const declared = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "@", type: "TXT", content: `site-verification=${"x".repeat(1300)}` },
  { name: "go", type: "URLFWD", content: "https://www.example.net/" },
];

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

async function deployed(purge = true): Promise<{ id: string; inputs: Props; outs: Props }> {
  const inputs = await checked({
    templateId: "web",
    records: declared,
    purge,
    verifyDomain: "Shop.Example.",
  });
  const { id, outs } = await records.create(inputs);
  sandbox.clearRequests();
  return { id, inputs, outs: { ...outs, __provider: PROVIDER } };
}

function idOf(name: string, type: string): string {
  const found = (sandbox.templateRecords("web") ?? []).find((r) => r.name === name && r.type === type);
  if (!found) throw new Error(`no ${name} ${type}`);
  return found.record_id;
}

/** Changes the template through the API, behind the provider's back. */
async function patch(body: unknown): Promise<void> {
  const response = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  sandbox.clearRequests();
}

function heldContents(): string[] {
  return (sandbox.templateRecords("web") ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
}

describe("refresh with a witness domain", () => {
  const said = useConsoleLines();

  it("keeps the witness in the outputs, and reads nothing changed when nothing changed", async () => {
    const { id, outs } = await deployed();
    expect(outs.verifyDomain).toBe("shop.example");
    const result = await records.read(id, outs);
    expect(result.props).toEqual(outs);
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.dnsQueries.length).toBeGreaterThan(0);
    // The long TXT came truncated over UDP and whole over TCP.
    expect(sandbox.dnsQueries.some((q) => q.transport === "tcp")).toBe(true);
    expect(said.join("\n")).toMatch(/every held record is published as held/);
  });

  it("shows a record changed outside Pulumi as changed (same id), sends nothing, and the next update sets it back", async () => {
    const { id, inputs, outs } = await deployed();
    const apexA = idOf("@", "A");
    await patch({ update: [{ record_id: apexA, name: "@", content: "192.0.2.99" }] });

    const read = await records.read(id, outs);
    expect(sandbox.requests).toEqual([]);
    const refreshed = read.props as Props;
    const held = refreshed.records as Record<string, { content: string }>;
    const ids = refreshed.ids as Record<string, string>;
    const key = Object.keys(held).find((k) => ids[k] === apexA)!;
    expect(held[key]!.content).toBe("192.0.2.99");
    expect((read.inputs as Props).records).toEqual(held);
    expect(said.join("\n")).toMatch(/changed: @ A 192\.0\.2\.10 is published as @ A 192\.0\.2\.99/);

    // The next preview plans the one update that sets it back, with the same id.
    const news = await checked(
      { templateId: "web", records: declared, purge: true, verifyDomain: "shop.example" },
      inputs,
    );
    expect((await records.diff(id, refreshed, news)).changes).toBe(true);
    await records.update(id, refreshed, news);
    const [request] = sandbox.requests;
    expect(sandbox.requests).toHaveLength(1);
    expect(request?.method).toBe("PATCH");
    expect((request!.body as { update: { record_id: string; content: string }[] }).update).toContainEqual(
      expect.objectContaining({ record_id: apexA, content: "192.0.2.10" }),
    );
    expect(heldContents()).toContain("@ A 192.0.2.10");
  });

  it("shows a vanished record as gone, and the next update adds it", async () => {
    const { id, inputs, outs } = await deployed();
    sandbox.deleteRecord("web", idOf("@", "MX"));

    const read = await records.read(id, outs);
    expect(sandbox.requests).toEqual([]);
    const refreshed = read.props as Props;
    expect(
      Object.values(refreshed.records as Record<string, { type: string }>).map((r) => r.type),
    ).not.toContain("MX");
    expect(said.join("\n")).toMatch(/gone: @ MX 10 mail\.\{domainname\}\. is not published/);

    const news = await checked(
      { templateId: "web", records: declared, purge: true, verifyDomain: "shop.example" },
      inputs,
    );
    await records.update(id, refreshed, news);
    const adds = sandbox.requests.flatMap((r) => (r.body as { add?: { type: string }[] }).add ?? []);
    expect(adds).toEqual([
      expect.objectContaining({ type: "MX", content: "mail.{domainname}.", priority: 10 }),
    ]);
  });

  it("with purge, holds an extra record at a declared name as untracked, so the next update rewrites the template", async () => {
    const { id, inputs, outs } = await deployed();
    await patch({ add: [{ name: "@", type: "A", content: "192.0.2.66" }] });

    const read = await records.read(id, outs);
    expect(sandbox.requests).toEqual([]);
    expect((read.props as Props).untrackedRecords).toEqual([
      "@ A 192.0.2.66 (published at shop.example, not declared)",
    ]);

    const news = await checked(
      { templateId: "web", records: declared, purge: true, verifyDomain: "shop.example" },
      inputs,
    );
    await records.update(id, read.props as Props, news);
    expect(sandbox.requests.map((r) => r.method)).toContain("PUT");
    expect(heldContents()).not.toContain("@ A 192.0.2.66");
  });

  it("without purge, leaves a record at a declared name that is not its own alone", async () => {
    const { id, outs } = await deployed(false);
    await patch({ add: [{ name: "@", type: "A", content: "192.0.2.66" }] });
    const read = await records.read(id, outs);
    expect(read.props).toEqual(outs);
  });

  it("a witness added to a resource is an update that sends nothing and keeps it in the outputs", async () => {
    const inputs = await checked({ templateId: "web", records: declared });
    const { id, outs } = await records.create(inputs);
    sandbox.clearRequests();
    const news = await checked(
      { templateId: "web", records: declared, verifyDomain: "shop.example" },
      inputs,
    );
    const olds = { ...outs, __provider: PROVIDER } as Props;
    expect((await records.diff(id, olds, news)).changes).toBe(true);
    const updated = await records.update(id, olds, news);
    expect(sandbox.requests).toEqual([]);
    expect(updated.outs?.verifyDomain).toBe("shop.example");
    const back = await checked({ templateId: "web", records: declared }, news);
    expect((await records.diff(id, { ...updated.outs, __provider: PROVIDER }, back)).changes).toBe(true);
  });

  it("without a witness, refresh reads nothing and sends nothing", async () => {
    const inputs = await checked({ templateId: "web", records: declared });
    const { id, outs } = await records.create(inputs);
    sandbox.clearRequests();
    const read = await records.read(id, outs as Props);
    expect(read.props).toEqual(outs);
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.dnsQueries).toEqual([]);
  });

  it("fails naming the server when the witness is not served there", async () => {
    const { id, outs } = await deployed();
    sandbox.unlinkDomain("shop.example");
    await expect(records.read(id, outs)).rejects.toThrow(
      new RegExp(
        `DNS server ${sandbox.dnsAddress!.replace(/\./g, "\\.")} asked for shop\\.example .*refused`,
      ),
    );
    expect(sandbox.requests).toEqual([]);
  });

  it("fails the check of a resource with a witness when dnsServers is malformed, naming the setting", async () => {
    configure("ns1.example.net");
    try {
      await expect(
        records.check({}, { templateId: "web", records: declared, verifyDomain: "shop.example" }),
      ).rejects.toThrow(/dnsServers: "ns1\.example\.net" is not an IP address.*set domainapi:dnsServers/);
    } finally {
      configure(sandbox.dnsAddress!);
    }
  });

  it("refuses a verifyDomain that is no domain, naming the input", async () => {
    const result = await records.check(
      {},
      { templateId: "web", records: declared, verifyDomain: "not a domain" },
    );
    expect(result.failures).toEqual([
      expect.objectContaining({
        property: "verifyDomain",
        reason: expect.stringMatching(/e\.g\. "shop\.example"/),
      }),
    ]);
  });

  it("refuses a verifyDomain that the URL host parser would cut, instead of reading the domain before the cut", async () => {
    const result = await records.check(
      {},
      { templateId: "web", records: declared, verifyDomain: "shop.example/x" },
    );
    expect(result.failures).toEqual([
      {
        property: "verifyDomain",
        reason:
          'expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got "shop.example/x"',
      },
    ]);
  });
});
