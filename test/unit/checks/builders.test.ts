/**
 * The builders: whatever they accept, they return an ordinary record that the record validation
 * and the template checks pass, and that reads back (with the checks' own readers) to the
 * arguments it was built from; what they refuse names the argument and the fix.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BUILDERS,
  BuilderArgumentError,
  type CaaArgs,
  caa,
  type DmarcArgs,
  dmarc,
  SPF_ALL,
  type SpfArgs,
  spf,
} from "../../../provider/checks/builders";
import { CAA_TAGS, readCaa } from "../../../provider/checks/caa";
import { readDmarc } from "../../../provider/checks/dmarc";
import { readSpf } from "../../../provider/checks/spf";
import { checkTemplate } from "../../../provider/checks/template";
import type { RecordSpec } from "../../../provider/dns/model";
import { validateRecords } from "../../../provider/dns/validate";

/** The record passes the record validation and every template check, alone. */
function expectAccepted(record: RecordSpec): void {
  expect(validateRecords([record]).issues).toEqual([]);
  expect(checkTemplate([{ path: "records[0]", record }])).toEqual([]);
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom("net", "example", "org"))
  .map(([labels, tld]) => [...labels, tld].join("."));
const templateDomain = fc.oneof(
  domain,
  label.map((l) => `${l}.{domainname}`),
  fc.constant("{domainname}"),
);
const recordName = fc.oneof(fc.constant("@"), label);
const ip4 = fc
  .tuple(fc.ipV4(), fc.option(fc.integer({ min: 0, max: 32 }), { nil: undefined }))
  .map(([ip, len]) => (len === undefined ? ip : `${ip}/${len}`));
const ip6 = fc
  .tuple(fc.ipV6(), fc.option(fc.integer({ min: 0, max: 128 }), { nil: undefined }))
  .map(([ip, len]) => (len === undefined ? ip : `${ip}/${len}`));
const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,10}$/), domain)
  .map(([local, d]) => `${local}@${d}`);

const spfArgs: fc.Arbitrary<SpfArgs> = fc
  .record({
    name: recordName,
    a: fc.boolean(),
    mx: fc.boolean(),
    ip4: fc.array(ip4, { maxLength: 4 }),
    ip6: fc.array(ip6, { maxLength: 3 }),
    include: fc.array(templateDomain, { maxLength: 5 }),
    exists: fc.array(
      domain.map((d) => `%{i}.${d}`),
      { maxLength: 2 },
    ),
    end: fc.oneof(
      fc.constantFrom("fail", "softfail", "neutral").map((all) => ({ all }) as const),
      domain.map((redirect) => ({ redirect })),
    ),
  })
  .filter(
    (a) =>
      Number(a.a) + Number(a.mx) + a.include.length + a.exists.length + ("redirect" in a.end ? 1 : 0) <= 10,
  )
  .map(({ end, ...rest }) => ({ ...rest, ...end }));

/** An SPF record read back, with the checks' own reader, into the builder's arguments. */
function spfArgsOf(record: RecordSpec): SpfArgs {
  const { terms } = readSpf(record.content);
  const values = (name: string) =>
    terms.filter((t) => t.name === name && t.value !== undefined).map((t) => t.value!);
  const all = terms.find((t) => t.name === "all");
  const redirect = terms.find((t) => t.kind === "modifier" && t.name === "redirect");
  const words = Object.fromEntries(Object.entries(SPF_ALL).map(([word, q]) => [q, word]));
  return {
    name: record.name,
    a: terms.some((t) => t.name === "a" && t.value === undefined),
    mx: terms.some((t) => t.name === "mx" && t.value === undefined),
    ip4: values("ip4"),
    ip6: values("ip6"),
    include: values("include"),
    exists: values("exists"),
    ...(redirect ? { redirect: redirect.value! } : {}),
    ...(all ? { all: words[all.qualifier!] as SpfArgs["all"] } : {}),
  };
}

describe("spf()", () => {
  it("always makes a record the checks pass, that reads back to its arguments, with its lookups counted", () => {
    fc.assert(
      fc.property(spfArgs, (args) => {
        const result = spf(args);
        expect(result.record.type).toBe("TXT");
        expectAccepted(result.record);
        expect(spfArgsOf(result.record)).toEqual(args);
        const expected =
          Number(args.a) +
          Number(args.mx) +
          (args.include?.length ?? 0) +
          (args.exists?.length ?? 0) +
          (args.redirect === undefined ? 0 : 1);
        expect(result.lookups).toBe(expected);
        expect(result.lookupTerms).toHaveLength(expected);
        expect(BUILDERS["domainapi:index:spf"].result.parse(result)).toEqual(result);
      }),
      { numRuns: 300 },
    );
  });

  it("defaults to @ and -all", () => {
    expect(spf({ mx: true, include: ["_spf.mailhost.example"] })).toEqual({
      record: { name: "@", type: "TXT", content: "v=spf1 mx include:_spf.mailhost.example -all" },
      lookups: 2,
      lookupTerms: ["mx", "include:_spf.mailhost.example"],
    });
  });

  it.each([
    [{ include: ["bad domain"] }, 'spf: include[0]: "include:bad domain" must be one term without spaces'],
    [
      { ip4: ["192.0.2.300"] },
      'spf: ip4[0]: "ip4:192.0.2.300" is malformed: "192.0.2.300" is not an IPv4 address; correct "ip4:192.0.2.300"',
    ],
    [
      { redirect: "_spf.example.net", all: "fail" },
      "spf: all: with redirect, all is never reached (RFC 7208 §6.1): give one of them",
    ],
    [
      { all: "pass" },
      'spf: all: all is "fail" (-all), "softfail" (~all) or "neutral" (?all); "pass" (+all) would let anyone send',
    ],
    [
      { colour: "blue" },
      "spf: colour: unknown argument; spf takes name, a, mx, ip4, ip6, include, exists, redirect, all",
    ],
    [{ name: "mail.example.com." }, /^spf: name: "mail\.example\.com\." is not a relative name/],
    [
      { include: Array.from({ length: 11 }, (_, i) => `s${i}.example.net`) },
      /^spf: \(arguments\): the record would need 11 DNS lookups \(include:s0\.example\.net, .*\); receivers allow 10 \(RFC 7208 §4\.6\.4\)/,
    ],
  ])("refuses %j naming the argument", (args, message) => {
    expect(() => spf(args as SpfArgs)).toThrow(BuilderArgumentError);
    expect(() => spf(args as SpfArgs)).toThrow(message);
  });
});

const dmarcArgs: fc.Arbitrary<DmarcArgs> = fc.record(
  {
    name: fc.oneof(
      fc.constant("_dmarc"),
      label.map((l) => `_dmarc.${l}`),
    ),
    policy: fc.constantFrom("none", "quarantine", "reject"),
    subdomainPolicy: fc.constantFrom("none", "quarantine", "reject"),
    percent: fc.integer({ min: 0, max: 100 }),
    rua: fc.array(
      email.map((e) => `mailto:${e}`),
      { minLength: 1, maxLength: 3 },
    ),
    ruf: fc.array(
      email.map((e) => `mailto:${e}`),
      { minLength: 1, maxLength: 2 },
    ),
    adkim: fc.constantFrom("relaxed", "strict"),
    aspf: fc.constantFrom("relaxed", "strict"),
    failureOptions: fc.uniqueArray(fc.constantFrom("0", "1", "d", "s"), { minLength: 1 }),
    reportInterval: fc.integer({ min: 0, max: 0xffffffff }),
  },
  { requiredKeys: ["policy"] },
);

/** A DMARC record read back, with the checks' own reader, into the builder's arguments. */
function dmarcArgsOf(record: RecordSpec): DmarcArgs {
  const tags = new Map(readDmarc(record.content).tags);
  const word = (v: string | undefined) => (v === undefined ? undefined : v === "s" ? "strict" : "relaxed");
  const args: Record<string, unknown> = {
    name: record.name,
    policy: tags.get("p"),
    subdomainPolicy: tags.get("sp"),
    percent: tags.has("pct") ? Number(tags.get("pct")) : undefined,
    rua: tags.get("rua")?.split(","),
    ruf: tags.get("ruf")?.split(","),
    adkim: word(tags.get("adkim")),
    aspf: word(tags.get("aspf")),
    failureOptions: tags.get("fo")?.split(":"),
    reportInterval: tags.has("ri") ? Number(tags.get("ri")) : undefined,
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as DmarcArgs;
}

describe("dmarc()", () => {
  it("always makes a record the checks pass, that reads back to its arguments", () => {
    fc.assert(
      fc.property(dmarcArgs, (args) => {
        const { record } = dmarc(args);
        expectAccepted(record);
        expect(record.content.startsWith(`v=DMARC1; p=${args.policy}`)).toBe(true);
        expect(dmarcArgsOf(record)).toEqual({ name: "_dmarc", ...args });
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [{ policy: "block" }, 'dmarc: policy: policy is "none", "quarantine" or "reject"'],
    [
      { policy: "none", rua: ["dmarc@example.com"] },
      'dmarc: rua[0]: rua address "dmarc@example.com" is not a URI; write rua=mailto:dmarc@example.com',
    ],
    [
      { policy: "none", rua: ["mailto:a@example.com,mailto:b@example.com"] },
      /^dmarc: rua\[0\]: .* holds a space, "," or ";"/,
    ],
    [{ policy: "none", percent: 150 }, "dmarc: percent: percent is a whole number from 0 to 100"],
    [
      { policy: "none", name: "@" },
      'dmarc: name: a DMARC record lives at "_dmarc" or "_dmarc.<subdomain>"; got "@"',
    ],
  ])("refuses %j naming the argument", (args, message) => {
    expect(() => dmarc(args as DmarcArgs)).toThrow(message);
  });
});

const caaArgs: fc.Arbitrary<CaaArgs> = fc.oneof(
  fc.record({
    name: recordName,
    tag: fc.constantFrom("issue", "issuewild", "issuevmc", "issuemail"),
    value: fc.oneof(
      domain,
      fc.constant(";"),
      fc
        .tuple(domain, fc.stringMatching(/^[a-z0-9]{1,12}$/))
        .map(([d, account]) => `${d}; account=${account}`),
    ),
    critical: fc.boolean(),
  }),
  fc.record({
    name: recordName,
    tag: fc.constant("iodef"),
    value: fc.oneof(
      email.map((e) => `mailto:${e}`),
      domain.map((d) => `https://${d}/iodef`),
    ),
    critical: fc.boolean(),
  }),
  fc.record({ name: recordName, tag: fc.constant("contactemail"), value: email, critical: fc.boolean() }),
);

describe("caa()", () => {
  it("always makes a record the checks pass, that reads back to its arguments", () => {
    fc.assert(
      fc.property(caaArgs, (args) => {
        const { record } = caa(args);
        expectAccepted(record);
        const read = readCaa(record.content);
        expect({ name: record.name, tag: read.tag, value: read.value, critical: read.flags === 128 }).toEqual(
          args,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("makes only the registry's tags", () => {
    expect(() => caa({ tag: "tbs" as "issue", value: "x" })).toThrow(
      `caa: tag: tag is one of ${CAA_TAGS.join(", ")}`,
    );
    expect(() => caa({ tag: "issue", value: 'a"b' })).toThrow(/caa: value: .* holds a '"'/);
    expect(() => caa({ tag: "iodef", value: "security@example.com" })).toThrow(
      /^caa: value: iodef "security@example\.com" is not a mailto:, http: or https: URL/,
    );
  });
});
