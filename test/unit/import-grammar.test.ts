/**
 * The grammar of zone text that domainapi-import reads (issue 29): each case is a piece of RFC 1035
 * master-file syntax or `dig` output that a parser could drop or misread, with the records it must
 * give, or the line and words of the error it must raise.
 */
import { describe, expect, it } from "vitest";
import { type ImportOptions, importZones, ZoneInputError } from "../../provider/import";

function records(text: string, options: ImportOptions = {}) {
  const [t] = importZones([{ text, file: "zone.txt", templateId: "t" }], options);
  return t?.records.map((r) => r.record) ?? [];
}

function failure(text: string, options: ImportOptions = {}): ZoneInputError {
  try {
    importZones([{ text, file: "zone.txt", templateId: "t" }], options);
  } catch (err) {
    if (err instanceof ZoneInputError) return err;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

const HEAD = "$ORIGIN example.com.\n";

describe("the zone grammar", () => {
  it("$ORIGIN: relative owners follow it, and a later $ORIGIN changes it", () => {
    expect(records(`${HEAD}www A 192.0.2.1\n$ORIGIN dev.example.com.\napi A 192.0.2.2\n`)).toEqual([
      { name: "www", type: "A", content: "192.0.2.1" },
      { name: "api.dev", type: "A", content: "192.0.2.2" },
    ]);
  });

  it("a relative $ORIGIN is relative to the one before it", () => {
    expect(records(`${HEAD}$ORIGIN lab\nx A 192.0.2.1\n`)).toEqual([
      { name: "x.lab", type: "A", content: "192.0.2.1" },
    ]);
  });

  it("@ is the apex; absolute owners are made relative; owners are lower-cased", () => {
    expect(records(`${HEAD}@ A 192.0.2.1\nMail.Example.COM. A 192.0.2.2\n`)).toEqual([
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "mail", type: "A", content: "192.0.2.2" },
    ]);
  });

  it("a line starting with a blank continues the previous owner", () => {
    expect(records(`${HEAD}www A 192.0.2.1\n    AAAA 2001:db8::1\n\tTXT "x"\n`).map((r) => r.name)).toEqual([
      "www",
      "www",
      "www",
    ]);
  });

  it("TTL and class are optional and come in either order; TTL units are read", () => {
    const zone = `${HEAD}$TTL 1h\na 300 IN A 192.0.2.1\nb IN 300 A 192.0.2.2\nc 1d2h A 192.0.2.3\nd IN A 192.0.2.4\ne 1W IN A 192.0.2.5\n`;
    expect(records(zone).map((r) => r.name)).toEqual(["a", "b", "c", "d", "e"]);
    const [t] = importZones([{ text: zone, file: "z", templateId: "t" }]);
    expect(t?.ttlsDropped).toBe(4);
  });

  it("parentheses continue a record over several lines, with comments inside", () => {
    const zone = `${HEAD}@ IN SOA ns1.example.com. host.example.com. (\n 1 ; serial\n 2 3 4 5 )\n_443._tcp TLSA 3 1 1 ( ab12 ; first\n cd34 )\nnext A 192.0.2.9\n`;
    const [t] = importZones([{ text: zone, file: "z", templateId: "t" }]);
    expect(t?.records.map((r) => [r.line, r.record.content])).toEqual([
      [5, "3 1 1 ab12cd34"],
      [7, "192.0.2.9"],
    ]);
    expect(t?.skipped.map((s) => s.line)).toEqual([2]);
  });

  it("; starts a comment, except inside a quoted string", () => {
    expect(records(`${HEAD}; a comment line\nt TXT "v=DMARC1; p=none" ; the policy\n`)).toEqual([
      { name: "t", type: "TXT", content: "v=DMARC1; p=none" },
    ]);
  });

  it('TXT: \\", \\\\ and \\DDD decoded (UTF-8 bytes included)', () => {
    const zone = `${HEAD}t TXT "a \\"b\\" c\\\\d\\065\\195\\169"\n`;
    expect(records(zone)).toEqual([{ name: "t", type: "TXT", content: 'a "b" c\\dAé' }]);
  });

  it("TXT: a string holding parentheses and blanks stays one string", () => {
    expect(records(`${HEAD}t TXT "( x )  y"\n`)[0]?.content).toBe("( x )  y");
  });

  it("TLSA and other hex split by spaces is joined", () => {
    expect(records(`${HEAD}_25._tcp.mail TLSA 3 1 1 0a0b 0c0d 0e0f\n`)[0]?.content).toBe(
      "3 1 1 0a0b0c0d0e0f",
    );
  });

  it("MX, SRV: the numbers before the target; relative targets made absolute in the domain", () => {
    expect(records(`${HEAD}@ MX 10 mail\n_sip._tcp SRV 1 2 5060 sip.example.net.\n`)).toEqual([
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "_sip._tcp", type: "SRV", content: "sip.example.net.", priority: 1, weight: 2, port: 5060 },
    ]);
  });

  it("names holding characters outside ASCII are written in their xn-- form, and the change is said", () => {
    const [t] = importZones([
      { text: `${HEAD}bücher A 192.0.2.1\nw CNAME münchen.example.com.\n`, file: "z", templateId: "t" },
    ]);
    expect(t?.records.map((r) => r.record)).toEqual([
      { name: "xn--bcher-kva", type: "A", content: "192.0.2.1" },
      { name: "w", type: "CNAME", content: "xn--mnchen-3ya.{domainname}." },
    ]);
    expect(t?.changes.map((c) => c.change)).toContain(
      "bücher.example.com. written in its xn-- form: xn--bcher-kva.example.com.",
    );
  });

  it("CRLF line endings are read as line ends", () => {
    expect(records(`${HEAD}a A 192.0.2.1\r\nb A 192.0.2.2\r\n`).map((r) => r.name)).toEqual(["a", "b"]);
  });

  it("the origin defaults to the first SOA owner when there is no $ORIGIN", () => {
    const [t] = importZones([
      { text: "example.org. IN SOA ns. h. 1 2 3 4 5\nwww A 192.0.2.1\n", file: "z", templateId: "t" },
    ]);
    expect(t?.domain).toBe("example.org.");
    expect(t?.records[0]?.record.name).toBe("www");
  });

  it("dig answer sections: header and ;; lines are comments, owners absolute, tabs between fields", () => {
    const dig = [
      "; <<>> DiG 9.18.24 <<>> example.com ANY +noall +answer",
      ";; global options: +cmd",
      "example.com.\t\t300\tIN\tA\t192.0.2.1",
      'example.com.\t\t300\tIN\tTXT\t"v=spf1 -all"',
      "www.example.com.\t60\tIN\tCNAME\texample.com.",
      "",
    ].join("\n");
    expect(records(dig, { origin: "example.com" })).toEqual([
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "@", type: "TXT", content: "v=spf1 -all" },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ]);
  });
});

describe("unreadable zone text: exit 2 material, naming the line and what was expected", () => {
  it("$INCLUDE is refused", () => {
    const err = failure(`${HEAD}www A 192.0.2.1\n$INCLUDE other.zone\n`);
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^zone\.txt:3: \$INCLUDE is not read.*"other\.zone"/);
  });

  it("$GENERATE and other BIND extensions are refused", () => {
    const err = failure(`${HEAD}$GENERATE 1-3 host$ A 192.0.2.$\n`);
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/\$GENERATE.*expected \$ORIGIN, \$TTL or a record/);
  });

  it("an unterminated quote, a stray ')', an unclosed '('", () => {
    expect(failure(`${HEAD}t TXT "open\n`).message).toMatch(/^zone\.txt:2: expected a closing quote/);
    expect(failure(`${HEAD}a A 192.0.2.1 )\n`).message).toMatch(/^zone\.txt:2: expected a "\("/);
    expect(failure(`${HEAD}a TXT ( "x"\n"y"\n`).message).toMatch(/^zone\.txt:2: expected a closing "\)"/);
  });

  it("a record without a type, rdata of the wrong shape", () => {
    expect(failure(`${HEAD}www 300 IN\n`).message).toMatch(/^zone\.txt:2: expected a record type/);
    expect(failure(`${HEAD}@ MX mail\n`).message).toMatch(
      /^zone\.txt:2: expected MX data of the form <preference> <host name>/,
    );
    expect(failure(`${HEAD}_s._tcp SRV 1 2 x.example.com.\n`).message).toMatch(/expected SRV data/);
    expect(failure(`${HEAD}t TLSA 3 1 1 zz\n`).message).toMatch(/expected TLSA data/);
  });

  it("a relative name without any origin, a blank owner before any record, a zone without a domain", () => {
    expect(failure("www A 192.0.2.1\n").message).toMatch(
      /^zone\.txt: expected the zone's domain.*give --origin/,
    );
    expect(failure(`${HEAD}   A 192.0.2.1\n`).message).toMatch(/^zone\.txt:2: expected an owner name/);
    expect(failure("www.example.com. A 192.0.2.1\n").message).toMatch(
      /^zone\.txt: expected the zone's domain.*--origin/,
    );
  });
});
