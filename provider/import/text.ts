/**
 * Zone bytes -> zone text, losing nothing: UTF-8 is decoded; a byte that is not part of valid UTF-8
 * is kept as a lone surrogate U+DC80..U+DCFF (a code unit no valid text holds), so that the record it
 * sits in is skipped with its line instead of read with U+FFFD in its place. A byte-order mark is
 * read as one (UTF-8, UTF-16 little or big endian) and said.
 */

/** The text of a zone, and what decoding it noticed about the file as a whole. */
export interface ZoneText {
  readonly text: string;
  /** E.g. `a UTF-8 byte-order mark at the start was read as such`. */
  readonly notes: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The lone surrogate that stands for `byte` (0x80..0xFF), as Python's surrogateescape writes it. */
function escapedByte(byte: number): string {
  return String.fromCharCode(0xdc00 + byte);
}

/** One line's bytes as text, each byte that is not valid UTF-8 as its lone surrogate. */
function decodeLeniently(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    // The well-formed sequences of the Unicode Standard, table 3-7.
    let length = 0;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    }
    let valid = length > 0 && i + length <= n;
    // At most three more bytes: no need to stop at the first that fails.
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k] as number;
      const [lo, hi] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (c < lo || c > hi) valid = false;
    }
    if (!valid) {
      out += escapedByte(b);
      i++;
      continue;
    }
    out += utf8.decode(bytes.subarray(i, i + length));
    i += length;
  }
  return out;
}

/** Bytes as UTF-8 text, fast when they are valid, else line by line with invalid bytes escaped. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    // Line by line, the valid lines take the fast decoder (a 1 MB file with one bad byte: 20 ms, not 90).
    const parts: string[] = [];
    let from = 0;
    for (;;) {
      const lf = bytes.indexOf(0x0a, from);
      const line = bytes.subarray(from, lf < 0 ? bytes.length : lf);
      try {
        parts.push(utf8.decode(line));
      } catch {
        parts.push(decodeLeniently(line));
      }
      if (lf < 0) return parts.join("\n");
      from = lf + 1;
    }
  }
}

/**
 * The text of a zone file given as bytes (as read from disk) or as text.
 *
 * @example
 * zoneText(fs.readFileSync("example.com.zone")).text;
 */
export function zoneText(input: string | Uint8Array): ZoneText {
  const notes: string[] = [];
  if (typeof input === "string") {
    if (input.startsWith("\uFEFF")) {
      notes.push("a byte-order mark (U+FEFF) at the start was read as such, not as part of a name");
      return { text: input.slice(1), notes };
    }
    return { text: input, notes };
  }
  const [b0, b1, b2] = input;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    notes.push("a UTF-8 byte-order mark at the start was read as such, not as part of a name");
    return { text: decodeUtf8(input.subarray(3)), notes };
  }
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    const encoding = b0 === 0xff ? "utf-16le" : "utf-16be";
    notes.push(`read as ${encoding.toUpperCase()} (its byte-order mark says so)`);
    return { text: new TextDecoder(encoding).decode(input.subarray(2)), notes };
  }
  return { text: decodeUtf8(input), notes };
}

const ESCAPED_BYTE = /[\uDC80-\uDCFF]/u;

/** True when `text` holds a byte of the file that was not UTF-8. */
export function holdsInvalidBytes(text: string): boolean {
  return ESCAPED_BYTE.test(text);
}

/**
 * `text` with each byte that was not UTF-8 shown as `\xHH`, and any other lone surrogate as
 * `\u{HHHH}`: what a report or a message shows, which UTF-8 can carry.
 */
export function showBytes(text: string): string {
  return text.replace(/\p{Surrogate}/gu, (c) => {
    const code = c.charCodeAt(0);
    return code >= 0xdc80 && code <= 0xdcff
      ? // 0x80..0xFF: always two hex digits.
        `\\x${(code - 0xdc00).toString(16).toUpperCase()}`
      : `\\u{${code.toString(16).toUpperCase()}}`;
  });
}
