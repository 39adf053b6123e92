/**
 * What a user reads when a record list is refused, at the edges of each rule: the limits of RFC
 * 1035 (63 per label, 253 per name written without its final dot), the wildcard label of RFC 4592
 * (first and alone), SRV owner names of RFC 2782, internationalized names in their UTS #46 form,
 * control characters in a value, numbers of 16 bits, unknown fields, and the rules between records.
 */
import { describe, expect, it } from "vitest";
import { validateEach, validateRecords, validateTemplateId } from "../../../provider/dns/validate";

const A = { name: "www", type: "A", content: "192.0.2.1" };
const SRV = {
  name: "_sip._tcp",
  type: "SRV",
  content: "sip.example.net",
  priority: 10,
  weight: 5,
  port: 5060,
};

/** The issues of a list, each as `property: reason`. */
function lines(raw: unknown, path?: string): string[] {
  return validateRecords(raw, path).issues.map((i) => `${i.property}: ${i.reason}`);
}

const INVALID_NAME = (name: string) =>
  `records[0].name: "${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ` +
  `optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)`;

describe("names at the limits of RFC 1035", () => {
  it("a label of 63 characters is taken, one of 64 is not", () => {
    expect(lines([{ ...A, name: "a".repeat(63) }])).toEqual([]);
    expect(lines([{ ...A, name: `x.${"b".repeat(64)}.y` }])).toEqual([
      `records[0].name: the label "${"b".repeat(64)}" is 64 characters long; DNS labels hold at most 63`,
    ]);
  });

  it("a name of 253 characters is taken, one of 254 is not", () => {
    const labels = ["a".repeat(63), "b".repeat(63), "c".repeat(63)];
    expect(lines([{ ...A, name: [...labels, "d".repeat(61)].join(".") }])).toEqual([]);
    expect(lines([{ ...A, name: [...labels, "d".repeat(62)].join(".") }])).toEqual([
      "records[0].name: the name is 254 characters long; keep it to 253",
    ]);
  });

  it("a wildcard is a whole first label: alone, or before other labels", () => {
    expect(
      lines([
        { ...A, name: "*" },
        { ...A, name: "*.dev" },
      ]),
    ).toEqual([]);
    expect(lines([{ ...A, name: "*.*" }])).toEqual([INVALID_NAME("*.*")]);
    expect(lines([{ ...A, name: "dev.*" }])).toEqual([INVALID_NAME("dev.*")]);
  });

  it("a name is compared without case and written lower case", () => {
    expect(validateRecords([{ ...A, name: "WwW.Dev" }]).records).toEqual([{ ...A, name: "www.dev" }]);
  });
});

describe("absolute names: the subdomain to write instead", () => {
  it("one label with a final dot, or dots alone", () => {
    const relative = (name: string, write: string) =>
      `records[0].name: "${name}" is not a relative name; names are relative to the domain the template is applied to: write "${write}" instead (use "@" for the apex)`;
    expect(lines([{ ...A, name: "www." }])).toEqual([relative("www.", "www")]);
    expect(lines([{ ...A, name: "www.." }])).toEqual([relative("www..", "www")]);
    expect(lines([{ ...A, name: "." }])).toEqual([relative(".", "@")]);
  });

  it("a full host name: the last two labels taken as the domain, said to be a guess", () => {
    expect(lines([{ ...A, name: "a.b.example.com." }])).toEqual([
      'records[0].name: "a.b.example.com." is not a relative name; names are relative to the domain the template is applied to ' +
        '(the API takes the subdomain only, "@" for the domain itself): if the template is applied to example.com, write "a.b" instead, ' +
        'which names a.b.example.com there. A template cannot name a host outside the domain it is applied to; and "a.b.example.com" ' +
        "without the final dot would name a.b.example.com.<domain>",
    ]);
    expect(lines([{ ...A, name: "example.com." }])[0]).toContain(
      'if the template is applied to example.com, write "@" instead, which names example.com there',
    );
  });

  it("the placeholder in a name: what is left of it, or @", () => {
    expect(lines([{ ...A, name: "{domainname}" }])).toEqual([
      'records[0].name: "{domainname}" is not a relative name; names are relative to the domain the template is applied to: write "@" instead (use "@" for the apex)',
    ]);
  });
});

describe("internationalized names: the ASCII form DNS writes, never taken silently", () => {
  it("a label outside ASCII gets its xn-- form", () => {
    expect(lines([{ ...A, name: "Bücher" }])).toEqual([
      `records[0].name: "bücher" holds characters outside ASCII; DNS writes it "xn--bcher-kva" (UTS #46, as Node's url.domainToASCII maps it): write "xn--bcher-kva" instead`,
    ]);
  });

  it("an ideographic full stop, as a Japanese input method types it, is a dot", () => {
    expect(lines([{ ...A, name: "www。shop" }])[0]).toMatch(
      /DNS writes it "www\.shop" .*: write "www\.shop" instead$/,
    );
  });

  it("an ASCII form that breaks another rule says both", () => {
    const name = `${"x".repeat(60)}ü`;
    const [line] = lines([{ ...A, name }]);
    expect(line).toContain(`"${name}" holds characters outside ASCII; DNS writes it "xn--`);
    expect(line).toMatch(/, and the label "xn--x+-3hg" is 68 characters long; DNS labels hold at most 63$/);
    expect(lines([{ ...SRV, name: "bücher" }])).toEqual([
      `records[0].name: "bücher" holds characters outside ASCII; DNS writes it "xn--bcher-kva" (UTS #46, as Node's url.domainToASCII maps it), and SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "xn--bcher-kva"`,
    ]);
    expect(lines([{ ...SRV, name: "_sip._tcp.bücher" }])[0]).toMatch(
      /: write "_sip\._tcp\.xn--bcher-kva" instead$/,
    );
  });

  it("a name no mapping can make a DNS name", () => {
    expect(lines([{ ...A, name: "ü w" }])).toEqual([
      `records[0].name: "ü w" is not a valid name: it holds characters that no DNS name can (Node's url.domainToASCII refuses it); use "@" or dot-separated labels of letters, digits, "-" and "_"`,
    ]);
  });
});

describe("SRV owner names (RFC 2782): _service._proto, then any subdomain", () => {
  it("takes digits and hyphens in the service and protocol labels", () => {
    expect(
      lines([
        { ...SRV, name: "_s-1._tcp" },
        { ...SRV, name: "_sip._udp.a.b" },
      ]),
    ).toEqual([]);
  });

  it("refuses a protocol label that runs on without a dot", () => {
    expect(lines([{ ...SRV, name: "_sip._tcp_x" }])).toEqual([
      'records[0].name: SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "_sip._tcp_x"',
    ]);
  });
});

describe("a value is one line", () => {
  const CONTROL = (what: string, code: string, at: number) =>
    `records[0].content: content holds ${what} (U+${code} at position ${at}); a record's value is one line: join the lines of the key or text into one (a DKIM key pasted as PEM: drop the line breaks and the BEGIN/END lines)`;
  it.each([
    ["v=spf1\n-all", "a line break", "000A", 7],
    ["a\rb", "a line break", "000D", 2],
    ["\tx", "a control character", "0009", 1],
    ["x\u0000", "a control character", "0000", 2],
    ["x\u007f", "a control character", "007F", 2],
    ["x\u0085", "a control character", "0085", 2],
    ["ab\u2028", "a control character", "2028", 3],
    ["x\u2029y", "a control character", "2029", 2],
  ])("%j", (content, what, code, at) => {
    expect(lines([{ name: "@", type: "TXT", content }])).toEqual([CONTROL(what, code, at)]);
  });

  it("other characters outside ASCII are text", () => {
    expect(lines([{ name: "@", type: "TXT", content: "café \u00a0 ☕ 😀" }])).toEqual([]);
  });
});

describe("numbers of 16 bits", () => {
  it("a number written as a string: drop the quotes, whatever the spaces around it", () => {
    expect(lines([{ ...SRV, priority: " 10 ", weight: "5", port: "443" }])).toEqual([
      "records[0].priority: priority must be a number, not a string: write priority: 10 (without quotes)",
      "records[0].weight: weight must be a number, not a string: write weight: 5 (without quotes)",
      "records[0].port: port must be a number, not a string: write port: 443 (without quotes)",
    ]);
  });

  it("anything else that is not a number: the range, each field's own example, and what was given", () => {
    expect(lines([{ ...SRV, priority: "ten", weight: true, port: Number.NaN }])).toEqual([
      'records[0].priority: priority must be an integer from 0 to 65535, e.g. priority: 10; got the string "ten"',
      "records[0].weight: weight must be an integer from 0 to 65535, e.g. weight: 5; got boolean true",
      "records[0].port: port must be an integer from 0 to 65535, e.g. port: 443; got number NaN",
    ]);
  });

  it("a fraction, a negative and 65536", () => {
    expect(lines([{ ...SRV, priority: 1.5, weight: -1, port: 65536 }])).toEqual([
      "records[0].priority: priority must be an integer from 0 to 65535; got 1.5",
      "records[0].weight: weight must be an integer from 0 to 65535; got -1",
      "records[0].port: port must be an integer from 0 to 65535; got 65536",
    ]);
  });

  it("a missing number: each field's example", () => {
    expect(lines([{ name: "_sip._tcp", type: "SRV", content: "sip.example.net" }])).toEqual([
      "records[0].priority: SRV records need a priority from 0 to 65535; add priority: 10",
      "records[0].weight: SRV records need a weight from 0 to 65535; add weight: 5",
      "records[0].port: SRV records need a port from 0 to 65535; add port: 443",
    ]);
  });

  it("a number a type does not take: who takes it", () => {
    expect(
      lines([{ name: "@", type: "MX", content: "mx.example.net", priority: 1, weight: 1, port: 1 }]),
    ).toEqual([
      "records[0].weight: MX records take no weight (only SRV records do); remove it",
      "records[0].port: MX records take no port (only SRV records do); remove it",
    ]);
  });
});

describe("fields that are not part of a record", () => {
  const FIELDS = "name, type, content, priority, weight, port";
  it("a TTL, in any case: the API has none", () => {
    for (const key of ["ttl", "TTL"]) {
      expect(lines([{ ...A, [key]: 300 }])).toEqual([
        `records[0].${key}: "${key}" is not part of the API: its template records have only ${FIELDS}, and no request can set a TTL; remove it (the records get whatever TTL the service gives them)`,
      ]);
    }
  });

  it("a field in the wrong case: the right spelling; another: remove it", () => {
    expect(lines([{ ...A, Content: "x", foo: 1 }])).toEqual([
      `records[0].Content: unknown field "Content"; a record has only ${FIELDS}: did you mean "content"?`,
      `records[0].foo: unknown field "foo"; a record has only ${FIELDS}: remove it`,
    ]);
  });
});

describe("rules between records: the article goes by how the type is spoken", () => {
  const cnameBeside = (type: string, article: string) =>
    `records[1].name: "x" holds both ${article} ${type} (records[0]) and a CNAME (records[1]); a CNAME must be the only record at its name: remove one of them or give it another name`;
  it.each([
    ["A", "an", "192.0.2.1"],
    ["AAAA", "an", "2001:db8::1"],
    ["MX", "an", "mx.example.net"],
    ["NS", "an", "ns.example.net"],
    ["TXT", "a", "hello"],
    ["CAA", "a", '0 issue "ca.example"'],
    ["TLSA", "a", "3 1 1 ab"],
  ])("%s", (type, article, content) => {
    const first = { name: "x", type, content, ...(type === "MX" ? { priority: 1 } : {}) };
    expect(lines([first, { name: "x", type: "CNAME", content: "a.example.net" }])).toEqual([
      cnameBeside(type, article),
    ]);
  });

  it("an SRV beside a CNAME; the later record is the one named", () => {
    expect(
      lines([
        {
          ...SRV,
          type: "CNAME",
          content: "a.example.net",
          priority: undefined,
          weight: undefined,
          port: undefined,
        },
        SRV,
      ]),
    ).toEqual([
      `records[1].name: "_sip._tcp" holds both a CNAME (records[0]) and an SRV (records[1]); a CNAME must be the only record at its name: remove one of them or give it another name`,
    ]);
  });

  it("every URL forward excludes A and AAAA, and says why", () => {
    for (const forward of ["URLFWD", "URLFWD301", "URLCLO"]) {
      expect(
        lines([
          { name: "x", type: "AAAA", content: "::1" },
          { name: "x", type: forward, content: "https://a.example/" },
          { name: "x", type: "TXT", content: "t" },
        ]),
      ).toEqual([
        `records[1].name: "x" holds both an AAAA (records[0]) and a ${forward} (records[1]); a ${forward} excludes A, AAAA and CNAME records at its name (the service creates A and AAAA records for it): remove one of them or give it another name`,
      ]);
    }
  });

  it("two URL forwards at one name do not exclude each other", () => {
    expect(
      lines([
        { name: "x", type: "URLCLO", content: "https://a.example/" },
        { name: "x", type: "URLFWD301", content: "https://a.example/" },
      ]),
    ).toEqual([]);
  });

  it("a duplicate is reported as a duplicate, once, and each CNAME once beside the first", () => {
    expect(
      lines([
        { name: "x", type: "CNAME", content: "b.example.net" },
        { name: "x", type: "CNAME", content: "a.example.net" },
        { name: "x", type: "CNAME", content: "A.example.net" },
      ]),
    ).toEqual([
      "records[2]: duplicates records[1] (x CNAME a.example.net); remove one of them",
      `records[1].name: "x" holds both a CNAME (records[0]) and a CNAME (records[1]); a CNAME must be the only record at its name: remove one of them or give it another name`,
      `records[2].name: "x" holds both a CNAME (records[0]) and a CNAME (records[2]); a CNAME must be the only record at its name: remove one of them or give it another name`,
    ]);
  });
});

describe("the list itself", () => {
  it("anything but a list, at the given path", () => {
    const expected = (got: string) =>
      `recs: expected a list of records, e.g. [{ name: "www", type: "A", content: "192.0.2.1" }]; got ${got}`;
    expect(lines(5, "recs")).toEqual([expected("number 5")]);
    expect(lines({}, "recs")).toEqual([expected("an object")]);
    for (const raw of [null, undefined]) {
      expect(lines(raw, "recs")).toEqual([
        "recs: records are required: give a list of records (an empty list [] means no records)",
      ]);
    }
  });

  it("validateEach keeps each valid record with its index, beside the issues of the others", () => {
    const { valid, issues } = validateEach([{ ...A, name: "B" }, { ...A, name: "" }, A], "r");
    expect(valid).toEqual([
      { index: 0, record: { ...A, name: "b" } },
      { index: 2, record: A },
    ]);
    expect(issues.map((i) => i.property)).toEqual(["r[1].name"]);
  });
});

describe("the template id: one segment of a URL path", () => {
  const EXAMPLE = 'e.g. templateId: "12345"';
  const refused = (shown: string) =>
    `${shown} cannot be a template id: it must not hold spaces, control characters, "/", "?", "#", "%" or "\\" (or be "." / ".."), ${EXAMPLE}`;

  it("missing, not a string, or empty", () => {
    expect(validateTemplateId(null, "t")).toEqual([
      { property: "t", reason: `the id of the DNS template is required, ${EXAMPLE}` },
    ]);
    expect(validateTemplateId(123)).toEqual([
      { property: "templateId", reason: 'the template id must be a string; write templateId: "123"' },
    ]);
    expect(validateTemplateId(true)).toEqual([
      { property: "templateId", reason: `the template id must be a string; ${EXAMPLE}` },
    ]);
    expect(validateTemplateId("  ")).toEqual([
      { property: "templateId", reason: `the template id is empty; give the template's id, ${EXAMPLE}` },
    ]);
  });

  it.each(["a b", "a/b", "a?b", "a#b", "a%b", "a\\b", "a\tb", "a\u001fb", "a\u007fb", ".", ".."])(
    "refuses %j",
    (id) => {
      expect(validateTemplateId(id)).toEqual([
        { property: "templateId", reason: refused(JSON.stringify(id)) },
      ]);
    },
  );

  it("takes dots within an id, and ids of any other characters", () => {
    for (const id of ["...", "a.b", "12345", "tmpl-1_x~", "é"]) expect(validateTemplateId(id)).toEqual([]);
  });
});
