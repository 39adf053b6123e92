/**
 * How domainapi-import reads what DNS hosts write (issue 38): the zone's domain as RFC 1035 5.1
 * and the hosts' exports say it; what the API cannot hold exactly skipped with its line and reason
 * (routing policies, DNS-SD TXT strings, bytes that are not UTF-8), never merged or mangled; a
 * host's own settings reported as dropped; readable forms read (`\DDD` owners, RFC 3597, `name.@`);
 * lines exact after escapes. Each case is written from the formats' documentation: cli53's export,
 * Cloudflare's `cf_tags`, RFC 1035, RFC 3597, RFC 7208 3.3, RFC 6376 3.6.2.2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ImportOptions, importProgram, importZones, ZoneInputError } from "../../provider/import";
import { characterStringBytes } from "../../provider/import/rdata";
import { tokenize } from "../../provider/import/tokens";
import { zoneDomain } from "../../provider/import/zone";

function zone(text: string | Uint8Array, options: ImportOptions = {}) {
  const [t] = importZones([{ text, file: "zone.txt", templateId: "t" }], options);
  if (!t) throw new Error("no template");
  return t;
}

function records(text: string | Uint8Array, options: ImportOptions = {}) {
  return zone(text, options).records.map((r) => r.record);
}

function failure(text: string | Uint8Array, options: ImportOptions = {}): ZoneInputError {
  try {
    zone(text, options);
  } catch (err) {
    if (err instanceof ZoneInputError) return err;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

const SOA = "ns1.example.net. hostmaster.example.com. 1 7200 3600 1209600 300";

describe("the zone's domain (RFC 1035 5.1)", () => {
  it("a $ORIGIN applies from its own line on, never to the lines above it", () => {
    const text = `$TTL 1h\n@ SOA ${SOA}\napi A 192.0.2.1\n$ORIGIN dev.example.com.\nx A 192.0.2.2\n`;
    // The SOA's @ has no origin, and no $ORIGIN comes before the first record: the domain is unknown.
    expect(failure(text).message).toMatch(/^zone\.txt: expected the zone's domain.*give --origin/);
    expect(records(text, { origin: "example.com" }).map((r) => r.name)).toEqual(["api", "x.dev"]);
  });

  it("Cloudflare's SOA, first and without its final dot, names the domain", () => {
    const text = `;; SOA Record\nexample.com\t3600\tIN\tSOA\t${SOA}\nwww.example.com.\t1\tIN\tA\t192.0.2.1\n`;
    const t = zone(text);
    expect(t.domain).toBe("example.com.");
    expect(t.records.map((r) => r.record)).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
    expect(t.notes).toContain("the zone's domain, example.com., is its SOA record's owner");
  });

  it("an undotted SOA owner after a $ORIGIN is relative to it, as RFC 1035 says", () => {
    const t = zone(`$ORIGIN com.\nexample SOA ${SOA}\nwww.example.com. A 192.0.2.1\n`);
    expect(t.domain).toBe("example.com.");
  });

  it("$ORIGIN . (pdnsutil list-zone, BIND relative dumps) never makes the root the domain", () => {
    const pdns = `$ORIGIN .\nexample.com\t120\tIN\tA\t192.0.2.1\nexample.com\t86400\tIN\tSOA\t${SOA}\nwww.example.com\t120\tIN\tA\t192.0.2.2\n`;
    const t = zone(pdns);
    expect(t.domain).toBe("example.com.");
    expect(t.records.map((r) => r.record.name)).toEqual(["@", "www"]);
    expect(failure("$ORIGIN .\nwww.example.com 120 IN A 192.0.2.2\n").message).toMatch(/give --origin/);
  });

  it("the first $ORIGIN before any record names the domain, a later one does not", () => {
    expect(zone("$ORIGIN example.com.\nwww A 192.0.2.1\n").domain).toBe("example.com.");
    expect(failure("www.example.com. A 192.0.2.1\n$ORIGIN example.com.\nx A 192.0.2.2\n").message).toMatch(
      /expected the zone's domain/,
    );
  });

  it("an --origin that contradicts the file's SOA or leading $ORIGIN is refused, naming both", () => {
    expect(failure(`example.com. SOA ${SOA}\n`, { origin: "example.org" }).message).toBe(
      "zone.txt: --origin example.org. contradicts the file, whose SOA record names example.com.; give --origin example.com, or leave --origin out",
    );
    expect(failure("$ORIGIN example.com.\nwww A 192.0.2.1\n", { origin: "exmaple.com" }).message).toMatch(
      /--origin exmaple\.com\. contradicts the file, whose \$ORIGIN before its first record names example\.com\./,
    );
    expect(
      records(`example.com. SOA ${SOA}\nwww.example.com. A 192.0.2.1\n`, { origin: "EXAMPLE.com." }),
    ).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
  });

  it("one --origin for several files: each file must agree, else the one that does not is named", () => {
    const a = { text: `a.example. SOA ${SOA}\nwww.a.example. A 192.0.2.1\n`, file: "a.zone" };
    const b = { text: "www.b.example. A 192.0.2.2\n", file: "b.zone" };
    let error: unknown;
    try {
      importZones([b, a], { origin: "b.example" });
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).toMatch(/^a\.zone: --origin b\.example\. contradicts the file/);
    expect(zoneDomain(a.text, a.file)).toEqual({ domain: "a.example.", source: "SOA" });
    expect(zoneDomain(b.text, b.file)).toBeUndefined();
  });

  it("the root and what is no domain name are refused as --origin", () => {
    for (const origin of [".", "", "http://example.com", "exa mple.com", "-x.example"]) {
      expect(failure("www.example.com. A 192.0.2.1\n", { origin }).message).toMatch(/^zone\.txt: --origin/);
    }
  });

  it("a Unicode domain is read in its xn-- form, and the report says so", () => {
    const t = zone("münchen.example. A 192.0.2.1\nwww.münchen.example. CNAME münchen.example.\n", {
      origin: "München.example",
    });
    expect(t.domain).toBe("xn--mnchen-3ya.example.");
    expect(t.records.map((r) => r.record)).toEqual([
      { name: "@", type: "A", content: "192.0.2.1" },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ]);
    expect(t.notes).toContain(
      "the domain münchen.example. is written in its xn-- form: xn--mnchen-3ya.example.",
    );
    expect(
      importProgram([{ text: "www.münchen.example. A 192.0.2.1\n", file: "m.zone" }], "ts", {
        origin: "münchen.example",
      }).files["import-report.md"],
    ).toContain("xn--mnchen-3ya.example.");
  });

  it("a byte-order mark before the SOA is read as one, not as part of the domain", () => {
    const text = `\uFEFFexample.com. SOA ${SOA}\nwww.example.com. A 192.0.2.1\n`;
    expect(records(text)).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.slice(1))]);
    expect(records(bytes)).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(1), "utf16le")]);
    expect(records(utf16)).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
  });

  it("the domain inside contents is still {domainname} in whole labels only, whatever named it", () => {
    const text = `example.com\t3600\tIN\tSOA\t${SOA}\nexample.com.\t1\tIN\tTXT\t"v=spf1 include:_spf.example.com include:notexample.com ~all"\nmx.example.com.\t1\tIN\tCNAME\tmail.example.com.au.\n`;
    expect(records(text).map((r) => r.content)).toEqual([
      "v=spf1 include:_spf.{domainname} include:notexample.com ~all",
      "mail.example.com.au.",
    ]);
  });
});

describe("what the API cannot hold exactly is skipped with its line and reason", () => {
  it("Route 53 routing policies as cli53 writes them are skipped, never merged into one set", () => {
    const text = [
      "$ORIGIN example.net.",
      'www\t60\tIN\tA\t192.0.2.51 ; AWS routing="WEIGHTED" weight=10 identifier="blue"',
      'www\t60\tIN\tA\t192.0.2.52 ; AWS routing="WEIGHTED" weight=90 identifier="green"',
      'f\t60\tIN\tA\t192.0.2.61 ; AWS routing="FAILOVER" failover="PRIMARY" healthCheckId="6bb57c41-879a-42d0-acdd-ed6472f08eb9" identifier="p"',
      'g\t60\tIN\tA\t192.0.2.71 ; AWS routing="GEOLOCATION" countryCode="GB" identifier="uk"',
      'l\t60\tIN\tA\t192.0.2.81 ; AWS routing="LATENCY" region="us-west-1" identifier="USWest1"',
      'm\t60\tIN\tA\t192.0.2.91 ; AWS routing="MULTIVALUE" identifier="One"',
      "a\t86400\tAWS\tALIAS\tA dualstack.lb-1.eu-west-1.elb.amazonaws.com. Z32O12XQLNTSW2 true",
      "plain\t60\tIN\tA\t192.0.2.1 ; a comment that is no routing",
      "",
    ].join("\n");
    const t = zone(text);
    expect(t.records.map((r) => r.record.name)).toEqual(["plain"]);
    expect(t.skipped.map((s) => [s.line, s.reason.split(":")[0]])).toEqual([
      [2, "a Route 53 weighted record (weight 10)"],
      [3, "a Route 53 weighted record (weight 90)"],
      [4, "a Route 53 failover record (PRIMARY)"],
      [5, "a Route 53 geolocation record (countryCode GB)"],
      [6, "a Route 53 latency record (region us-west-1)"],
      [7, "a Route 53 multivalue answer record"],
      [8, 'a Route 53 alias (cli53 writes it "AWS ALIAS")'],
    ]);
    expect(t.skipped[0]?.reason).toContain('(identifier "blue")');
    expect(t.skipped[0]?.reason).toContain("would answer all of them");
  });

  it("ALIAS records (PowerDNS, other hosts) are skipped with the reason and the way forward", () => {
    const t = zone("$ORIGIN example.com.\n@ ALIAS lb.example.net.\n");
    expect(t.skipped[0]?.reason).toMatch(/no ALIAS records.*target's addresses.*A\/AAAA records/);
  });

  it("TXT strings that are separate items (DNS-SD) are skipped, not joined", () => {
    const t = zone('$ORIGIN example.com.\n_http._tcp TXT "txtvers=1" "path=/"\nw TXT a b\n');
    expect(t.records).toEqual([]);
    expect(t.skipped.map((s) => s.line)).toEqual([2, 3]);
    expect(t.skipped[0]?.reason).toMatch(/^2 TXT strings that are separate items/);
  });

  it("joined, and named in the report: a value split at 255 bytes, and SPF, DKIM, DMARC records", () => {
    const first = "x".repeat(255);
    const text = [
      "$ORIGIN example.com.",
      `long TXT "${first}" "tail"`,
      'spf TXT "v=spf1 include:_spf.example.net " "-all"',
      'k1._domainkey TXT "k=rsa; p=MIGfMA0GCSqGSIb3" "DQEBAQUAA4GNADCBiQKBgQC"',
      'k2._domainkey TXT "v=DKIM1; k=rsa; " "p=MIGfMA0G"',
      '_dmarc TXT "v=DMARC1; p=reject; " "rua=mailto:d@example.com"',
      "",
    ].join("\n");
    const t = zone(text);
    expect(t.records.map((r) => r.record.content)).toEqual([
      `${first}tail`,
      "v=spf1 include:_spf.example.net -all",
      "k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC",
      "v=DKIM1; k=rsa; p=MIGfMA0G",
      "v=DMARC1; p=reject; rua=mailto:d@{domainname}",
    ]);
    const joins = t.changes.filter((c) => c.change.includes("TXT strings joined"));
    expect(joins.map((c) => [c.line, c.change.split(": ")[1]])).toEqual([
      [2, "one value split at 255 bytes"],
      [3, "an SPF record (RFC 7208 3.3"],
      [4, "a DKIM record (RFC 6376 3.6.2.2"],
      [5, "a DKIM record (RFC 6376 3.6.2.2"],
      [6, "a DMARC record (read joined, as DKIM's)"],
    ]);
    // One byte short of 255 is no split value: those strings are separate.
    expect(zone(`$ORIGIN example.com.\nx TXT "${"x".repeat(254)}" "tail"\n`).skipped[0]?.reason).toMatch(
      /separate items/,
    );
  });

  it("bytes that are not UTF-8 skip their record with its line, never become U+FFFD", () => {
    const bytes = Buffer.concat([
      Buffer.from("$ORIGIN example.com.\n; caf"),
      Buffer.from([0xe9]),
      Buffer.from(' (a Latin-1 comment line)\nnote TXT "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\nok TXT "caf\u00e9"\nold A 192.0.2.1 ; d'),
      Buffer.from([0xe9]),
      Buffer.from("j\u00e0 vu\nbad"),
      Buffer.from([0xff]),
      Buffer.from(" A 192.0.2.2\n  AAAA 2001:db8::1\n"),
    ]);
    const t = zone(bytes);
    expect(t.records.map((r) => [r.line, r.record.name, r.record.content])).toEqual([
      [4, "ok", "café"],
      [5, "old", "192.0.2.1"],
    ]);
    expect(t.skipped.map((s) => [s.line, s.text])).toEqual([
      [3, 'note.example.com. TXT "caf\\xE9"'],
      [6, "bad\\xFF.example.com. A 192.0.2.2"],
      [7, "bad\\xFF.example.com. AAAA 2001:db8::1"],
    ]);
    expect(t.skipped[0]?.reason).toMatch(/^bytes that are not UTF-8/);
    expect(JSON.stringify(t)).not.toContain("\uFFFD");
  });
});

describe("a DNS host's own settings are reported as dropped", () => {
  it("Cloudflare's proxying and CNAME flattening (cf_tags in the comment, the last cf_tags= counts)", () => {
    const text = [
      `example.com\t3600\tIN\tSOA\t${SOA}`,
      "example.com.\t1\tIN\tA\t192.0.2.1 ; cf_tags=cf-proxied:true",
      "www.example.com.\t1\tIN\tCNAME\tapp.example.net. ; cf_tags=cf-flatten-cname,cf-proxied:false",
      "a.example.com.\t1\tIN\tA\t192.0.2.2 ; says cf_tags= as text cf_tags=cf-proxied:false",
      'b.example.com.\t1\tIN\tA\t192.0.2.3 ; cf_tags=tag:"x,cf-proxied:true",cf-proxied:false',
      "",
    ].join("\n");
    const t = zone(text);
    expect(t.records).toHaveLength(4);
    expect(t.dropped.map((d) => [d.line, d.change.split(" dropped")[0]])).toEqual([
      [2, "Cloudflare's proxying (cf-proxied:true)"],
      [3, "Cloudflare's CNAME flattening (cf-flatten-cname)"],
    ]);
    const [imported] = importZones([{ text, file: "cf.zone", templateId: "web" }]);
    const report = importProgram([{ text, file: "cf.zone", templateId: "web" }], "yaml").files[
      "import-report.md"
    ];
    expect(report).toContain("### Dropped: the DNS host's own settings of imported records");
    expect(report).toMatch(/- line 2: Cloudflare's proxying \(cf-proxied:true\) dropped/);
    expect(imported?.ttlsDropped).toBe(5);
  });
});

describe("readable forms are read", () => {
  it("\\DDD in owners: Route 53's octal \\052 is *, RFC 1035's decimal bytes are UTF-8", () => {
    const text =
      "$ORIGIN example.com.\n\\052 A 192.0.2.1\n\\052.dev A 192.0.2.2\ncaf\\195\\169 A 192.0.2.3\n";
    const t = zone(text);
    expect(t.records.map((r) => r.record.name)).toEqual(["*", "*.dev", "xn--caf-dma"]);
    expect(t.changes.find((c) => c.line === 2)?.change).toBe('\\052 read as "*": Route 53\'s octal escape');
    // A decimal escape of a character Route 53 never escapes is read as RFC 1035 says.
    expect(records("$ORIGIN example.com.\n\\065b A 192.0.2.1\n")[0]?.name).toBe("ab");
  });

  it("RFC 3597 generic records, for TYPEnnn and for known types written generically", () => {
    const text = [
      "$ORIGIN example.com.",
      "a TYPE1 \\# 4 C0000201",
      "b A \\# 4 C0 00 02 02",
      "c TYPE28 \\# 16 20010DB8000000000000000000000001",
      "@ TYPE15 \\# 20 000A 046D61696C076578616D706C6503636F6D00",
      "t TYPE16 \\# 6 0568656C6C6F",
      "_s._tcp TYPE33 \\# 18 0001 0002 0003 0373727606657861 6D706C00",
      "x TYPE65 \\# 3 000100",
      "",
    ].join("\n");
    const t = zone(text);
    expect(t.records.map((r) => r.record)).toEqual([
      { name: "a", type: "A", content: "192.0.2.1" },
      { name: "b", type: "A", content: "192.0.2.2" },
      { name: "c", type: "AAAA", content: "2001:db8::1" },
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "t", type: "TXT", content: "hello" },
      { name: "_s._tcp", type: "SRV", content: "srv.exampl.", priority: 1, weight: 2, port: 3 },
    ]);
    expect(t.skipped.map((s) => [s.line, s.reason.split(" (")[0]])).toEqual([
      [8, "the API has no HTTPS records"],
    ]);
    expect(t.changes).toContainEqual({ line: 2, change: "TYPE1 read as A" });
    expect(t.changes).toContainEqual({ line: 3, change: "RFC 3597 generic data read as A data" });
    expect(failure("$ORIGIN example.com.\na A \\# 5 C0000201\n").message).toMatch(
      /^zone\.txt:2: expected RFC 3597 generic data.*says 5 bytes and gives 4/,
    );
  });

  it("GoDaddy's name.@ owners are the name under the origin", () => {
    const text = "$ORIGIN example.com.\n_sip._tls.@\t3600\t IN \tSRV\t100\t1\t443\tsipdir.online.lync.com.\n";
    expect(records(text)).toEqual([
      {
        name: "_sip._tls",
        type: "SRV",
        content: "sipdir.online.lync.com.",
        priority: 100,
        weight: 1,
        port: 443,
      },
    ]);
  });

  it("CLASS1 is IN", () => {
    expect(records("$ORIGIN example.com.\na CLASS1 A 192.0.2.1\n")).toEqual([
      { name: "a", type: "A", content: "192.0.2.1" },
    ]);
  });
});

describe("line numbers are exact", () => {
  it("after an escaped line end inside a quoted string (LF and CRLF), and after parentheses", () => {
    const text =
      '$ORIGIN example.com.\nt TXT "one\\\ntwo"\na A 192.0.2.1\nu TXT "x\\\r\ny"\r\nb A 192.0.2.2\n' +
      '@ SOA ns. h. ( 1 ; a comment with "a quote and ( a paren\n 2 3 4 5 )\nc A 192.0.2.3\n';
    const t = zone(text);
    expect(t.records.map((r) => [r.line, r.record.name])).toEqual([
      [4, "a"],
      [7, "b"],
      [10, "c"],
    ]);
    // The strings holding a line end are refused by check() (control characters), at their own lines.
    expect(t.skipped.map((s) => s.line)).toEqual([2, 5, 8]);
  });

  it("an unterminated quote names the line it opened on", () => {
    expect(failure('$ORIGIN example.com.\nt TXT "open\\\nstill\n').line).toBe(2);
  });
});

describe("escapes, for any bytes (property)", () => {
  /** One byte of a character-string, written in one of the ways RFC 1035 allows. */
  function written(byte: number, way: number): string {
    const char = String.fromCharCode(byte);
    const plain = byte > 0x20 && byte < 0x7f && !'"\\;()'.includes(char);
    if (way === 0 && plain) return char;
    if (way === 1 && byte > 0x20 && byte < 0x7f && !/\d/.test(char)) return `\\${char}`;
    return `\\${String(byte).padStart(3, "0")}`;
  }

  it("a quoted character-string gives back exactly its bytes, and the record after it its line", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 2 })), {
          maxLength: 60,
        }),
        fc.nat({ max: 3 }),
        (bytes, before) => {
          const body = bytes.map(([b, way]) => written(b, way)).join("");
          const text = `${"; c\n".repeat(before)}t TXT "${body}" ; after\nn A 192.0.2.1\n`;
          const lines = tokenize(text, "z");
          expect(lines.map((l) => l.line)).toEqual([before + 1, before + 2]);
          const token = lines[0]?.tokens[2];
          expect(token?.quoted).toBe(true);
          expect([...characterStringBytes(token?.text ?? "").bytes]).toEqual(bytes.map(([b]) => b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an owner written with \\X escapes of any of its letters and hyphens is the same name", () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        fc.array(fc.boolean()),
        (labels, escapes) => {
          let k = 0;
          const owner = labels
            .map((l) =>
              // RFC 1035 5.1: \X for any X but a digit (a digit starts \DDD).
              [...l]
                .map((c) => (escapes[k++ % Math.max(1, escapes.length)] && !/\d/.test(c) ? `\\${c}` : c))
                .join(""),
            )
            .join(".");
          expect(records(`$ORIGIN example.com.\n${owner} A 192.0.2.1\n`)[0]?.name).toBe(labels.join("."));
        },
      ),
      { numRuns: 200 },
    );
  });
});
