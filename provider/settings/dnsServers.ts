/**
 * The `dnsServers` setting and `domainapi-verify --server`: the authoritative servers asked for a
 * template's published records, as IP addresses with an optional port (`192.0.2.53`,
 * `127.0.0.1:5353`, `[2001:db8::53]:53`). Names are refused: a name would be looked up through a
 * recursive resolver, and the point is to ask the servers themselves.
 */
import { isIPv4, isIPv6 } from "node:net";

/** One DNS server to ask. */
export interface DnsServer {
  host: string;
  port: number;
  /** `host:port` as Node's `dns.Resolver#setServers` takes it (`[v6]:port`). */
  address: string;
}

/** The port of DNS. */
export const DNS_PORT = 53;

/**
 * Reads one server, or says what is wrong with it.
 *
 * @example
 * parseDnsServer("127.0.0.1:5353"); // { server: { host: "127.0.0.1", port: 5353, address: "127.0.0.1:5353" } }
 */
export function parseDnsServer(text: string): { server?: DnsServer; problem?: string } {
  const value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  const [host, portText] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : isIPv6(value)
      ? [value, undefined]
      : (value.split(/:(?=\d*$)/) as [string, string | undefined]);
  const port = portText === undefined ? DNS_PORT : Number(portText);
  if (!isIPv4(host) && !isIPv6(host)) {
    return {
      problem: `${JSON.stringify(value)} is not an IP address (with an optional port): give the authoritative server's address, e.g. 192.0.2.53 or 127.0.0.1:5353 or [2001:db8::53]:53`,
    };
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { problem: `${JSON.stringify(value)}: the port must be from 1 to 65535` };
  }
  const address = isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
  return { server: { host, port, address } };
}

/**
 * Reads a list of servers separated by commas or spaces; every problem is named.
 *
 * @example
 * parseDnsServers("127.0.0.1:5353, [::1]:5353").servers?.length; // 2
 */
export function parseDnsServers(text: string): { servers: DnsServer[]; problems: string[] } {
  const servers: DnsServer[] = [];
  const problems: string[] = [];
  // Runs of separators give empty parts, dropped here.
  for (const part of text.split(/[\s,]/).filter((p) => p !== "")) {
    const { server, problem } = parseDnsServer(part);
    if (server) servers.push(server);
    if (problem) problems.push(problem);
  }
  return { servers, problems };
}
