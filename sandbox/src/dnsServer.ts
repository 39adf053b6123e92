/**
 * The sandbox's authoritative DNS server: on loopback, UDP and TCP on one port, for the domains
 * linked to templates, answering from the same template store the HTTP API writes. Answers carry
 * the AA flag; a zone it does not serve is REFUSED; a UDP answer larger than the client can take
 * (512 bytes, or its EDNS buffer up to 1232) is sent empty with TC set, so the client asks again
 * over TCP (RFC 7766). Messages are encoded and decoded by `dns-packet`.
 *
 * Personalities: `dnsLate` publishes each change of a template N ms after it is made (a
 * registrar's propagation delay); `dnsSilent` answers nothing, over UDP or TCP.
 */
import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { createServer, type Server, type Socket as TcpSocket } from "node:net";
import * as packet from "dns-packet";
import { answerQuestion, isAtOrBelow, zoneRecords } from "./dnsZone";
import type { SandboxRecord, TemplateStore } from "./templates";

/** The largest UDP answer sent to a client that offers more with EDNS (the DNS flag day 2020 size). */
export const MAX_UDP_PAYLOAD = 1232;
/** The largest UDP answer to a client without EDNS (RFC 1035 4.2.1). */
const PLAIN_UDP_PAYLOAD = 512;

/** One DNS question the server received, as the sandbox saw it. */
export interface DnsQuery {
  transport: "udp" | "tcp";
  /** The name asked, as asked. */
  name: string;
  type: string;
  /** The response code sent; `NONE` when nothing was sent (`dnsSilent`, or a message that is no query). */
  rcode: string;
  /** True when the UDP answer was cut to its header (TC set). */
  truncated: boolean;
  /** When it arrived, ISO 8601. */
  time: string;
}

/** What the DNS server serves from, and how. */
export interface DnsPublicationOptions {
  /** The template store the HTTP API writes. */
  templates: TemplateStore;
  /** Changes become visible this many ms after they are made; 0 publishes at once. */
  lateMs: number;
  /** A forward's A and AAAA are made here because the store does not make them. */
  forwardsMadeHere: boolean;
}

interface Version {
  /** When the change was made (performance.now()); -Infinity for the state at start. */
  at: number;
  serial: number;
  records: SandboxRecord[] | undefined;
}

/**
 * Which domains use which template, and what each template publishes at a given time: every
 * change of the store is kept with its time until a later one is visible, so a late publication
 * serves the last version that is old enough.
 */
export class DnsPublication {
  /** Domain (lower case, no trailing dot) -> template id. */
  readonly links = new Map<string, string>();
  private readonly versions = new Map<string, Version[]>();
  private serial = 1;

  constructor(private readonly options: DnsPublicationOptions) {
    options.templates.onChange = (templateId) => this.changed(templateId);
    this.restart();
  }

  /** Forgets every pending change: what the store holds now is published now (after a reset). */
  restart(): void {
    this.versions.clear();
    for (const templateId of this.options.templates.templates.keys()) {
      this.versions.set(templateId, [
        {
          at: Number.NEGATIVE_INFINITY,
          serial: this.serial,
          records: this.options.templates.records(templateId),
        },
      ]);
    }
  }

  /** Links a domain to a template (replacing an earlier link). */
  link(domain: string, templateId: string): string {
    const name = normalizeDomain(domain);
    this.links.set(name, templateId);
    return name;
  }

  /** Unlinks a domain; false when it was not linked. */
  unlink(domain: string): boolean {
    return this.links.delete(normalizeDomain(domain));
  }

  private changed(templateId: string): void {
    this.serial += 1;
    const list = this.versions.get(templateId) ?? [
      { at: Number.NEGATIVE_INFINITY, serial: 1, records: undefined },
    ];
    list.push({
      at: performance.now(),
      serial: this.serial,
      records: this.options.templates.records(templateId),
    });
    this.versions.set(templateId, list);
  }

  /** The version of a template visible now; older versions are dropped once a later one is. */
  private visible(templateId: string): Version {
    const list = this.versions.get(templateId);
    if (list === undefined) return { at: 0, serial: 1, records: undefined };
    const now = performance.now();
    let index = 0;
    for (let i = list.length - 1; i >= 0; i -= 1) {
      if (list[i]!.at + this.options.lateMs <= now) {
        index = i;
        break;
      }
    }
    if (index > 0) list.splice(0, index);
    return list[0]!;
  }

  /**
   * The answer to one question: REFUSED outside every linked domain, else the zone's answer from
   * the template version visible now.
   */
  answer(qname: string, qtype: string) {
    const name = qname.toLowerCase().replace(/\.$/, "");
    let domain: string | undefined;
    for (const linked of this.links.keys()) {
      if (isAtOrBelow(name, linked) && (domain === undefined || linked.length > domain.length))
        domain = linked;
    }
    if (domain === undefined) return { rcode: "REFUSED" as const, answers: [], authorities: [] };
    const version = this.visible(this.links.get(domain)!);
    const zone = zoneRecords(domain, version.records ?? [], this.options.forwardsMadeHere);
    return answerQuestion(domain, zone, version.serial, name, qtype);
  }
}

/** `Shop.Example.` -> `shop.example`; refuses what is no domain name. */
export function normalizeDomain(domain: string): string {
  const name = domain.trim().toLowerCase().replace(/\.$/, "");
  if (!/^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) {
    throw new TypeError(`"${domain}" is not a domain name (e.g. shop.example)`);
  }
  return name;
}

/** A running DNS server. */
export interface RunningDnsServer {
  /** `127.0.0.1:53531`: what a resolver's setServers takes. */
  readonly address: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Options of {@link startDnsServer}. */
export interface DnsServerOptions {
  host: string;
  /** 0 picks a free port (the same for UDP and TCP). */
  port: number;
  /** Answer nothing at all. */
  silent: boolean;
  /** Every question received is appended here. */
  log: DnsQuery[];
}

/**
 * The response to one encoded query, or undefined for a message that is not a query we can read
 * (dropped, as a server drops garbage). `limit` is the largest answer the transport carries.
 */
function respond(
  publication: DnsPublication,
  message: Buffer,
  transport: "udp" | "tcp",
  log: DnsQuery[],
  silent: boolean,
): Buffer | undefined {
  let query: packet.DecodedPacket;
  try {
    query = packet.decode(message);
  } catch {
    return undefined;
  }
  const question = query.questions?.[0];
  const entry: DnsQuery = {
    transport,
    name: question?.name ?? "",
    type: question?.type ?? "",
    rcode: "NONE",
    truncated: false,
    time: new Date().toISOString(),
  };
  log.push(entry);
  if (silent || query.type === "response" || question === undefined) return undefined;
  try {
    return answerQuery(publication, query, question, transport, entry);
  } catch {
    // A record the wire cannot carry must not stop the server: the question gets SERVFAIL.
    entry.rcode = "SERVFAIL";
    return packet.encode({
      type: "response",
      id: query.id ?? 0,
      flags: RCODES.SERVFAIL,
      questions: [question],
      answers: [],
      authorities: [],
      additionals: [],
    });
  }
}

function answerQuery(
  publication: DnsPublication,
  query: packet.DecodedPacket,
  question: packet.Question,
  transport: "udp" | "tcp",
  entry: DnsQuery,
): Buffer {
  const opt = query.additionals?.find((a): a is packet.OptAnswer => a.type === "OPT");
  const { rcode, answers, authorities } = publication.answer(question.name, question.type);
  entry.rcode = rcode;
  const flags = packet.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & packet.RECURSION_DESIRED);
  const base = {
    type: "response" as const,
    id: query.id ?? 0,
    // The rcode sits in the low four bits of the flags word (dns-packet reads it from there).
    flags: (rcode === "REFUSED" ? flags & ~packet.AUTHORITATIVE_ANSWER : flags) | RCODES[rcode],
    questions: [question],
    additionals:
      opt === undefined ? [] : [{ type: "OPT", name: ".", udpPayloadSize: MAX_UDP_PAYLOAD } as packet.Answer],
  };
  const full = packet.encode({ ...base, answers, authorities });
  if (transport === "tcp") return full;
  const limit =
    opt === undefined
      ? PLAIN_UDP_PAYLOAD
      : Math.max(PLAIN_UDP_PAYLOAD, Math.min(opt.udpPayloadSize, MAX_UDP_PAYLOAD));
  if (full.length <= limit) return full;
  entry.truncated = true;
  return packet.encode({
    ...base,
    flags: base.flags | packet.TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
  });
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** Starts the DNS server (UDP and TCP on one port) on `host:port`; resolves once both listen. */
export async function startDnsServer(
  publication: DnsPublication,
  options: DnsServerOptions,
): Promise<RunningDnsServer> {
  const family = options.host.includes(":") ? "udp6" : "udp4";
  // With port 0 the UDP socket picks a port and TCP takes the same; another process may hold it
  // on TCP, so a few ports are tried.
  for (let attempt = 0; ; attempt += 1) {
    const udp = createSocket(family);
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(options.port, options.host, () => {
        udp.off("error", reject);
        resolve();
      });
    });
    const port = udp.address().port;
    const tcp = createServer();
    const listening = await new Promise<boolean>((resolve, reject) => {
      tcp.once("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "EADDRINUSE" && options.port === 0 && attempt < 10) resolve(false);
        else reject(error);
      });
      tcp.listen(port, options.host, () => resolve(true));
    }).catch((error: unknown) => {
      udp.close();
      throw error;
    });
    if (!listening) {
      udp.close();
      continue;
    }
    return serve(publication, options, udp, tcp, port);
  }
}

function serve(
  publication: DnsPublication,
  options: DnsServerOptions,
  udp: Socket,
  tcp: Server,
  port: number,
): RunningDnsServer {
  udp.on("message", (message: Buffer, from: RemoteInfo) => {
    const reply = respond(publication, message, "udp", options.log, options.silent);
    if (reply !== undefined) udp.send(reply, from.port, from.address);
  });
  const sockets = new Set<TcpSocket>();
  tcp.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Each message is preceded by its length in two bytes (RFC 1035 4.2.2).
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const length = pending.readUInt16BE(0);
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        const reply = respond(publication, message, "tcp", options.log, options.silent);
        if (reply === undefined) continue;
        const framed = Buffer.alloc(2 + reply.length);
        framed.writeUInt16BE(reply.length, 0);
        reply.copy(framed, 2);
        socket.write(framed);
      }
    });
  });
  const host = options.host;
  const address = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    address,
    host,
    port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        udp.close(() => tcp.close(() => resolve()));
      });
      return closed;
    },
  };
}
