/**
 * The sandbox's authoritative DNS server, read on the wire: every message sent and read with
 * dns-packet over real UDP and TCP sockets, and the same answers read by Node's own resolver.
 */
import { createSocket } from "node:dgram";
import { Resolver } from "node:dns/promises";
import { connect } from "node:net";
import * as packet from "dns-packet";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const KEY = "dns-test-key";

const RECORDS = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "AAAA", content: "2001:db8::10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "mail", type: "A", content: "192.0.2.25" },
  { name: "_sip._tcp", type: "SRV", content: "sip.{domainname}", priority: 5, weight: 10, port: 5060 },
  { name: "@", type: "TXT", content: "v=spf1 include:{domainname} -all" },
  { name: "sub", type: "NS", content: "ns1.example.net" },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "_443._tcp.www", type: "TLSA", content: "3 1 1 ab12CD34" },
  { name: "go", type: "URLFWD", content: "https://www.example.net/" },
  { name: "*.wild", type: "A", content: "192.0.2.77" },
  { name: "big", type: "TXT", content: "x".repeat(600) },
  { name: "mapped", type: "AAAA", content: "::ffff:192.0.2.1" },
];

/** Sends one query over UDP and decodes the answer. */
async function udpQuery(
  address: string,
  name: string,
  type: packet.RecordType,
  edns?: number,
  waitMs = 2000,
): Promise<packet.DecodedPacket> {
  const [host, port] = address.split(":") as [string, string];
  const socket = createSocket("udp4");
  const query = packet.encode({
    type: "query",
    id: 4242,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name }],
    additionals:
      edns === undefined ? [] : [{ type: "OPT", name: ".", udpPayloadSize: edns } as packet.Answer],
  });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no UDP answer within ${waitMs} ms`)), waitMs);
      socket.once("message", (message) => {
        clearTimeout(timer);
        resolve(packet.decode(message));
      });
      socket.send(query, Number(port), host);
    });
  } finally {
    socket.close();
  }
}

/** Sends one query over TCP (length-prefixed, RFC 1035 4.2.2) and decodes the answer. */
async function tcpQuery(
  address: string,
  name: string,
  type: packet.RecordType,
): Promise<packet.DecodedPacket> {
  const [host, port] = address.split(":") as [string, string];
  const socket = connect(Number(port), host);
  const query = packet.streamEncode({ type: "query", id: 7, questions: [{ type, name }] });
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
        socket.destroy();
        resolve(packet.decode(data.subarray(2, 2 + data.readUInt16BE(0))));
      }
    });
    socket.write(query);
  });
}

/** The data of each answer. */
function data(p: packet.DecodedPacket): unknown[] {
  return (p.answers ?? []).map((a) => (a as { data: unknown }).data);
}

function rcodeOf(p: packet.DecodedPacket): string {
  return (p as unknown as { rcode: string }).rcode;
}

describe("the DNS server", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      seed: { templates: { web: RECORDS } },
      dnsDomains: { "shop.example": "web", "Other.Example.": "web" },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("answers every type the API takes, {domainname} replaced, authoritative", async () => {
    const dns = sandbox.dnsAddress!;
    const a = await udpQuery(dns, "shop.example", "A");
    expect(a.flag_aa).toBe(true);
    expect(a.flag_qr).toBe(true);
    expect(a.id).toBe(4242);
    expect(a.flag_rd).toBe(true);
    expect(a.answers).toEqual([
      expect.objectContaining({ name: "shop.example", type: "A", data: "192.0.2.10" }),
    ]);
    // An IPv4 tail is the same 16 bytes (dns-packet alone would encode it as zeros).
    expect(data(await udpQuery(dns, "mapped.shop.example", "AAAA"))).toEqual(["::ffff:c000:201"]);
    const aaaa = await udpQuery(dns, "shop.example", "AAAA");
    expect(data(aaaa)).toEqual(["2001:db8::10"]);
    const cname = await udpQuery(dns, "www.shop.example", "CNAME");
    expect(data(cname)).toEqual(["shop.example"]);
    const mx = await udpQuery(dns, "shop.example", "MX");
    expect(data(mx)).toEqual([{ preference: 10, exchange: "mail.shop.example" }]);
    const srv = await udpQuery(dns, "_sip._tcp.shop.example", "SRV");
    expect(data(srv)).toEqual([{ priority: 5, weight: 10, port: 5060, target: "sip.shop.example" }]);
    const txt = await udpQuery(dns, "shop.example", "TXT");
    expect((data(txt)[0] as Buffer[]).map(String)).toEqual(["v=spf1 include:shop.example -all"]);
    const ns = await udpQuery(dns, "sub.shop.example", "NS");
    expect(data(ns)).toEqual(["ns1.example.net"]);
    const caa = await udpQuery(dns, "shop.example", "CAA");
    expect(data(caa)).toEqual([
      expect.objectContaining({ flags: 0, tag: "issue", value: "letsencrypt.org" }),
    ]);
    const tlsa = await udpQuery(dns, "_443._tcp.www.shop.example", "TLSA");
    const cert = data(tlsa)[0] as packet.TlsaData;
    expect([cert.usage, cert.selector, cert.matchingType, cert.certificate.toString("hex")]).toEqual([
      3,
      1,
      1,
      "ab12cd34",
    ]);
  });

  it("serves a URL forward as the A and AAAA records the service made for it", async () => {
    const dns = sandbox.dnsAddress!;
    // Seeding stores exactly what it is given; a PUT through the API makes the forward's records.
    const put = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        records: [{ name: "go", type: "URLFWD", content: "https://www.example.net/" }],
      }),
    });
    expect(put.status).toBe(200);
    expect(data(await udpQuery(dns, "go.shop.example", "A"))).toEqual(["192.0.2.80"]);
    expect(data(await udpQuery(dns, "go.shop.example", "AAAA"))).toEqual(["2001:db8::80"]);
  });

  it("tells NODATA from NXDOMAIN, each with the zone's SOA in the authority section", async () => {
    const dns = sandbox.dnsAddress!;
    const nodata = await udpQuery(dns, "mail.shop.example", "TXT");
    expect(rcodeOf(nodata)).toBe("NOERROR");
    expect(nodata.flag_aa).toBe(true);
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities).toEqual([
      expect.objectContaining({
        name: "shop.example",
        type: "SOA",
        data: expect.objectContaining({ minimum: 60 }),
      }),
    ]);
    const nxdomain = await udpQuery(dns, "nope.shop.example", "A");
    expect(rcodeOf(nxdomain)).toBe("NXDOMAIN");
    expect(nxdomain.flag_aa).toBe(true);
    expect(nxdomain.authorities?.map((x) => x.type)).toEqual(["SOA"]);
    // An empty non-terminal exists: NODATA, not NXDOMAIN (RFC 8020).
    const ent = await udpQuery(dns, "_tcp.shop.example", "A");
    expect(rcodeOf(ent)).toBe("NOERROR");
    expect(ent.answers).toEqual([]);
  });

  it("answers a CNAME for any other type, with the chain inside the zone", async () => {
    const answer = await udpQuery(sandbox.dnsAddress!, "WWW.Shop.Example", "A");
    expect((answer.answers ?? []).map((x) => [x.type, (x as { data: unknown }).data])).toEqual([
      ["CNAME", "shop.example"],
      ["A", "192.0.2.10"],
    ]);
  });

  it("synthesizes a wildcard's records under a name that does not exist, and no other", async () => {
    const dns = sandbox.dnsAddress!;
    const hit = await udpQuery(dns, "anything.wild.shop.example", "A");
    expect(hit.answers).toEqual([
      expect.objectContaining({ name: "anything.wild.shop.example", data: "192.0.2.77" }),
    ]);
    const literal = await udpQuery(dns, "*.wild.shop.example", "A");
    expect(data(literal)).toEqual(["192.0.2.77"]);
    const elsewhere = await udpQuery(dns, "anything.shop.example", "A");
    expect(rcodeOf(elsewhere)).toBe("NXDOMAIN");
  });

  it("refuses a zone it does not serve, without the AA flag", async () => {
    const refused = await udpQuery(sandbox.dnsAddress!, "example.com", "A");
    expect(rcodeOf(refused)).toBe("REFUSED");
    expect(refused.flag_aa).toBe(false);
  });

  it("sets TC on a UDP answer too large, and answers it whole over TCP", async () => {
    const dns = sandbox.dnsAddress!;
    const udp = await udpQuery(dns, "big.shop.example", "TXT");
    expect(udp.flag_tc).toBe(true);
    expect(udp.answers).toEqual([]);
    // With EDNS offering room enough, the same answer fits in UDP.
    const edns = await udpQuery(dns, "big.shop.example", "TXT", 4096);
    expect(edns.flag_tc).toBe(false);
    expect((data(edns)[0] as Buffer[]).map((b) => b.length)).toEqual([255, 255, 90]);
    const tcp = await tcpQuery(dns, "big.shop.example", "TXT");
    expect(tcp.flag_tc).toBe(false);
    expect(Buffer.concat(data(tcp)[0] as Buffer[]).toString()).toBe("x".repeat(600));
    expect(sandbox.dnsQueries.map((q) => [q.transport, q.truncated])).toEqual([
      ["udp", true],
      ["udp", false],
      ["tcp", false],
    ]);
  });

  it("is read by Node's resolver, which retries a truncated answer over TCP", async () => {
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([sandbox.dnsAddress!]);
    expect(await resolver.resolveTxt("big.other.example")).toEqual([
      ["x".repeat(255), "x".repeat(255), "x".repeat(90)],
    ]);
    expect(sandbox.dnsQueries.some((q) => q.transport === "tcp")).toBe(true);
    expect(await resolver.resolveCaa("shop.example")).toEqual([
      expect.objectContaining({ critical: 0, issue: "letsencrypt.org" }),
    ]);
    await expect(resolver.resolve4("nope.shop.example")).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(resolver.resolveTxt("mail.shop.example")).rejects.toMatchObject({ code: "ENODATA" });
  });

  it("answers from what the API writes, at once", async () => {
    const dns = sandbox.dnsAddress!;
    const [id] = sandbox.seedTemplate("web", [{ name: "@", type: "A", content: "192.0.2.1" }]);
    expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.1"]);
    const patch = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ update: [{ record_id: id, name: "@", content: "192.0.2.2" }] }),
    });
    expect(patch.status).toBe(204);
    expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.2"]);
  });

  it("survives garbage and content no DNS record can carry, and goes on answering", async () => {
    const dns = sandbox.dnsAddress!;
    sandbox.seedTemplate("web", [
      { name: "long", type: "CNAME", content: `${"x".repeat(64)}.example.net` },
      { name: "@", type: "A", content: "192.0.2.1" },
    ]);
    const [host, port] = dns.split(":") as [string, string];
    const socket = createSocket("udp4");
    await new Promise<void>((resolve) =>
      socket.send(Buffer.from("not a DNS message"), Number(port), host, () => resolve()),
    );
    socket.close();
    const long = await udpQuery(dns, "long.shop.example", "CNAME");
    // Not served at all (a label of 64 bytes cannot be on the wire), so the name does not exist.
    expect(rcodeOf(long)).toBe("NXDOMAIN");
    expect(long.answers).toEqual([]);
    expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.1"]);
  });

  it("links and unlinks domains through the admin routes", async () => {
    const dns = sandbox.dnsAddress!;
    expect(rcodeOf(await udpQuery(dns, "new.example", "A"))).toBe("REFUSED");
    const put = await fetch(`${sandbox.url}/__sandbox/dns/domains/New.Example`, {
      method: "PUT",
      body: JSON.stringify({ template: "web" }),
    });
    expect(await put.json()).toEqual({ domain: "new.example", template: "web" });
    expect(data(await udpQuery(dns, "new.example", "A"))).toEqual(["192.0.2.10"]);
    const list = await (await fetch(`${sandbox.url}/__sandbox/dns`)).json();
    expect(list).toEqual({
      domains: { "shop.example": "web", "other.example": "web", "new.example": "web" },
    });
    const bad = await fetch(`${sandbox.url}/__sandbox/dns/domains/bad..name`, {
      method: "PUT",
      body: JSON.stringify({ template: "web" }),
    });
    expect(bad.status).toBe(400);
    expect(
      (await fetch(`${sandbox.url}/__sandbox/dns/domains/new.example`, { method: "DELETE" })).status,
    ).toBe(204);
    expect(rcodeOf(await udpQuery(dns, "new.example", "A"))).toBe("REFUSED");
  });
});

describe("the DNS personalities", () => {
  it("dnsLate publishes a change only after the delay", async () => {
    const sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsLate: 400,
      seed: { templates: { web: [{ name: "@", type: "A", content: "192.0.2.1" }] } },
      dnsDomains: { "shop.example": "web" },
    });
    try {
      const dns = sandbox.dnsAddress!;
      expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.1"]);
      const started = performance.now();
      sandbox.seedTemplate("web", [{ name: "@", type: "A", content: "192.0.2.2" }]);
      expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.1"]);
      await new Promise((resolve) => setTimeout(resolve, 450 - (performance.now() - started)));
      expect(data(await udpQuery(dns, "shop.example", "A"))).toEqual(["192.0.2.2"]);
    } finally {
      await sandbox.close();
    }
  });

  it("dnsSilent answers nothing over UDP or TCP, and logs what it was asked", async () => {
    const sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsSilent: true,
      seed: { templates: { web: [] } },
      dnsDomains: { "shop.example": "web" },
    });
    try {
      await expect(udpQuery(sandbox.dnsAddress!, "shop.example", "A", undefined, 300)).rejects.toThrow(
        /no UDP answer/,
      );
      const tcp = tcpQuery(sandbox.dnsAddress!, "shop.example", "A");
      const silence = new Promise((resolve) => setTimeout(() => resolve("silence"), 300));
      expect(await Promise.race([tcp, silence])).toBe("silence");
      expect(sandbox.dnsQueries.map((q) => [q.transport, q.rcode])).toEqual([
        ["udp", "NONE"],
        ["tcp", "NONE"],
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it("a sandbox without dnsPort runs no DNS server", async () => {
    const sandbox = await startSandbox({ apiKey: KEY });
    try {
      expect(sandbox.dnsAddress).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });
});
