/**
 * Builders of the records people most often get wrong: `spf({...})`, `dmarc({...})` and
 * `caa({...})` take typed arguments and return an ordinary record (plus, for SPF, the lookups it
 * costs), which the template checks always pass. Each builder's arguments and result are zod
 * schemas here, the one source the plugin registers them from (`domainapi:index:spf`, `:dmarc`,
 * `:caa`, see {@link BUILDERS}).
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { z } from "zod";
import type { RecordSpec } from "../dns/model";
import { validateRecords } from "../dns/validate";
import { TOKENS } from "../manifest";
import { CAA_CRITICAL, CAA_TAGS, readCaa } from "./caa";
import { type DmarcPolicy, readDmarc } from "./dmarc";
import { findingText } from "./rules";
import { readSpf, SPF_LOOKUP_LIMIT } from "./spf";
import { checkTemplate } from "./template";

/**
 * A builder's argument that cannot be used: `builder` and `argument` name it (`spf`, `include[2]`),
 * `reason` says what is wrong and how to fix it.
 */
export class BuilderArgumentError extends Error {
  /** The builder called: `spf`, `dmarc` or `caa`. */
  readonly builder: string;
  /** The argument at fault, e.g. `include[2]` or `policy`. */
  readonly argument: string;
  /** What is wrong with it and how to fix it. */
  readonly reason: string;

  constructor(builder: string, argument: string, reason: string) {
    super(`${builder}: ${argument}: ${reason}`);
    this.name = "BuilderArgumentError";
    this.builder = builder;
    this.argument = argument;
    this.reason = reason;
  }
}

const nameOf = (fallback: string, what: string) =>
  z.string({ error: `the record's name must be a string, ${what}` }).default(fallback);

const strings = (what: string) =>
  z.array(z.string({ error: `each entry must be a string, ${what}` }), { error: `expected a list, ${what}` });

// ---------------------------------------------------------------------------------------------
// SPF

/** What an SPF record does with a sender that matched nothing before: `-all`, `~all`, `?all`. */
export const SPF_ALL = { fail: "-", softfail: "~", neutral: "?" } as const;

/** The arguments of {@link spf}. */
export const SpfArgsSchema = z.strictObject({
  name: nameOf("@", 'e.g. "@" or "mail"').describe("The record's name: `@` (default) or a subdomain."),
  a: z
    .boolean({ error: "a is true or false" })
    .default(false)
    .describe("Whether the domain's own A/AAAA addresses may send (`a`; one lookup)."),
  mx: z
    .boolean({ error: "mx is true or false" })
    .default(false)
    .describe("Whether the domain's own MX hosts may send (`mx`; one lookup)."),
  ip4: strings('e.g. ip4: ["192.0.2.0/24"]')
    .default([])
    .describe("IPv4 addresses or networks (`ip4:192.0.2.0/24`; no lookup)."),
  ip6: strings('e.g. ip6: ["2001:db8::/32"]')
    .default([])
    .describe("IPv6 addresses or networks (`ip6:2001:db8::/32`; no lookup)."),
  include: strings('e.g. include: ["_spf.example.net"]')
    .default([])
    .describe("Domains whose SPF records are included (`include:_spf.example.net`; one lookup each)."),
  exists: strings('e.g. exists: ["%{i}._spf.example.net"]')
    .default([])
    .describe("Domains that must exist for a match (`exists:%{i}._spf.example.net`; one lookup each)."),
  redirect: z
    .string({ error: 'redirect is a domain, e.g. "_spf.example.net"' })
    .optional()
    .describe(
      "A domain whose SPF record applies when nothing here matched (`redirect=`; one lookup); excludes `all`.",
    ),
  all: z
    .enum(["fail", "softfail", "neutral"], {
      error:
        'all is "fail" (-all), "softfail" (~all) or "neutral" (?all); "pass" (+all) would let anyone send',
    })
    .optional()
    .describe(
      "What happens to other senders: `fail` (`-all`, the default without `redirect`), `softfail`, `neutral`.",
    ),
});

/** The arguments of {@link spf}, as a program writes them. */
export type SpfArgs = z.input<typeof SpfArgsSchema>;

/** A TXT record as the builders return it: an ordinary record of a template. */
export const TxtRecordSchema = z.strictObject({
  name: z.string(),
  type: z.literal("TXT"),
  content: z.string(),
});

/** The result of {@link spf}. */
export const SpfResultSchema = z.strictObject({
  record: TxtRecordSchema.describe("The record, ready for `records`."),
  lookups: z
    .number()
    .int()
    .describe("The DNS lookups the record costs itself (RFC 7208 §4.6.4; at most 10)."),
  lookupTerms: z.array(z.string()).describe("The terms that cost them, in record order."),
});

/** The result of {@link spf}. */
export type SpfResult = z.output<typeof SpfResultSchema>;

function parsed<S extends z.ZodType>(builder: string, schema: S, args: unknown): z.output<S> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    throw new BuilderArgumentError(
      builder,
      issue.keys.join(", "),
      `unknown argument; ${builder} takes ${Object.keys(shape).join(", ")}`,
    );
  }
  const at = issue.path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    // Stryker disable next-line Regex: a path starts with an argument's name (the arguments are an object), so its first dot leads it
    .replace(/^\./, "");
  throw new BuilderArgumentError(builder, at || "(arguments)", issue.message);
}

/** Refuses a term whose text SPF cannot read, naming the argument it came from. */
function checkTerm(argument: string, term: string): void {
  if (/\s/.test(term)) {
    throw new BuilderArgumentError(
      "spf",
      argument,
      `${JSON.stringify(term)} must be one term without spaces`,
    );
  }
  const [problem] = readSpf(`v=spf1 ${term}`).problems;
  if (problem) throw new BuilderArgumentError("spf", argument, `${problem.problem}; ${problem.fix}`);
}

/**
 * An SPF record (RFC 7208) from typed parts, with the DNS lookups it costs itself. Terms come in
 * the order receivers should try them: `a`, `mx`, `ip4`, `ip6`, `include`, `exists`, then
 * `redirect` or `all`. A record over 10 lookups is refused, as the checks would refuse it.
 *
 * @example
 * const { record, lookups } = spf({ mx: true, include: ["_spf.mailhost.example"], all: "fail" });
 * // record: { name: "@", type: "TXT", content: "v=spf1 mx include:_spf.mailhost.example -all" }, lookups: 2
 */
export function spf(args: SpfArgs): SpfResult {
  const a = parsed("spf", SpfArgsSchema, args);
  if (a.redirect !== undefined && a.all !== undefined) {
    throw new BuilderArgumentError(
      "spf",
      "all",
      "with redirect, all is never reached (RFC 7208 §6.1): give one of them",
    );
  }
  // Only the terms made from given text are checked: "a", "mx" and the "all" always read.
  const terms: string[] = [];
  if (a.a) terms.push("a");
  if (a.mx) terms.push("mx");
  for (const key of ["ip4", "ip6", "include", "exists"] as const) {
    a[key].forEach((value, i) => {
      checkTerm(`${key}[${i}]`, `${key}:${value}`);
      terms.push(`${key}:${value}`);
    });
  }
  if (a.redirect !== undefined) {
    checkTerm("redirect", `redirect=${a.redirect}`);
    terms.push(`redirect=${a.redirect}`);
  } else terms.push(`${SPF_ALL[a.all ?? "fail"]}all`);
  const content = ["v=spf1", ...terms].join(" ");
  const { lookups } = readSpf(content);
  if (lookups.length > SPF_LOOKUP_LIMIT) {
    throw new BuilderArgumentError(
      "spf",
      "(arguments)",
      `the record would need ${lookups.length} DNS lookups (${lookups.join(", ")}); receivers allow ${SPF_LOOKUP_LIMIT} (RFC 7208 §4.6.4): use ip4/ip6 ranges for some of them`,
    );
  }
  const record = finished("spf", { name: a.name, type: "TXT", content });
  return { record, lookups: lookups.length, lookupTerms: [...lookups] };
}

// ---------------------------------------------------------------------------------------------
// DMARC

const ALIGNMENT = { relaxed: "r", strict: "s" } as const;
const policy = (what: string) =>
  z.enum(["none", "quarantine", "reject"] satisfies DmarcPolicy[], {
    error: `${what} is "none", "quarantine" or "reject"`,
  });
const alignment = (tag: string) =>
  z.enum(["relaxed", "strict"], { error: `${tag} is "relaxed" or "strict"` });
const reportUris = (tag: string) => strings(`e.g. ${tag}: ["mailto:dmarc@example.com"]`).default([]);

/** The arguments of {@link dmarc}. */
export const DmarcArgsSchema = z.strictObject({
  name: nameOf("_dmarc", 'e.g. "_dmarc"').describe(
    "`_dmarc` (default) for the domain, or `_dmarc.<subdomain>`.",
  ),
  policy: policy("policy").describe("What receivers do with mail that fails DMARC (`p`)."),
  subdomainPolicy: policy("subdomainPolicy")
    .optional()
    .describe("The policy for subdomains (`sp`); the domain's policy when absent."),
  // The number's error is every check's too, unless a check gives its own.
  percent: z
    .number({ error: "percent is a whole number from 0 to 100" })
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe("Share of failing mail the policy applies to, in percent (`pct`; 100 when absent)."),
  rua: reportUris("rua").describe("Where aggregate reports go (`rua`), e.g. `mailto:dmarc@example.com`."),
  ruf: reportUris("ruf").describe("Where failure reports go (`ruf`)."),
  adkim: alignment("adkim").optional().describe("DKIM alignment (`adkim`): `relaxed` (default) or `strict`."),
  aspf: alignment("aspf").optional().describe("SPF alignment (`aspf`): `relaxed` (default) or `strict`."),
  failureOptions: z
    .array(z.enum(["0", "1", "d", "s"], { error: 'each failure option is "0", "1", "d" or "s"' }))
    .default([])
    .describe("When failure reports are made (`fo`): `0`, `1`, `d`, `s`."),
  reportInterval: z
    .number({ error: "reportInterval is whole seconds, e.g. 86400" })
    .int()
    .min(0)
    .max(0xffffffff, { error: "reportInterval is at most 4294967295 seconds" })
    .optional()
    .describe("Seconds between aggregate reports (`ri`; 86400 when absent)."),
});

/** The arguments of {@link dmarc}, as a program writes them. */
export type DmarcArgs = z.input<typeof DmarcArgsSchema>;

/** The result of {@link dmarc} and {@link caa}: one record. */
export const DmarcResultSchema = z.strictObject({
  record: TxtRecordSchema.describe("The `_dmarc` TXT record, ready for `records`."),
});

/** The result of {@link dmarc}. */
export type DmarcResult = z.output<typeof DmarcResultSchema>;

function checkUris(tag: "rua" | "ruf", uris: readonly string[]): void {
  uris.forEach((uri, i) => {
    if (/[\s,;]/.test(uri)) {
      throw new BuilderArgumentError(
        "dmarc",
        `${tag}[${i}]`,
        `${JSON.stringify(uri)} holds a space, "," or ";": write them %-encoded (%2C, %3B)`,
      );
    }
    const [problem] = readDmarc(`v=DMARC1; p=none; ${tag}=${uri}`).problems;
    if (problem)
      throw new BuilderArgumentError("dmarc", `${tag}[${i}]`, `${problem.problem}; ${problem.fix}`);
  });
}

/**
 * A DMARC record (RFC 7489) from typed parts: `v=DMARC1; p=...` and the tags given, in a fixed
 * order. The name must be `_dmarc` or under it.
 *
 * @example
 * const { record } = dmarc({ policy: "quarantine", rua: ["mailto:dmarc@example.com"] });
 * // { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com" }
 */
export function dmarc(args: DmarcArgs): DmarcResult {
  const a = parsed("dmarc", DmarcArgsSchema, args);
  const name = a.name.toLowerCase();
  if (name !== "_dmarc" && !name.startsWith("_dmarc.")) {
    throw new BuilderArgumentError(
      "dmarc",
      "name",
      `a DMARC record lives at "_dmarc" or "_dmarc.<subdomain>"; got ${JSON.stringify(a.name)}`,
    );
  }
  checkUris("rua", a.rua);
  checkUris("ruf", a.ruf);
  const tags = [`v=DMARC1`, `p=${a.policy}`];
  if (a.subdomainPolicy !== undefined) tags.push(`sp=${a.subdomainPolicy}`);
  if (a.percent !== undefined) tags.push(`pct=${a.percent}`);
  if (a.rua.length > 0) tags.push(`rua=${a.rua.join(",")}`);
  if (a.ruf.length > 0) tags.push(`ruf=${a.ruf.join(",")}`);
  if (a.adkim !== undefined) tags.push(`adkim=${ALIGNMENT[a.adkim]}`);
  if (a.aspf !== undefined) tags.push(`aspf=${ALIGNMENT[a.aspf]}`);
  if (a.failureOptions.length > 0) tags.push(`fo=${a.failureOptions.join(":")}`);
  if (a.reportInterval !== undefined) tags.push(`ri=${a.reportInterval}`);
  return { record: finished("dmarc", { name: a.name, type: "TXT", content: tags.join("; ") }) };
}

// ---------------------------------------------------------------------------------------------
// CAA

/** The arguments of {@link caa}. */
export const CaaArgsSchema = z.strictObject({
  name: nameOf("@", 'e.g. "@"').describe("The record's name: `@` (default) or a subdomain."),
  tag: z
    .enum(CAA_TAGS, { error: `tag is one of ${CAA_TAGS.join(", ")}` })
    .describe("The property: `issue`, `issuewild`, `iodef`, ... (the IANA registry's tags only)."),
  value: z
    .string({ error: 'value is a string, e.g. "letsencrypt.org"' })
    .describe("The property's value: a CA's domain for `issue` (`;` alone allows none), a URL for `iodef`."),
  critical: z
    .boolean({ error: "critical is true or false" })
    .default(false)
    .describe("The issuer critical flag (128): a CA that does not know the tag must not issue."),
});

/** The arguments of {@link caa}, as a program writes them. */
export type CaaArgs = z.input<typeof CaaArgsSchema>;

/** The result of {@link caa}. */
export const CaaResultSchema = z.strictObject({
  record: z
    .strictObject({ name: z.string(), type: z.literal("CAA"), content: z.string() })
    .describe("The CAA record, ready for `records`."),
});

/** The result of {@link caa}. */
export type CaaResult = z.output<typeof CaaResultSchema>;

/**
 * A CAA record (RFC 8659) from a registry tag and its value.
 *
 * @example
 * caa({ tag: "issue", value: "letsencrypt.org" }).record;
 * // { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' }
 */
export function caa(args: CaaArgs): CaaResult {
  const a = parsed("caa", CaaArgsSchema, args);
  if (/["\p{Cc}]/u.test(a.value)) {
    throw new BuilderArgumentError(
      "caa",
      "value",
      `${JSON.stringify(a.value)} holds a '"' or a control character, which a CAA value cannot`,
    );
  }
  const content = `${a.critical ? CAA_CRITICAL : 0} ${a.tag} "${a.value}"`;
  const [problem] = readCaa(content).problems;
  if (problem) throw new BuilderArgumentError("caa", "value", `${problem.problem}; ${problem.fix}`);
  return { record: finished("caa", { name: a.name, type: "CAA", content }) };
}

// ---------------------------------------------------------------------------------------------

/**
 * The record a builder returns, once the record validation and the template checks pass it: what a
 * builder makes is never refused later. A failure here names the argument behind it.
 */
function finished<R extends RecordSpec>(builder: string, record: R): R {
  const { issues } = validateRecords([record]);
  const [issue] = issues;
  if (issue) {
    // Stryker disable next-line StringLiteral: only a name fails the validation: every content a builder writes passes it
    const argument = issue.property.endsWith(".name") ? "name" : "(arguments)";
    throw new BuilderArgumentError(builder, argument, issue.reason);
  }
  // A safety net no argument reaches (each part was read above by the checks' own readers):
  // Stryker disable next-line ArrayDeclaration,StringLiteral: no builder's record has a finding (the property tests hold it)
  const [found] = checkTemplate([{ path: "record", record }]);
  // Stryker disable next-line StringLiteral: unreachable, as above
  if (found) throw new BuilderArgumentError(builder, "(arguments)", findingText(found));
  return record;
}

/**
 * The builders by the token the plugin serves each one under, with their zod schemas: the one list
 * a provider function is registered from.
 */
export const BUILDERS = {
  [TOKENS.spf]: { args: SpfArgsSchema, result: SpfResultSchema, build: spf },
  [TOKENS.dmarc]: { args: DmarcArgsSchema, result: DmarcResultSchema, build: dmarc },
  [TOKENS.caa]: { args: CaaArgsSchema, result: CaaResultSchema, build: caa },
} as const;
