/**
 * Refresh by DNS as its user reads it (docs/behaviour.md, "Refresh by DNS"): the exact line a
 * refresh says and at which severity, secret values masked in it, a record whose name another type
 * took over, what the refreshed state and inputs keep, and the witness domains the input takes. Against the sandbox's DNS server; nothing reaches the API.
 */
import { createSocket, type Socket } from "node:dgram";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DnsReadError } from "../../../provider/client/resolver";
import type { RecordSpec } from "../../../provider/dns/model";
import * as records from "../../../provider/records/provider";
import { readPublished, readVerifyDomain } from "../../../provider/records/refreshByDns";
import { parseDnsServer } from "../../../provider/settings/dnsServers";
import { PROVIDER, useConsoleLines } from "../helpers";

const API_KEY = "refresh-lines-key-51ab";
type Props = Record<string, unknown>;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY, dnsPort: 0, dnsDomains: { "shop.example": "web" } });
  const values: Record<string, string> = {
    "domainapi:apiKey": API_KEY,
    "domainapi:baseUrl": sandbox.url,
    "domainapi:maxRetries": "0",
    "domainapi:timeoutMs": "2000",
    "domainapi:dnsServers": sandbox.dnsAddress!,
  };
  records.configure({
    config: { get: (k: string) => values[k], require: (k: string) => values[k] as string },
  });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

const declared = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "api", type: "A", content: "192.0.2.20" },
  { name: "_token", type: "TXT", content: "s3cret-value" },
];

async function deployed(extra: Props = {}): Promise<{ id: string; outs: Props }> {
  const checked = await records.check(
    {},
    {
      __provider: PROVIDER,
      templateId: "web",
      records: declared,
      purge: true,
      verifyDomain: "shop.example",
      ...extra,
    },
  );
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await records.create({ ...(checked.inputs as Props), __provider: PROVIDER });
  sandbox.clearRequests();
  return { id, outs: { ...outs, __provider: PROVIDER } };
}

function idOf(name: string, type: string): string {
  const found = (sandbox.templateRecords("web") ?? []).find((r) => r.name === name && r.type === type);
  if (!found) throw new Error(`no ${name} ${type}`);
  return found.record_id;
}

async function patch(body: unknown): Promise<void> {
  const response = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  sandbox.clearRequests();
}

describe("what a refresh says", () => {
  const said = useConsoleLines();
  const head = () =>
    `template "web": refreshed from DNS of shop.example (server ${sandbox.dnsAddress}; nothing sent to the API)`;

  it("nothing changed: one line at info level", async () => {
    const { id, outs } = await deployed();
    said.length = 0;
    await records.read(id, outs);
    expect(said).toEqual([`info: [runtime] ${head()}: every held record is published as held`]);
  });

  it("a change, a removal and an extra: one warning naming each, masking the secret values, and what the next up does", async () => {
    const { id, outs } = await deployed({ secretRecords: ["2:content"] });
    await patch({
      update: [{ record_id: idOf("@", "A"), name: "@", content: "192.0.2.99" }],
      del: [{ record_id: idOf("_token", "TXT") }],
      add: [{ name: "api", type: "A", content: "192.0.2.66" }],
    });
    said.length = 0;
    const read = await records.read(id, outs);
    expect(said).toEqual([
      `warning: [runtime] ${head()}: changed: @ A 192.0.2.10 is published as @ A 192.0.2.99; ` +
        "gone: _token TXT [secret] is not published; extra: api A 192.0.2.66 is published at a declared name. " +
        "The next `pulumi up` sets the template back as declared.",
    ]);
    expect(sandbox.requests).toEqual([]);
    const props = read.props as Props;
    // The refreshed state keeps the witness, the last plan and the secret marks of what is left.
    expect(props.verifyDomain).toBe("shop.example");
    expect(props.lastPlan).toBe(outs.lastPlan);
    expect((read.inputs as Props).verifyDomain).toBe("shop.example");
    expect(props.untrackedRecords).toEqual(["api A 192.0.2.66 (published at shop.example, not declared)"]);
  });

  it("a record whose name another type took over (a CNAME there) is gone, not changed into the CNAME", async () => {
    const { id, outs } = await deployed();
    await patch({
      del: [{ record_id: idOf("api", "A") }],
      add: [{ name: "api", type: "CNAME", content: "elsewhere.example.net." }],
    });
    const read = await records.read(id, outs);
    expect(said.join("\n")).toContain("gone: api A 192.0.2.20 is not published");
    expect(said.join("\n")).not.toContain("changed:");
    const held = Object.values(
      (read.props as Props).records as Record<string, { type: string; name: string }>,
    );
    expect(held.map((r) => `${r.name} ${r.type}`).sort()).toEqual(["@ A", "_token TXT"]);
  });

  it("a refresh of a refreshed state names an extra record once", async () => {
    const { id, outs } = await deployed();
    await patch({ add: [{ name: "api", type: "A", content: "192.0.2.66" }] });
    const once = await records.read(id, outs);
    const twice = await records.read(id, { ...(once.props as Props), __provider: PROVIDER });
    expect((twice.props as Props).untrackedRecords).toEqual([
      "api A 192.0.2.66 (published at shop.example, not declared)",
    ]);
  });
});

describe("readPublished", () => {
  const fast = { timeoutMs: 300, tries: 1 };
  const one: RecordSpec[] = [{ name: "@", type: "A", content: "192.0.2.10" }];

  it("without servers, asks the domain's own name servers: a name with no parent zone has none", async () => {
    for (const servers of [undefined, []]) {
      const err = await readPublished(one, "localhost", true, servers, fast).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DnsReadError);
      expect((err as Error).message).toMatch(/^found no name server of localhost/);
    }
  });

  describe("a server that does not answer", () => {
    let silent: Socket;
    const seen: number[] = [];
    beforeAll(async () => {
      silent = createSocket("udp4");
      silent.on("message", () => seen.push(Date.now()));
      await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    });
    afterAll(() => silent.close());

    it("is asked a few questions at once, not every question of a large template", async () => {
      const many: RecordSpec[] = Array.from({ length: 20 }, (_, i) => ({
        name: `h${i}`,
        type: "TXT",
        content: `value ${i}`,
      }));
      const server = parseDnsServer(`127.0.0.1:${silent.address().port}`).server!;
      const started = Date.now();
      const err = await readPublished(many, "shop.example", true, [server], {
        timeoutMs: 1000,
        tries: 1,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DnsReadError);
      // Each question waits for its answer before the next is asked: 8 while the first wait.
      expect(seen.filter((t) => t - started < 800)).toHaveLength(8);
    });
  });
});

describe("readVerifyDomain", () => {
  const label = (n: number) => "a".repeat(n);

  it("takes a domain of up to 253 characters, each label up to 63", () => {
    const longest = `${[label(63), label(63), label(63), label(61)].join(".")}`;
    expect(longest).toHaveLength(253);
    expect(readVerifyDomain(longest).domain).toBe(longest);
    expect(readVerifyDomain(`${longest}a`).issues).toHaveLength(1);
    expect(readVerifyDomain(`shop.${label(63)}`).domain).toBe(`shop.${label(63)}`);
    expect(readVerifyDomain(`shop.${label(64)}`).issues).toHaveLength(1);
  });

  it("takes hyphens inside labels, digits anywhere, underscores in labels below the last, one-letter labels", () => {
    for (const domain of [
      "my-shop.example",
      "1shop.example",
      "shop1.ex-ample",
      "_dmarc._x.example",
      "a.b",
      "x1.y2",
    ]) {
      expect(readVerifyDomain(domain), domain).toEqual({ domain, issues: [] });
    }
  });

  it("refuses a label that ends in a hyphen or underscore, a last label with an underscore, a name without a dot", () => {
    for (const raw of [
      "shop_.example",
      "shop.example-",
      "shop.-example",
      "shop.ex_ample",
      "shop.",
      "shop",
      "shop.example..",
      "sh!op.example",
    ]) {
      expect(readVerifyDomain(raw).issues, raw).toHaveLength(1);
    }
  });
});
