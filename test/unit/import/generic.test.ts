/**
 * RFC 3597 generic records (`TYPE1 \# 4 C0000201`, and `A \# 4 ...` for a known type) read as the
 * type's own presentation form, as the wire formats of RFC 1035 3.3 and 3.4 (A, NS, CNAME, PTR,
 * MX, TXT), RFC 3596 (AAAA), RFC 2782 (SRV), RFC 8659 (CAA) and RFC 6698 (TLSA) lay them out; the
 * type numbers from IANA's registry; names and strings in RFC 1035 5.1's escaped form. Data of the
 * wrong length or shape is refused naming the file and line.
 */
import { describe, expect, it } from "vitest";
import { importZones, ZoneInputError } from "../../../provider/import";
import { genericRdata, typeMnemonic } from "../../../provider/import/generic";

const word = (text: string) => ({ text, quoted: false });

/** The presentation tokens of `\# <length> <hex>` for `type`, as `[text, quoted]` pairs. */
function read(type: string, hex: string, length = hex.replace(/\s/g, "").length / 2) {
  const tokens = genericRdata(
    type,
    [word("\\#"), word(String(length)), ...hex.split(" ").map(word)],
    "z.zone",
    9,
  );
  return tokens?.map((t) => [t.text, t.quoted]);
}

function refusal(type: string, rdata: { text: string; quoted: boolean }[]): string {
  try {
    genericRdata(type, rdata, "z.zone", 9);
  } catch (err) {
    if (err instanceof ZoneInputError) return err.message;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

const hexOf = (text: string) => Buffer.from(text, "latin1").toString("hex");
/** A name in wire form (RFC 1035 3.1): length-prefixed labels, then the root's zero. */
const wireName = (...labels: string[]) =>
  `${labels.map((l) => l.length.toString(16).padStart(2, "0") + hexOf(l)).join("")}00`;

describe("type numbers (IANA's registry)", () => {
  it("TYPEnnn of a known type is its mnemonic, in any case", () => {
    const known: [string, string][] = [
      ["TYPE1", "A"],
      ["TYPE2", "NS"],
      ["TYPE5", "CNAME"],
      ["TYPE6", "SOA"],
      ["TYPE12", "PTR"],
      ["TYPE15", "MX"],
      ["TYPE16", "TXT"],
      ["type28", "AAAA"],
      ["TYPE33", "SRV"],
      ["TYPE35", "NAPTR"],
      ["TYPE43", "DS"],
      ["TYPE44", "SSHFP"],
      ["TYPE52", "TLSA"],
      ["TYPE64", "SVCB"],
      ["TYPE65", "HTTPS"],
      ["TYPE99", "SPF"],
      ["TYPE257", "CAA"],
    ];
    expect(known.map(([t]) => typeMnemonic(t))).toEqual(known.map(([, m]) => m));
  });

  it("an unknown number, or a mnemonic, is kept as written, upper-cased", () => {
    expect(["TYPE0", "type999", "mx", "TYPEX", "XTYPE1", "TYPE1X"].map(typeMnemonic)).toEqual([
      "TYPE0",
      "TYPE999",
      "MX",
      "TYPEX",
      "XTYPE1",
      "TYPE1X",
    ]);
  });
});

describe("the generic form, read as the type's own", () => {
  it("rdata that is not generic is no business of this reader", () => {
    expect(genericRdata("A", [word("192.0.2.1")], "z", 1)).toBeUndefined();
    expect(genericRdata("A", [], "z", 1)).toBeUndefined();
    expect(genericRdata("TXT", [{ text: "\\#", quoted: true }, word("0")], "z", 1)).toBeUndefined();
    expect(genericRdata("A", [word("#"), word("4"), word("C0000201")], "z", 1)).toBeUndefined();
  });

  it("A and AAAA: the address, AAAA's groups without leading zeros", () => {
    expect(read("A", "C0000201")).toEqual([["192.0.2.1", false]]);
    expect(read("A", "C0 00 02 FF")).toEqual([["192.0.2.255", false]]);
    expect(read("AAAA", "20010db8000000000000000000000001")).toEqual([["2001:db8:0:0:0:0:0:1", false]]);
    expect(read("AAAA", "ffff00010a0b0c0d0e0f101112131415")).toEqual([
      ["ffff:1:a0b:c0d:e0f:1011:1213:1415", false],
    ]);
  });

  it("NS, CNAME, PTR: one name, absolute, its special characters escaped", () => {
    const name = wireName("www", "example", "com");
    expect(read("NS", name)).toEqual([["www.example.com.", false]]);
    expect(read("CNAME", name)).toEqual([["www.example.com.", false]]);
    expect(read("PTR", name)).toEqual([["www.example.com.", false]]);
    expect(read("CNAME", "00")).toEqual([[".", false]]);
    expect(read("CNAME", wireName('a.b"c\\d(e)f;g@h$i', "x"))).toEqual([
      ['a\\.b\\"c\\\\d\\(e\\)f\\;g\\@h\\$i.x.', false],
    ]);
    // A blank, a control and bytes outside ASCII are \DDD; ! and ~ (0x21, 0x7E) are themselves.
    expect(read("CNAME", wireName("a b\u0001!~\u007f\u00e9"))).toEqual([
      ["a\\032b\\001!~\\127\\233.", false],
    ]);
  });

  it("MX and SRV: their numbers, high byte first, and the target", () => {
    const target = wireName("mail", "example");
    expect(read("MX", `000a${target}`)).toEqual([
      ["10", false],
      ["mail.example.", false],
    ]);
    expect(read("MX", `0100${target}`)?.[0]).toEqual(["256", false]);
    expect(read("SRV", `0001 0002 13c4 ${target}`)).toEqual([
      ["1", false],
      ["2", false],
      ["5060", false],
      ["mail.example.", false],
    ]);
  });

  it("TXT and SPF: each character-string, quoted, its quotes and backslashes escaped", () => {
    const strings = `05${hexOf('a"b\\c')}00 03${hexOf("x\ty")}`;
    const expected = [
      ['a\\"b\\\\c', true],
      ["", true],
      ["x\\009y", true],
    ];
    expect(read("TXT", strings)).toEqual(expected);
    expect(read("SPF", strings)).toEqual(expected);
  });

  it("CAA: the flags, the tag and the quoted value", () => {
    const value = 'ca.example.net; "x"';
    expect(read("CAA", `80 05 ${hexOf("issue")} ${hexOf(value)}`)).toEqual([
      ["128", false],
      ["issue", false],
      // A blank is \032 in presentation form, quoted or not (RFC 1035 5.1 allows either).
      ['ca.example.net;\\032\\"x\\"', true],
    ]);
    expect(read("CAA", `00 03 ${hexOf("a;(")}`)).toEqual([
      ["0", false],
      ["a\\;\\(", false],
      ["", true],
    ]);
  });

  it("TLSA: usage, selector, matching type and the data as lower-case hex", () => {
    expect(read("TLSA", "030101ABCDEF")).toEqual([
      ["3", false],
      ["1", false],
      ["1", false],
      ["abcdef", false],
    ]);
  });

  it("a type this reader does not know keeps its generic tokens", () => {
    const rdata = [word("\\#"), word("2"), word("ABCD")];
    expect(genericRdata("TYPE999", rdata, "z", 1)).toEqual(rdata);
  });

  it("through the import: a generic record becomes the record it stands for, said", () => {
    const [t] = importZones([
      {
        text: `$ORIGIN example.com.\na TYPE1 \\# 4 C0000201\nm MX \\# ${2 + 16} 000a ${wireName("mx", "example", "com")}\n`,
        file: "z.zone",
      },
    ]);
    expect(t?.records.map((r) => r.record)).toEqual([
      { name: "a", type: "A", content: "192.0.2.1" },
      { name: "m", type: "MX", content: "mx.{domainname}.", priority: 10 },
    ]);
  });
});

describe("generic data that cannot be read is refused, naming the file and the line", () => {
  const form = "z.zone:9: expected RFC 3597 generic data: \\# <length> <hex>";

  it("a length that is missing or no number", () => {
    expect(refusal("A", [word("\\#")])).toBe(form);
    expect(refusal("A", [word("\\#"), word("four"), word("C0000201")])).toBe(form);
    expect(refusal("A", [word("\\#"), word("4x"), word("C0000201")])).toBe(form);
    expect(refusal("A", [word("\\#"), word("x4"), word("C0000201")])).toBe(form);
    expect(refusal("A", [word("\\#"), { text: "4", quoted: true }, word("C0000201")])).toBe(form);
  });

  it("hex that is not hex digits in pairs", () => {
    expect(refusal("A", [word("\\#"), word("4"), word("C00002G1")])).toBe(
      `${form}; "C00002G1" is not hex digits in pairs`,
    );
    expect(refusal("A", [word("\\#"), word("2"), word("C00")])).toBe(
      `${form}; "C00" is not hex digits in pairs`,
    );
    expect(refusal("A", [word("\\#"), word("4"), word("C000"), { text: "0201", quoted: true }])).toBe(
      `${form}; "C0000201" is not hex digits in pairs`,
    );
    expect(refusal("A", [word("\\#"), word("4"), { text: "C0000201", quoted: true }])).toBe(
      `${form}; "C0000201" is not hex digits in pairs`,
    );
  });

  it("a length that is not the hex's", () => {
    expect(refusal("A", [word("\\#"), word("5"), word("C0000201")])).toBe(
      `${form}; it says 5 bytes and gives 4`,
    );
  });

  it("data shorter or longer than its type holds", () => {
    expect(() => read("A", "C00002")).toThrow(
      "z.zone:9: the generic (RFC 3597) A data cannot be read: its data ends early",
    );
    expect(() => read("A", "C000020101")).toThrow(
      "z.zone:9: the generic (RFC 3597) A data cannot be read: it has more data than its type holds",
    );
    expect(() => read("AAAA", "20010db8")).toThrow(/AAAA data cannot be read: its data ends early$/);
    expect(() => read("MX", "000a")).toThrow(/MX data cannot be read: its data ends early$/);
    expect(() => read("MX", "000a0378")).toThrow(/MX data cannot be read: its data ends early$/);
    expect(() => read("TXT", "")).toThrow(/TXT data cannot be read: its data ends early$/);
    expect(() => read("TXT", "0561")).toThrow(/TXT data cannot be read: its data ends early$/);
    expect(() => read("CAA", "0005")).toThrow(/CAA data cannot be read: its data ends early$/);
    expect(() => read("TLSA", "0301")).toThrow(/TLSA data cannot be read: its data ends early$/);
  });

  it("a compressed name, or a label longer than 63 bytes", () => {
    expect(() => read("CNAME", "c00c")).toThrow(
      "z.zone:9: the generic (RFC 3597) CNAME data cannot be read: a name in it is compressed or its label is longer than 63 bytes",
    );
    expect(read("CNAME", wireName("a".repeat(63)))?.[0]?.[0]).toBe(`${"a".repeat(63)}.`);
    expect(() => read("CNAME", `40${hexOf("a".repeat(64))}00`)).toThrow(
      /compressed or its label is longer than 63 bytes$/,
    );
  });
});
