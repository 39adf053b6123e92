/**
 * Keeping the API key out of every text this package builds: {@link redact} finds the key in any
 * form an API may echo it, {@link quote} shows a value in a message, redacted before it is cut.
 *
 * Redaction comes first, always: a key cut in half is no longer found, and its surviving half is
 * still a secret. This module knows neither HTTP nor Pulumi.
 */

/** The longest value {@link quote} shows before it cuts. */
const MAX_QUOTED_CHARS = 200;

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * One character of the secret in every form an API may echo it: as is, backslash-escaped (PHP's
 * `json_encode` writes `/` as `\/`), as JSON `\uXXXX` escapes (a character beyond U+FFFF as its
 * two surrogates), percent-encoded as UTF-8 (a query value echoed back; a space also as `+`, as a
 * form encodes it), or in the legacy form of JavaScript's `escape()` and Latin-1 pages (`%E9`,
 * `%u4E2D`). Each character may take a different form, so a partly escaped echo is caught too.
 */
function charPattern(char: string): string {
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
  const forms = [
    escapeRegExp(char),
    `\\\\${escapeRegExp(char)}`,
    units.map((u) => `\\\\u${hex(u, 4)}`).join(""),
  ];
  // A lone surrogate has no UTF-8 bytes to percent-encode (encodeURIComponent throws on it).
  if (char.isWellFormed()) forms.push(escapeRegExp(encodeURIComponent(char)));
  forms.push(units[0]! <= 0xff ? `%${hex(units[0]!, 2)}` : units.map((u) => `%u${hex(u, 4)}`).join(""));
  if (char === " ") forms.push("\\+");
  return `(?:${forms.join("|")})`;
}

/** A UTF-16 code unit as hex digits, `digits` of them at least. */
function hex(unit: number, digits: number): string {
  return unit.toString(16).padStart(digits, "0");
}

/**
 * The pattern that finds `secret` in any of its echoed forms. Never cached here: a compiled
 * pattern is about 100 KB and holds the key, so a module-level cache grew with every key a
 * process had seen (docs/design.md, "Clients"). A holder that outlives one call keeps its own
 * ({@link redactor}).
 */
function secretPattern(secret: string): RegExp {
  // Case-insensitive for the hex digits of the escapes; a case variant of the key is redacted too.
  return new RegExp(Array.from(secret, charPattern).join(""), "gi");
}

/**
 * {@link redact} for one secret, its pattern built once: for a holder that redacts many texts and
 * lives only as long as it uses the secret (a client's transport), so the pattern goes with it.
 *
 * @example
 * const hide = redactor("abc123");
 * hide("bad key abc123"); // "bad key [redacted]"
 */
export function redactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  const pattern = secretPattern(secret);
  // The replacement is written here, not in a module constant, so that each call reads it.
  return (text) => text.replace(pattern, "[redacted]");
}

/**
 * Replaces every occurrence of `secret` in `text` with `[redacted]`: the exact key, and the key as
 * an API may echo it, escaped for JSON (`\/`, `\u0073`) or percent-encoded (`%2F`), in any mix.
 *
 * Run it on whole texts, before any cut (or use {@link quote}): a key cut in half is no longer
 * found. Short secrets are redacted too: a key that short is a configuration mistake, not a
 * reason to leak it.
 *
 * @example
 * redact("bad key abc123", "abc123"); // "bad key [redacted]"
 * redact('{"key":"sk\\/1"}', "sk/1"); // '{"key":"[redacted]"}'
 */
export function redact(text: string, secret: string | undefined): string {
  return redactor(secret)(text);
}

/**
 * A value as a message shows it: the key redacted first, then cut to `max` characters (with `…`),
 * then JSON-quoted, so that no part of a key survives the cut and no line break or quote in the
 * value can change the message's shape.
 *
 * @example
 * quote("https://api.example.com/?api_key=abc123", "abc123"); // '"https://api.example.com/?api_key=[redacted]"'
 */
export function quote(value: string, secret: string | undefined, max = MAX_QUOTED_CHARS): string {
  const safe = redact(value, secret);
  return JSON.stringify(safe.length > max ? `${safe.slice(0, max)}…` : safe);
}
