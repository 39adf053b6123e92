import { describe, expect, it } from "vitest";
import type { InputIssue } from "../../../provider/dns/issues";
import type { RecordSpec } from "../../../provider/dns/model";
import { validateRecords, validateTemplateId } from "../../../provider/dns/validate";

/** An issue as one line, `property: reason`. */
function formatIssue(issue: InputIssue): string {
  return `${issue.property}: ${issue.reason}`;
}

/** Validates one record and returns its issues as `property: reason` lines. */
function issuesOf(record: unknown): string[] {
  return validateRecords([record]).issues.map(formatIssue);
}

function onlyIssue(record: unknown): InputIssue {
  const { issues } = validateRecords([record]);
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

const VALID: Record<string, RecordSpec> = {
  A: { name: "www", type: "A", content: "192.0.2.1" },
  AAAA: { name: "www", type: "AAAA", content: "2001:db8::1" },
  CNAME: { name: "shop", type: "CNAME", content: "{domainname}." },
  MX: { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  SRV: { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
  TXT: { name: "@", type: "TXT", content: "v=spf1 -all" },
  NS: { name: "sub", type: "NS", content: "ns1.example.net." },
  CAA: { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  TLSA: { name: "_443._tcp.www", type: "TLSA", content: "3 1 1 ab12CD34" },
  URLFWD: { name: "go", type: "URLFWD", content: "https://www.example.net/path?q=1" },
  URLFWD301: { name: "old", type: "URLFWD301", content: "http://{domainname}/new" },
  URLCLO: { name: "cloak", type: "URLCLO", content: "https://example.org" },
};

describe("validateRecords: valid records", () => {
  it.each(Object.entries(VALID))("accepts a valid %s record unchanged", (_type, record) => {
    expect(validateRecords([record])).toEqual({ records: [record], issues: [] });
  });

  it("accepts an empty list", () => {
    expect(validateRecords([])).toEqual({ records: [], issues: [] });
  });

  it("lower-cases names, upper-cases types and returns canonical order", () => {
    const { records, issues } = validateRecords([
      { name: "WWW", type: "a", content: "192.0.2.2" },
      { name: "@", type: "Mx", content: "mx.example.net", priority: 5 },
      { name: "www", type: "A", content: "192.0.2.1" },
    ]);
    expect(issues).toEqual([]);
    expect(records).toEqual([
      { name: "@", type: "MX", content: "mx.example.net", priority: 5 },
      { name: "www", type: "A", content: "192.0.2.1" },
      { name: "www", type: "A", content: "192.0.2.2" },
    ]);
  });

  it("treats null and undefined numbers as not given", () => {
    const { records, issues } = validateRecords([
      { name: "www", type: "A", content: "192.0.2.1", priority: null, weight: undefined },
    ]);
    expect(issues).toEqual([]);
    expect(records).toEqual([{ name: "www", type: "A", content: "192.0.2.1" }]);
    expect(Object.keys(records[0]!)).toEqual(["name", "type", "content"]);
  });

  it("accepts wildcard, underscore and multi-label names", () => {
    for (const name of ["*", "*.dev", "_dmarc", "a.b.c", "x-1", "_acme-challenge.www"]) {
      expect(validateRecords([{ name, type: "TXT", content: "x" }]).issues).toEqual([]);
    }
  });

  it("accepts a null MX (a single dot) and host names with underscores", () => {
    expect(validateRecords([{ name: "@", type: "MX", content: ".", priority: 0 }]).issues).toEqual([]);
    expect(validateRecords([{ name: "x", type: "CNAME", content: "_x.example.net" }]).issues).toEqual([]);
  });

  it("accepts numbers at the edges of their range", () => {
    const srv = {
      name: "_a._udp",
      type: "SRV",
      content: "t.example.net",
      priority: 0,
      weight: 65535,
      port: 0,
    };
    expect(validateRecords([srv]).issues).toEqual([]);
  });

  it("uses the given path in every issue", () => {
    const { issues } = validateRecords([{ name: "www", type: "A", content: "nope" }], "spec.records");
    expect(issues.map((i) => i.property)).toEqual(["spec.records[0].content"]);
  });
});

describe("validateRecords: the shape of the input", () => {
  it("requires a list", () => {
    expect(validateRecords("www A 1.2.3.4").issues).toEqual([
      {
        property: "records",
        reason:
          'expected a list of records, e.g. [{ name: "www", type: "A", content: "192.0.2.1" }]; got the string "www A 1.2.3.4"',
      },
    ]);
    expect(validateRecords(undefined).issues[0]?.reason).toMatch(
      /records are required.*an empty list \[\] means no records/,
    );
  });

  it("requires each record to be an object", () => {
    expect(validateRecords([VALID.A, 42]).issues).toEqual([
      {
        property: "records[1]",
        reason:
          'expected a record object like { name: "www", type: "A", content: "192.0.2.1" }; got number 42',
      },
    ]);
  });

  it("reports unknown fields one by one, suggesting the right spelling", () => {
    expect(issuesOf({ ...VALID.MX, Priority: 10, ttl: 300 })).toEqual([
      'records[0].Priority: unknown field "Priority"; a record has only name, type, content, priority, weight, port: did you mean "priority"?',
      'records[0].ttl: "ttl" is not part of the API: its template records have only name, type, content, priority, weight, port, and no request can set a TTL; remove it (the records get whatever TTL the service gives them)',
    ]);
  });

  it("requires name, type and content", () => {
    expect(issuesOf({})).toEqual([
      'records[0].name: every record needs a name: "@" for the apex or a relative name such as "www"',
      "records[0].type: every record needs a type, one of A, CNAME, TXT, MX, SRV, AAAA, NS, CAA, TLSA, URLFWD, URLFWD301, URLCLO",
      'records[0].content: every record needs content, e.g. content: "192.0.2.1" for an A record',
    ]);
  });

  it("rejects non-string fields", () => {
    expect(issuesOf({ name: 1, type: "A", content: "192.0.2.1" })).toEqual([
      'records[0].name: the name must be a string such as "www" or "@"; got number 1',
    ]);
    expect(issuesOf({ name: "www", type: "A", content: ["192.0.2.1"] })).toEqual([
      "records[0].content: content must be a string; got a list",
    ]);
    expect(issuesOf({ name: "www", type: ["A"], content: "192.0.2.1" })[0]).toMatch(
      /^records\[0\]\.type: the type must be a string, one of A, CNAME/,
    );
  });

  it("rejects unknown types, naming the known ones", () => {
    expect(onlyIssue({ name: "www", type: "PTR", content: "x" })).toEqual({
      property: "records[0].type",
      reason:
        'unknown record type "PTR"; use one of A, CNAME, TXT, MX, SRV, AAAA, NS, CAA, TLSA, URLFWD, URLFWD301, URLCLO',
    });
  });
});

describe("validateRecords: numbers", () => {
  it("requires a priority on MX records, with the fix", () => {
    const { issues } = validateRecords([
      VALID.A,
      VALID.TXT,
      { name: "@", type: "MX", content: "mx1.example.net" },
    ]);
    expect(issues.map(formatIssue)).toEqual([
      "records[2].priority: MX records need a priority from 0 to 65535; add priority: 10",
    ]);
  });

  it("requires priority, weight and port on SRV records", () => {
    expect(issuesOf({ name: "_sip._tcp", type: "SRV", content: "sip.example.net" })).toEqual([
      "records[0].priority: SRV records need a priority from 0 to 65535; add priority: 10",
      "records[0].weight: SRV records need a weight from 0 to 65535; add weight: 5",
      "records[0].port: SRV records need a port from 0 to 65535; add port: 443",
    ]);
  });

  it("rejects numbers on types that do not take them, saying to remove them", () => {
    expect(issuesOf({ ...VALID.A, priority: 10 })).toEqual([
      "records[0].priority: A records take no priority (only MX and SRV records do); remove it",
    ]);
    expect(issuesOf({ ...VALID.MX, weight: 1, port: 25 })).toEqual([
      "records[0].weight: MX records take no weight (only SRV records do); remove it",
      "records[0].port: MX records take no port (only SRV records do); remove it",
    ]);
  });

  it("rejects numbers given as strings, telling to drop the quotes", () => {
    expect(onlyIssue({ ...VALID.MX, priority: "10" })).toEqual({
      property: "records[0].priority",
      reason: "priority must be a number, not a string: write priority: 10 (without quotes)",
    });
    expect(onlyIssue({ ...VALID.MX, priority: "high" }).reason).toBe(
      'priority must be an integer from 0 to 65535, e.g. priority: 10; got the string "high"',
    );
  });

  it("rejects fractions, negatives, out-of-range and non-finite numbers", () => {
    expect(onlyIssue({ ...VALID.MX, priority: 1.5 }).reason).toBe(
      "priority must be an integer from 0 to 65535; got 1.5",
    );
    expect(onlyIssue({ ...VALID.SRV, port: -1 }).reason).toBe(
      "port must be an integer from 0 to 65535; got -1",
    );
    expect(onlyIssue({ ...VALID.SRV, weight: 65536 }).reason).toBe(
      "weight must be an integer from 0 to 65535; got 65536",
    );
    expect(onlyIssue({ ...VALID.SRV, weight: Number.POSITIVE_INFINITY }).property).toBe("records[0].weight");
    expect(onlyIssue({ ...VALID.SRV, weight: Number.NaN }).property).toBe("records[0].weight");
  });
});

describe("validateRecords: names", () => {
  it("rejects an empty name, pointing to @", () => {
    expect(onlyIssue({ ...VALID.A, name: "" })).toEqual({
      property: "records[0].name",
      reason: 'the name is empty; use "@" for the apex or a relative name such as "www"',
    });
  });

  it("rejects absolute names and names holding the domain, showing the relative name", () => {
    expect(onlyIssue({ ...VALID.A, name: "www.{domainname}" }).reason).toBe(
      '"www.{domainname}" is not a relative name; names are relative to the domain the template is applied to: write "www" instead (use "@" for the apex)',
    );
    expect(onlyIssue({ ...VALID.A, name: "www.example.com." }).reason).toMatch(/write "www" instead/);
    expect(onlyIssue({ ...VALID.A, name: "{domainname}." }).reason).toMatch(/write "@" instead/);
  });

  it("rejects characters and label forms that are not allowed", () => {
    for (const name of ["w w", "www..x", ".www", "wh@t", "a.*", "**"]) {
      expect(onlyIssue({ ...VALID.A, name }).reason).toBe(
        `"${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)`,
      );
    }
  });

  it("rejects labels longer than 63 and names longer than 253 characters", () => {
    const long = "a".repeat(64);
    expect(onlyIssue({ ...VALID.A, name: long }).reason).toBe(
      `the label "${long}" is 64 characters long; DNS labels hold at most 63`,
    );
    const name = Array.from({ length: 64 }, () => "abc").join(".");
    expect(onlyIssue({ ...VALID.A, name }).reason).toBe("the name is 255 characters long; keep it to 253");
  });

  it("requires SRV names of the form _service._proto[.sub]", () => {
    for (const name of ["sip", "_sip", "@", "sip._tcp", "x._sip._tcp"]) {
      expect(onlyIssue({ ...VALID.SRV, name }).reason).toBe(
        `SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "${name}"`,
      );
    }
    expect(validateRecords([{ ...VALID.SRV, name: "_ldap._tcp.corp" }]).issues).toEqual([]);
  });

  it("forbids a CNAME at the apex", () => {
    expect(onlyIssue({ name: "@", type: "CNAME", content: "x.example.net." })).toEqual({
      property: "records[0].name",
      reason:
        'a CNAME cannot be at the apex "@" (the apex holds the SOA and NS records); put it on a subdomain such as "www", or use A/AAAA records or a URLFWD at "@"',
    });
  });
});

describe("validateRecords: contents per type", () => {
  it("requires IPv4 for A", () => {
    for (const content of ["300.1.1.1", "1.2.3", "2001:db8::1", " 192.0.2.1", "01.2.3.4", ""]) {
      expect(onlyIssue({ ...VALID.A, content })).toEqual({
        property: "records[0].content",
        reason: `A records need an IPv4 address as content, e.g. "192.0.2.1"; got ${JSON.stringify(content)}`,
      });
    }
  });

  it("requires IPv6 for AAAA, without zone ids", () => {
    for (const content of ["192.0.2.1", "2001:db8::g", "fe80::1%eth0"]) {
      expect(onlyIssue({ ...VALID.AAAA, content }).reason).toBe(
        `AAAA records need an IPv6 address as content, e.g. "2001:db8::1"; got ${JSON.stringify(content)}`,
      );
    }
    expect(validateRecords([{ ...VALID.AAAA, content: "::ffff:192.0.2.1" }]).issues).toEqual([]);
  });

  it("requires host names for CNAME, NS, MX and SRV", () => {
    expect(onlyIssue({ ...VALID.CNAME, content: "not a host" }).reason).toBe(
      '"not a host" is not a host name: use dot-separated labels of letters, digits, "-" and "_", optionally with {domainname} and a final dot, e.g. "target.example.net."',
    );
    expect(onlyIssue({ ...VALID.NS, content: "-bad.example.net" }).property).toBe("records[0].content");
    expect(onlyIssue({ ...VALID.MX, content: "mx..example.net" }).reason).toMatch(
      /e\.g\. "mx1\.example\.net"$/,
    );
    expect(onlyIssue({ ...VALID.SRV, content: "" }).reason).toBe(
      'SRV records need a host name as content, e.g. "sip.example.net"',
    );
    expect(onlyIssue({ ...VALID.CNAME, content: "." }).property).toBe("records[0].content");
  });

  it("accepts {domainname} in host names and explains a misspelled placeholder or @", () => {
    for (const content of ["{domainname}", "mail.{domainname}.", "{domainname}"]) {
      expect(validateRecords([{ ...VALID.MX, content }]).issues).toEqual([]);
    }
    expect(onlyIssue({ ...VALID.CNAME, content: "www.{DomainName}." }).reason).toBe(
      '"www.{DomainName}." holds a "{" or "}": the only placeholder is {domainname} (all lower case)',
    );
    expect(onlyIssue({ ...VALID.CNAME, content: "@" }).reason).toBe(
      '"@" is not a host name here; write "{domainname}." for the apex of the domain',
    );
  });

  it("requires non-empty TXT", () => {
    for (const content of ["", "   "]) {
      expect(onlyIssue({ ...VALID.TXT, content }).reason).toBe(
        'TXT records need non-empty text as content, e.g. "v=spf1 -all"',
      );
    }
  });

  it('requires CAA as flags tag "value" with flags 0-255', () => {
    expect(onlyIssue({ ...VALID.CAA, content: "0 issue letsencrypt.org" }).reason).toBe(
      'CAA content has the form flags tag "value", e.g. 0 issue "letsencrypt.org"; got "0 issue letsencrypt.org"',
    );
    expect(onlyIssue({ ...VALID.CAA, content: '256 issue "x"' }).reason).toBe(
      "CAA flags go from 0 to 255 (usually 0); got 256",
    );
    expect(onlyIssue({ ...VALID.CAA, content: '0 is-sue "x"' }).property).toBe("records[0].content");
    for (const content of ['128 iodef "mailto:sec@example.net"', '0 issuewild ";"', '0 issue ""']) {
      expect(validateRecords([{ ...VALID.CAA, content }]).issues).toEqual([]);
    }
  });

  it("requires TLSA as usage selector matching-type hex, each in range", () => {
    const cases: Array<[string, string]> = [
      ["4 1 1 ab", "the TLSA usage goes from 0 to 3; got 4"],
      ["3 2 1 ab", "the TLSA selector is 0 or 1; got 2"],
      ["3 1 3 ab", "the TLSA matching type goes from 0 to 2; got 3"],
      ["3 1 1 abc", "the TLSA certificate data must be whole bytes (an even number of hex digits); it has 3"],
      [
        "3 1 1 xyz",
        'TLSA content has the form "usage selector matching-type hex", e.g. "3 1 1 ab12cd34"; got "3 1 1 xyz"',
      ],
    ];
    for (const [content, reason] of cases) {
      expect(onlyIssue({ ...VALID.TLSA, content })).toEqual({ property: "records[0].content", reason });
    }
  });

  it("requires absolute http(s) URLs for URL forwards", () => {
    for (const type of ["URLFWD", "URLFWD301", "URLCLO"]) {
      for (const content of ["www.example.net", "ftp://example.net/", "/relative", "https://exa mple.net/"]) {
        expect(onlyIssue({ name: "go", type, content })).toEqual({
          property: "records[0].content",
          reason: `${type} records need an absolute http(s) URL as content, e.g. "https://www.example.net/"; got ${JSON.stringify(content)}`,
        });
      }
    }
  });

  it("reports several problems of one record at once", () => {
    expect(issuesOf({ name: "@", type: "CNAME", content: "", priority: 1 })).toEqual([
      'records[0].name: a CNAME cannot be at the apex "@" (the apex holds the SOA and NS records); put it on a subdomain such as "www", or use A/AAAA records or a URLFWD at "@"',
      'records[0].content: CNAME records need a host name as content, e.g. "target.example.net."',
      "records[0].priority: CNAME records take no priority (only MX and SRV records do); remove it",
    ]);
  });
});

describe("validateRecords: host names and IPv6 in one spelling", () => {
  const HOST_TYPES = { CNAME: VALID.CNAME!, NS: VALID.NS!, MX: VALID.MX!, SRV: VALID.SRV! };
  const EXAMPLES = {
    CNAME: "target.example.net.",
    NS: "ns1.example.net",
    MX: "mx1.example.net",
    SRV: "sip.example.net",
  };

  it.each(Object.entries(HOST_TYPES))(
    "refuses an IP address as %s target, naming a host instead",
    (type, record) => {
      for (const content of ["192.0.2.1", "2001:db8::1", "::ffff:192.0.2.1"]) {
        expect(onlyIssue({ ...record, content })).toEqual({
          property: "records[0].content",
          reason:
            `${JSON.stringify(content)} is an IP address, and ${type} records point at a host name (RFC 1123 2.1); ` +
            `give the name of a host that has an A or AAAA record, e.g. "${EXAMPLES[type as keyof typeof EXAMPLES]}"`,
        });
      }
    },
  );

  it("still takes host names that look like numbers but are not addresses", () => {
    for (const content of ["192.0.2.1.example.net.", "1.2.3", "10-0-0-1.example.net"]) {
      expect(validateRecords([{ ...VALID.CNAME, content }]).issues).toEqual([]);
    }
  });

  it("lower-cases host-name contents, keeping the placeholder, and leaves other contents as written", () => {
    const { records, issues } = validateRecords([
      { name: "www", type: "CNAME", content: "Web.{domainname}.EXAMPLE." },
      { name: "@", type: "MX", content: "MX1.Example.NET", priority: 10 },
      { name: "sub", type: "NS", content: "NS1.Example.net." },
      { name: "_sip._tcp", type: "SRV", content: "SIP.example.net", priority: 1, weight: 2, port: 3 },
      { name: "@", type: "TXT", content: "Hello World" },
      { name: "go", type: "URLFWD", content: "https://Example.net/A" },
    ]);
    expect(issues).toEqual([]);
    expect(records.map((r) => r.content)).toEqual([
      "mx1.example.net",
      "Hello World",
      "sip.example.net",
      "https://Example.net/A",
      "ns1.example.net.",
      "web.{domainname}.example.",
    ]);
  });

  it("writes IPv6 addresses in RFC 5952 form: lower case, no leading zeros, longest zero run compressed", () => {
    const cases: Array<[string, string]> = [
      ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
      ["2001:0db8::0001", "2001:db8::1"],
      ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
      ["0:0:0:0:0:0:0:0", "::"],
      ["::1", "::1"],
    ];
    for (const [content, canonical] of cases) {
      expect(validateRecords([{ ...VALID.AAAA, content }])).toEqual({
        records: [{ ...VALID.AAAA, content: canonical }],
        issues: [],
      });
    }
  });

  it("calls two spellings of one host name or one IPv6 address duplicates", () => {
    expect(
      validateRecords([
        { ...VALID.AAAA, content: "2001:db8::1" },
        { ...VALID.AAAA, content: "2001:DB8:0::0:1" },
        { ...VALID.MX, content: "mx1.example.net" },
        { ...VALID.MX, content: "MX1.EXAMPLE.NET" },
      ]).issues,
    ).toEqual([
      { property: "records[1]", reason: "duplicates records[0] (www AAAA 2001:db8::1); remove one of them" },
      {
        property: "records[3]",
        reason: "duplicates records[2] (@ MX 10 mx1.example.net); remove one of them",
      },
    ]);
  });
});

describe("validateRecords: rules between records", () => {
  it("rejects exact duplicates after normalization, naming both indexes", () => {
    const { records, issues } = validateRecords([
      VALID.A,
      VALID.TXT,
      { name: "WWW", type: "a", content: "192.0.2.1" },
    ]);
    expect(records).toEqual([]);
    expect(issues).toEqual([
      { property: "records[2]", reason: "duplicates records[0] (www A 192.0.2.1); remove one of them" },
    ]);
  });

  it("does not call records duplicates when only a number differs", () => {
    const mx2 = { ...VALID.MX, priority: 20 };
    expect(validateRecords([VALID.MX, mx2]).issues).toEqual([]);
  });

  it("lets a CNAME be the only record at its name, naming both indexes", () => {
    const { issues } = validateRecords([
      { name: "shop", type: "TXT", content: "hello" },
      VALID.A,
      VALID.CNAME,
      { name: "shop", type: "CNAME", content: "other.example.net." },
    ]);
    expect(issues).toEqual([
      {
        property: "records[2].name",
        reason:
          '"shop" holds both a TXT (records[0]) and a CNAME (records[2]); a CNAME must be the only record at its name: remove one of them or give it another name',
      },
      {
        property: "records[3].name",
        reason:
          '"shop" holds both a CNAME (records[2]) and a CNAME (records[3]); a CNAME must be the only record at its name: remove one of them or give it another name',
      },
    ]);
  });

  it("lets URL forwards exclude A, AAAA and CNAME at their name, but not TXT", () => {
    const { issues } = validateRecords([
      { name: "go", type: "URLFWD", content: "https://example.net/" },
      { name: "go", type: "A", content: "192.0.2.1" },
      { name: "go", type: "TXT", content: "fine" },
      { name: "go", type: "AAAA", content: "2001:db8::1" },
      { name: "other", type: "A", content: "192.0.2.1" },
    ]);
    expect(issues.map(formatIssue)).toEqual([
      'records[1].name: "go" holds both a URLFWD (records[0]) and an A (records[1]); a URLFWD excludes A, AAAA and CNAME records at its name (the service creates A and AAAA records for it): remove one of them or give it another name',
      'records[3].name: "go" holds both a URLFWD (records[0]) and an AAAA (records[3]); a URLFWD excludes A, AAAA and CNAME records at its name (the service creates A and AAAA records for it): remove one of them or give it another name',
    ]);
  });

  it("reports a CNAME next to a URL forward once", () => {
    const { issues } = validateRecords([
      { name: "go", type: "CNAME", content: "x.example.net." },
      { name: "go", type: "URLCLO", content: "https://example.net/" },
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.property).toBe("records[1].name");
  });

  it("compares names after lower-casing", () => {
    const { issues } = validateRecords([VALID.CNAME, { name: "SHOP", type: "TXT", content: "x" }]);
    expect(issues.map((i) => i.property)).toEqual(["records[1].name"]);
  });
});

describe("validateTemplateId", () => {
  it("accepts ordinary ids", () => {
    expect(validateTemplateId("12345")).toEqual([]);
    expect(validateTemplateId("tpl-abc_1")).toEqual([]);
  });

  it("explains what is wrong", () => {
    expect(validateTemplateId(undefined)).toEqual([
      { property: "templateId", reason: 'the id of the DNS template is required, e.g. templateId: "12345"' },
    ]);
    expect(validateTemplateId(42)).toEqual([
      { property: "templateId", reason: 'the template id must be a string; write templateId: "42"' },
    ]);
    expect(validateTemplateId(" ")[0]?.reason).toBe(
      'the template id is empty; give the template\'s id, e.g. templateId: "12345"',
    );
    for (const id of ["a/b", "a b", "x?y", "..", "50%"]) {
      expect(validateTemplateId(id)[0]?.reason).toMatch(/cannot be a template id/);
    }
  });

  it("refuses control characters, which a URL path would carry escaped or not at all", () => {
    for (const id of ["a\u0000b", "a\tb", "a\nb", "tpl\u007f"]) {
      expect(validateTemplateId(id)).toEqual([
        {
          property: "templateId",
          reason: `${JSON.stringify(id)} cannot be a template id: it must not hold spaces, control characters, "/", "?", "#", "%" or "\\" (or be "." / ".."), e.g. templateId: "12345"`,
        },
      ]);
    }
  });
});
