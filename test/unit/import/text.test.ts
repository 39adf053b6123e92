/**
 * Zone bytes -> text, losing nothing (the Unicode Standard, table 3-7, "Well-Formed UTF-8 Byte
 * Sequences"): any bytes come back exactly from the text; a well-formed sequence is its character
 * wherever it stands, an ill-formed byte its lone surrogate U+DC80..U+DCFF (Python's
 * surrogateescape), shown as `\xHH`; the byte-order marks editors write (UTF-8, and the UTF-16 of
 * Windows' Notepad and PowerShell's `Out-File`) read as such and said.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importZones } from "../../../provider/import";
import { holdsInvalidBytes, showBytes, zoneText } from "../../../provider/import/text";

/** The bytes a decoded text stands for: each U+DC80..U+DCFF its byte, every other character its UTF-8. */
function bytesOf(text: string): number[] {
  const out: number[] = [];
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xdc80 && code <= 0xdcff) out.push(code - 0xdc00);
    else out.push(...Buffer.from(char, "utf8"));
  }
  return out;
}

const escaped = (byte: number) => String.fromCharCode(0xdc00 + byte);

/** Characters of every UTF-8 length, line ends and a byte-order mark (which is text inside a file). */
const char = fc.oneof(
  fc.constantFrom("a", "\n", " ", ";", "\uFEFF", "é", "\u07ff", "\u0800", "€", "\ud7ff", "\ue000", "\uffff"),
  // U+0080 and U+10000, U+10FFFF: the first two-byte and four-byte sequences, the last.
  fc.constantFrom("\u0080", "\u{10000}", "😀", "\u{10ffff}"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

/** Byte runs no well-formed sequence holds, each of whose bytes is escaped on its own (table 3-7); an "a" follows each, so that the next piece cannot complete one cut short. */
const illFormed = fc.constantFrom(
  [0x80],
  [0xbf],
  [0xc0, 0x80], // overlong
  [0xc1, 0xbf], // overlong
  [0xc2], // cut short
  [0xdf],
  [0xe0, 0x80, 0x80], // overlong: E0 takes A0..BF next
  [0xe0, 0x9f, 0xbf],
  [0xe1, 0x80], // cut short
  [0xed, 0xa0, 0x80], // a surrogate: ED takes 80..9F next
  [0xef, 0xbf],
  [0xf0, 0x80, 0x80, 0x80], // overlong: F0 takes 90..BF next
  [0xf0, 0x8f, 0xbf, 0xbf],
  [0xf1, 0x80, 0x80], // cut short
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF: F4 takes 80..8F next
  [0xf5, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
);

describe("zoneText", () => {
  it("gives back any bytes exactly", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        // A file starting with a byte-order mark is read as the text after it.
        fc.pre(!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf));
        fc.pre(!((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)));
        expect(bytesOf(zoneText(bytes).text)).toEqual([...bytes]);
      }),
      { numRuns: 300 },
    );
  });

  it("reads each well-formed character as itself and each ill-formed byte as its surrogate, on any line", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            char.map((c) => ({ c })),
            illFormed.map((b) => ({ b: [...b, 0x61] })),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (pieces) => {
          const bytes = Buffer.concat(
            pieces.map((p) => ("c" in p ? Buffer.from(p.c, "utf8") : Buffer.from(p.b))),
          );
          fc.pre(!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf));
          fc.pre(!((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)));
          const expected = pieces
            .map((p) => ("c" in p ? p.c : `${p.b.slice(0, -1).map(escaped).join("")}a`))
            .join("");
          const { text, notes } = zoneText(new Uint8Array(bytes));
          expect(text).toBe(expected);
          expect(notes).toEqual([]);
          expect(holdsInvalidBytes(text)).toBe(pieces.some((p) => "b" in p));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads a sequence cut by the end of the file as its bytes", () => {
    expect(zoneText(new Uint8Array([0x61, 0xe2, 0x82])).text).toBe(`a${escaped(0xe2)}${escaped(0x82)}`);
    expect(zoneText(new Uint8Array([0xf0, 0x9f, 0x98])).text).toBe(
      escaped(0xf0) + escaped(0x9f) + escaped(0x98),
    );
  });

  it("reads a lead byte past F4 before continuation bytes as four ill-formed bytes, not a character", () => {
    // F5..F7: the four-byte form above U+10FFFF that RFC 2279 allowed and RFC 3629 removed.
    for (const lead of [0xf5, 0xf7]) {
      const bytes = new Uint8Array([0x61, lead, 0x80, 0x80, 0x80, 0x0a]);
      expect(zoneText(bytes).text).toBe(
        `a${escaped(lead)}${escaped(0x80)}${escaped(0x80)}${escaped(0x80)}\n`,
      );
    }
  });

  it("reads a UTF-8 byte-order mark as one and says so; a second one is text", () => {
    const bom = [0xef, 0xbb, 0xbf];
    const z = zoneText(new Uint8Array([...bom, ...bom, 0x61, 0xff, 0x0a, ...bom, 0x62]));
    expect(z.text).toBe(`\uFEFFa${escaped(0xff)}\n\uFEFFb`);
    expect(z.notes).toEqual(["a UTF-8 byte-order mark at the start was read as such, not as part of a name"]);
    expect(zoneText(new Uint8Array([...bom, ...bom, 0x61])).text).toBe("\uFEFFa");
  });

  it("reads UTF-16 with its byte-order mark, little or big endian, and says which", () => {
    const text = "$ORIGIN example.com.\r\nwww A 192.0.2.1\r\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    expect(zoneText(le)).toEqual({ text, notes: ["read as UTF-16LE (its byte-order mark says so)"] });
    const be = Buffer.from(le);
    be.swap16();
    expect(zoneText(be)).toEqual({ text, notes: ["read as UTF-16BE (its byte-order mark says so)"] });
    // 0xFF alone, or 0xFE 0xFE, is no mark.
    expect(zoneText(new Uint8Array([0xff, 0x61])).text).toBe(`${escaped(0xff)}a`);
    expect(zoneText(new Uint8Array([0xfe, 0xfe])).text).toBe(escaped(0xfe) + escaped(0xfe));
    expect(zoneText(new Uint8Array([0xef, 0xbb, 0x61])).text).toBe(`${escaped(0xef)}${escaped(0xbb)}a`);
    // Two of the mark's three bytes are no mark.
    expect(zoneText(new Uint8Array([0x61, 0xbb, 0xbf]))).toEqual({
      text: `a${escaped(0xbb)}${escaped(0xbf)}`,
      notes: [],
    });
    expect(zoneText(new Uint8Array([0xef, 0x61, 0xbf])).text).toBe(`${escaped(0xef)}a${escaped(0xbf)}`);
  });

  it("reads text given as a string as it is, but for a leading byte-order mark, said", () => {
    expect(zoneText("\uFEFFwww A 192.0.2.1\n")).toEqual({
      text: "www A 192.0.2.1\n",
      notes: ["a byte-order mark (U+FEFF) at the start was read as such, not as part of a name"],
    });
    expect(zoneText("www A 192.0.2.1\n\uFEFF")).toEqual({ text: "www A 192.0.2.1\n\uFEFF", notes: [] });
  });
});

describe("showBytes and holdsInvalidBytes", () => {
  it("show a byte that was not UTF-8 as \\xHH and any other lone surrogate as \\u{HHHH}", () => {
    expect(showBytes(`caf${escaped(0xe9)} ${escaped(0x80)}${escaped(0xff)}`)).toBe("caf\\xE9 \\x80\\xFF");
    expect(showBytes("\ud800x\udc7f\udd00😀")).toBe("\\u{D800}x\\u{DC7F}\\u{DD00}😀");
    expect(holdsInvalidBytes(`a${escaped(0x80)}`)).toBe(true);
    expect(holdsInvalidBytes(`a${escaped(0xff)}`)).toBe(true);
    expect(holdsInvalidBytes("a\udc7f\udd00😀")).toBe(false);
  });

  it("a Latin-1 record is skipped with its byte shown, the others read", () => {
    const bytes = Buffer.concat([
      Buffer.from('$ORIGIN example.com.\nt TXT "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\nwww A 192.0.2.1\n'),
    ]);
    const [t] = importZones([{ text: bytes, file: "latin1.zone" }]);
    expect(t?.records.map((r) => r.record.name)).toEqual(["www"]);
    expect(t?.skipped).toHaveLength(1);
    expect(t?.skipped[0]?.line).toBe(2);
    expect(`${t?.skipped[0]?.text} ${t?.skipped[0]?.reason}`).toContain("\\xE9");
  });
});
