/**
 * The rdata of each record type the API takes, as domainapi-import reads it from zone text and as
 * the user then sees it: the record's content and numbers, each change said in the report, the
 * records skipped with their reason, and the refusals of rdata of the wrong shape naming the line
 * and the form expected. Written from RFC 1035 5.1 (character-strings, `\DDD` and `\X` escapes,
 * relative names), RFC 7208 3.3 (SPF strings read joined), RFC 6376 3.6.2.2 (DKIM likewise), RFC
 * 7489 (DMARC), RFC 8659 (CAA), RFC 6698 2.2 (TLSA hex, which may hold blanks) and UTS #46 (names
 * outside ASCII in their xn-- form).
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ImportOptions, importZones, ZoneInputError } from "../../../provider/import";
import {
  asciiName,
  characterStringBytes,
  convertRdata,
  type DomainOptions,
  doubledDomain,
  NotImportableError,
  NotTextError,
  placeDomain,
} from "../../../provider/import/rdata";

function zone(lines: string[], options: ImportOptions = {}) {
  const [t] = importZones([{ text: `$ORIGIN example.com.\n${lines.join("\n")}\n`, file: "z.zone" }], options);
  if (!t) throw new Error("no template");
  return t;
}

/** Name, type, content and numbers of each record imported. */
function records(lines: string[], options: ImportOptions = {}) {
  return zone(lines, options).records.map((r) => r.record);
}

function changes(lines: string[], options: ImportOptions = {}): string[] {
  return zone(lines, options).changes.map((c) => c.change);
}

function refusal(lines: string[]): string {
  try {
    zone(lines);
  } catch (err) {
    if (err instanceof ZoneInputError) return err.message;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

const word = (text: string) => ({ text, quoted: false });
const quoted = (text: string) => ({ text, quoted: true });
const DOMAIN: DomainOptions = { domain: "example.com.", keepDomain: false };

/** An entry of the zone `example.com.` at line 7, as zone.ts gives it. */
function entry(type: string, rdata: { text: string; quoted: boolean }[]) {
  return {
    line: 7,
    owner: "x.example.com.",
    origin: "example.com.",
    type,
    klass: "IN",
    hasTtl: false,
    ownerCaseChanged: false,
    rdata,
  };
}

const bytes = (text: string) => [...characterStringBytes(text).bytes];
const utf8 = (text: string) => [...Buffer.from(text, "utf8")];

describe("character-strings: RFC 1035 5.1 escapes", () => {
  it("\\DDD is the byte DDD (decimal), \\X is X, text without a backslash is its UTF-8", () => {
    expect(characterStringBytes("plain é")).toEqual({
      bytes: new Uint8Array(utf8("plain é")),
      escaped: false,
    });
    expect(characterStringBytes("a\\065b").escaped).toBe(true);
    expect(bytes("a\\065b")).toEqual(utf8("aAb"));
    expect(bytes("\\000\\255")).toEqual([0, 255]);
    expect(bytes('\\"q\\"\\\\')).toEqual(utf8('"q"\\'));
    expect(bytes("\\;x")).toEqual(utf8(";x"));
    // Two escapes in a row, then text after them.
    expect(bytes("\\\\\\065z")).toEqual(utf8("\\Az"));
  });

  it("only three digits up to 255 are a byte: \\256 and \\12x are the digit escaped, then text", () => {
    expect(bytes("\\256")).toEqual(utf8("256"));
    expect(bytes("\\12x")).toEqual(utf8("12x"));
    expect(bytes("\\0650")).toEqual(utf8("A0"));
  });

  it("\\ before a character outside the BMP is that whole character; a final \\ stays", () => {
    expect(bytes("\\😀a")).toEqual(utf8("😀a"));
    expect(bytes("\\é")).toEqual(utf8("é"));
    expect(bytes("a\\")).toEqual(utf8("a\\"));
    expect(characterStringBytes("a\\").escaped).toBe(true);
  });

  it("any bytes written as \\DDD come back exactly (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.string({ maxLength: 8 }), (data, tail) => {
        const safe = tail.replaceAll("\\", "");
        const text = `${[...data].map((b) => `\\${String(b).padStart(3, "0")}`).join("")}${safe}`;
        expect(bytes(text)).toEqual([...data, ...utf8(safe)]);
      }),
    );
  });
});

describe("TXT", () => {
  it("one string is the content as written; escapes are decoded and said", () => {
    const t = zone(['a TXT "hello world"', 'b TXT "say \\"hi\\" \\0651"']);
    expect(t.records.map((r) => r.record.content)).toEqual(["hello world", 'say "hi" A1']);
    expect(t.changes).toEqual([{ line: 3, change: "escapes decoded" }]);
  });

  it("bytes that are not UTF-8, written as escapes, skip the record: a content is text", () => {
    const t = zone(['bin TXT "\\255\\254"', 'ok TXT "caf\\195\\169"']);
    expect(t.records.map((r) => r.record.content)).toEqual(["café"]);
    expect(t.skipped).toEqual([
      {
        line: 2,
        text: 'bin.example.com. TXT "\\\\255\\\\254"',
        reason: "its bytes are not UTF-8 text, and a record's content is text",
      },
    ]);
    expect(() => convertRdata(entry("TXT", [quoted("\\255")]), "TXT", DOMAIN, "f")).toThrow(NotTextError);
    expect(new NotTextError("x")).toBeInstanceOf(NotImportableError);
  });

  it("a TXT with no string is refused with its line and the form expected", () => {
    expect(refusal(["a TXT"])).toBe(
      'z.zone:2: expected TXT data of the form "<text>" ["<more text>"...]; got ""',
    );
  });

  it("strings split at 255 bytes are one value, joined with no space, counted in bytes not characters", () => {
    const e127 = "é".repeat(127); // 254 bytes
    const t = zone([
      `a TXT "${e127}x" "tail"`,
      `b TXT "${"y".repeat(255)}" "${"z".repeat(255)}" "end"`,
      `d TXT "${"v".repeat(255)}" "${"w".repeat(255)}"`,
      // 255 bytes written with escapes: 85 of \\065 are 85 bytes, 340 characters.
      `c TXT "${"\\065".repeat(85)}${"w".repeat(170)}" "!"`,
    ]);
    expect(t.records.map((r) => r.record.content)).toEqual([
      `${e127}xtail`,
      `${"y".repeat(255)}${"z".repeat(255)}end`,
      `${"v".repeat(255)}${"w".repeat(255)}`,
      `${"A".repeat(85)}${"w".repeat(170)}!`,
    ]);
    expect(t.changes.map((c) => [c.line, c.change])).toEqual([
      [2, "2 TXT strings joined into one value, no space added: one value split at 255 bytes"],
      [3, "3 TXT strings joined into one value, no space added: one value split at 255 bytes"],
      [4, "2 TXT strings joined into one value, no space added: one value split at 255 bytes"],
      [5, "2 TXT strings joined into one value, no space added: one value split at 255 bytes"],
      [5, "escapes decoded"],
    ]);
  });

  it("strings that are not a split at 255 are separate items, skipped with the reason", () => {
    const t = zone([
      `a TXT "${"x".repeat(256)}" "tail"`,
      `b TXT "${"x".repeat(255)}" "${"y".repeat(256)}"`,
      `c TXT "${"x".repeat(255)}" "short" "tail"`,
      'd TXT "k=v" "k2=v2"',
    ]);
    expect(t.records).toEqual([]);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3, 4, 5]);
    expect(t.skipped[2]?.reason).toBe(
      "3 TXT strings that are separate items (as DNS-SD writes its key=value pairs): the API holds one " +
        "string per TXT record, and joining them would change what clients read; only a value split at " +
        "255 bytes, or an SPF, DKIM or DMARC record, is joined",
    );
  });

  it("SPF, DMARC and DKIM records are read joined, whatever the case of their version tag", () => {
    const t = zone([
      'a TXT "V=SPF1 a" " -all"',
      'b TXT "v=spf1" ""',
      'c TXT "v=spf1 " "mx -all"',
      'd TXT "v=dmarc1" ""',
      'e TXT "v=DMARC1 ;" " p=none"',
      'f._domainkey TXT "v=dkim1" ""',
      'g._domainkey TXT "v=DKIM1  ;" " p=AB"',
    ]);
    expect(t.skipped).toEqual([]);
    expect(t.changes.map((c) => c.change.split(": ")[1])).toEqual([
      "an SPF record (RFC 7208 3.3",
      "an SPF record (RFC 7208 3.3",
      "an SPF record (RFC 7208 3.3",
      "a DMARC record (read joined, as DKIM's)",
      "a DMARC record (read joined, as DKIM's)",
      "a DKIM record (RFC 6376 3.6.2.2",
      "a DKIM record (RFC 6376 3.6.2.2",
    ]);
    expect(t.changes[0]?.change).toBe(
      "2 TXT strings joined into one value, no space added: an SPF record (RFC 7208 3.3: its strings are read joined)",
    );
    expect(t.changes[5]?.change).toBe(
      "2 TXT strings joined into one value, no space added: a DKIM record (RFC 6376 3.6.2.2: its strings are read joined)",
    );
  });

  it("a version tag that only begins like one is no known form: its strings stay separate", () => {
    const t = zone([
      'a TXT "v=spf10" " -all"',
      'b TXT "xv=spf1 a" " -all"',
      'c TXT "v=DMARC10;" "rua=x"',
      'd TXT "v=DMARC1 p=none" ";"',
      'e TXT "v=DKIM10;" "rua=x"',
      'f TXT "xv=DKIM1;" "p=AB"',
      'g TXT "xv=DMARC1;" "p=none"',
    ]);
    expect(t.records).toEqual([]);
    expect(t.skipped.map((s) => s.reason.split(" (")[0])).toEqual(
      Array(7).fill("2 TXT strings that are separate items"),
    );
  });

  it("a DKIM key without v=DKIM1 is read joined when it holds DKIM's tags only and a base64 p=", () => {
    const joined = [
      'k1 TXT "k=rsa; p=MIGf" "MA0G"',
      'k2 TXT "K=rsa; P=MIGf" "MA0G=="',
      'k3 TXT "k = rsa;; t=y; " "p = AB+/cd"',
      'k4 TXT "h=sha256; n=note; s=email; g=*; v=DKIM1; p=" ""',
      'k5 TXT "p=AB" " CD"',
    ];
    const t = zone(joined);
    expect(t.skipped).toEqual([]);
    expect(t.records.map((r) => r.record.content)).toEqual([
      "k=rsa; p=MIGfMA0G",
      "K=rsa; P=MIGfMA0G==",
      "k = rsa;; t=y; p = AB+/cd",
      "h=sha256; n=note; s=email; g=*; v=DKIM1; p=",
      "p=AB CD",
    ]);
    expect(
      t.changes.every((c) =>
        c.change.endsWith("a DKIM record (RFC 6376 3.6.2.2: its strings are read joined)"),
      ),
    ).toBe(true);
  });

  it("tags that are not DKIM's, no p=, or a p= that is not base64: separate items", () => {
    const t = zone([
      'x1 TXT "k=rsa; x=1; " "p=AB"',
      'x2 TXT "k=rsa; t=y" ""',
      'x3 TXT "k=rsa; p=AB$" "CD"',
      'x4 TXT "k=rsa; p=AB===" ""',
      'x5 TXT "k=rsa; pp=AB" ""',
      'x7 TXT "kk=rsa; p=AB" ""',
      'x8 TXT "note p=AB" ""',
      'x9 TXT "p=AB=C" ""',
    ]);
    expect(t.records).toEqual([]);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("the zone's domain in a TXT value is {domainname}, counted; kept as written with keepDomain", () => {
    const lines = ['_dmarc TXT "v=DMARC1; p=none; rua=mailto:d@example.com; ruf=mailto:f@EXAMPLE.COM"'];
    const t = zone(lines);
    expect(t.records[0]?.record.content).toBe(
      "v=DMARC1; p=none; rua=mailto:d@{domainname}; ruf=mailto:f@{domainname}",
    );
    expect(t.changes.map((c) => c.change)).toEqual(["the domain written {domainname} (2x)"]);
    const kept = zone(lines, { keepDomain: true });
    expect(kept.records[0]?.record.content).toBe(
      "v=DMARC1; p=none; rua=mailto:d@example.com; ruf=mailto:f@EXAMPLE.COM",
    );
    expect(kept.changes).toEqual([]);
  });

  it("a {domainname} the zone's text holds itself is said: the API would replace it", () => {
    expect(changes(['a TXT "see {domainname} here"'])).toEqual([
      "the zone's text holds {domainname} itself: the API replaces it with the domain the template is applied to, so it is not published as written",
    ]);
  });
});

describe("the domain as {domainname}: whole labels only", () => {
  const place = (text: string, options: DomainOptions = DOMAIN) => placeDomain(text, options);

  it("replaces each whole-label occurrence, in any case, and counts them", () => {
    expect(place("mail.example.com and EXAMPLE.com.")).toEqual({
      text: "mail.{domainname} and {domainname}.",
      count: 2,
    });
    expect(place("x@example.com;example.com")).toEqual({ text: "x@{domainname};{domainname}", count: 2 });
    expect(place("https://example.com:8443/p")).toEqual({ text: "https://{domainname}:8443/p", count: 1 });
  });

  it("never inside another label: notexample.com, a-example.com, example.com.au, example.community", () => {
    for (const text of [
      "notexample.com",
      "a-example.com",
      "_example.com",
      "9example.com",
      "example.com.au",
      "example.com-x",
      "example.com_x",
      "example.com9",
      "example.community",
      "exampleXcom",
    ]) {
      expect(place(text)).toEqual({ text, count: 0 });
    }
  });

  it("a label character on either side keeps it a part of another name; any other character does not", () => {
    for (const char of ["a", "z", "A", "Z", "0", "9", "_", "-"]) {
      expect(place(`${char}example.com`), char).toEqual({ text: `${char}example.com`, count: 0 });
      expect(place(`example.com${char}`), char).toEqual({ text: `example.com${char}`, count: 0 });
      expect(place(`example.com.${char}`), char).toEqual({ text: `example.com.${char}`, count: 0 });
    }
    for (const char of ["@", "/", ":", " ", "=", '"', "."]) {
      expect(place(`${char}example.com${char}`), char).toEqual({
        text: `${char}{domainname}${char}`,
        count: 1,
      });
    }
    expect(place("example.com. x")).toEqual({ text: "{domainname}. x", count: 1 });
  });

  it("every occurrence, in any case, for a domain seen the first time", () => {
    // A domain no other case used: its pattern is built here.
    const label = `z${randomUUID().slice(0, 8)}`;
    const domain = { domain: `${label}.example.`, keepDomain: false };
    expect(placeDomain(`a.${label}.example b.${label.toUpperCase()}.EXAMPLE`, domain)).toEqual({
      text: "a.{domainname} b.{domainname}",
      count: 2,
    });
  });

  it("nothing is replaced with keepDomain, nor for the root", () => {
    expect(place("a.example.com", { domain: "example.com.", keepDomain: true })).toEqual({
      text: "a.example.com",
      count: 0,
    });
    expect(place("a.b.", { domain: ".", keepDomain: false })).toEqual({ text: "a.b.", count: 0 });
  });

  it("for many zones in one program, each its own domain (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { minLength: 1, maxLength: 80 }),
        (labels) => {
          for (const label of labels) {
            const domain = `${label}.test.`;
            expect(placeDomain(`www.${label}.test`, { domain, keepDomain: false })).toEqual({
              text: "www.{domainname}",
              count: 1,
            });
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe("names outside ASCII (UTS #46)", () => {
  it("are written in their xn-- form, the change said, the final dot kept or not", () => {
    const said: string[] = [];
    expect(asciiName("Bücher.example.", said)).toBe("xn--bcher-kva.example.");
    expect(asciiName("bücher.example", said)).toBe("xn--bcher-kva.example");
    expect(said).toEqual([
      "Bücher.example. written in its xn-- form: xn--bcher-kva.example.",
      "bücher.example written in its xn-- form: xn--bcher-kva.example",
    ]);
  });

  it("an ASCII name, or one UTS #46 cannot map, is left as it is, nothing said", () => {
    const said: string[] = [];
    expect(asciiName("Plain.example.", said)).toBe("Plain.example.");
    expect(asciiName("xn--é.", said)).toBe("xn--é.");
    expect(said).toEqual([]);
  });

  it("full-width digits are digits: a name is never read as an IPv4 address", () => {
    const said: string[] = [];
    expect(asciiName("１０.２.", said)).toBe("10.2.");
    expect(asciiName("ｗｗｗ.０x７f.１", said)).toBe("www.0x7f.1");
    expect(said).toEqual([
      "１０.２. written in its xn-- form: 10.2.",
      "ｗｗｗ.０x７f.１ written in its xn-- form: www.0x7f.1",
    ]);
    expect(records(["c1 CNAME １０.２."])).toEqual([{ name: "c1", type: "CNAME", content: "10.2." }]);
  });

  it("in rdata: a target outside ASCII becomes xn--, then {domainname}", () => {
    const t = zone(["m MX 10 bücher.example.com.", "c CNAME café.example.net."]);
    expect(t.records.map((r) => r.record.content)).toEqual([
      "xn--bcher-kva.{domainname}.",
      "xn--caf-dma.example.net.",
    ]);
    expect(t.changes.map((c) => c.change)).toEqual([
      "bücher.example.com. written in its xn-- form: xn--bcher-kva.example.com.",
      "xn--bcher-kva.example.com. written xn--bcher-kva.{domainname}.",
      "café.example.net. written in its xn-- form: xn--caf-dma.example.net.",
    ]);
  });

  it("a name the URL host parser behind the mapping would cut or change is left as it is, nothing said", () => {
    // Node's url.domainToASCII gives "xn--bcher-kva.example." for each of these.
    const said: string[] = [];
    for (const name of [
      "bücher.example?x.",
      "bücher.example#x.",
      "bücher.example\\x.",
      "bü%63her.example.",
    ]) {
      expect(asciiName(name, said)).toBe(name);
    }
    expect(said).toEqual([]);
  });

  it("in rdata and as an owner: such a name is refused by check(), never imported as another name", () => {
    const t = zone([
      "c CNAME bü%63her.example.net.",
      "m MX 10 bücher.example.net?x.",
      "bü%63her A 192.0.2.1",
    ]);
    expect(t.records).toEqual([]);
    expect(t.changes).toEqual([]);
    const host = (content: string, example: string) =>
      `check() refuses it: content: "${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", optionally with {domainname} and a final dot, e.g. "${example}"`;
    expect(t.skipped.map((s) => s.reason)).toEqual([
      host("bü%63her.example.net.", "target.example.net."),
      host("bücher.example.net?x.", "mx1.example.net"),
      'check() refuses it: name: "bü%63her" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ' +
        'optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)',
    ]);
  });
});

describe("a relative name ending in the domain holds it twice (RFC 1035 reads it so)", () => {
  it("is kept, and the warning says what was probably meant", () => {
    expect(doubledDomain("www.example.com.example.com.", "example.com.")).toBe(
      "www.example.com.example.com. holds the domain twice: kept so, but a name written without its final dot usually meant www.example.com.; check it, and add the dot in the zone file if so",
    );
    expect(doubledDomain("example.com.example.com.", "example.com.")).toMatch(
      /usually meant example\.com\.;/,
    );
  });

  it("no warning for any other name, nor under the root", () => {
    expect(doubledDomain("www.example.com.", "example.com.")).toBeUndefined();
    expect(doubledDomain("wwwexample.com.example.com.", "example.com.")).toBeUndefined();
    expect(doubledDomain("a.example.com.example.com.x.", "example.com.")).toBeUndefined();
    expect(doubledDomain("a.b.", ".")).toBeUndefined();
  });

  it("in a target: said beside the change to absolute; not for a target written absolute", () => {
    const t = zone(["c CNAME www.example.com", "d CNAME www.example.com.example.com."]);
    expect(t.records.map((r) => r.record.content)).toEqual([
      "www.example.com.{domainname}.",
      "www.example.com.{domainname}.",
    ]);
    expect(t.changes.filter((c) => c.change.includes("twice")).map((c) => c.line)).toEqual([2]);
  });
});

describe("host names in rdata (CNAME, NS, MX, SRV)", () => {
  it("relative names are made absolute under the $ORIGIN in force, lower-cased, each change said", () => {
    const t = zone([
      "a CNAME Web",
      "b CNAME @",
      "$ORIGIN Sub.example.com.",
      "c CNAME host",
      "d CNAME HOST.example.net.",
    ]);
    expect(t.records.map((r) => [r.record.name, r.record.content])).toEqual([
      ["a", "web.{domainname}."],
      ["b", "{domainname}."],
      ["c.sub", "host.sub.{domainname}."],
      ["d.sub", "host.example.net."],
    ]);
    expect(t.changes.map((c) => [c.line, c.change])).toEqual([
      [2, "Web lower-cased"],
      [2, "Web made absolute: web.example.com."],
      [2, "web.example.com. written web.{domainname}."],
      [3, "@ made absolute: example.com."],
      [3, "example.com. written {domainname}."],
      [5, "host made absolute: host.sub.example.com."],
      [5, "host.sub.example.com. written host.sub.{domainname}."],
      [6, "HOST.example.net. lower-cased"],
    ]);
  });

  it("with keepDomain every name stays absolute as read", () => {
    expect(records(["a CNAME web", "m MX 5 @"], { keepDomain: true }).map((r) => r.content)).toEqual([
      "web.example.com.",
      "example.com.",
    ]);
    expect(changes(["a CNAME web.example.com."], { keepDomain: true })).toEqual([]);
  });

  it("a name outside the domain, or ending in it without a dot between, is left whole", () => {
    expect(records(["a CNAME notexample.com.", "b CNAME example.com.au."]).map((r) => r.content)).toEqual([
      "notexample.com.",
      "example.com.au.",
    ]);
  });

  it("MX and SRV numbers are read, up to 65535", () => {
    expect(records(["@ MX 10 mail", "_sip._tcp SRV 1 65535 5060 sip.example.net."])).toEqual([
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "_sip._tcp", type: "SRV", content: "sip.example.net.", priority: 1, weight: 65535, port: 5060 },
    ]);
  });

  it("the null MX target `.` (RFC 7505) is kept as the root", () => {
    const converted = convertRdata(entry("MX", [word("0"), word(".")]), "MX", DOMAIN, "f");
    expect(converted).toEqual({ content: ".", numbers: { priority: 0 }, changes: [] });
    const root = { domain: ".", keepDomain: false };
    expect(convertRdata(entry("MX", [word("0"), word(".")]), "MX", root, "f").content).toBe(".");
  });

  it("with the zone's domain the root, names are absolute as read", () => {
    const root = { domain: ".", keepDomain: false };
    const converted = convertRdata(entry("CNAME", [word("Web")]), "CNAME", root, "f");
    expect(converted.content).toBe("web.example.com.");
    expect(converted.changes).toEqual(["Web lower-cased", "Web made absolute: web.example.com."]);
  });

  it("rdata of the wrong shape is refused with the line, the form and what was read", () => {
    expect(refusal(["a CNAME"])).toBe('z.zone:2: expected CNAME data of the form <host name>; got ""');
    expect(refusal(["a NS a. b."])).toBe('z.zone:2: expected NS data of the form <host name>; got "a. b."');
    expect(refusal(['a CNAME "quoted.example."'])).toBe(
      "z.zone:2: expected a host name, not a quoted string, in the CNAME record",
    );
    expect(refusal(["@ MX mail.example.com."])).toBe(
      'z.zone:2: expected MX data of the form <preference> <host name>; got "mail.example.com."',
    );
    expect(refusal(["@ MX ten mail."])).toBe(
      'z.zone:2: expected MX data of the form <preference> <host name>; got "ten mail."',
    );
    expect(refusal(['@ MX "10" mail.'])).toBe(
      'z.zone:2: expected MX data of the form <preference> <host name>; got ""10" mail."',
    );
    expect(refusal(["@ MX 65536 mail."])).toMatch(/^z\.zone:2: expected MX data/);
    expect(refusal(["@ MX -1 mail."])).toMatch(/^z\.zone:2: expected MX data/);
    expect(refusal(["@ MX 1x mail."])).toMatch(/^z\.zone:2: expected MX data/);
    expect(refusal(["@ MX x1 mail."])).toMatch(/^z\.zone:2: expected MX data/);
    expect(refusal(["s SRV 1 2 3"])).toBe(
      'z.zone:2: expected SRV data of the form <priority> <weight> <port> <target>; got "1 2 3"',
    );
    expect(refusal(["s SRV 1 x 3 t."])).toMatch(/^z\.zone:2: expected SRV data/);
    expect(refusal(["s SRV 1 2 70000 t."])).toMatch(/^z\.zone:2: expected SRV data/);
    expect(refusal(['s SRV 1 2 3 "t."'])).toMatch(/not a quoted string, in the SRV record$/);
  });
});

describe("A, AAAA", () => {
  it("the address is the content", () => {
    expect(records(["a A 192.0.2.1", "a AAAA 2001:db8::1"]).map((r) => r.content)).toEqual([
      "192.0.2.1",
      "2001:db8::1",
    ]);
  });

  it("one address, no more, no less", () => {
    expect(refusal(["a A"])).toBe('z.zone:2: expected A data of the form <IPv4 address>; got ""');
    expect(refusal(["a A 192.0.2.1 192.0.2.2"])).toBe(
      'z.zone:2: expected A data of the form <IPv4 address>; got "192.0.2.1 192.0.2.2"',
    );
    expect(refusal(["a AAAA"])).toBe('z.zone:2: expected AAAA data of the form <IPv6 address>; got ""');
  });
});

describe("CAA (RFC 8659)", () => {
  it("flags, tag and quoted value; leading zeros of the flags dropped; escapes decoded; the domain placed", () => {
    const t = zone([
      '@ CAA 00 issue "ca.example.net"',
      '@ CAA 0 iodef "mailto:caa@example.com"',
      '@ CAA 0 issuewild "ca\\.x.net"',
    ]);
    expect(t.records.map((r) => r.record.content)).toEqual([
      '0 issue "ca.example.net"',
      '0 iodef "mailto:caa@{domainname}"',
      '0 issuewild "ca.x.net"',
    ]);
    expect(t.changes.map((c) => [c.line, c.change])).toEqual([
      [3, "the domain written {domainname} (1x)"],
      [4, "escapes decoded"],
    ]);
  });

  it("a value that is not UTF-8 skips the record", () => {
    const converted = () =>
      convertRdata(entry("CAA", [word("0"), word("issue"), quoted("\\200")]), "CAA", DOMAIN, "f");
    expect(converted).toThrow(NotTextError);
  });

  it("rdata of the wrong shape is refused", () => {
    const form = '<flags> <tag> "<value>"';
    expect(refusal(['@ CAA issue "x"'])).toBe(
      `z.zone:2: expected CAA data of the form ${form}; got "issue "x""`,
    );
    expect(refusal(['@ CAA "0" issue "x"'])).toMatch(/^z\.zone:2: expected CAA data/);
    expect(refusal(['@ CAA x issue "x"'])).toMatch(/^z\.zone:2: expected CAA data/);
    expect(refusal(['@ CAA 0 "issue" "x"'])).toMatch(/^z\.zone:2: expected CAA data/);
    expect(refusal(['@ CAA 0 issue "x" "y"'])).toMatch(/^z\.zone:2: expected CAA data/);
  });
});

describe("TLSA (RFC 6698)", () => {
  it("the numbers without leading zeros, the hex de-spaced and said", () => {
    const hash = "a".repeat(64);
    const t = zone([
      `_443._tcp TLSA 03 1 01 ${hash.slice(0, 32)} ${hash.slice(32)}`,
      `_25._tcp TLSA 3 1 1 ${hash}`,
    ]);
    expect(t.records.map((r) => r.record.content)).toEqual([`3 1 1 ${hash}`, `3 1 1 ${hash}`]);
    expect(t.changes).toEqual([{ line: 2, change: "hex de-spaced (2 pieces joined)" }]);
  });

  it("rdata of the wrong shape is refused", () => {
    const form = "<usage> <selector> <matching-type> <hex>...";
    expect(refusal(["t TLSA 3 1 1"])).toBe(`z.zone:2: expected TLSA data of the form ${form}; got "3 1 1"`);
    for (const rdata of [
      '"3" 1 1 ab',
      '3 "1" 1 ab',
      '3 1 "1" ab',
      "x 1 1 ab",
      "3 x 1 ab",
      "3 1 x ab",
      '3 1 1 "ab"',
      "3 1 1 ab zz",
      "3 1 1 abzz",
      "3 1 1 zzab",
      "3x 1 1 ab",
      "x3 1 1 ab",
    ])
      expect(refusal([`t TLSA ${rdata}`])).toMatch(/^z\.zone:2: expected TLSA data/);
  });
});

describe("URL forwards", () => {
  it("the URL is the content, escapes decoded, the domain placed", () => {
    const t = zone([
      'a URLFWD "https://www.example.com/a\\"b"',
      "b URLFWD301 https://example.net/",
      "c URLCLO https://example.com/",
    ]);
    expect(t.records.map((r) => [r.record.type, r.record.content])).toEqual([
      ["URLFWD", 'https://www.{domainname}/a"b'],
      ["URLFWD301", "https://example.net/"],
      ["URLCLO", "https://{domainname}/"],
    ]);
    expect(t.changes.map((c) => [c.line, c.change])).toEqual([
      [2, "escapes decoded"],
      [2, "the domain written {domainname} (1x)"],
      [4, "the domain written {domainname} (1x)"],
    ]);
  });

  it("one URL, no more", () => {
    expect(refusal(["a URLFWD https://a.example/ https://b.example/"])).toBe(
      'z.zone:2: expected URLFWD data of the form <http(s) URL>; got "https://a.example/ https://b.example/"',
    );
  });
});
