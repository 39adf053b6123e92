/**
 * The DNS reads: Node's `dns.Resolver` (c-ares) pointed at one authoritative server at a time,
 * never at a recursive resolver, whose cache would hide a change. c-ares asks again over TCP when
 * an answer comes truncated. Each read makes a fresh resolver, so no answer is served from an
 * earlier one's cache. Beside `client/transport.ts`, the only other module that talks to the
 * network.
 */
import { Resolver, resolve4, resolve6, resolveNs } from "node:dns/promises";
import { type DnsServer, parseDnsServer } from "../settings/dnsServers";

/** The record types a template publishes (a URL forward publishes A and AAAA). */
export type PublishedType = "A" | "AAAA" | "CNAME" | "NS" | "MX" | "SRV" | "TXT" | "CAA" | "TLSA";

/** One published value, as read from an answer. */
export type PublishedValue =
  | { type: "A" | "AAAA" | "CNAME" | "NS"; value: string }
  | { type: "MX"; priority: number; exchange: string }
  | { type: "SRV"; priority: number; weight: number; port: number; target: string }
  | { type: "TXT"; strings: string[] }
  | { type: "CAA"; flags: number; tag: string; value: string }
  | { type: "TLSA"; usage: number; selector: number; matchingType: number; data: string };

/** What a server answered for one name and type. */
export interface RRset {
  /** The name asked, absolute, lower case, without the trailing dot. */
  name: string;
  type: PublishedType;
  /** `nodata`: the name exists without this type; `nxdomain`: the name does not exist. */
  outcome: "answer" | "nodata" | "nxdomain";
  values: PublishedValue[];
}

/** How patient a read is: each query's timeout and tries (c-ares's own options). */
export interface DnsReadOptions {
  /** Per try, in milliseconds. */
  timeoutMs: number;
  tries: number;
}

/** One query waits this long per try: an authoritative server on a healthy path answers in well under a second. */
export const DNS_TIMEOUT_MS = 2000;
/** Tries per query (UDP is lossy; a second try covers one lost datagram). */
export const DNS_TRIES = 2;
/** The defaults. */
export const DNS_READ: DnsReadOptions = { timeoutMs: DNS_TIMEOUT_MS, tries: DNS_TRIES };

/** A server that did not answer, refused, or failed: the message names it, the question and the wait. */
export class DnsReadError extends Error {
  override name = "DnsReadError";
  constructor(
    message: string,
    readonly server: string,
  ) {
    super(message);
  }
}

function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
}

async function ask(resolver: Resolver, name: string, type: PublishedType): Promise<PublishedValue[]> {
  switch (type) {
    case "A":
    case "AAAA": {
      const addresses = type === "A" ? await resolver.resolve4(name) : await resolver.resolve6(name);
      return addresses.map((value) => ({ type, value }));
    }
    case "CNAME":
      return (await resolver.resolveCname(name)).map((value) => ({ type, value }));
    case "NS":
      return (await resolver.resolveNs(name)).map((value) => ({ type, value }));
    case "MX":
      return (await resolver.resolveMx(name)).map(({ priority, exchange }) => ({ type, priority, exchange }));
    case "SRV":
      return (await resolver.resolveSrv(name)).map(({ priority, weight, port, name: target }) => ({
        type,
        priority,
        weight,
        port,
        target,
      }));
    case "TXT":
      return (await resolver.resolveTxt(name)).map((strings) => ({ type, strings }));
    case "CAA":
      return (await resolver.resolveCaa(name)).map((record) => {
        // Node gives the tag as the key of its value, beside `critical` (the flags) and, in newer
        // releases, `type: "CAA"`; a record whose tag is `type` then has that key alone.
        const { critical, ...rest } = record as { critical: number } & Record<string, string>;
        const entries = Object.entries(rest);
        const [tag, value] = entries.find(([key]) => key !== "type") ?? entries[0] ?? ["", ""];
        return { type, flags: critical, tag, value: String(value) };
      });
    case "TLSA":
      return (await resolver.resolveTlsa(name)).map(({ certUsage, selector, match, data }) => ({
        type,
        usage: certUsage,
        selector,
        matchingType: match,
        data: Buffer.from(data).toString("hex"),
      }));
  }
}

/**
 * Asks one server for one name and type.
 *
 * @throws DnsReadError naming the server, the question and the wait when it does not answer in
 *   time, refuses (it does not serve the zone) or fails
 * @example
 * await readRRset(server, "www.shop.example", "A"); // { name: "www.shop.example", type: "A", outcome: "answer", values: [...] }
 */
export async function readRRset(
  server: DnsServer,
  name: string,
  type: PublishedType,
  options: DnsReadOptions = DNS_READ,
): Promise<RRset> {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  resolver.setServers([server.address]);
  const fqdn = name.toLowerCase().replace(/\.$/, "");
  // c-ares doubles its wait between tries; this bound is ours, so the message can say it.
  const budget = options.timeoutMs * (2 ** options.tries - 1) + 250;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Stryker disable next-line StringLiteral: only the code is read (the reason is made from ETIMEOUT), never this text
      reject(Object.assign(new Error("deadline"), { code: "ETIMEOUT" }));
      // After the rejection, so the race has settled on it: the query's own ECANCELLED is never read.
      resolver.cancel();
    }, budget);
  });
  try {
    const values = await Promise.race([ask(resolver, fqdn, type), deadline]);
    return { name: fqdn, type, outcome: "answer", values };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENODATA") return { name: fqdn, type, outcome: "nodata", values: [] };
    if (code === "ENOTFOUND") return { name: fqdn, type, outcome: "nxdomain", values: [] };
    const question = `${fqdn} ${type}`;
    const reason =
      code === "ETIMEOUT"
        ? `no answer within ${budget} ms (${options.tries} tries, the first waiting ${options.timeoutMs} ms)`
        : code === "EREFUSED"
          ? "refused: it is not authoritative for this domain (ask the domain's own name servers)"
          : code === "ECONNREFUSED"
            ? "connection refused: nothing serves DNS at that address"
            : `failed (${code || String(error)})`;
    throw new DnsReadError(`DNS server ${server.address} asked for ${question}: ${reason}`, server.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The authoritative servers of a domain: its NS records (the one lookup made through the system's
 * resolver, walking up to the zone that holds the name), then their addresses; every answer
 * afterwards comes from them directly.
 *
 * @throws DnsReadError naming the domain and the fix when no server can be found
 */
export async function nameServersOf(domain: string): Promise<DnsServer[]> {
  const labels = domain.toLowerCase().replace(/\.$/, "").split(".");
  let hosts: string[] = [];
  let zone = "";
  for (let i = 0; i < labels.length - 1 && hosts.length === 0; i += 1) {
    zone = labels.slice(i).join(".");
    try {
      hosts = await resolveNs(zone);
    } catch (error) {
      if (!["ENODATA", "ENOTFOUND"].includes(errorCode(error))) {
        throw new DnsReadError(
          `cannot look up the name servers of ${domain} (${errorCode(error) || String(error)}): name the servers to ask (dnsServers, or --server)`,
          "the system's resolver",
        );
      }
    }
  }
  const addresses = await Promise.all(
    hosts.map(async (host) => [
      ...(await resolve4(host).catch(() => [] as string[])),
      ...(await resolve6(host).catch(() => [] as string[])),
    ]),
  );
  // A bare address, IPv4 or IPv6, is read as port 53.
  const servers = addresses.flat().flatMap((ip) => parseDnsServer(ip).server ?? []);
  if (servers.length === 0) {
    throw new DnsReadError(
      `found no name server of ${domain}${zone ? ` (NS of ${zone}: ${hosts.join(", ") || "none"})` : ""}: name the servers to ask (dnsServers, or --server)`,
      hosts.join(", "),
    );
  }
  return servers;
}
