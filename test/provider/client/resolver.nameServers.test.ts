/**
 * Finding a witness's own name servers (docs/behaviour.md, "Refresh by DNS"): its NS records,
 * asked through the system's resolver walking up from the name to the zone that holds it, then
 * their addresses. The system's resolver is pointed at the sandbox's DNS server for this file, so
 * each zone, delegation and failure below is one the sandbox really serves.
 */
import { getServers, setServers } from "node:dns/promises";
import { syncBuiltinESMExports } from "node:module";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DnsReadError, nameServersOf } from "../../../provider/client/resolver";

let sandbox: Sandbox;
let systemServers: string[] | undefined;

/**
 * Points the system's resolver at `servers`. Node's setServers makes a new default resolver and
 * rebinds the CommonJS exports to it; the module's ES imports follow only once synced.
 */
function useSystemServers(servers: string[]): void {
  setServers(servers);
  syncBuiltinESMExports();
}
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: "k", dnsPort: 0, dnsDomains: { "shop.example.net": "web" } });
  systemServers = getServers();
  useSystemServers([sandbox.dnsAddress!]);
});
afterAll(async () => {
  if (systemServers !== undefined) useSystemServers(systemServers);
  await sandbox?.close();
});
beforeEach(() => sandbox.reset());

const FIX = "name the servers to ask (dnsServers, or --server)";

async function failure(domain: string): Promise<DnsReadError> {
  const err = await nameServersOf(domain).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DnsReadError);
  return err as DnsReadError;
}

describe("nameServersOf", () => {
  it("walks up from the name to its zone's NS records and answers their IPv4 and IPv6 addresses, port 53", async () => {
    sandbox.seedTemplate("web", [
      { name: "@", type: "NS", content: "ns1.{domainname}." },
      { name: "@", type: "NS", content: "ns2.{domainname}." },
      { name: "ns1", type: "A", content: "127.0.0.1" },
      { name: "ns2", type: "AAAA", content: "::1" },
      { name: "www", type: "A", content: "192.0.2.10" },
    ]);
    const expected = [
      { host: "127.0.0.1", port: 53, address: "127.0.0.1:53" },
      { host: "::1", port: 53, address: "[::1]:53" },
    ];
    // A name that exists without NS records (NODATA), written in any case and absolute.
    expect(await nameServersOf("WWW.Shop.Example.Net.")).toEqual(expected);
    // A name that does not exist (NXDOMAIN), two labels below the zone.
    expect(await nameServersOf("mail.gone.shop.example.net")).toEqual(expected);
    // The zone itself: asked once, and not above it, where the sandbox serves nothing.
    expect(await nameServersOf("shop.example.net")).toEqual(expected);
  });

  it("a resolver that refuses the question: the domain, the resolver's code and the fix", async () => {
    const err = await failure("www.elsewhere.example");
    expect(err.name).toBe("DnsReadError");
    expect(err.server).toBe("the system's resolver");
    expect(err.message).toBe(`cannot look up the name servers of www.elsewhere.example (EREFUSED): ${FIX}`);
  });

  it("name servers without an address: the zone and the servers it names, in their order", async () => {
    sandbox.seedTemplate("web", [
      { name: "@", type: "NS", content: "ns1.elsewhere.invalid." },
      { name: "@", type: "NS", content: "ns2.elsewhere.invalid." },
    ]);
    const err = await failure("Shop.Example.Net");
    expect(err.server).toBe("ns1.elsewhere.invalid, ns2.elsewhere.invalid");
    expect(err.message).toBe(
      `found no name server of Shop.Example.Net (NS of shop.example.net: ns1.elsewhere.invalid, ns2.elsewhere.invalid): ${FIX}`,
    );
  });

  it("no NS record up to the top-level domain, which is not asked: the last zone asked, and none", async () => {
    // The sandbox serves only `net`: every name below it is NXDOMAIN, and `net` has NS records.
    sandbox.unlinkDomain("shop.example.net");
    sandbox.linkDomain("net", "web");
    sandbox.seedTemplate("web", []);
    const err = await failure("gone.shop.example.net");
    expect(err.server).toBe("");
    expect(err.message).toBe(
      `found no name server of gone.shop.example.net (NS of example.net: none): ${FIX}`,
    );
  });

  it("a name of one label has no parent zone to ask: nothing is asked", async () => {
    const before = sandbox.dnsQueries.length;
    const err = await failure("localhost");
    expect(err.message).toBe(`found no name server of localhost: ${FIX}`);
    expect(sandbox.dnsQueries.length).toBe(before);
  });
});
