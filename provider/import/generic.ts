/**
 * RFC 3597 generic records (`TYPE1 \# 4 C0000201`, also `A \# 4 C0000201`): the type number read
 * as its mnemonic, the hex rdata read as the wire format of that type and written back in its
 * presentation form, so that the rest of the import reads it as if the host had written it so.
 */
import { ZoneInputError } from "./errors";
import type { Token } from "./tokens";

/** The types whose number a zone may write as `TYPEnnn` (RFC 1035, 3596, 2782, 6698, 8659...). */
const MNEMONICS: ReadonlyMap<number, string> = new Map([
  [1, "A"],
  [2, "NS"],
  [5, "CNAME"],
  [6, "SOA"],
  [12, "PTR"],
  [15, "MX"],
  [16, "TXT"],
  [28, "AAAA"],
  [33, "SRV"],
  [35, "NAPTR"],
  [43, "DS"],
  [44, "SSHFP"],
  [52, "TLSA"],
  [64, "SVCB"],
  [65, "HTTPS"],
  [99, "SPF"],
  [257, "CAA"],
]);

/** `TYPE28` -> `AAAA`; a mnemonic or an unknown number as written (upper-cased). */
export function typeMnemonic(type: string): string {
  const upper = type.toUpperCase();
  const number = /^TYPE(\d+)$/.exec(upper)?.[1];
  // Number(undefined) is NaN, which no mnemonic has.
  return MNEMONICS.get(Number(number)) ?? upper;
}

/** A byte of a name's label or a character-string in presentation form. */
function presentByte(byte: number, special: string): string {
  const char = String.fromCharCode(byte);
  if (byte < 0x21 || byte > 0x7e) return `\\${String(byte).padStart(3, "0")}`;
  return special.includes(char) ? `\\${char}` : char;
}

class WireReader {
  private at = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly fail: (why: string) => ZoneInputError,
  ) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  u8(): number {
    if (this.at >= this.bytes.length) throw this.fail("its data ends early");
    return this.bytes[this.at++] as number;
  }

  u16(): number {
    return this.u8() * 256 + this.u8();
  }

  take(n: number): Uint8Array {
    if (this.at + n > this.bytes.length) throw this.fail("its data ends early");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  rest(): Uint8Array {
    return this.take(this.bytes.length - this.at);
  }

  /** An uncompressed domain name (RFC 3597 section 4: no compression in generic rdata). */
  name(): string {
    const labels: string[] = [];
    for (;;) {
      const length = this.u8();
      if (length === 0) break;
      if (length > 63) throw this.fail("a name in it is compressed or its label is longer than 63 bytes");
      labels.push([...this.take(length)].map((b) => presentByte(b, '.\\"();@$')).join(""));
    }
    // No label: the root, ".".
    return `${labels.join(".")}.`;
  }

  characterString(): string {
    return [...this.take(this.u8())].map((b) => presentByte(b, '"\\')).join("");
  }

  end(): void {
    if (!this.done) throw this.fail("it has more data than its type holds");
  }
}

const word = (text: string): Token => ({ text, quoted: false });
const quoted = (text: string): Token => ({ text, quoted: true });

/**
 * The rdata of a record written in RFC 3597's generic form, in its type's own presentation form.
 *
 * @param type the record's mnemonic (after {@link typeMnemonic})
 * @param rdata the tokens after the type: `\#`, the length, the hex
 * @returns undefined when the rdata is not generic; the tokens, unchanged, for a type this reader
 *   does not know (the import skips those anyway)
 * @throws {ZoneInputError} a length that is not the hex's, hex that is not hex, data of the wrong
 *   shape for its type
 */
export function genericRdata(
  type: string,
  rdata: readonly Token[],
  file: string,
  line: number,
): Token[] | undefined {
  const [mark, length, ...hexTokens] = rdata;
  if (!mark || mark.quoted || mark.text !== "\\#") return undefined;
  const form = `expected RFC 3597 generic data: \\# <length> <hex>`;
  if (!length || length.quoted || !/^\d+$/.test(length.text)) throw new ZoneInputError(file, line, form);
  const hex = hexTokens.map((t) => t.text).join("");
  if (hexTokens.some((t) => t.quoted) || !/^([0-9A-Fa-f]{2})*$/.test(hex))
    throw new ZoneInputError(file, line, `${form}; "${hex}" is not hex digits in pairs`);
  const bytes = Buffer.from(hex, "hex");
  if (bytes.length !== Number(length.text))
    throw new ZoneInputError(file, line, `${form}; it says ${length.text} bytes and gives ${bytes.length}`);
  const reader = new WireReader(
    bytes,
    (why) => new ZoneInputError(file, line, `the generic (RFC 3597) ${type} data cannot be read: ${why}`),
  );
  const tokens: Token[] = [];
  switch (type) {
    case "A":
      tokens.push(word([...reader.take(4)].join(".")));
      break;
    case "AAAA": {
      const groups: string[] = [];
      for (let i = 0; i < 8; i++) groups.push(reader.u16().toString(16));
      tokens.push(word(groups.join(":")));
      break;
    }
    case "NS":
    case "CNAME":
    case "PTR":
      tokens.push(word(reader.name()));
      break;
    case "MX":
      tokens.push(word(String(reader.u16())), word(reader.name()));
      break;
    case "SRV":
      tokens.push(
        word(String(reader.u16())),
        word(String(reader.u16())),
        word(String(reader.u16())),
        word(reader.name()),
      );
      break;
    case "TXT":
    case "SPF":
      do tokens.push(quoted(reader.characterString()));
      while (!reader.done);
      break;
    case "CAA": {
      const flags = reader.u8();
      const tag = [...reader.take(reader.u8())].map((b) => presentByte(b, '"\\();')).join("");
      const value = [...reader.rest()].map((b) => presentByte(b, '"\\')).join("");
      tokens.push(word(String(flags)), word(tag), quoted(value));
      break;
    }
    case "TLSA":
      tokens.push(
        word(String(reader.u8())),
        word(String(reader.u8())),
        word(String(reader.u8())),
        word(Buffer.from(reader.rest()).toString("hex")),
      );
      break;
    default:
      return [...rdata];
  }
  reader.end();
  return tokens;
}
