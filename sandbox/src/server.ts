/**
 * The HTTP server of the sandbox (node:http, no framework): reads each request, sends /v2 routes
 * through the request log, latency and fault rules, and the admin routes straight to their
 * handlers. Closing it destroys keep-alive sockets and cancels pending delays, so it returns
 * promptly even while a fault holds a request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_PREFIX, handleAdmin } from "./admin";
import type { LoggedRequest, SandboxCore } from "./core";
import { ApiError } from "./errors";
import type { FaultEffect } from "./faults";
import { applyRange, encodeReply, errorReply, type Reply, readBody, writeEncoded, writeReply } from "./http";
import { formatRetryAfter, type RetryAfterForm } from "./personality";
import { handleV2 } from "./v2";

/** A started HTTP server of a sandbox. */
export interface RunningServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Stops listening, drops every connection, cancels pending delays. Idempotent. */
  close(): Promise<void>;
}

const ERROR_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
  500: "internal_error",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
};

/**
 * The reply of a `respond` or `respondAfterApply` fault: the given body, else an error (in the
 * sandbox's error shape). A numeric Retry-After is written in the sandbox's form.
 */
function faultReply(
  fault: { status: number; retryAfter?: string | number; body?: string; contentType?: string },
  retryAfterForm: RetryAfterForm,
): Reply {
  const headers: Record<string, string> = {};
  if (typeof fault.retryAfter === "string") headers["Retry-After"] = fault.retryAfter;
  if (typeof fault.retryAfter === "number") {
    headers["Retry-After"] = formatRetryAfter(fault.retryAfter, retryAfterForm);
  }
  if (fault.body !== undefined) {
    return fault.contentType === undefined
      ? { status: fault.status, raw: fault.body, headers }
      : { status: fault.status, raw: fault.body, contentType: fault.contentType, headers };
  }
  const error = {
    code: ERROR_CODES[fault.status] ?? "injected_fault",
    message: `injected fault: HTTP ${fault.status}`,
  };
  return { status: fault.status, error, headers };
}

function logBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function splitUrl(rawUrl: string): { pathname: string; query: string } {
  const mark = rawUrl.indexOf("?");
  return mark < 0
    ? { pathname: rawUrl, query: "" }
    : { pathname: rawUrl.slice(0, mark), query: rawUrl.slice(mark + 1) };
}

/** Starts the HTTP server of `core` on `host:port` (port 0 picks a free port). */
export async function startServer(core: SandboxCore, host: string, port: number): Promise<RunningServer> {
  const closing = new AbortController();
  const personality = core.options.personality;

  /**
   * Writes a /v2 reply in the personality's error shape, honouring a Range header unless told to
   * ignore it, and cutting the body when a fault says so or `cutBodies` has cuts left.
   */
  function send(
    request: IncomingMessage,
    response: ServerResponse,
    entry: LoggedRequest,
    reply: Reply,
    cutByFault: boolean,
  ): void {
    let encoded = encodeReply(reply, personality.errorBody);
    const range = request.headers.range;
    if (range !== undefined && !personality.ignoreRange) encoded = applyRange(encoded, range);
    entry.status = encoded.status;
    const cut = encoded.payload !== undefined && (cutByFault || core.takeCut());
    if (cut) entry.cut = true;
    writeEncoded(response, encoded, cut);
  }

  /** Waits `ms`; false when the server closed meanwhile (the request is then abandoned). */
  async function delay(ms: number): Promise<boolean> {
    if (ms <= 0) return !closing.signal.aborted;
    try {
      await sleep(ms, undefined, { signal: closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  async function serveV2(
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
    query: string,
  ) {
    const method = request.method ?? "GET";
    const time = new Date().toISOString();
    let bodyText: string;
    const range = request.headers.range;
    try {
      bodyText = await readBody(request);
    } catch (error) {
      const entry: LoggedRequest = { method, path: pathname, query, body: undefined, status: 0, time };
      if (range !== undefined) entry.range = range;
      core.requests.push(entry);
      send(request, response, entry, errorReply(error as ApiError), false);
      return;
    }
    const entry: LoggedRequest = { method, path: pathname, query, body: logBody(bodyText), status: 0, time };
    if (range !== undefined) entry.range = range;
    core.requests.push(entry);
    const effect: FaultEffect | undefined = core.faults.match(method, pathname);
    if (effect !== undefined) entry.fault = true;
    if (!(await delay(core.options.latencyMs + (effect?.latencyMs ?? 0)))) return;
    if (effect?.drop === "before") {
      entry.dropped = "before";
      response.socket?.destroy();
      return;
    }
    if (effect?.respond !== undefined) {
      send(request, response, entry, faultReply(effect.respond, personality.retryAfter), false);
      return;
    }
    const real = handleV2(core, {
      method,
      pathname,
      query,
      authorization: request.headers.authorization,
      contentType: request.headers["content-type"],
      body: bodyText,
    });
    entry.status = real.status;
    if (effect?.drop === "after") {
      entry.dropped = "after";
      response.socket?.destroy();
      return;
    }
    const reply =
      effect?.respondAfterApply === undefined
        ? real
        : faultReply(effect.respondAfterApply, personality.retryAfter);
    send(request, response, entry, reply, effect?.cut === true);
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { pathname, query } = splitUrl(request.url ?? "/");
    if (pathname === "/v2" || pathname.startsWith("/v2/")) {
      await serveV2(request, response, pathname, query);
      return;
    }
    let bodyText: string;
    try {
      bodyText = await readBody(request);
    } catch (error) {
      writeReply(response, errorReply(error as ApiError));
      return;
    }
    if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      writeReply(response, handleAdmin(core, request.method ?? "GET", pathname, bodyText));
      return;
    }
    writeReply(
      response,
      errorReply(
        new ApiError(
          404,
          "not_found",
          `no route ${pathname}; API routes start with /v2, admin routes with ${ADMIN_PREFIX}`,
        ),
      ),
    );
  }

  const server: Server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      writeReply(response, {
        status: 500,
        error: { code: "internal_error", message: `sandbox bug: ${message}` },
      });
    });
  });
  if (personality.keepAliveIdleMs !== undefined) server.keepAliveTimeout = personality.keepAliveIdleMs;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
