/**
 * The one spelling of an IPv6 address (RFC 5952), for comparing AAAA contents regardless of how a
 * program or an earlier state wrote them.
 *
 * Parsed and written by hand rather than through `net.isIPv6` and the URL parser: every state read
 * normalizes every record it holds, and a template of 100,000 records holds tens of thousands of
 * addresses (the regex and the URL object cost a microsecond each; this, a tenth of that). The
 * unit tests check it against `isIPv6` and the WHATWG URL serializer on generated addresses.
 *
 * This module knows neither HTTP nor Pulumi.
 */

const COLON = 0x3a;
const DOT = 0x2e;

/** The value of hex digit `code`, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * The dotted quad that ends `text` from `start` (decimal parts without leading zeros, as
 * `net.isIPv4` takes them), as two 16-bit pieces, or `undefined`.
 */
function quadAt(text: string, start: number): [number, number] | undefined {
  const parts: number[] = [];
  let i = start;
  while (parts.length < 4) {
    const first = i;
    let value = 0;
    while (i < text.length && i - first < 4) {
      const code = text.charCodeAt(i);
      if (code < 0x30 || code > 0x39) break;
      value = value * 10 + (code - 0x30);
      i++;
    }
    const digits = i - first;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && text.charCodeAt(first) === 0x30)) {
      return undefined;
    }
    parts.push(value);
    if (parts.length < 4) {
      if (text.charCodeAt(i) !== DOT) return undefined;
      i++;
    }
  }
  if (i !== text.length) return undefined;
  return [(parts[0]! << 8) | parts[1]!, (parts[2]! << 8) | parts[3]!];
}

/**
 * The eight 16-bit pieces of IPv6 address `text` (RFC 4291 2.2: hex groups of one to four digits,
 * at most one `::` standing for one or more zero pieces, maybe an IPv4 tail), or `undefined` when
 * `text` is not one (a zone index included).
 *
 * @example
 * ipv6Pieces("2001:DB8::1"); // [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]
 */
export function ipv6Pieces(text: string): number[] | undefined {
  const n = text.length;
  if (n < 2) return undefined;
  const pieces: number[] = [];
  let gapAt = -1;
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return undefined;
    gapAt = 0;
    i = 2;
  }
  while (i < n) {
    if (pieces.length === 8) return undefined;
    const start = i;
    let value = 0;
    for (let digit = hexDigit(text.charCodeAt(i)); digit >= 0 && i - start < 5; ) {
      value = value * 16 + digit;
      i++;
      digit = i < n ? hexDigit(text.charCodeAt(i)) : -1;
    }
    if (i < n && text.charCodeAt(i) === DOT) {
      const quad = quadAt(text, start);
      if (quad === undefined || pieces.length > 6) return undefined;
      pieces.push(quad[0], quad[1]);
      break;
    }
    if (i === start || i - start > 4) return undefined;
    pieces.push(value);
    if (i === n) break;
    if (text.charCodeAt(i) !== COLON) return undefined;
    i++;
    if (i === n) return undefined;
    if (text.charCodeAt(i) === COLON) {
      if (gapAt !== -1) return undefined;
      gapAt = pieces.length;
      i++;
    }
  }
  if (gapAt === -1) return pieces.length === 8 ? pieces : undefined;
  if (pieces.length > 7) return undefined;
  pieces.splice(gapAt, 0, ...new Array<number>(8 - pieces.length).fill(0));
  return pieces;
}

/**
 * RFC 5952 form of an IPv6 address: lower case, no leading zeros, the first longest run of two or
 * more zero pieces compressed, and an IPv4-mapped address in the mixed notation its section 5
 * recommends (`::ffff:192.0.2.1`). Anything that is not an IPv6 address comes back unchanged.
 *
 * @example
 * canonicalIPv6("2001:0DB8:0:0:0:0:0:0001"); // "2001:db8::1"
 */
export function canonicalIPv6(text: string): string {
  const p = ipv6Pieces(text);
  if (p === undefined) return text;
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0xffff) {
    const [high, low] = [p[6]!, p[7]!];
    return `::ffff:${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  // The first longest run of two or more zero pieces.
  let runStart = -1;
  let runLength = 1;
  for (let i = 0; i < 8; ) {
    if (p[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && p[end] === 0) end++;
    if (end - i > runLength) [runStart, runLength] = [i, end - i];
    i = end;
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === runStart) {
      out += "::";
      i += runLength - 1;
      continue;
    }
    if (i > 0 && i !== runStart + runLength) out += ":";
    out += p[i]!.toString(16);
  }
  return out;
}
