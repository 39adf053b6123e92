/**
 * The embedded Domain API: a real HTTP server that implements the whole spec on loopback, strict
 * and stateful, for tests, examples and offline development. It is its own package and shares no code with the provider on
 * purpose: it implements the spec on its own terms, so it catches the client's mistakes instead
 * of sharing them.
 *
 * @example
 * const sandbox = await startSandbox({ apiKey: "test-key" });
 * const res = await fetch(`${sandbox.url}/v2/contacts?country=NL`, { headers: { Authorization: "Bearer test-key" } });
 * await sandbox.close();
 */
import { MAX_GENERATED_CONTACTS } from "./contactGenerator";
import type { WireContact } from "./contactSchema";
import { type LoggedRequest, SandboxCore } from "./core";
import { type DnsQuery, normalizeDomain, type RunningDnsServer, startDnsServer } from "./dnsServer";
import type { DomainStatus } from "./domains";
import type { FaultRule } from "./faults";
import { type Personality, type PersonalityOptions, resolvePersonality } from "./personality";
import type { RateLimit } from "./rateLimit";
import { DEFAULT_SEED, type SandboxSeed, type SandboxState, type SeedRecord } from "./seed";
import { startServer } from "./server";
import type { SandboxRecord } from "./templates";

export { MAX_GENERATED_CONTACTS } from "./contactGenerator";
export { MAX_PER_PAGE, SORT_FIELDS } from "./contactQuery";
export { CONTACT_STATUSES, type ContactStatus, type WireContact, WireContactSchema } from "./contactSchema";
export type { LoggedRequest } from "./core";
export { type DnsQuery, MAX_UDP_PAYLOAD } from "./dnsServer";
export { NEGATIVE_TTL, RECORD_TTL, SANDBOX_NS } from "./dnsZone";
export type { DomainStatus } from "./domains";
export type { ErrorBody, ErrorCode } from "./errors";
export { type FaultRule, FaultRuleSchema } from "./faults";
export {
  ERROR_SHAPES,
  type ErrorShape,
  formatRetryAfter,
  PATCH_MODES,
  type PatchMode,
  PERSONALITY_KEYS,
  type Personality,
  type PersonalityKey,
  type PersonalityOptions,
  PersonalitySchema,
  RETRY_AFTER_FORMS,
  type RetryAfterForm,
} from "./personality";
export type { RateLimit } from "./rateLimit";
export { DEFAULT_SEED, parseSeed, type SandboxSeed, type SandboxState, type SeedRecord } from "./seed";
export { FORWARD_SERVER, type SandboxRecord } from "./templates";
export { RECORD_TYPES, type RecordType } from "./validation";

/**
 * Options of {@link startSandbox}. Only `apiKey` is required. The personality options (see
 * {@link PersonalitySchema}) pick the other answers the spec allows where it says "not shown".
 */
export interface SandboxOptions extends PersonalityOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1` (loopback only). */
  host?: string;
  /** The only API key the /v2 routes accept, as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Initial templates, domains and contact fixtures; default {@link DEFAULT_SEED}. */
  seed?: SandboxSeed;
  /** Number of generated contacts (0 to 100,000); default 120. Fixtures come after them. */
  contacts?: number;
  /** Seed of the contact generator; default 1. Same seed, same contacts. */
  contactSeed?: number;
  /** Delay added to every /v2 request, in milliseconds; default 0. */
  latencyMs?: number;
  /** Name of the page number in the contacts pagination object; default `page` (as the samples). */
  paginationField?: "page" | "current_page";
  /** Serve contact `connections` as numeric strings instead of numbers; default false. */
  connectionsAsString?: boolean;
  /** Token-bucket rate limit on /v2 routes; default none. */
  rateLimit?: RateLimit;
  /**
   * Port of the authoritative DNS server (UDP and TCP, on `host`); 0 picks a free one. Without it
   * no DNS server runs.
   */
  dnsPort?: number;
  /** Domains the DNS server serves at start (and after a reset), each with the template it uses: `{ "shop.example": "web" }`. */
  dnsDomains?: Record<string, string>;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43123`; clients append `/v2/...`. */
  readonly url: string;
  /** The live state: templates, domains (by lower-case name), contacts. */
  readonly state: SandboxState;
  /** Every /v2 request (admin requests are not logged), oldest first; a live array. */
  readonly requests: LoggedRequest[];
  /** The DNS server's `host:port` (`127.0.0.1:53531`, as a resolver's setServers takes it); undefined without `dnsPort`. */
  readonly dnsAddress: string | undefined;
  /** Every DNS question the DNS server received, oldest first; a live array (emptied by reset). */
  readonly dnsQueries: DnsQuery[];
  /** Serves `domain` from `templateId`'s records (`{domainname}` replaced), replacing an earlier link. */
  linkDomain(domain: string, templateId: string): void;
  /** Stops serving `domain`; false when it was not linked. */
  unlinkDomain(domain: string): boolean;
  /** The linked domains and the template each uses. */
  linkedDomains(): Record<string, string>;
  /** The personality it was started with, defaults filled in. */
  readonly personality: Personality;
  /** Stops the server and drops keep-alive connections; resolves promptly. Idempotent. */
  close(): Promise<void>;
  /** A copy of a template's records, or undefined when the template does not exist. */
  templateRecords(templateId: string): SandboxRecord[] | undefined;
  /**
   * The ids of the A and AAAA records the service made for each URL forward of a template that
   * are still there, by the forward's id; undefined when the template does not exist.
   */
  madeRecords(templateId: string): Record<string, string[]> | undefined;
  /** Creates or replaces a template with `records` (default none); returns their new ids in order. */
  seedTemplate(templateId: string, records?: SeedRecord[]): string[];
  /** Removes a template; false when it did not exist. */
  deleteTemplate(templateId: string): boolean;
  /** Removes one record behind the client's back (drift); false when there was no such record. */
  deleteRecord(templateId: string, recordId: string): boolean;
  /** Sets a domain's status, creating the domain if needed. */
  setDomain(name: string, status: DomainStatus): void;
  /** A domain's status, or undefined when it does not exist. */
  domainStatus(name: string): DomainStatus | undefined;
  /**
   * Appends contact fixtures (validated). Between two page requests, this (or
   * {@link Sandbox.removeContacts}) changes the total a client pages through.
   */
  addContacts(contacts: WireContact[]): void;
  /** Removes the contacts with these handles; returns how many were removed. */
  removeContacts(handles: string[]): number;
  /** Adds a fault rule (validated; throws an error naming the field). */
  addFault(rule: FaultRule): void;
  /** Removes every fault rule. */
  clearFaults(): void;
  /** Empties the request log (in place). */
  clearRequests(): void;
  /** Back to the seed: seeded templates, domains and contacts, no faults, empty log, start rate limit. Record ids keep counting. */
  reset(): void;
  /** Turns the rate limit on (`{ perSecond, burst? }`) or off (undefined). */
  setRateLimit(limit: RateLimit | undefined): void;
}

function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`startSandbox: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Starts a sandbox on loopback and resolves once it listens.
 *
 * @throws Error naming the option when an option or the seed is invalid, or when the port is taken.
 * @example
 * const sandbox = await startSandbox({ apiKey: "k", seed: { templates: { web: [] } }, contacts: 1000 });
 * sandbox.addFault({ method: "PATCH", respond: { status: 503, retryAfter: "1" } });
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (typeof options.apiKey !== "string" || options.apiKey === "" || /\s/.test(options.apiKey)) {
    throw new TypeError("startSandbox: apiKey must be a non-empty string without whitespace");
  }
  const personality = resolvePersonality(options);
  const dnsDomains: Record<string, string> = {};
  for (const [domain, templateId] of Object.entries(options.dnsDomains ?? {})) {
    if (typeof templateId !== "string" || templateId === "") {
      throw new TypeError(`startSandbox: dnsDomains.${domain}: must name a template`);
    }
    try {
      dnsDomains[normalizeDomain(domain)] = templateId;
    } catch (error) {
      throw new TypeError(`startSandbox: dnsDomains: ${(error as Error).message}`);
    }
  }
  const dnsPort =
    options.dnsPort === undefined ? undefined : checkInteger("dnsPort", options.dnsPort, 0, 65535);
  const core = new SandboxCore({
    apiKey: options.apiKey,
    seed: options.seed ?? DEFAULT_SEED,
    generation: {
      count: checkInteger("contacts", options.contacts ?? 120, 0, MAX_GENERATED_CONTACTS),
      seed: checkInteger("contactSeed", options.contactSeed ?? 1, 0, 2 ** 32 - 1),
    },
    latencyMs: checkInteger("latencyMs", options.latencyMs ?? 0, 0, 3_600_000),
    format: {
      paginationField: options.paginationField ?? "page",
      connectionsAsString: options.connectionsAsString ?? false,
      perPageCap: personality.perPageCap,
      nullStrings: personality.nullStrings,
    },
    rateLimit: options.rateLimit,
    personality,
    dnsDomains,
  });
  const server = await startServer(
    core,
    options.host ?? "127.0.0.1",
    checkInteger("port", options.port ?? 0, 0, 65535),
  );
  let dns: RunningDnsServer | undefined;
  if (dnsPort !== undefined) {
    try {
      dns = await startDnsServer(core.dns, {
        host: options.host ?? "127.0.0.1",
        port: dnsPort,
        silent: personality.dnsSilent,
        log: core.dnsQueries,
      });
    } catch (error) {
      await server.close();
      throw new Error(`startSandbox: dnsPort: cannot listen: ${(error as Error).message}`);
    }
  }
  return {
    url: server.url,
    state: core.state,
    requests: core.requests,
    personality,
    dnsAddress: dns?.address,
    dnsQueries: core.dnsQueries,
    linkDomain: (domain, templateId) => {
      core.dns.link(domain, templateId);
    },
    unlinkDomain: (domain) => core.dns.unlink(domain),
    linkedDomains: () => Object.fromEntries(core.dns.links),
    close: async () => {
      await Promise.all([server.close(), dns?.close()]);
    },
    templateRecords: (templateId) => core.templateRecords(templateId),
    madeRecords: (templateId) => core.templates.madeRecords(templateId),
    seedTemplate: (templateId, records) => core.seedTemplate(templateId, records),
    deleteTemplate: (templateId) => core.templates.delete(templateId),
    deleteRecord: (templateId, recordId) => core.templates.deleteRecord(templateId, recordId),
    setDomain: (name, status) => core.setDomain(name, status),
    domainStatus: (name) => core.domainStatus(name),
    addContacts: (contacts) => {
      core.addContacts(contacts);
    },
    removeContacts: (handles) => core.removeContacts(handles),
    addFault: (rule) => core.addFault(rule),
    clearFaults: () => core.faults.clear(),
    clearRequests: () => {
      core.requests.length = 0;
    },
    reset: () => core.reset(),
    setRateLimit: (limit) => core.setRateLimit(limit),
  };
}
