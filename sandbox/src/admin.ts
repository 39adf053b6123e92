/**
 * The admin routes under `/__sandbox/` (never under /v2, never logged, no auth): seed and read
 * templates, domains and contacts, read and clear the request log, add and clear faults, set the
 * rate limit, read the personality, reset. JSON in, JSON out, the same error body as /v2.
 */
import { z } from "zod";
import type { SandboxCore } from "./core";
import { DomainStatusSchema } from "./domains";
import { ApiError, invalidRequest, notFound } from "./errors";
import { json, noContent, parseJson, type Reply, replyFrom } from "./http";
import { type RateLimit, RateLimitSchema } from "./rateLimit";
import type { SeedRecord } from "./seed";
import { parseOrThrow } from "./validation";

/** Prefix of every admin route. */
export const ADMIN_PREFIX = "/__sandbox";

const SeedTemplateBodySchema = z.strictObject({ records: z.array(z.unknown()).optional() });
const DomainBodySchema = z.strictObject({ status: DomainStatusSchema });
const DnsLinkBodySchema = z.strictObject({ template: z.string({ error: "must name a template" }).min(1) });
/** `{perSecond, burst?}` turns the rate limit on; `{}` turns it off (undefined). */
const RateLimitBodySchema = z
  .union([RateLimitSchema, z.strictObject({})], {
    error: "expected {perSecond, burst?} to turn the rate limit on or {} to turn it off",
  })
  .transform((limit): RateLimit | undefined => ("perSecond" in limit ? (limit as RateLimit) : undefined));

/** Every admin route, for the index and for error messages. */
export const ADMIN_ROUTES = [
  "GET /__sandbox/templates",
  "GET|PUT|DELETE /__sandbox/templates/:id",
  "DELETE /__sandbox/templates/:id/records/:recordId",
  "GET /__sandbox/domains",
  "GET|PUT|DELETE /__sandbox/domains/:name",
  "GET|POST /__sandbox/contacts",
  "DELETE /__sandbox/contacts/:handle",
  "GET|DELETE /__sandbox/requests",
  "GET|POST|DELETE /__sandbox/faults",
  "GET|PUT /__sandbox/rate-limit",
  "GET /__sandbox/dns",
  "PUT|DELETE /__sandbox/dns/domains/:name",
  "GET|DELETE /__sandbox/dns/queries",
  "GET /__sandbox/personality",
  "POST /__sandbox/reset",
] as const;

type Handlers = Partial<Record<string, (params: string[], body: () => unknown) => Reply>>;

/** Route patterns (relative to the prefix) and their handlers by method. */
function routes(core: SandboxCore): Array<[RegExp, Handlers]> {
  return [
    [/^\/?$/, { GET: () => json(200, { routes: ADMIN_ROUTES }) }],
    [/^\/templates$/, { GET: () => json(200, { templates: Object.fromEntries(core.state.templates) }) }],
    [
      /^\/templates\/([^/]+)$/,
      {
        GET: ([id]) => {
          const records = core.templateRecords(id!);
          if (records === undefined) throw notFound(`template ${id} does not exist`);
          // `made`: the records the service made for each URL forward, by the forward's id.
          return json(200, { template_id: id, records, made: core.templates.madeRecords(id!) ?? {} });
        },
        PUT: ([id], body) => {
          const { records } = parseOrThrow(SeedTemplateBodySchema, body());
          return json(200, { record_id: core.seedTemplate(id!, (records ?? []) as SeedRecord[]) });
        },
        DELETE: ([id]) => {
          if (!core.templates.delete(id!)) throw notFound(`template ${id} does not exist`);
          return noContent();
        },
      },
    ],
    [
      /^\/templates\/([^/]+)\/records\/([^/]+)$/,
      {
        DELETE: ([id, recordId]) => {
          if (!core.templates.deleteRecord(id!, recordId!)) {
            throw notFound(`template ${id} has no record ${recordId}`);
          }
          return noContent();
        },
      },
    ],
    [/^\/domains$/, { GET: () => json(200, { domains: Object.fromEntries(core.state.domains) }) }],
    [
      /^\/domains\/([^/]+)$/,
      {
        GET: ([name]) => {
          const status = core.domainStatus(name!);
          if (status === undefined) throw notFound(`domain ${name} does not exist`);
          return json(200, { name, status });
        },
        PUT: ([name], body) => {
          const { status } = parseOrThrow(DomainBodySchema, body());
          core.setDomain(name!, status);
          return json(200, { name, status });
        },
        DELETE: ([name]) => {
          if (!core.state.domains.delete(name!.toLowerCase()))
            throw notFound(`domain ${name} does not exist`);
          return noContent();
        },
      },
    ],
    [
      /^\/contacts$/,
      {
        GET: () => json(200, { contacts: core.state.contacts }),
        POST: (_params, body) => {
          const added = core.addContacts(body());
          return json(200, { added: added.length, total: core.state.contacts.length });
        },
      },
    ],
    [
      /^\/contacts\/([^/]+)$/,
      {
        DELETE: ([handle]) => {
          const removed = core.removeContacts([handle!]);
          if (removed === 0) throw notFound(`contact ${handle} does not exist`);
          return json(200, { removed, total: core.state.contacts.length });
        },
      },
    ],
    [
      /^\/requests$/,
      {
        GET: () => json(200, { requests: core.requests }),
        DELETE: () => {
          core.requests.length = 0;
          return noContent();
        },
      },
    ],
    [
      /^\/faults$/,
      {
        GET: () => json(200, { faults: core.faults.list() }),
        POST: (_params, body) => {
          core.faults.add(body());
          return json(201, { faults: core.faults.list() });
        },
        DELETE: () => {
          core.faults.clear();
          return noContent();
        },
      },
    ],
    [
      /^\/rate-limit$/,
      {
        GET: () => json(200, { rateLimit: core.rateLimit() ?? null }),
        PUT: (_params, body) => {
          core.setRateLimit(parseOrThrow(RateLimitBodySchema, body()));
          return json(200, { rateLimit: core.rateLimit() ?? null });
        },
      },
    ],
    [/^\/dns$/, { GET: () => json(200, { domains: Object.fromEntries(core.dns.links) }) }],
    [
      /^\/dns\/domains\/([^/]+)$/,
      {
        PUT: ([name], body) => {
          const { template } = parseOrThrow(DnsLinkBodySchema, body());
          let domain: string;
          try {
            domain = core.dns.link(name!, template);
          } catch (error) {
            throw invalidRequest((error as Error).message);
          }
          return json(200, { domain, template });
        },
        DELETE: ([name]) => {
          if (!core.dns.unlink(name!)) throw notFound(`domain ${name} is not served by the DNS server`);
          return noContent();
        },
      },
    ],
    [
      /^\/dns\/queries$/,
      {
        GET: () => json(200, { queries: core.dnsQueries }),
        DELETE: () => {
          core.dnsQueries.length = 0;
          return noContent();
        },
      },
    ],
    [/^\/personality$/, { GET: () => json(200, { personality: core.options.personality }) }],
    [
      /^\/reset$/,
      {
        POST: () => {
          core.reset();
          return noContent();
        },
      },
    ],
  ];
}

/** Answers one admin request. `pathname` starts with {@link ADMIN_PREFIX}. */
export function handleAdmin(core: SandboxCore, method: string, pathname: string, bodyText: string): Reply {
  return replyFrom(() => {
    const relative = pathname.slice(ADMIN_PREFIX.length);
    // An empty body reads as {}: "PUT templates/x" with no body seeds an empty template, "PUT rate-limit" turns it off.
    const body = (): unknown => (bodyText === "" ? {} : parseJson(bodyText));
    for (const [pattern, handlers] of routes(core)) {
      const match = pattern.exec(relative);
      if (match === null) continue;
      const handler = handlers[method];
      if (handler === undefined) {
        const allowed = Object.keys(handlers);
        throw new ApiError(
          405,
          "method_not_allowed",
          `${method} is not allowed on ${pathname}; use ${allowed.join(" or ")}`,
          {
            Allow: allowed.join(", "),
          },
        );
      }
      const params = match.slice(1).map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          throw invalidRequest(`${pathname}: malformed percent-encoding in the path`);
        }
      });
      return handler(params, body);
    }
    throw notFound(`no admin route ${method} ${pathname}; routes: ${ADMIN_ROUTES.join(", ")}`);
  });
}
