/**
 * The state of one sandbox and the operations on it, free of HTTP: what `startSandbox` exposes to
 * tests in process and what the admin routes expose over HTTP.
 */

import { z } from "zod";
import type { WireContact } from "./contactSchema";
import { WireContactSchema } from "./contactSchema";
import type { ContactListFormat } from "./contacts";
import { DnsPublication, type DnsQuery } from "./dnsServer";
import { type DomainStatus, DomainStatusSchema, domainKey } from "./domains";
import { type FaultRule, FaultSet } from "./faults";
import type { Personality } from "./personality";
import { type RateLimit, RateLimitSchema, TokenBucket } from "./rateLimit";
import {
  applySeed,
  type ContactGeneration,
  type SandboxSeed,
  type SandboxState,
  type SeedRecord,
} from "./seed";
import { type SandboxRecord, TemplateStore } from "./templates";
import { parseOrThrow } from "./validation";

/** One /v2 request as the sandbox saw it. */
export interface LoggedRequest {
  method: string;
  /** The pathname, e.g. `/v2/contacts`. */
  path: string;
  /** The raw query string without `?` (empty when there was none). */
  query: string;
  /** The parsed JSON body; the raw text when it was not JSON; undefined when there was none. */
  body: unknown | undefined;
  /** Status of the reply; 0 while in progress and for requests dropped before being handled. */
  status: number;
  /** When the request arrived, ISO 8601. */
  time: string;
  /** Set when a fault dropped the connection, before or after the change was applied. */
  dropped?: "before" | "after";
  /** Set when a fault rule fired on this request. */
  fault?: boolean;
  /** The Range header, when the request carried one (a client should never send one to this API). */
  range?: string;
  /** Set when the reply's body was cut mid-stream (a `cut` fault or the `cutBodies` personality). */
  cut?: boolean;
}

/** Settings of the sandbox core. */
export interface CoreOptions {
  apiKey: string;
  seed: SandboxSeed;
  generation: ContactGeneration;
  latencyMs: number;
  format: ContactListFormat;
  rateLimit: RateLimit | undefined;
  personality: Personality;
  /** Domains served by the DNS server at start (and after a reset), by name: the template each uses. */
  dnsDomains: Record<string, string>;
}

/** The sandbox's state, logs, faults and rate limit. */
export class SandboxCore {
  /** The live state (maps and array keep their identity across resets). */
  readonly state: SandboxState = { templates: new Map(), domains: new Map(), contacts: [] };
  /** Every /v2 request, oldest first; a live array. */
  readonly requests: LoggedRequest[] = [];
  readonly templates: TemplateStore;
  readonly faults = new FaultSet();
  /** What the DNS server publishes: linked domains and the template versions visible. */
  readonly dns: DnsPublication;
  /** Every DNS question received, oldest first; a live array. */
  readonly dnsQueries: DnsQuery[] = [];
  private bucket: TokenBucket | undefined;
  private cutsLeft: number;
  private newcomers = 0;

  constructor(readonly options: CoreOptions) {
    this.cutsLeft = options.personality.cutBodies;
    this.templates = new TemplateStore(this.state.templates, options.personality);
    applySeed(this.state, this.templates, options.seed, options.generation);
    this.setRateLimit(options.rateLimit);
    this.dns = new DnsPublication({
      templates: this.templates,
      lateMs: options.personality.dnsLate,
      forwardsMadeHere: !options.personality.urlForwardCreatesRecords,
    });
    this.linkStartDomains();
  }

  private linkStartDomains(): void {
    this.dns.links.clear();
    for (const [domain, templateId] of Object.entries(this.options.dnsDomains))
      this.dns.link(domain, templateId);
  }

  /** Puts everything back as it was at start: seed data, no faults, empty log, the start rate limit, the `cutBodies` count. */
  reset(): void {
    applySeed(this.state, this.templates, this.options.seed, this.options.generation);
    this.dns.restart();
    this.linkStartDomains();
    this.dnsQueries.length = 0;
    this.faults.clear();
    this.requests.length = 0;
    this.setRateLimit(this.options.rateLimit);
    this.cutsLeft = this.options.personality.cutBodies;
    this.newcomers = 0;
  }

  /**
   * Appends the `contactsGrowth` personality's new contacts (`N0000001`, ...) after a contacts
   * list was answered, so the next page request sees a larger total.
   */
  growContacts(): void {
    for (let i = 0; i < this.options.personality.contactsGrowth; i += 1) {
      this.newcomers += 1;
      const n = String(this.newcomers).padStart(7, "0");
      this.state.contacts.push({
        handle: `N${n}`,
        name: `Newcomer ${n}`,
        email: `newcomer${n}@example.org`,
        country: "NL",
        status: ["pending_validation"],
        connections: 0,
      });
    }
  }

  /** True (and one fewer left) while `cutBodies` has cuts left; called only for replies with a body. */
  takeCut(): boolean {
    if (this.cutsLeft <= 0) return false;
    this.cutsLeft -= 1;
    return true;
  }

  /** Turns the rate limit on with `limit`, or off with undefined. */
  setRateLimit(limit: RateLimit | undefined): void {
    this.bucket =
      limit === undefined
        ? undefined
        : new TokenBucket(parseOrThrow(RateLimitSchema, limit, "rateLimit"), performance.now());
  }

  /** The current rate limit, if any. */
  rateLimit(): RateLimit | undefined {
    return this.bucket?.limit;
  }

  /** Takes a rate-limit token: undefined when the request may proceed, else the exact seconds to wait. */
  takeToken(): number | undefined {
    return this.bucket?.take(performance.now());
  }

  /** A copy of a template's records, or undefined when the template does not exist. */
  templateRecords(templateId: string): SandboxRecord[] | undefined {
    return this.templates.records(templateId);
  }

  /** Creates or replaces a template; returns the new record ids in order. */
  seedTemplate(templateId: string, records: SeedRecord[] = []): string[] {
    return this.templates.seed(templateId, records);
  }

  /** Sets a domain's status, creating the domain if needed. */
  setDomain(name: string, status: DomainStatus): void {
    const valid = parseOrThrow(DomainStatusSchema, status, "status");
    this.state.domains.set(domainKey(name), valid);
  }

  /** A domain's status, or undefined when it does not exist. */
  domainStatus(name: string): DomainStatus | undefined {
    return this.state.domains.get(domainKey(name));
  }

  /**
   * Removes the contacts with these handles (compared exactly); returns how many were removed.
   * With {@link SandboxCore.addContacts} it lets a test change the total between two page requests.
   */
  removeContacts(handles: readonly string[]): number {
    const doomed = new Set(handles);
    const kept = this.state.contacts.filter((contact) => !doomed.has(contact.handle));
    const removed = this.state.contacts.length - kept.length;
    this.state.contacts.length = 0;
    for (const contact of kept) this.state.contacts.push(contact);
    return removed;
  }

  /** Appends contacts (validated; a 400-style error names the field). */
  addContacts(contacts: unknown): WireContact[] {
    const valid = parseOrThrow(
      z.array(WireContactSchema, { error: "must be an array of contacts" }),
      contacts,
      "contacts",
    );
    for (const contact of valid) this.state.contacts.push(contact);
    return valid;
  }

  /** Adds a fault rule; see FaultRule. */
  addFault(rule: FaultRule): void {
    this.faults.add(rule);
  }
}
