/**
 * What an authoritative server answers for one domain that uses a template: the template's records
 * with `{domainname}` replaced by the domain, URL forwards as the A and AAAA records the service
 * makes for them, NXDOMAIN for a name that does not exist and NODATA for one that does (both with
 * the zone's SOA in the authority section, RFC 2308), CNAMEs and wildcards (RFC 1034 4.3.2, RFC
 * 4592). Pure: records in, answer out; the wire format is `dns-packet`'s, never written by hand.
 *
 * Simplifications: one TTL for every record (the API has none), and an NS record below the apex is
 * answered like any record, not as a referral.
 */
import { isIPv4, isIPv6 } from "node:net";
import type { Answer, RecordType as PacketType } from "dns-packet";
import type { SandboxRecord } from "./templates";
import { FORWARD_SERVER } from "./templates";

/** The TTL of every answer (the API's records carry none). */
export const RECORD_TTL = 300;
/** The SOA's minimum field and the TTL of the SOA in a negative answer (RFC 2308 section 5). */
export const NEGATIVE_TTL = 60;
/** The sandbox's own name server, named in every zone's SOA and apex NS. */
export const SANDBOX_NS = "ns1.sandbox.invalid";

const URL_FORWARDS = new Set(["URLFWD", "URLFWD301", "URLCLO"]);
/** How many CNAMEs an answer follows inside the zone before it stops (a loop is the template's). */
const MAX_CHAIN = 8;

/** The records of one domain, owner names absolute (lower case, no trailing dot). */
export interface ZoneRecord {
  owner: string;
  type: PacketType;
  /** The record's data as `dns-packet` encodes it for its type. */
  data: unknown;
}

/** An answer: its response code, and the records of each section. */
export interface ZoneAnswer {
  rcode: "NOERROR" | "NXDOMAIN" | "REFUSED";
  answers: Answer[];
  authorities: Answer[];
}

/** A host name as it is served: `{domainname}` replaced, no trailing dot, lower case; undefined for no name. */
function host(content: string, domain: string): string | undefined {
  const lower = content.replaceAll("{domainname}", domain).toLowerCase();
  const name = lower.endsWith(".") ? lower.slice(0, -1) : lower;
  if (name === "") return name;
  const labels = name.split(".");
  const fits = name.length <= 253 && labels.every((l) => l.length > 0 && l.length <= 63 && !/\s/.test(l));
  return fits ? name : undefined;
}

/** TXT content as character-strings of at most 255 bytes each (RFC 1035 3.3.14). */
function txtStrings(text: string): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 255) parts.push(bytes.subarray(at, at + 255));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}

const CAA = /^(\d{1,3})\s+([A-Za-z0-9]+)\s+"([^"]*)"$/;
const TLSA = /^(\d+)\s+(\d+)\s+(\d+)\s+([0-9A-Fa-f]*)$/;

/** The served form of a template record, or undefined for content no DNS record can carry. */
function served(record: SandboxRecord, domain: string): Omit<ZoneRecord, "owner"> | undefined {
  const content = record.content.replaceAll("{domainname}", domain);
  switch (record.type) {
    case "A":
      return isIPv4(content) ? { type: "A", data: content } : undefined;
    case "AAAA":
      // In the form dns-packet encodes right: it reads an embedded IPv4 tail (`::0.0.0.1`) as zeros.
      return isIPv6(content)
        ? { type: "AAAA", data: new URL(`http://[${content}]`).hostname.slice(1, -1) }
        : undefined;
    case "CNAME":
    case "NS": {
      const target = host(record.content, domain);
      return target === undefined ? undefined : { type: record.type, data: target };
    }
    case "MX": {
      const exchange = host(record.content, domain);
      return exchange === undefined
        ? undefined
        : { type: "MX", data: { preference: record.priority ?? 0, exchange } };
    }
    case "SRV": {
      const target = host(record.content, domain);
      if (target === undefined) return undefined;
      const { priority = 0, weight = 0, port = 0 } = record;
      return { type: "SRV", data: { priority, weight, port, target } };
    }
    case "TXT":
      return { type: "TXT", data: txtStrings(content) };
    case "CAA": {
      const m = CAA.exec(content);
      if (m === null || Number(m[1]) > 255) return undefined;
      // dns-packet types the tag as the three of RFC 8659; any tag is sent as it is written.
      return { type: "CAA", data: { flags: Number(m[1]), tag: m[2] as "issue", value: m[3]! } };
    }
    case "TLSA": {
      const m = TLSA.exec(content);
      if (m === null || m[4]!.length % 2 !== 0) return undefined;
      return {
        type: "TLSA",
        data: {
          usage: Number(m[1]),
          selector: Number(m[2]),
          matchingType: Number(m[3]),
          certificate: Buffer.from(m[4]!, "hex"),
        },
      };
    }
    default:
      return undefined;
  }
}

/** The absolute owner of a record name: `@` is the domain itself. */
export function ownerOf(name: string, domain: string): string {
  const lower = name.toLowerCase();
  return lower === "@" || lower === "" ? domain : `${lower}.${domain}`;
}

/**
 * The records a domain publishes for a template. URL forwards are no DNS records: the service's
 * A and AAAA for them are records of the template already when it makes them (`made`); when it
 * does not (a personality), they are made here, as the spec says the service publishes them.
 */
export function zoneRecords(
  domain: string,
  records: readonly SandboxRecord[],
  forwardsMadeHere: boolean,
): ZoneRecord[] {
  const zone: ZoneRecord[] = [];
  for (const record of records) {
    const owner = ownerOf(record.name, domain);
    if (URL_FORWARDS.has(record.type)) {
      if (forwardsMadeHere) {
        zone.push(
          { owner, type: "A", data: FORWARD_SERVER.A },
          { owner, type: "AAAA", data: FORWARD_SERVER.AAAA },
        );
      }
      continue;
    }
    const rr = served(record, domain);
    if (rr !== undefined) zone.push({ owner, ...rr } as ZoneRecord);
  }
  return zone;
}

function soa(domain: string, serial: number): Answer {
  return {
    name: domain,
    type: "SOA",
    ttl: NEGATIVE_TTL,
    data: {
      mname: SANDBOX_NS,
      rname: `hostmaster.${domain}`,
      serial,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: NEGATIVE_TTL,
    },
  };
}

function answerOf(rr: ZoneRecord, name: string): Answer {
  return { name, type: rr.type, ttl: RECORD_TTL, data: rr.data } as Answer;
}

/** True when `name` is `zone` or below it. */
export function isAtOrBelow(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

/**
 * Answers one question for a zone (domain, its records, the SOA serial) as an authoritative server
 * does: the records of the name and type; a CNAME (and the chain inside the zone) for any other
 * type; the SOA and apex NS; a wildcard's records under the name asked when the name does not
 * exist; NODATA (the name exists, or is an empty non-terminal) or NXDOMAIN, each with the SOA.
 */
export function answerQuestion(
  domain: string,
  zone: readonly ZoneRecord[],
  serial: number,
  qname: string,
  qtype: string,
): ZoneAnswer {
  const answers: Answer[] = [];
  let name = qname.toLowerCase().replace(/\.$/, "");
  for (let hop = 0; hop <= MAX_CHAIN; hop += 1) {
    const found = recordsAt(domain, zone, name);
    if (found === undefined) {
      // A name that does not exist: NXDOMAIN, unless it was reached through a CNAME (then the
      // answer is the chain so far, RFC 6604).
      return answers.length > 0
        ? { rcode: "NOERROR", answers, authorities: [soa(domain, serial)] }
        : { rcode: "NXDOMAIN", answers, authorities: [soa(domain, serial)] };
    }
    const owner = name;
    const ofType = (type: string) => found.filter((rr) => rr.type === type).map((rr) => answerOf(rr, owner));
    if (owner === domain) {
      if (qtype === "SOA") answers.push(soa(domain, serial));
      const apexNs = ofType("NS");
      if (qtype === "NS" && apexNs.length === 0) {
        answers.push({ name: domain, type: "NS", ttl: RECORD_TTL, data: SANDBOX_NS });
      }
    }
    if (qtype === "ANY") answers.push(...found.map((rr) => answerOf(rr, owner)));
    else answers.push(...ofType(qtype));
    const cname = found.find((rr) => rr.type === "CNAME");
    if (cname === undefined || qtype === "CNAME" || qtype === "ANY") break;
    answers.push(answerOf(cname, owner));
    const target = cname.data as string;
    if (!isAtOrBelow(target, domain)) break;
    name = target;
  }
  if (answers.length > 0) return { rcode: "NOERROR", answers, authorities: [] };
  return { rcode: "NOERROR", answers, authorities: [soa(domain, serial)] };
}

/**
 * The records at `name` (a wildcard's when the name does not exist and a wildcard covers it,
 * RFC 4592); an empty list for a name that exists without records (the apex, an empty
 * non-terminal); undefined when the name does not exist.
 */
function recordsAt(domain: string, zone: readonly ZoneRecord[], name: string): ZoneRecord[] | undefined {
  const here = zone.filter((rr) => rr.owner === name);
  if (here.length > 0) return here;
  if (name === domain || zone.some((rr) => rr.owner.endsWith(`.${name}`))) return [];
  // The closest encloser: the nearest ancestor that exists; its wildcard child, if any, answers.
  let ancestor = name;
  while (ancestor !== domain) {
    ancestor = ancestor.slice(ancestor.indexOf(".") + 1);
    const exists =
      ancestor === domain || zone.some((rr) => rr.owner === ancestor || rr.owner.endsWith(`.${ancestor}`));
    if (!exists) continue;
    const wildcard = zone.filter((rr) => rr.owner === `*.${ancestor}`);
    return wildcard.length > 0 ? wildcard : undefined;
  }
  return undefined;
}
