/**
 * Small HTTP helpers of the sandbox: reading a request body, and the {@link Reply} value that
 * handlers return and the server writes (so a fault can replace a reply before it is sent).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./errors";

/** The Content-Type of every JSON response, exactly as the spec writes it. */
export const JSON_CONTENT_TYPE = "application/json;charset=utf-8";

/** Largest request body the sandbox reads. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A response to be written: JSON `body`, or `raw` text with its own content type, or nothing (204). */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A JSON reply. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers === undefined ? { status, body } : { status, body, headers };
}

/** A reply without a body. */
export function noContent(): Reply {
  return { status: 204 };
}

/** The reply for an {@link ApiError}. */
export function errorReply(error: ApiError): Reply {
  return { status: error.status, body: error.toBody(), headers: error.headers };
}

/** Runs a handler and turns a thrown {@link ApiError} into its reply; other errors become a 500. */
export function replyFrom(handler: () => Reply): Reply {
  try {
    return handler();
  } catch (error) {
    if (error instanceof ApiError) return errorReply(error);
    const message = error instanceof Error ? error.message : String(error);
    return json(500, { error: { code: "internal_error", message: `sandbox bug: ${message}` } });
  }
}

/**
 * Reads the whole request body as UTF-8 text.
 *
 * @throws ApiError 413 when it is larger than {@link MAX_BODY_BYTES}.
 */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(413, "payload_too_large", `body: larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes `reply` to `response`, unless the connection is already gone. */
export function writeReply(response: ServerResponse, reply: Reply): void {
  if (response.destroyed || response.headersSent) return;
  const headers: Record<string, string | number> = { ...reply.headers };
  let payload: string | undefined;
  if (reply.status === 204 || reply.status === 304 || reply.status < 200) {
    payload = undefined;
  } else if (reply.raw !== undefined) {
    payload = reply.raw;
    headers["Content-Type"] = reply.contentType ?? JSON_CONTENT_TYPE;
  } else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers["Content-Type"] = JSON_CONTENT_TYPE;
  }
  if (payload !== undefined) headers["Content-Length"] = Buffer.byteLength(payload);
  response.writeHead(reply.status, headers);
  response.end(payload);
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}

/**
 * Parses a JSON request body.
 *
 * @throws ApiError 400 naming the body when it is not JSON.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, "invalid_request", `body: not valid JSON (${(error as Error).message})`);
  }
}
