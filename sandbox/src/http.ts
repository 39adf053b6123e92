/**
 * Small HTTP helpers of the sandbox: reading a request body, and the {@link Reply} value that
 * handlers return and the server writes (so a fault can replace a reply before it is sent).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorContent, shapeError } from "./errorBodies";
import { ApiError } from "./errors";
import type { ErrorShape } from "./personality";

/** The Content-Type of every JSON response, exactly as the spec writes it. */
export const JSON_CONTENT_TYPE = "application/json;charset=utf-8";

/** Largest request body the sandbox reads. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A response to be written: JSON `body`, or `raw` text with its own content type, or an `error`
 * (shaped when written, see {@link shapeError}), or nothing (204).
 */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  contentType?: string;
  error?: ErrorContent;
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
  return {
    status: error.status,
    error: { code: error.code, message: error.message },
    headers: error.headers,
  };
}

/** Runs a handler and turns a thrown {@link ApiError} into its reply; other errors become a 500. */
export function replyFrom(handler: () => Reply): Reply {
  try {
    return handler();
  } catch (error) {
    if (error instanceof ApiError) return errorReply(error);
    const message = error instanceof Error ? error.message : String(error);
    return { status: 500, error: { code: "internal_error", message: `sandbox bug: ${message}` } };
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

/** A reply turned into what goes on the wire. */
export interface EncodedReply {
  status: number;
  headers: Record<string, string | number>;
  /** The body; undefined for none (204, or an empty error body). */
  payload: Buffer | undefined;
}

/** Encodes `reply`, giving an error reply the body of `errorShape` (default the sandbox's own). */
export function encodeReply(reply: Reply, errorShape: ErrorShape = "error"): EncodedReply {
  const headers: Record<string, string | number> = { ...reply.headers };
  let raw: string | undefined;
  let contentType: string | undefined = JSON_CONTENT_TYPE;
  if (reply.status === 204 || reply.status === 304 || reply.status < 200) {
    raw = undefined;
  } else if (reply.raw !== undefined) {
    raw = reply.raw;
    contentType = reply.contentType ?? JSON_CONTENT_TYPE;
  } else if (reply.body !== undefined) {
    raw = JSON.stringify(reply.body);
  } else if (reply.error !== undefined) {
    const shaped = shapeError(reply.status, reply.error, errorShape);
    if ("body" in shaped) raw = JSON.stringify(shaped.body);
    else ({ raw, contentType } = shaped);
  }
  if (raw === undefined) return { status: reply.status, headers, payload: undefined };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  const payload = Buffer.from(raw, "utf8");
  headers["Content-Length"] = payload.length;
  return { status: reply.status, headers, payload: payload.length === 0 ? undefined : payload };
}

/** Writes `reply` to `response`, unless the connection is already gone. */
export function writeReply(response: ServerResponse, reply: Reply, errorShape: ErrorShape = "error"): void {
  writeEncoded(response, encodeReply(reply, errorShape));
}

/**
 * Writes an encoded reply. With `cut`, sends the headers (full Content-Length) and half the body,
 * then destroys the socket: a body cut mid-stream.
 */
export function writeEncoded(response: ServerResponse, encoded: EncodedReply, cut = false): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(encoded.status, encoded.headers);
  if (cut && encoded.payload !== undefined) {
    response.write(encoded.payload.subarray(0, Math.floor(encoded.payload.length / 2)), () => {
      response.socket?.destroy();
    });
    return;
  }
  response.end(encoded.payload);
}

const BYTE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * Honours a single byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) on a 200 with a body, as a
 * caching proxy in front of the API might: 206 with Content-Range, or 416 when it starts past the
 * end. Anything else (several ranges, another unit, no body) is ignored, which RFC 9110 allows.
 *
 * @example
 * applyRange(encodeReply(json(200, { a: 1 })), "bytes=0-3").status; // 206
 */
export function applyRange(encoded: EncodedReply, range: string): EncodedReply {
  const match = BYTE_RANGE.exec(range.trim());
  const payload = encoded.payload;
  if (encoded.status !== 200 || payload === undefined || match === null) return encoded;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return encoded;
  const size = payload.length;
  let start: number;
  let end: number;
  if (first === "") {
    start = Math.max(0, size - Number(last));
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
    if (end < start && start < size) return encoded;
  }
  const headers = { ...encoded.headers };
  if (start >= size || (Number(last) === 0 && first === "")) {
    delete headers["Content-Type"];
    headers["Content-Range"] = `bytes */${size}`;
    headers["Content-Length"] = 0;
    return { status: 416, headers, payload: undefined };
  }
  const part = payload.subarray(start, end + 1);
  headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  headers["Content-Length"] = part.length;
  return { status: 206, headers, payload: part };
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
