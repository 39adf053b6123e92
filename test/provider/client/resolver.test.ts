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

  it("reads a CAA record of any tag as its tag and value, a tag named `type` too", async () => {
    sandbox.seedTemplate("web", [
      { name: "@", type: "CAA", content: '0 type "ca.example"' },
      { name: "@", type: "CAA", content: '0 iodef "mailto:security@shop.example"' },
    ]);
    const set = await readRRset(served(), "shop.example", "CAA", fast);
    expect(set.values).toEqual([
      { type: "CAA", flags: 0, tag: "type", value: "ca.example" },
      { type: "CAA", flags: 0, tag: "iodef", value: "mailto:security@shop.example" },
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

  it("a name no DNS question can carry: failed, with the resolver's code", async () => {
    const label = "x".repeat(64);
    const err = await readRRset(served(), `${label}.shop.example`, "A", fast).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DnsReadError);
    expect((err as Error).name).toBe("DnsReadError");
    expect((err as Error).message).toBe(
      `DNS server ${sandbox.dnsAddress} asked for ${label}.shop.example A: failed (EBADNAME)`,
    );
  });

  it("a server that takes the question and never answers: the wait it names, its tries and the first wait; nothing asked after", async () => {
    // 20 ms doubled per try, and a quarter second of slack: 390 ms. c-ares waits at least about a
    // quarter second per try and doubles it: its own three tries would last over a second and a half.
    const socket = createSocket("udp4");
    const asked: number[] = [];
    socket.on("message", () => asked.push(performance.now()));
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    try {
      const silent = parseDnsServer(`127.0.0.1:${socket.address().port}`).server!;
      const started = performance.now();
      const err = await readRRset(silent, "www.shop.example", "A", { timeoutMs: 20, tries: 3 }).catch(
        (e: unknown) => e,
      );
      const failedAt = performance.now();
      expect(err).toBeInstanceOf(DnsReadError);
      expect((err as DnsReadError).server).toBe(silent.address);
      expect((err as Error).message).toBe(
        `DNS server ${silent.address} asked for www.shop.example A: no answer within 390 ms (3 tries, the first waiting 20 ms)`,
      );
      expect(failedAt - started).toBeLessThan(1000);
      // A moment for the datagrams sent before the end to be read here.
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The tries are the resolver's own, as set: a second one went out before the bound.
      const sent = asked.length;
      expect(sent).toBeGreaterThanOrEqual(2);
      // Its third try would go out past the bound; the read is over, so nothing more is sent.
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(asked.length).toBe(sent);
    } finally {
      socket.close();
    }
  });

  it("leaves no timer behind, whatever the answer: a command exits as soon as its reads are done", async () => {
    sandbox.seedTemplate("web", RECORDS);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    await readRRset(served(), "www.shop.example", "A");
    await readRRset(served(), "nothing.shop.example", "A");
    await readRRset(served(), "www.elsewhere.example", "A").catch(() => undefined);
    expect(timers()).toBe(before);
  });

  it("waits 2 s per try, two tries, unless told otherwise", () => {
    expect(DNS_READ).toEqual({ timeoutMs: 2000, tries: 2 });
  });
});
