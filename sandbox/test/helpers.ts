/**
 * Helpers for sandbox tests: real HTTP requests with Node's fetch against a started sandbox.
 */

import { type Sandbox, type SandboxOptions, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** The API key every test sandbox is started with. */
export const API_KEY = "test-key-123";

/**
 * One sandbox (key {@link API_KEY}) for a whole test file: started before its first test, closed
 * after its last, and reset before each test so that no test sees another's templates, domains,
 * faults or logged requests. The returned object is filled in by the first `beforeAll`.
 *
 * @example
 * const sandbox = useSandbox({ contacts: 3 });
 * it("...", async () => { expect((await call(sandbox, "GET", "/v2/contacts")).status).toBe(200); });
 */
export function useSandbox(options: Partial<SandboxOptions> = {}): Sandbox {
  const sandbox = {} as Sandbox;
  beforeAll(async () => {
    Object.assign(sandbox, await startSandbox({ apiKey: API_KEY, ...options }));
  });
  afterAll(async () => {
    await sandbox.close?.();
  });
  beforeEach(() => {
    sandbox.reset();
  });
  return sandbox;
}

/** The parts of a response the tests look at. */
export interface Call {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when the body is empty or not JSON. */
  json: unknown;
}

/** Options of {@link call}. */
export interface CallOptions {
  /** Sent as JSON with Content-Type: application/json. */
  body?: unknown;
  /** Sent verbatim (no Content-Type unless given in headers). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The Authorization header; default `Bearer API_KEY`; null sends none. */
  authorization?: string | null;
  signal?: AbortSignal;
}

/** Sends one request to `sandbox.url + path` and reads the whole response. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Call> {
  const headers: Record<string, string> = {};
  const authorization = options.authorization === undefined ? `Bearer ${API_KEY}` : options.authorization;
  if (authorization !== null) headers.Authorization = authorization;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  Object.assign(headers, options.headers);
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = body;
  if (options.signal !== undefined) init.signal = options.signal;
  const response = await fetch(`${sandbox.url}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: parseOrUndefined(text),
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error message of an error body `{"error": {"code", "message"}}`. */
export function errorOf(result: Call): { code: string; message: string } {
  const body = result.json as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (typeof body?.error?.code !== "string" || typeof body.error.message !== "string") {
    throw new Error(`expected an error body, got ${result.status} ${result.text}`);
  }
  return { code: body.error.code, message: body.error.message };
}

/** The path of a template's records. */
export function recordsPath(templateId: string): string {
  return `/v2/dns/templates/${encodeURIComponent(templateId)}/records`;
}

/**
 * Sends a request with node:http, for what fetch cannot send: a body without any Content-Type
 * header. Resolves with the status and the body text.
 */
export async function rawRequest(
  sandbox: Sandbox,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.url}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
