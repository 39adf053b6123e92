/**
 * One DNS read from one authoritative server (docs/behaviour.md, "Refresh by DNS"), against the
 * sandbox's DNS server: every type a template publishes comes back as its values, a name without
 * the type and a name that does not exist are told apart, and a server that does not answer or is
 * not authoritative fails naming the server, the question and why.
 */
import { createSocket } from "node:dgram";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DNS_READ, DnsReadError, readRRset } from "../../../provider/client/resolver";
import type { RecordSpec } from "../../../provider/dns/model";
import { parseDnsServer } from "../../../provider/settings/dnsServers";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: "k", dnsPort: 0, dnsDomains: { "shop.example": "web" } });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => sandbox.reset());

const served = () => parseDnsServer(sandbox.dnsAddress!).server!;
const fast = { timeoutMs: 300, tries: 1 };

const RECORDS: RecordSpec[] = [
  { name: "www", type: "A", content: "192.0.2.10" },
  { name: "www", type: "AAAA", content: "2001:db8::10" },
  { name: "alias", type: "CNAME", content: "www.{domainname}." },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net.", priority: 1, weight: 2, port: 5060 },
  { name: "@", type: "TXT", content: "v=spf1 -all" },
  { name: "@", type: "CAA", content: '128 issue "letsencrypt.org"' },
  { name: "_25._tcp.mail", type: "TLSA", content: "3 1 1 ABCDEF0123" },
  { name: "sub", type: "NS", content: "ns1.example.net." },
];

describe("readRRset", () => {
  it("reads each type as its values, the name asked in lower case without its dot", async () => {
    sandbox.seedTemplate("web", RECORDS);
    const read = async (name: string, type: Parameters<typeof readRRset>[2]) => {
      const set = await readRRset(served(), name, type, fast);
      expect(set).toMatchObject({ name: name.toLowerCase().replace(/\.$/, ""), type, outcome: "answer" });
      return set.values;
    };
    expect(await read("WWW.Shop.Example.", "A")).toEqual([{ type: "A", value: "192.0.2.10" }]);
    expect(await read("www.shop.example", "AAAA")).toEqual([{ type: "AAAA", value: "2001:db8::10" }]);
    expect(await read("alias.shop.example", "CNAME")).toEqual([{ type: "CNAME", value: "www.shop.example" }]);
    expect(await read("shop.example", "MX")).toEqual([
      { type: "MX", priority: 10, exchange: "mail.shop.example" },
    ]);
    expect(await read("_sip._tcp.shop.example", "SRV")).toEqual([
      { type: "SRV", priority: 1, weight: 2, port: 5060, target: "sip.example.net" },
    ]);
    expect(await read("shop.example", "TXT")).toEqual([{ type: "TXT", strings: ["v=spf1 -all"] }]);
    expect(await read("shop.example", "CAA")).toEqual([
      { type: "CAA", flags: 128, tag: "issue", value: "letsencrypt.org" },
    ]);
    expect(await read("_25._tcp.mail.shop.example", "TLSA")).toEqual([
      { type: "TLSA", usage: 3, selector: 1, matchingType: 1, data: "abcdef0123" },
    ]);
  });

  it("tells a name without the type (nodata) from a name that does not exist (nxdomain)", async () => {
    sandbox.seedTemplate("web", RECORDS);
    expect(await readRRset(served(), "www.shop.example", "TXT", fast)).toEqual({
      name: "www.shop.example",
      type: "TXT",
      outcome: "nodata",
      values: [],
    });
    expect(await readRRset(served(), "nothing.shop.example", "A", fast)).toEqual({
      name: "nothing.shop.example",
      type: "A",
      outcome: "nxdomain",
      values: [],
    });
  });

  it("a server that is not authoritative for the domain: refused, naming the server and the question", async () => {
    const err = await readRRset(served(), "www.elsewhere.example", "A", fast).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DnsReadError);
    expect((err as DnsReadError).server).toBe(sandbox.dnsAddress);
    expect((err as Error).message).toBe(
      `DNS server ${sandbox.dnsAddress} asked for www.elsewhere.example A: refused: it is not authoritative for this domain (ask the domain's own name servers)`,
    );
  });

  it("nothing listening at the address: connection refused, naming what to check", async () => {
    const closed = parseDnsServer("127.0.0.1:9").server!;
    const err = await readRRset(closed, "www.shop.example", "A", fast).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DnsReadError);
    expect((err as Error).message).toBe(
      "DNS server 127.0.0.1:9 asked for www.shop.example A: connection refused: nothing serves DNS at that address",
    );
  });

  it("a server that takes the question and never answers: the wait, its tries and the first wait", async () => {
    const socket = createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    try {
      const { port } = socket.address();
      const silent = parseDnsServer(`127.0.0.1:${port}`).server!;
      const err = await readRRset(silent, "www.shop.example", "TXT", { timeoutMs: 100, tries: 2 }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DnsReadError);
      expect((err as DnsReadError).server).toBe(`127.0.0.1:${port}`);
      // c-ares doubles its wait per try: 100 + 200 ms, and a quarter second of slack.
      expect((err as Error).message).toBe(
        `DNS server 127.0.0.1:${port} asked for www.shop.example TXT: no answer within 550 ms (2 tries, the first waiting 100 ms)`,
      );
    } finally {
      socket.close();
    }
  });

  it("waits 2 s per try, two tries, unless told otherwise", () => {
    expect(DNS_READ).toEqual({ timeoutMs: 2000, tries: 2 });
  });
});
