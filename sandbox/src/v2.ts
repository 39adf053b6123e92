/**
 * The /v2 routes of the spec: bearer auth, routing, request checks and the handlers. Synchronous
 * and free of sockets: it takes the parts of a request and returns a {@link Reply}, so the server
 * can wrap it with latency and faults.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { listContacts } from "./contacts";
import type { SandboxCore } from "./core";
import { restoreDomain } from "./domains";
import { ApiError, invalidRequest, notFound } from "./errors";
import { json, mediaType, noContent, parseJson, type Reply, replyFrom } from "./http";
import { formatRetryAfter } from "./personality";
import { PatchBodySchema, PutBodySchema, parseOrThrow } from "./validation";

/** The parts of an HTTP request the /v2 routes look at. */
export interface V2Request {
  method: string;
  pathname: string;
  query: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

const TEMPLATE_RECORDS = /^\/v2\/dns\/templates\/([^/]+)\/records$/;
const DOMAIN_RESTORE = /^\/v2\/domains\/([^/]+)\/restore$/;

/** Answers one /v2 request: rate limit, then auth, then the route. */
export function handleV2(core: SandboxCore, request: V2Request): Reply {
  return replyFrom(() => {
    const waitSeconds = core.takeToken();
    if (waitSeconds !== undefined) {
      const retryAfter = formatRetryAfter(waitSeconds, core.options.personality.retryAfter);
      throw new ApiError(429, "rate_limited", `rate limit exceeded; Retry-After: ${retryAfter}`, {
        "Retry-After": retryAfter,
      });
    }
    authenticate(core.options.apiKey, request.authorization);
    return route(core, request);
  });
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Checks `Authorization: Bearer <key>`; 401 when it is missing, malformed or wrong. */
function authenticate(apiKey: string, header: string | undefined): void {
  const challenge = { "WWW-Authenticate": 'Bearer realm="domainapi-sandbox"' };
  if (header === undefined || header === "") {
    throw new ApiError(
      401,
      "unauthorized",
      "missing Authorization header; send Authorization: Bearer <API key>",
      challenge,
    );
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (match === null) {
    throw new ApiError(
      401,
      "unauthorized",
      "malformed Authorization header; expected exactly: Bearer <API key>",
      challenge,
    );
  }
  // Compare digests so the comparison takes the same time whatever the key's length.
  if (!timingSafeEqual(sha256(match[1]!), sha256(apiKey))) {
    throw new ApiError(401, "unauthorized", "invalid API key", challenge);
  }
}

function methodNotAllowed(method: string, pathname: string, allowed: string[]): ApiError {
  return new ApiError(
    405,
    "method_not_allowed",
    `${method} is not allowed on ${pathname}; use ${allowed.join(" or ")}`,
    {
      Allow: allowed.join(", "),
    },
  );
}

function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidRequest(`${name}: malformed percent-encoding in the path`);
  }
}

function noQuery(query: string, operation: string): void {
  if (query === "") return;
  const first = new URLSearchParams(query).keys().next().value ?? query;
  throw invalidRequest(`${first}: unknown query parameter; ${operation} takes no query parameters`);
}

function noBody(body: string, operation: string): void {
  if (body !== "") throw invalidRequest(`body: ${operation} takes no body; send none`);
}

/** Checks Content-Type and parses the JSON body of a PUT or PATCH. */
function jsonBody(request: V2Request): unknown {
  if (request.body === "") {
    throw invalidRequest("body: required; send a JSON object with Content-Type: application/json");
  }
  if (mediaType(request.contentType) !== "application/json") {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Content-Type: expected application/json, got ${request.contentType === undefined ? "none" : `"${request.contentType}"`}`,
    );
  }
  return parseJson(request.body);
}

function route(core: SandboxCore, request: V2Request): Reply {
  const { method, pathname } = request;
  const templateMatch = TEMPLATE_RECORDS.exec(pathname);
  if (templateMatch !== null) {
    if (method !== "PUT" && method !== "PATCH") throw methodNotAllowed(method, pathname, ["PUT", "PATCH"]);
    const templateId = decodeSegment(templateMatch[1]!, "template_id");
    noQuery(request.query, `${method} ${pathname}`);
    if (!core.state.templates.has(templateId)) throw notFound(`template ${templateId} does not exist`);
    const body = jsonBody(request);
    // With numeric ids the answer carries numbers; requests keep naming records by string.
    const served = (ids: string[]) => (core.options.personality.numericIds ? ids.map(Number) : ids);
    if (method === "PUT") {
      const valid = parseOrThrow(PutBodySchema, body);
      return json(200, { record_id: served(core.templates.replace(templateId, valid.records)) });
    }
    const ids = core.templates.patch(templateId, parseOrThrow(PatchBodySchema, body));
    return ids.length === 0 ? noContent() : json(200, { record_id: served(ids) });
  }
  if (pathname === "/v2/contacts") {
    if (method !== "GET") throw methodNotAllowed(method, pathname, ["GET"]);
    noBody(request.body, "GET /v2/contacts");
    const body = listContacts(core.state.contacts, request.query, core.options.format);
    core.growContacts();
    return json(200, body);
  }
  const restoreMatch = DOMAIN_RESTORE.exec(pathname);
  if (restoreMatch !== null) {
    if (method !== "POST") throw methodNotAllowed(method, pathname, ["POST"]);
    const domain = decodeSegment(restoreMatch[1]!, "domain");
    noQuery(request.query, "restore");
    noBody(request.body, "restore");
    restoreDomain(core.state.domains, domain);
    return noContent();
  }
  throw notFound(
    `no route for ${method} ${pathname}; the API has PUT/PATCH /v2/dns/templates/{template_id}/records, GET /v2/contacts and POST /v2/domains/{domain}/restore`,
  );
}
