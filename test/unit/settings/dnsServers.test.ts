/**
 * The servers `dnsServers` and `domainapi-verify --server` name: IP addresses only, each with an
 * optional port (IPv6 in brackets when it has one, RFC 3986 3.2.2), written as Node's
 * `dns.Resolver#setServers` takes them; every refusal names the value.
 */
import { describe, expect, it } from "vitest";
import { DNS_PORT, parseDnsServer, parseDnsServers } from "../../../provider/settings/dnsServers";

const NOT_AN_ADDRESS = (value: string) =>
  `${JSON.stringify(value)} is not an IP address (with an optional port): give the authoritative server's address, e.g. 192.0.2.53 or 127.0.0.1:5353 or [2001:db8::53]:53`;
const BAD_PORT = (value: string) => `${JSON.stringify(value)}: the port must be from 1 to 65535`;

describe("parseDnsServer", () => {
  it.each([
    ["192.0.2.53", "192.0.2.53", 53, "192.0.2.53:53"],
    ["  127.0.0.1:5353 ", "127.0.0.1", 5353, "127.0.0.1:5353"],
    ["127.0.0.1:1", "127.0.0.1", 1, "127.0.0.1:1"],
    ["127.0.0.1:65535", "127.0.0.1", 65535, "127.0.0.1:65535"],
    ["[2001:db8::53]:5353", "2001:db8::53", 5353, "[2001:db8::53]:5353"],
    ["[2001:db8::53]", "2001:db8::53", 53, "[2001:db8::53]:53"],
    // A bare IPv6 address ending in digits is all address: its last group is no port.
    ["2001:db8::53", "2001:db8::53", 53, "[2001:db8::53]:53"],
    ["::1", "::1", 53, "[::1]:53"],
    ["[192.0.2.1]:54", "192.0.2.1", 54, "192.0.2.1:54"],
  ])("%j", (text, host, port, address) => {
    expect(parseDnsServer(text)).toEqual({ server: { host, port, address } });
  });

  it("the port of DNS when none is given", () => {
    expect(DNS_PORT).toBe(53);
  });

  it.each([
    "ns1.example.net",
    "ns1.example.net:53",
    "[ns1.example.net]:53",
    "[::1]:dns",
    "256.0.0.1",
    "",
    "[]:53",
  ])("refuses a name or a malformed address: %j", (text) => {
    expect(parseDnsServer(text)).toEqual({ problem: NOT_AN_ADDRESS(text.trim()) });
  });

  it.each(["127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:", "[::1]:0", "[::1]:99999"])(
    "refuses the port of %j",
    (text) => {
      expect(parseDnsServer(text)).toEqual({ problem: BAD_PORT(text) });
    },
  );
});

describe("parseDnsServers", () => {
  it("a list separated by commas or spaces, each server read, each problem named in order", () => {
    const { servers, problems } = parseDnsServers(
      " 127.0.0.1:5353, [::1]:5353\t192.0.2.1,,ns1.example.net  10.0.0.1:0 ",
    );
    expect(servers.map((s) => s.address)).toEqual(["127.0.0.1:5353", "[::1]:5353", "192.0.2.1:53"]);
    expect(problems).toEqual([NOT_AN_ADDRESS("ns1.example.net"), BAD_PORT("10.0.0.1:0")]);
  });

  it("nothing given: no servers and no problem", () => {
    expect(parseDnsServers("")).toEqual({ servers: [], problems: [] });
    expect(parseDnsServers(" , ")).toEqual({ servers: [], problems: [] });
  });
});
