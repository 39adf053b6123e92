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
const ZERO = 0x30;
const LOWER_A = 0x61;

/** The value of hex digit `code`, or a negative number when it is none (below "0": its distance from it). */
function hexDigit(code: number): number {
  if (code <= ZERO + 9) return code - ZERO;
  const lower = code | 0x20;
  return lower >= LOWER_A && lower <= LOWER_A + 5 ? lower - LOWER_A + 10 : -1;
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
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code < 0x30 || code > 0x39) break;
      value = value * 10 + (code - 0x30);
      i++;
    }
    const digits = i - first;
    // Four digits or more are past 255 or start with a zero: no count of digits to check.
    if (digits === 0 || value > 255 || (digits > 1 && text.charCodeAt(first) === 0x30)) {
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

/** The pieces of the address {@link parse} read last: no array per address. */
const pieces = new Uint16Array(8);
/** Where the `::` of that address stands for zero pieces, and for how many (-1 and 0: none). */
let gapStart = -1;
let gapLength = 0;
/** Whether that address was written in lower-case hex without leading zeros or a dotted tail. */
let plain = true;

/**
 * Reads IPv6 address `text` (RFC 4291 2.2: hex groups of one to four digits, at most one `::`
 * standing for one or more zero pieces, maybe an IPv4 tail) into {@link pieces}, and how it was
 * written; false when `text` is not one (a zone index included).
 */
function parse(text: string): boolean {
  const n = text.length;
  let count = 0;
  let gapAt = -1;
  let i = 0;
  // Stryker disable next-line BooleanLiteral: a plain that is false where it could be true only skips the shortcut of canonicalIPv6, which writes the same text from the pieces
  plain = true;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    gapAt = 0;
    i = 2;
  }
  // One pass over the characters: the group being read is `value`, of `digits` digits from `start`.
  // Pieces past the eighth are not kept (a typed array) but counted: the count at the end refuses them.
  let start = i;
  let value = 0;
  let digits = 0;
  for (; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code === COLON) {
      if (digits === 0) return false;
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a plain that is false where it could be true only skips the shortcut of canonicalIPv6, which writes the same text from the pieces
      if (digits > 1 && text.charCodeAt(start) === ZERO) plain = false;
      pieces[count++] = value;
      value = 0;
      digits = 0;
      if (i + 1 === n) return false;
      if (text.charCodeAt(i + 1) === COLON) {
        if (gapAt !== -1) return false;
        gapAt = count;
        i++;
      }
      start = i + 1;
      continue;
    }
    if (code === DOT) {
      const quad = quadAt(text, start);
      if (quad === undefined) return false;
      pieces[count++] = quad[0];
      pieces[count++] = quad[1];
      plain = false;
      digits = -1;
      break;
    }
    const digit = hexDigit(code);
    if (digit < 0 || ++digits > 4) return false;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a plain that is false where it could be true only skips the shortcut of canonicalIPv6, which writes the same text from the pieces
    if (digit > 9 && code < LOWER_A) plain = false;
    value = value * 16 + digit;
  }
  if (digits > 0) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a plain that is false where it could be true only skips the shortcut of canonicalIPv6, which writes the same text from the pieces
    if (digits > 1 && text.charCodeAt(start) === ZERO) plain = false;
    pieces[count++] = value;
  }
  if (gapAt === -1) {
    // Stryker disable next-line UnaryOperator: with no gap, a gapStart of 1 meets only a run of two or more zeros, which a gapLength of 0 never matches: the shortcut is skipped, the same text written
    gapStart = -1;
    gapLength = 0;
    return count === 8;
  }
  if (count > 7) return false;
  gapStart = gapAt;
  gapLength = 8 - count;
  pieces.copyWithin(gapAt + gapLength, gapAt, count);
  pieces.fill(0, gapAt, gapAt + gapLength);
  return true;
}

/**
 * The eight 16-bit pieces of IPv6 address `text` (RFC 4291 2.2), or `undefined` when `text` is not
 * one (a zone index included).
 *
 * @example
 * ipv6Pieces("2001:DB8::1"); // [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]
 */
export function ipv6Pieces(text: string): number[] | undefined {
  return parse(text) ? Array.from(pieces) : undefined;
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
  if (!parse(text)) return text;
  const p = pieces;
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0xffff) {
    const [high, low] = [p[6]!, p[7]!];
    return `::ffff:${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  // The first longest run of two or more zero pieces.
  let runStart = -1;
  let runLength = 1;
  // Stryker disable next-line EqualityOperator: p[8] of the Uint16Array(8) is undefined, not 0: a ninth step only moves past it
  for (let i = 0; i < 8; ) {
    if (p[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: p[8] of the Uint16Array(8) is undefined, not 0: the run ends there either way
    while (end < 8 && p[end] === 0) end++;
    if (end - i > runLength) {
      runStart = i;
      runLength = end - i;
    }
    i = end;
  }
  // Most addresses are stored in this form already: then the text is the answer.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a condition that holds less often only skips the shortcut; the pieces are written as the same text
  if (plain && runStart === gapStart && (runStart === -1 || runLength === gapLength)) return text;
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
