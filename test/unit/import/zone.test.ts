/**
 * The record layer of zone text (RFC 1035 5.1, RFC 3597, and what hosts write): owners made
 * absolute (`@`, relative names, GoDaddy's `name.@`, `\DDD` and Route 53's octal escapes, the
 * blank owner), TTL and class in either order and Windows DNS aging stamps, the directives and
 * their refusals, and which domain the zone is, with the note the report reads. Inputs are written
 * as BIND, Cloudflare, cli53, GoDaddy, PowerDNS and `dnscmd` write them.
 */
import { describe, expect, it } from "vitest";
import { importZones, ZoneInputError } from "../../../provider/import";
import {
  absoluteDomain,
  originDomain,
  readZone,
  resolveName,
  zoneDomain,
} from "../../../provider/import/zone";

const SOA = "ns1.example.net. hostmaster.example.com. 2026112001 7200 3600 1209600 300";

function refusal(text: string | (() => unknown), origin?: string): ZoneInputError {
  try {
    if (typeof text === "string") readZone(text, "example.com.zone", origin);
    else text();
  } catch (err) {
    if (err instanceof ZoneInputError) return err;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

/** Each entry as [line, owner, type, class, TTL given, rdata]. */
function entries(text: string, origin?: string) {
  return readZone(text, "example.com.zone", origin).entries.map((e) => [
    e.line,
    e.owner,
    e.type,
    e.klass,
    e.hasTtl,
    e.rdata.map((t) => t.text).join(" "),
  ]);
}

const changes = (text: string, origin?: string) =>
  readZone(text, "example.com.zone", origin).entries.map((e) => e.readChanges);

describe("owners", () => {
  it("@ is the origin, a relative name is followed by it, an absolute one is lower-cased", () => {
    const text = `$ORIGIN Example.COM.\n@ 3600 IN SOA ${SOA}\nwww 300 IN A 192.0.2.1\nMail.Example.com. 300 IN A 192.0.2.2\n`;
    expect(entries(text)).toEqual([
      [2, "example.com.", "SOA", "IN", true, SOA],
      [3, "www.example.com.", "A", "IN", true, "192.0.2.1"],
      [4, "mail.example.com.", "A", "IN", true, "192.0.2.2"],
    ]);
    const z = readZone(text, "z");
    expect(z.entries.map((e) => e.ownerCaseChanged)).toEqual([false, false, true]);
    expect(z.entries.map((e) => e.origin)).toEqual(["example.com.", "example.com.", "example.com."]);
  });

  it("a relative owner under $ORIGIN . (pdnsutil) is absolute with a dot added", () => {
    const text = `$ORIGIN .\nexample.com\t86400\tIN\tSOA\t${SOA}\nwww.example.com\t120\tIN\tA\t192.0.2.2\n`;
    expect(entries(text).map((e) => e[1])).toEqual(["example.com.", "www.example.com."]);
    expect(readZone(text, "z").entries.map((e) => e.origin)).toEqual([".", "."]);
    // Escaped, the same: the name is decoded, then the dot added.
    expect(entries(`$ORIGIN .\nexample.com SOA ${SOA}\nw\\119w.example.com A 192.0.2.2\n`)[1]?.[1]).toBe(
      "www.example.com.",
    );
  });

  it("a $ORIGIN applies from its own line on, and a relative $ORIGIN follows the one before", () => {
    const text =
      "$ORIGIN example.com.\na A 192.0.2.1\n$ORIGIN lab\nb A 192.0.2.2\n$ORIGIN example.org.\nc A 192.0.2.3\n";
    const z = readZone(text, "z");
    expect(z.entries.map((e) => [e.owner, e.origin])).toEqual([
      ["a.example.com.", "example.com."],
      ["b.lab.example.com.", "lab.example.com."],
      ["c.example.org.", "example.org."],
    ]);
  });

  it("GoDaddy's name.@ is the name under the origin, the reading said", () => {
    const text =
      "$ORIGIN example.com.\n_sip._tls.@\t3600\tIN\tSRV\t100 1 443 sipdir.online.lync.com.\n*.@ A 192.0.2.1\n";
    expect(entries(text).map((e) => e[1])).toEqual(["_sip._tls.example.com.", "*.example.com."]);
    expect(changes(text)).toEqual([
      ["_sip._tls.@ read as _sip._tls under example.com."],
      ["*.@ read as * under example.com."],
    ]);
  });

  it("\\DDD in an owner is a decimal byte; Route 53's octal \\052 is a *, said", () => {
    const text = "$ORIGIN example.com.\n\\042.a A 192.0.2.1\n\\052 A 192.0.2.2\nx\\056y A 192.0.2.3\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "*.a.example.com.",
      "*.example.com.",
      "x\\.y.example.com.",
    ]);
    expect(changes(text)).toEqual([
      [],
      ['\\052 read as "*": Route 53\'s octal escape'],
      ['\\056 read as ".": Route 53\'s octal escape'],
    ]);
  });

  it("a decimal escape of a letter Route 53 never escapes is read as decimal", () => {
    // \119 is "w" in decimal (9 is no octal digit); \055 is "7", its octal "-" being one Route 53 never escapes.
    const text = "$ORIGIN example.com.\n\\119ww A 192.0.2.1\n\\065pi A 192.0.2.2\n\\055x A 192.0.2.3\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "www.example.com.",
      "api.example.com.",
      "7x.example.com.",
    ]);
    expect(changes(text)).toEqual([[], [], []]);
    // A letter written as an escape is no change of case.
    expect(readZone(text, "z").entries.map((e) => e.ownerCaseChanged)).toEqual([false, false, false]);
  });

  it("an escape of a non-digit is that character, and an escaped dot stays inside its label", () => {
    const text =
      "$ORIGIN example.com.\n\\*.a A 192.0.2.1\na\\.b A 192.0.2.2\na\\. A 192.0.2.3\nb\\\\. A 192.0.2.4\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "*.a.example.com.",
      "a\\.b.example.com.",
      // a\. ends in an escaped dot: relative; b\\. in an escaped backslash and a dot: absolute.
      "a\\..example.com.",
      "b\\\\.",
    ]);
  });

  it("an owner in UTF-8 is kept as its characters; a byte that is not UTF-8 as a lone surrogate", () => {
    const text = "$ORIGIN example.com.\nmünchen A 192.0.2.1\n\\195\\188x A 192.0.2.2\n\\255x A 192.0.2.3\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "münchen.example.com.",
      "üx.example.com.",
      "\udcffx.example.com.",
    ]);
    // The record with a byte that is not UTF-8 is skipped, named by its line.
    const [t] = importZones([{ text, file: "z.zone" }]);
    expect(t?.skipped.map((s) => s.line)).toEqual([4]);
  });

  it("reads \\DDD of any byte, and a \\DDD above 255 as \\D then its digits", () => {
    const text =
      "$ORIGIN example.com.\n\\128x A 192.0.2.1\n\\000x A 192.0.2.2\n\\999 A 192.0.2.3\na\\\\b A 192.0.2.4\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "\udc80x.example.com.",
      "\u0000x.example.com.",
      "999.example.com.",
      "a\\\\b.example.com.",
    ]);
  });

  it("reads an escaped @ or an @ after an escaped dot as a label, not as GoDaddy's origin", () => {
    const text =
      "$ORIGIN example.com.\n\\@ A 192.0.2.1\na.\\@ A 192.0.2.2\nx\\.@ A 192.0.2.3\n\\. A 192.0.2.4\n";
    expect(entries(text).map((e) => e[1])).toEqual([
      "@.example.com.",
      "a.@.example.com.",
      "x\\.@.example.com.",
      "\\..example.com.",
    ]);
    expect(changes(text)).toEqual([[], [], [], []]);
  });

  it("refuses an owner whose backslash ends the line as a record with no type", () => {
    expect(refusal("$ORIGIN example.com.\na\\\n").message).toBe(
      "example.com.zone:2: expected a record type (A, MX, TXT...) after the owner, TTL and class; got the end of the record",
    );
  });

  it("an owner a Latin-1 file gives (byte 0xE9) is that byte, and its record is skipped", () => {
    const bytes = Buffer.concat([
      Buffer.from("$ORIGIN example.com.\ncaf"),
      Buffer.from([0xe9]),
      Buffer.from(" A 192.0.2.1\nwww A 192.0.2.2\n"),
      Buffer.from([0x80, 0x2e, 0xff]),
      Buffer.from(" A 192.0.2.3\n"),
    ]);
    const z = readZone(bytes, "z");
    expect(z.entries.map((e) => e.owner)).toEqual([
      "caf\udce9.example.com.",
      "www.example.com.",
      "\udc80.\udcff.example.com.",
    ]);
    const [t] = importZones([{ text: bytes, file: "z.zone" }]);
    expect(t?.records.map((r) => r.record.name)).toEqual(["www"]);
    expect(t?.skipped.map((s) => s.line)).toEqual([2, 4]);
  });

  it("a blank first column continues the owner above, its case change too", () => {
    const text =
      '$ORIGIN example.com.\nWWW 300 IN A 192.0.2.1\n\t300 IN AAAA 2001:db8::1\n    TXT "x"\nmail A 192.0.2.2\n';
    const z = readZone(text, "z");
    expect(z.entries.map((e) => [e.owner, e.type, e.ownerCaseChanged])).toEqual([
      ["www.example.com.", "A", true],
      ["www.example.com.", "AAAA", true],
      ["www.example.com.", "TXT", true],
      ["mail.example.com.", "A", false],
    ]);
  });

  it("resolveName: a relative name with no origin is refused, naming the name and the line", () => {
    expect(refusal(() => resolveName("www", undefined, "f.zone", 7)).message).toBe(
      'f.zone:7: expected an absolute name (ending in "."), or a $ORIGIN line or --origin <domain> before "www"',
    );
    expect(refusal(() => resolveName("@", undefined, "f.zone", 3)).message).toContain('before "@"');
    expect(refusal(() => resolveName("m\\195\\188nchen", undefined, "f.zone", 3)).message).toContain(
      'before "m\\195\\188nchen"',
    );
    expect(resolveName(".", undefined, "f.zone", 1)).toBe(".");
    expect(resolveName("Host.Example.NET.", undefined, "f.zone", 1)).toBe("host.example.net.");
    expect(resolveName("m\\195\\188nchen.example.", undefined, "f.zone", 1)).toBe("münchen.example.");
    expect(resolveName("MX", "example.com.", "f.zone", 1)).toBe("mx.example.com.");
    // Only in owners is Route 53's octal read; elsewhere \052 is decimal "4" "2"... as written.
    expect(resolveName("\\052", "example.com.", "f.zone", 1)).toBe("4.example.com.");
  });

  it("absoluteDomain: lower-cased, one final dot", () => {
    expect(absoluteDomain("Example.COM")).toBe("example.com.");
    expect(absoluteDomain("example.com.")).toBe("example.com.");
  });
});

describe("TTL and class", () => {
  it("are optional and come in either order; TTL units and CLASSn are read", () => {
    const text = [
      "$ORIGIN example.com.",
      "$TTL 1h",
      "a 300 IN A 192.0.2.1",
      "b IN 300 A 192.0.2.2",
      "c 1h30m A 192.0.2.3",
      "d in A 192.0.2.4",
      "e 1W CLASS1 A 192.0.2.5",
      "f A 192.0.2.6",
      "",
    ].join("\n");
    expect(entries(text).map((e) => [e[1], e[3], e[4]])).toEqual([
      ["a.example.com.", "IN", true],
      ["b.example.com.", "IN", true],
      ["c.example.com.", "IN", true],
      ["d.example.com.", "IN", false],
      ["e.example.com.", "IN", true],
      ["f.example.com.", "IN", false],
    ]);
  });

  it("reads the other classes by name and number, and cli53's AWS", () => {
    const text =
      '$ORIGIN example.com.\na CH TXT "a"\nb hs TXT "b"\nc CS TXT "c"\nd CLASS2 TXT "d"\ne CLASS3 TXT "e"\nf CLASS4 TXT "f"\n' +
      "cdn\t86400\tAWS\tALIAS\tA app $self false\n";
    expect(entries(text).map((e) => e[3])).toEqual(["CH", "HS", "CS", "CS", "CH", "HS", "AWS"]);
  });

  it("a second TTL is no type, and a TTL of no known unit is none", () => {
    expect(refusal("$ORIGIN example.com.\nx 300 300 A 192.0.2.1\n").message).toBe(
      'example.com.zone:2: expected a record type (A, MX, TXT...) after the owner, TTL and class; got "300"',
    );
    expect(refusal("$ORIGIN example.com.\nx 5y A 192.0.2.1\n").message).toContain('got "5y"');
  });

  it("Windows DNS's aging stamp before the TTL is dropped, said; after it, it is no type", () => {
    const text =
      "$ORIGIN example.com.\nhost1 [AGE:3620301]\t1200\tA\t192.0.2.1\n\t[AGE:3620301] 1200 IN AAAA 2001:db8::1\n";
    expect(entries(text).map((e) => [e[1], e[2], e[4]])).toEqual([
      ["host1.example.com.", "A", true],
      ["host1.example.com.", "AAAA", true],
    ]);
    const said =
      "Windows DNS aging stamp [AGE:3620301] dropped: the API does not scavenge, so the record stays until it is removed";
    expect(changes(text)).toEqual([[said], [said]]);
    expect(refusal("$ORIGIN example.com.\nx 300 [AGE:1] A 192.0.2.1\n").message).toContain('got "[AGE:1]"');
    expect(refusal("$ORIGIN example.com.\nx IN [AGE:1] A 192.0.2.1\n").message).toContain('got "[AGE:1]"');
  });
});

describe("types and rdata", () => {
  it("TYPEn and RFC 3597's \\# generic data are read as the type they name, each said", () => {
    const text = "$ORIGIN example.com.\nwww 300 CLASS1 TYPE1 \\# 4 C0000201\nmx mx 10 mail\n";
    expect(entries(text)).toEqual([
      [2, "www.example.com.", "A", "IN", true, "192.0.2.1"],
      [3, "mx.example.com.", "MX", "IN", false, "10 mail"],
    ]);
    expect(changes(text)).toEqual([["TYPE1 read as A", "RFC 3597 generic data read as A data"], []]);
  });

  it("reads a type of letters, digits and hyphens, a TYPEn with no TTL before it, in any case", () => {
    const text =
      "$ORIGIN example.com.\nwww TYPE1 \\# 4 C0000201\nx NSAP-PTR foo.\ny NSEC3PARAM 1 0 0 -\nz type65 \\# 0\n";
    expect(entries(text).map((e) => [e[2], e[4]])).toEqual([
      ["A", false],
      ["NSAP-PTR", false],
      ["NSEC3PARAM", false],
      ["HTTPS", false],
    ]);
    expect(changes(text)[3]).toEqual(["type65 read as HTTPS", "RFC 3597 generic data read as HTTPS data"]);
  });

  it("keeps the rdata's tokens and the record's comments, for the flags hosts write there", () => {
    const z = readZone('$ORIGIN example.com.\nt TXT "a b" c ; cf_tags=cf-proxied:true\n', "z");
    expect(z.entries[0]?.rdata).toEqual([
      { text: "a b", quoted: true },
      { text: "c", quoted: false },
    ]);
    expect(z.entries[0]?.comments).toEqual([" cf_tags=cf-proxied:true"]);
  });

  it("refuses a record with no type, a quoted type, or a word that is no type", () => {
    for (const [record, got] of [
      ["www 300 IN", "the end of the record"],
      ['www 300 IN "A" 192.0.2.1', '"A"'],
      ["www 300 IN 1A 192.0.2.1", '"1A"'],
    ]) {
      expect(refusal(`$ORIGIN example.com.\n${record}\n`).message).toBe(
        `example.com.zone:2: expected a record type (A, MX, TXT...) after the owner, TTL and class; got ${got}`,
      );
    }
  });

  it("refuses a quoted owner, and a blank owner with no record above", () => {
    expect(refusal('$ORIGIN example.com.\n"www" A 192.0.2.1\n').message).toBe(
      "example.com.zone:2: expected an owner name, not a quoted string",
    );
    expect(refusal("$ORIGIN example.com.\n  A 192.0.2.1\n").message).toBe(
      "example.com.zone:2: expected an owner name: this record starts with a blank, and no record came before it",
    );
    // A directive between does not give an owner.
    expect(refusal("$ORIGIN example.com.\n$TTL 300\n  A 192.0.2.1\n").line).toBe(3);
  });
});

describe("directives", () => {
  it("$ORIGIN and $TTL in any case are read; $TTL with units", () => {
    expect(entries("$origin example.com.\n$ttl 1h\nwww A 192.0.2.1\n").map((e) => e[1])).toEqual([
      "www.example.com.",
    ]);
  });

  it("$INCLUDE is refused, naming the file to paste", () => {
    expect(refusal("$ORIGIN example.com.\n$INCLUDE db.mail example.com.\n").message).toBe(
      'example.com.zone:2: $INCLUDE is not read: a file outside the ones given would be a surprise; paste "db.mail" in place of this line, or give it as a zone file of its own',
    );
    expect(refusal("$ORIGIN example.com.\n$include\n").message).toContain("paste the included file in place");
  });

  it("a $ORIGIN or $TTL without its one argument is refused", () => {
    for (const line of ["$ORIGIN", "$ORIGIN example.org. extra"]) {
      expect(refusal(`$ORIGIN example.com.\n${line}\n`).message).toBe(
        "example.com.zone:2: expected $ORIGIN <domain-name>",
      );
    }
    for (const line of ["$TTL", "$TTL 1x", "$TTL 1h 2", "$TTL -1"]) {
      expect(refusal(`$ORIGIN example.com.\n${line}\n`).message).toBe(
        'example.com.zone:2: expected $TTL <seconds> (or with units: "1h", "15m", "1w")',
      );
    }
  });

  it("$GENERATE and other BIND extensions are refused, named", () => {
    expect(refusal("$ORIGIN example.com.\n$GENERATE 1-10 host$ A 192.0.2.$\n").message).toBe(
      "example.com.zone:2: $GENERATE is not part of RFC 1035 master files (a BIND extension such as $GENERATE is not read): expected $ORIGIN, $TTL or a record; expand it into the records it stands for",
    );
    expect(refusal("$ORIGIN example.com.\n$DATE 20261127\n").message).toMatch(
      /^example\.com\.zone:2: \$DATE is not part/,
    );
  });

  it("a $ORIGIN in Unicode is read in its xn-- form, said once", () => {
    const z = readZone(
      "$ORIGIN münchen.example.\nwww A 192.0.2.1\n$ORIGIN bücher.example.\nx A 192.0.2.2\n",
      "z",
    );
    expect(z.entries.map((e) => e.owner)).toEqual([
      "www.xn--mnchen-3ya.example.",
      "x.xn--bcher-kva.example.",
    ]);
    expect(z.notes).toEqual([
      "the domain münchen.example. is written in its xn-- form: xn--mnchen-3ya.example.",
      "the zone's domain, xn--mnchen-3ya.example., is the $ORIGIN before its first record",
      "the domain bücher.example. is written in its xn-- form: xn--bcher-kva.example.",
    ]);
  });
});

describe("the zone's domain", () => {
  it("Cloudflare's first-line SOA without its final dot is absolute, said on its line", () => {
    const text = `;; SOA Record\nexample.com\t3600\tIN\tSOA\t${SOA}\nwww.example.com.\t1\tIN\tA\t192.0.2.1\n`;
    const z = readZone(text, "z");
    expect([z.domain, z.domainSource]).toEqual(["example.com.", "SOA"]);
    expect(z.notes).toEqual(["the zone's domain, example.com., is its SOA record's owner"]);
    expect(z.entries[0]?.owner).toBe("example.com.");
    expect(z.entries[0]?.readChanges).toEqual([
      "example.com read as absolute: the SOA owner, written without its final dot",
    ]);
    expect(z.entries[1]?.readChanges).toEqual([]);
  });

  it("an undotted SOA owner after a $ORIGIN is relative to it (RFC 1035)", () => {
    const z = readZone(`$ORIGIN com.\nexample 3600 IN SOA ${SOA}\nwww.example.com. A 192.0.2.1\n`, "z");
    expect([z.domain, z.domainSource]).toEqual(["example.com.", "SOA"]);
    expect(z.entries[0]?.readChanges).toEqual([]);
  });

  it("an undotted SOA owner after a record, with no origin, names nothing", () => {
    expect(refusal(`www.example.com. A 192.0.2.1\nexample.com SOA ${SOA}\n`).message).toBe(
      "example.com.zone: expected the zone's domain: the text names none (no SOA record whose owner is known, no $ORIGIN line before its first record; dig output names none); give --origin <domain>",
    );
    // Dotted, it names the domain wherever it stands.
    expect(readZone(`www.example.com. A 192.0.2.1\nexample.com. SOA ${SOA}\n`, "z").domain).toBe(
      "example.com.",
    );
  });

  it("an SOA at @ or a blank owner with no origin names nothing", () => {
    expect(refusal(`@ SOA ${SOA}\n`).message).toMatch(/expected the zone's domain/);
    expect(refusal(`www.example.com. A 192.0.2.1\n  SOA ${SOA}\n`).message).toMatch(
      /expected the zone's domain/,
    );
  });

  it("the SOA names the domain before a leading $ORIGIN does", () => {
    const z = readZone(`$ORIGIN example.com.\nx A 192.0.2.1\n$ORIGIN example.org.\n@ SOA ${SOA}\n`, "z");
    expect([z.domain, z.domainSource]).toEqual(["example.org.", "SOA"]);
    // Its @ is the $ORIGIN in force, example.org.; x keeps example.com.
    expect(z.entries.map((e) => e.owner)).toEqual(["x.example.com.", "example.org."]);
  });

  it("the first $ORIGIN names the domain only when no record comes before it, and never the root", () => {
    const z = readZone("$TTL 300\n$ORIGIN example.com.\n$ORIGIN example.org.\nwww A 192.0.2.1\n", "z");
    expect([z.domain, z.domainSource]).toEqual(["example.com.", "$ORIGIN"]);
    expect(z.notes).toEqual(["the zone's domain, example.com., is the $ORIGIN before its first record"]);
    expect(refusal("$ORIGIN .\nwww.example.com A 192.0.2.1\n").message).toMatch(/give --origin <domain>$/);
    // A $ORIGIN that cannot be resolved (relative, nothing before it) names nothing, and is then refused.
    expect(refusal("$ORIGIN example\nwww A 192.0.2.1\n").message).toMatch(/expected the zone's domain/);
    // A $ORIGIN with no argument names nothing either, and reading then refuses it.
    expect(refusal("$ORIGIN\nwww.example.com. A 192.0.2.1\n$ORIGIN example.com.\n").message).toMatch(
      /expected the zone's domain/,
    );
  });

  it("an SOA under $ORIGIN . (PowerDNS) names its domain; the root never", () => {
    const z = readZone(
      `$ORIGIN .\nexample.com\t120\tIN\tA\t192.0.2.1\nexample.com\t86400\tIN\tSOA\t${SOA}\n`,
      "z",
    );
    expect(z.domain).toBe("example.com.");
    expect(refusal(`. SOA ${SOA}\nwww.example.com. A 192.0.2.1\n`).message).toMatch(
      /expected the zone's domain/,
    );
  });

  it("a Unicode SOA owner is read in its xn-- form, said", () => {
    const z = readZone(`münchen.example. SOA ${SOA}\nwww.münchen.example. A 192.0.2.1\n`, "z");
    expect(z.domain).toBe("xn--mnchen-3ya.example.");
    expect(z.notes).toEqual([
      "the domain münchen.example. is written in its xn-- form: xn--mnchen-3ya.example.",
      "the zone's domain, xn--mnchen-3ya.example., is its SOA record's owner",
    ]);
  });

  it("--origin names the domain when the file does not, and must agree when it does", () => {
    const z = readZone("www.example.com. A 192.0.2.1\n", "z", " Example.COM ");
    expect([z.domain, z.domainSource, z.notes]).toEqual([
      "example.com.",
      "--origin",
      ["the zone's domain, example.com., is given by --origin"],
    ]);
    expect(refusal(`example.com. SOA ${SOA}\n`, "example.org").message).toBe(
      "example.com.zone: --origin example.org. contradicts the file, whose SOA record names example.com.; give --origin example.com, or leave --origin out",
    );
    expect(refusal("$ORIGIN example.com.\nwww A 192.0.2.1\n", "example.org.").message).toBe(
      "example.com.zone: --origin example.org. contradicts the file, whose $ORIGIN before its first record names example.com.; give --origin example.com, or leave --origin out",
    );
    expect(readZone(`example.com. SOA ${SOA}\n`, "z", "EXAMPLE.com.").domainSource).toBe("--origin");
  });

  it("originDomain refuses the root and what is no domain name, saying which", () => {
    for (const origin of ["", " ", ".", "@"]) {
      expect(refusal(() => originDomain(origin, "z.zone")).message).toBe(
        `z.zone: --origin ${JSON.stringify(origin)} is not a domain: the root is never a template's domain; give the zone's domain, e.g. --origin example.com`,
      );
    }
    for (const origin of [
      "exa mple.com",
      "-x.example",
      "x-.example",
      "a..b",
      `${"a".repeat(64)}.example`,
      "http://x.example",
    ]) {
      expect(refusal(() => originDomain(origin, "z.zone")).message).toBe(
        `z.zone: --origin ${JSON.stringify(origin)} is not a domain name (labels of letters, digits and "-", separated by dots), e.g. --origin example.com`,
      );
    }
    expect(originDomain(`${"a".repeat(63)}.example`, "z")).toBe(`${"a".repeat(63)}.example.`);
    expect(originDomain("_dmarc.Example.com", "z")).toBe("_dmarc.example.com.");
    expect(originDomain("a.b", "z")).toBe("a.b.");
    const notes: string[] = [];
    expect(originDomain("München.example", "z", notes)).toBe("xn--mnchen-3ya.example.");
    expect(notes).toEqual([
      "the domain münchen.example. is written in its xn-- form: xn--mnchen-3ya.example.",
    ]);
  });

  it("zoneDomain says what the file names, or nothing for dig output", () => {
    expect(zoneDomain(`example.com. SOA ${SOA}\n`, "z")).toEqual({ domain: "example.com.", source: "SOA" });
    expect(zoneDomain("$ORIGIN example.org.\nwww A 192.0.2.1\n", "z")).toEqual({
      domain: "example.org.",
      source: "$ORIGIN",
    });
    const dig = "www.example.com.\t300\tIN\tA\t192.0.2.1\n";
    expect(zoneDomain(dig, "z")).toBeUndefined();
  });

  it("a domain of full-width digits keeps its labels, never read as an IPv4 address", () => {
    expect(zoneDomain("$ORIGIN １０.２.\nwww A 192.0.2.1\n", "z")).toEqual({
      domain: "10.2.",
      source: "$ORIGIN",
    });
    expect(zoneDomain("$ORIGIN ü.１０.２.\nwww A 192.0.2.1\n", "z")).toEqual({
      domain: "xn--tda.10.2.",
      source: "$ORIGIN",
    });
    expect(zoneDomain(`ü.０x７f.１. SOA ${SOA}\n`, "z")).toEqual({
      domain: "xn--tda.0x7f.1.",
      source: "SOA",
    });
  });
});

describe("what is no record, no directive, no SOA", () => {
  it("a quoted word is never a TTL or class, nor a second aging stamp", () => {
    expect(refusal('$ORIGIN example.com.\nwww "IN" A 192.0.2.1\n').message).toContain('got "IN"');
    expect(refusal('$ORIGIN example.com.\nwww "300" A 192.0.2.1\n').message).toContain('got "300"');
    expect(refusal("$ORIGIN example.com.\nh [AGE:1] [AGE:2] A 192.0.2.1\n").message).toContain(
      'got "[AGE:2]"',
    );
  });

  it("reads one class only: a second is taken as the type", () => {
    expect(entries("$ORIGIN example.com.\nx IN IN A 192.0.2.1\n")[0]?.slice(2)).toEqual([
      "IN",
      "IN",
      false,
      "A 192.0.2.1",
    ]);
  });

  it("an indented $TTL is a record of the owner above, with no type", () => {
    expect(refusal("$ORIGIN example.com.\nwww A 192.0.2.1\n  $TTL 300\n").message).toBe(
      'example.com.zone:3: expected a record type (A, MX, TXT...) after the owner, TTL and class; got "$TTL"',
    );
  });

  it('a quoted "$ORIGIN" is no directive but a quoted owner', () => {
    expect(refusal('"$ORIGIN" example.org.\nwww A 192.0.2.1\n', "example.com").message).toBe(
      "example.com.zone:1: expected an owner name, not a quoted string",
    );
  });

  it("a quoted SOA, or a record with no type, names no domain", () => {
    const none = /^example\.com\.zone: expected the zone's domain/;
    expect(refusal(`example.com. "SOA" ${SOA}\n`).message).toMatch(none);
    expect(refusal("example.com. 300 IN\n").message).toMatch(none);
  });

  it("a $ORIGIN with no argument before a Cloudflare SOA is refused on its line", () => {
    expect(refusal(`$ORIGIN\nexample.com\t3600\tIN\tSOA\t${SOA}\n`).message).toBe(
      "example.com.zone:1: expected $ORIGIN <domain-name>",
    );
  });

  it("a dotted first SOA is read as written, nothing said of its dot", () => {
    const z = readZone(`example.com.\t3600\tIN\tSOA\t${SOA}\nwww A 192.0.2.1\n`, "z");
    expect(z.entries.map((e) => [e.owner, e.readChanges])).toEqual([
      ["example.com.", []],
      ["www.example.com.", []],
    ]);
  });

  it("a domain of more than 253 characters is no --origin", () => {
    const label = "a".repeat(63);
    expect(originDomain(`${label}.${label}.${label}.${"a".repeat(61)}`, "z")).toHaveLength(254);
    expect(refusal(() => originDomain(`${label}.${label}.${label}.${"a".repeat(62)}`, "z")).message).toMatch(
      /is not a domain name/,
    );
  });

  it("a Unicode name with no xn-- form names no domain, and as $ORIGIN is kept as written", () => {
    expect(refusal(`ü%.example. SOA ${SOA}\n`).message).toMatch(/expected the zone's domain/);
    expect(refusal("$ORIGIN ü%.example.\nwww A 192.0.2.1\n").message).toMatch(/expected the zone's domain/);
    const z = readZone("$ORIGIN ü%.example.\nwww A 192.0.2.1\n", "z", "example.com");
    expect(z.entries.map((e) => e.owner)).toEqual(["www.ü%.example."]);
    expect(z.notes).toEqual(["the zone's domain, example.com., is given by --origin"]);
  });

  it("a Unicode name the URL host parser behind the mapping would cut or change names no domain, not the part before", () => {
    // Node's url.domainToASCII gives "xn--bcher-kva.example" for each of these.
    for (const domain of ["bücher.example?x.", "bücher.example#x.", "bü%63her.example."]) {
      expect(refusal(`${domain} SOA ${SOA}\n`).message, domain).toMatch(/expected the zone's domain/);
      expect(refusal(`$ORIGIN ${domain}\nwww A 192.0.2.1\n`).message, domain).toMatch(
        /expected the zone's domain/,
      );
    }
    const z = readZone("$ORIGIN bücher.example#x.\nwww A 192.0.2.1\n", "z", "example.com");
    expect(z.entries.map((e) => e.owner)).toEqual(["www.bücher.example#x."]);
    expect(z.notes).toEqual(["the zone's domain, example.com., is given by --origin"]);
    for (const origin of [
      "bücher.example?x",
      "bücher.example#x",
      "bücher.example\\x",
      "bü%63her.example",
      "bücher.ex\tample",
    ]) {
      expect(refusal(() => originDomain(origin, "z.zone")).message).toBe(
        `z.zone: --origin ${JSON.stringify(origin)} is not a domain name (labels of letters, digits and "-", separated by dots), e.g. --origin example.com`,
      );
    }
  });
});

describe("what Route 53, editors and users write that the cases above leave out", () => {
  it("reads Route 53's octal escapes of the characters it escapes: ':' '@' '%'", () => {
    // Route 53 returns every character but a-z, 0-9, "-" and "_" as \ and three octal digits.
    const text = "$ORIGIN example.com.\n\\072 A 192.0.2.1\n\\100 A 192.0.2.2\n\\045x A 192.0.2.3\n";
    expect(entries(text).map((e) => e[1])).toEqual([":.example.com.", "@.example.com.", "%x.example.com."]);
    expect(changes(text)).toEqual([
      ['\\072 read as ":": Route 53\'s octal escape'],
      ['\\100 read as "@": Route 53\'s octal escape'],
      ['\\045 read as "%": Route 53\'s octal escape'],
    ]);
  });

  it("keeps an owner of characters outside the Basic Multilingual Plane", () => {
    expect(entries("$ORIGIN example.com.\n😀 A 192.0.2.1\n\\😀x A 192.0.2.2\n").map((e) => e[1])).toEqual([
      "😀.example.com.",
      "😀x.example.com.",
    ]);
  });

  it("reads an escaped character outside ASCII as itself, and U+0080 in UTF-8 as U+0080", () => {
    expect(entries("$ORIGIN example.com.\n\\é A 192.0.2.1\n\\É\\è A 192.0.2.2\n").map((e) => e[1])).toEqual([
      "é.example.com.",
      "éè.example.com.",
    ]);
    // C2 80 is the UTF-8 of U+0080: valid, so its record is read, not skipped as a byte that is not UTF-8.
    const bytes = Buffer.concat([
      Buffer.from("$ORIGIN example.com.\na"),
      Buffer.from([0xc2, 0x80]),
      Buffer.from(" A 192.0.2.1\n"),
    ]);
    expect(readZone(bytes, "z").entries[0]?.owner).toBe("a\u0080.example.com.");
  });

  it("keeps an owner in halfwidth katakana or fullwidth letters (U+E000 and above) as its characters", () => {
    expect(entries("$ORIGIN example.com.\nﾃｽﾄ A 192.0.2.1\nｗｗｗ A 192.0.2.2\n").map((e) => e[1])).toEqual([
      "ﾃｽﾄ.example.com.",
      "ｗｗｗ.example.com.",
    ]);
  });

  it("lower-cases an absolute owner written with escapes, and says its case changed", () => {
    const z = readZone("$ORIGIN example.com.\nW\\119w.Example.COM. A 192.0.2.1\n", "z");
    expect(z.entries.map((e) => [e.owner, e.ownerCaseChanged])).toEqual([["www.example.com.", true]]);
  });

  it("refuses a file that ends in a backslash after the owner as a record with no type", () => {
    expect(refusal("$ORIGIN example.com.\na\\").message).toBe(
      "example.com.zone:2: expected a record type (A, MX, TXT...) after the owner, TTL and class; got the end of the record",
    );
  });

  it("reads an aging stamp only as the whole word, and a type only as a whole word", () => {
    for (const word of ["x[AGE:1]", "[AGE:1]x", "A!", "A+B"]) {
      expect(refusal(`$ORIGIN example.com.\nh ${word} A 192.0.2.1\n`).message).toContain(`got "${word}"`);
    }
  });

  it("takes as --origin the domain names DNS hosts hold: digits, hyphens, underscores anywhere in a label", () => {
    for (const name of [
      "1password.example",
      "web1.example",
      "my-site.example",
      "a_b.example",
      "x_.example",
    ]) {
      expect(originDomain(name, "z")).toBe(`${name}.`);
    }
  });
});

describe("directives before the first record", () => {
  it("an SOA continuing the owner above names no domain by its first word: the $ORIGIN does", () => {
    const z = readZone(`$ORIGIN example.com.\n@ 3600 IN NS ns1.example.net.\n\t3600 IN SOA ${SOA}\n`, "z");
    expect([z.domain, z.domainSource]).toEqual(["example.com.", "$ORIGIN"]);
    expect(z.entries.map((e) => [e.owner, e.type])).toEqual([
      ["example.com.", "NS"],
      ["example.com.", "SOA"],
    ]);
  });

  it("a $TTL before a first-line SOA without its final dot leaves it absolute, the domain", () => {
    const z = readZone(`$TTL 3600\nexample.com\t3600\tIN\tSOA\t${SOA}\nwww A 192.0.2.1\n`, "z");
    expect([z.domain, z.domainSource]).toEqual(["example.com.", "SOA"]);
    expect(z.entries.map((e) => e.owner)).toEqual(["example.com.", "www.example.com."]);
  });
});
