/**
 * The API's own words in an error body, whose shape the spec does not show. This module knows
 * neither HTTP libraries nor Pulumi; the key is redacted before anything is parsed or cut.
 */
import { STATUS_CODES } from "node:http";
import { redact } from "../errors/redact";

/** How an error body's message is cut, so that an HTML error page does not flood the terminal. */
const MAX_API_MESSAGE_CHARS = 500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]+/g;

/**
 * Finds the most useful message in an API error body.
 *
 * Tries, in order: `message`, `error` (a string), `error.message`, `errors[].message` (joined),
 * `detail`, `title`; else the raw text, whitespace collapsed and cut to 500 characters; an empty
 * body gives the status text (e.g. `Service Unavailable`). With `secret`, the key is redacted in
 * every form (see {@link redact}) before anything is parsed or cut, so no part of it survives.
 *
 * @example
 * extractApiMessage('{"error":{"code":"not_found","message":"no such template"}}', 404); // "no such template"
 * extractApiMessage("", 503); // "Service Unavailable"
 */
export function extractApiMessage(bodyText: string, status: number, secret?: string): string {
  const text = redact(bodyText, secret).trim();
  if (text === "") return STATUS_CODES[status] ?? `HTTP ${status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return cut(text);
  }
  // Parsing undoes JSON escapes, so the parsed message is redacted again before the cut.
  return cut(redact(messageFromJson(parsed) ?? text, secret));
}

function messageFromJson(value: unknown): string | undefined {
  if (typeof value === "string") return nonEmpty(value);
  if (!isRecord(value)) return undefined;
  const { error, errors } = value;
  const fromErrors = Array.isArray(errors)
    ? errors
        .map((e) =>
          typeof e === "string" ? e : isRecord(e) && typeof e.message === "string" ? e.message : undefined,
        )
        .filter((m): m is string => m !== undefined && m.trim() !== "")
        .join("; ")
    : undefined;
  return (
    stringField(value, "message") ??
    (typeof error === "string" ? nonEmpty(error) : undefined) ??
    (isRecord(error) ? stringField(error, "message") : undefined) ??
    nonEmpty(fromErrors ?? "") ??
    stringField(value, "detail") ??
    stringField(value, "title")
  );
}

/** An object whose fields can be asked for; an array is one too, and holds none of the fields asked. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key];
  return typeof v === "string" ? nonEmpty(v) : undefined;
}

function nonEmpty(s: string): string | undefined {
  return s.trim() === "" ? undefined : s;
}

/** Control characters out (a terminal escape in an HTML page, say), whitespace collapsed, cut. */
function cut(text: string): string {
  const flat = text.replace(CONTROL_CHARS, " ").replace(/\s+/g, " ").trim();
  return flat.length > MAX_API_MESSAGE_CHARS ? `${flat.slice(0, MAX_API_MESSAGE_CHARS)}…` : flat;
}
