/**
 * The record model, as octoDNS keeps its `record/*` modules: one row per record type (the numbers
 * it takes, how its content is checked and normalized, an example), the canonical order of
 * records, and the one mapping of a record to the wire.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { isIPv4, isIPv6 } from "node:net";
import { domainToASCII, domainToUnicode } from "node:url";
import { z } from "zod";
import type { RecordType, UpdateItem, WireRecord } from "../client/wire";
import { canonicalIPv6, ipv6Pieces } from "./ipv6";

/**
 * A DNS template record in normal form: `name` lower-cased, `type` upper-cased, content normalized
 * for its type (host names lower-cased, IPv6 addresses in RFC 5952 form), and the optional numbers
 * present only for the types that take them.
 *
 * @example
 * const mx: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
 */
export interface RecordSpec {
  name: string;
  type: RecordType;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** A record as it exists at the service: a {@link RecordSpec} plus the id the service gave it. */
export interface StateRecord extends RecordSpec {
  recordId: string;
}

/** The optional numeric fields of a record. */
export type NumberField = "priority" | "weight" | "port";

/** Every numeric field, in the order they are compared, displayed and sent. */
export const NUMBER_FIELDS: readonly NumberField[] = ["priority", "weight", "port"];

/** The literal text the service replaces with the domain's name where a template is applied. */
export const DOMAIN_PLACEHOLDER = "{domainname}";

/** What the model knows of one record type. */
export interface RecordTypeRow {
  /** The numbers this type takes, and requires. */
  readonly numbers: readonly NumberField[];
  /** A valid content, shown in every reason about this type. */
  readonly example: string;
  /** Why `content` does not fit this type, or `undefined` when it does. */
  readonly contentProblem: (content: string) => string | undefined;
  /** The one spelling of a content that compares equal regardless of case (or IPv6 form). */
  readonly normalize: (content: string) => string;
  /** True for the URL forwards, for which the service creates A and AAAA records at the name. */
  readonly urlForward?: true;
}

const MAX_LABEL = 63;
const MAX_NAME = 253;
const HOST_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/i;

/**
 * What the URL host parser behind Node's `url.domainToASCII` cuts at ("/", "?", "#", "\"), drops
 * (tabs, line breaks) or decodes ("%"): a name holding one has no ASCII form of its own there, for
 * the mapped text would silently lose or change part of it (`bücher.example/x` would become
 * `xn--bcher-kva.example`).
 */
export const URL_HOST_CUTS = /[\t\n\r#/?\\%]/;

/**
 * A last label the URL host parser takes for a number: decimal, octal (`010`) or hex (`0x7f`). Such
 * a name it reads as an IPv4 address (`0x7f.1` -> `127.0.0.1`), and no domain's last label is all
 * digits (RFC 3696, section 2).
 */
export const NUMERIC_END = /(?:^|\.)(?:[0-9]+|0x[0-9a-f]*)$/i;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * The ASCII form DNS writes for a name: the UTS #46 mapping of Node's `url.domainToASCII` (xn--
 * labels, lower case, `。` read as `.`), label by label; `""` when it has none (a character UTS #46
 * refuses, or one of {@link URL_HOST_CUTS}). Never the URL host parser's IPv4 reading of a name
 * ending in a number: `１.２` is `1.2`, not `1.0.0.2`.
 *
 * @example
 * asciiForm("Bücher.２０２４."); // "xn--bcher-kva.2024."
 */
export function asciiForm(name: string): string {
  if (URL_HOST_CUTS.test(name)) return "";
  // UTS #46 15.1 maps ẞ to ß; Node 22's tables still give "ss", so one program would name two domains.
  // Stryker disable next-line MethodExpression,StringLiteral: Node 24, which runs the tests, maps ẞ to ß itself
  const folded = name.replaceAll("\u1e9e", "\u00df");
  // Behind a last label that is no number the parser reads no address; that label is taken off again.
  return domainToASCII(`${folded}.a`).slice(0, -2);
}

/**
 * What IDNA2008 lets a U-label hold (RFC 5892), by general category: letters but upper case (which
 * the mapping folds), marks, decimal digits and "-"; the joiners and the CONTEXTO punctuation (`l·l`)
 * without their context rules; the PVALID exceptions outside those categories (Tibetan tsheg, `〇`).
 */
const PVALID =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: matched one code point at a time
  /[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}\u002d\u00b7\u0375\u05f3\u05f4\u06fd\u06fe\u0f0b\u200c\u200d\u3007\u30fb]/u;
/**
 * Of those, what RFC 5892 disallows all the same: its exceptions (Arabic tatweel, NKo lajanyalan,
 * the Hangul tone marks, the vertical kana repeat marks), the conjoining Hangul jamo and the
 * combining marks for symbols.
 */
const DISALLOWED =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: matched one code point at a time
  /[\u0640\u07fa\u1100-\u11ff\u20d0-\u20ff\u302e\u302f\u3031-\u3035\u303b\ua960-\ua97f\ud7b0-\ud7ff]/u;
/** A letter of a right-to-left script (no Bidi_Class in JavaScript patterns: its script stands for its direction). */
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

function uLabelProblem(label: string): string | undefined {
  // ASCII labels are the callers' patterns' business (an "_" is no IDNA character, yet a DNS one).
  if (!NON_ASCII.test(label)) return undefined;
  if (label.startsWith("-") || label.endsWith("-"))
    return `label "${label}" starts or ends with "-": drop it`;
  if (label.slice(2, 4) === "--") {
    return `label "${label}" has "--" as its third and fourth characters, which only xn-- labels may (RFC 5891 4.2.3.1): check its spelling`;
  }
  const bad = [...label].find((c) => !PVALID.test(c) || DISALLOWED.test(c));
  if (bad === undefined) return undefined;
  const code = bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `label "${label}" holds "${bad}" (U+${code}), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens`;
}

/**
 * Why a registrar refuses a domain that UTS #46 maps all the same, or `undefined`: an `xn--` label
 * that decodes to no valid label; a U-label that breaks IDNA2008's hyphen rules (RFC 5891 4.2.3.1)
 * or holds a code point RFC 5892 disallows (a subset, by general category and a few exceptions); a
 * label not starting with a letter beside a right-to-left label (the Bidi rule, RFC 5893, across
 * labels: the mapping checks each label alone). Not covered: the context rules of the CONTEXTO
 * characters, the musical symbols' combining marks, and right-to-left scripts other than Arabic,
 * Hebrew, Syriac, Thaana and NKo.
 *
 * @param ascii a domain in its ASCII form (lower case, xn-- labels, no final dot)
 * @example
 * idnaProblem("xn--e28h.example"); // 'label "😀" holds "😀" (U+1F600), which IDNA2008 leaves out ...'
 */
export function idnaProblem(ascii: string): string | undefined {
  const labels = ascii.split(".").map((label) => (label.startsWith("xn--") ? domainToUnicode(label) : label));
  // Node's url.domainToUnicode answers a label it cannot decode as it was written.
  const undecoded = labels.find((label) => label.startsWith("xn--"));
  if (undecoded !== undefined) {
    return `label "${undecoded}" is the xn-- form of no valid label (RFC 5891 5.4): check its spelling`;
  }
  const bidi = labels.some((label) => RTL.test(label));
  for (const label of labels) {
    const problem = uLabelProblem(label);
    if (problem !== undefined) return problem;
    if (bidi && !/^\p{L}/u.test(label)) {
      return `label "${label}" does not start with a letter, as every label beside a right-to-left one must (the Bidi rule, RFC 5893): check its spelling`;
    }
  }
  return undefined;
}

const same = (content: string) => content;
const lowerCase = (content: string) => content.toLowerCase();

function hostProblem(type: RecordType, example: string, content: string): string | undefined {
  if (content === "") return `${type} records need a host name as content, e.g. "${example}"`;
  if (content === "@") {
    return `"@" is not a host name here; write "${DOMAIN_PLACEHOLDER}." for the apex of the domain`;
  }
  // A null MX / SRV (RFC 7505, RFC 2782) says "no service here": a single dot.
  if (content === "." && (type === "MX" || type === "SRV")) return undefined;
  if (isIPv4(content) || isIPv6(content)) {
    return (
      `${JSON.stringify(content)} is an IP address, and ${type} records point at a host name ` +
      `(RFC 1123 2.1); give the name of a host that has an A or AAAA record, e.g. "${example}"`
    );
  }
  const host = content.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
  if (host.includes("{") || host.includes("}")) {
    return `"${content}" holds a "{" or "}": the only placeholder is ${DOMAIN_PLACEHOLDER} (all lower case)`;
  }
  const bare = host.endsWith(".") ? host.slice(0, -1) : host;
  // An empty name fails as its one empty label does.
  const fine =
    bare.length <= MAX_NAME &&
    bare.split(".").every((label) => label.length <= MAX_LABEL && HOST_LABEL.test(label));
  if (fine) return undefined;
  // Not rewritten silently (content is sent as written): named in the ASCII form DNS uses, the
  // UTS #46 mapping of Node's url.domainToASCII (xn-- labels, "。" read as ".").
  if (NON_ASCII.test(content)) {
    // No form at all ("", when the mapping refuses the text) is no host name either.
    const ascii = asciiForm(content);
    if (hostProblem(type, example, ascii) === undefined) {
      return (
        `"${content}" holds characters outside ASCII; DNS writes this host "${ascii}" (UTS #46, as ` +
        `Node's url.domainToASCII maps it): write "${ascii}" instead`
      );
    }
  }
  return (
    `"${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", ` +
    `optionally with ${DOMAIN_PLACEHOLDER} and a final dot, e.g. "${example}"`
  );
}

function hostRow(type: RecordType, example: string, numbers: readonly NumberField[] = []): RecordTypeRow {
  // Host names compare without case (RFC 4343); the placeholder is lower case already.
  return { numbers, example, contentProblem: (c) => hostProblem(type, example, c), normalize: lowerCase };
}

const CAA = /^(\d{1,3}) ([A-Za-z0-9]+) "([^"]*)"$/;
const TLSA = /^(\d+) (\d+) (\d+) ([0-9A-Fa-f]+)$/;
const HTTP_URL = z.httpUrl();

function urlRow(type: RecordType): RecordTypeRow {
  const example = "https://www.example.net/";
  return {
    numbers: [],
    example,
    normalize: same,
    urlForward: true,
    contentProblem: (content) => {
      const url = content.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
      if (HTTP_URL.safeParse(url).success && !/\s/.test(content)) return undefined;
      return `${type} records need an absolute http(s) URL as content, e.g. "${example}"; got ${JSON.stringify(content)}`;
    },
  };
}

/** One row per record type: octoDNS's `record/a.py`, `record/mx.py`... as table rows. */
export const RECORD_MODEL: Readonly<Record<RecordType, RecordTypeRow>> = {
  A: {
    numbers: [],
    example: "192.0.2.1",
    normalize: same,
    contentProblem: (c) =>
      isIPv4(c)
        ? undefined
        : `A records need an IPv4 address as content, e.g. "192.0.2.1"; got ${JSON.stringify(c)}`,
  },
  AAAA: {
    numbers: [],
    example: "2001:db8::1",
    normalize: canonicalIPv6,
    contentProblem: (c) =>
      ipv6Pieces(c) !== undefined
        ? undefined
        : `AAAA records need an IPv6 address as content, e.g. "2001:db8::1"; got ${JSON.stringify(c)}`,
  },
  CNAME: hostRow("CNAME", "target.example.net."),
  NS: hostRow("NS", "ns1.example.net"),
  MX: hostRow("MX", "mx1.example.net", ["priority"]),
  SRV: hostRow("SRV", "sip.example.net", ["priority", "weight", "port"]),
  TXT: {
    numbers: [],
    example: "v=spf1 -all",
    normalize: same,
    contentProblem: (c) =>
      c.trim() === "" ? `TXT records need non-empty text as content, e.g. "v=spf1 -all"` : undefined,
  },
  CAA: {
    numbers: [],
    example: '0 issue "letsencrypt.org"',
    normalize: same,
    contentProblem: (content) => {
      const match = CAA.exec(content);
      if (!match) {
        return `CAA content has the form flags tag "value", e.g. 0 issue "letsencrypt.org"; got ${JSON.stringify(content)}`;
      }
      const flags = Number(match[1]);
      return flags > 255 ? `CAA flags go from 0 to 255 (usually 0); got ${flags}` : undefined;
    },
  },
  TLSA: {
    numbers: [],
    example: "3 1 1 ab12cd34",
    normalize: same,
    contentProblem: (content) => {
      const match = TLSA.exec(content);
      if (!match) {
        return `TLSA content has the form "usage selector matching-type hex", e.g. "3 1 1 ab12cd34"; got ${JSON.stringify(content)}`;
      }
      const [, usage, selector, matching, hex] = match as unknown as [string, string, string, string, string];
      if (Number(usage) > 3) return `the TLSA usage goes from 0 to 3; got ${usage}`;
      if (Number(selector) > 1) return `the TLSA selector is 0 or 1; got ${selector}`;
      if (Number(matching) > 2) return `the TLSA matching type goes from 0 to 2; got ${matching}`;
      if (hex.length % 2 !== 0) {
        return `the TLSA certificate data must be whole bytes (an even number of hex digits); it has ${hex.length}`;
      }
      return undefined;
    },
  },
  URLFWD: urlRow("URLFWD"),
  URLFWD301: urlRow("URLFWD301"),
  URLCLO: urlRow("URLCLO"),
};

/**
 * The numeric fields a record type takes, and requires: `["priority"]` for MX,
 * `["priority", "weight", "port"]` for SRV, none for every other type.
 *
 * @example
 * numberFieldsOf("SRV"); // ["priority", "weight", "port"]
 */
export function numberFieldsOf(type: RecordType): readonly NumberField[] {
  return RECORD_MODEL[type].numbers;
}

/**
 * The numbers of `r` that its type takes, and no other: the one place that decides which numbers a
 * record carries, in the state, in messages and on the wire.
 *
 * @example
 * numbersOf({ name: "@", type: "A", content: "192.0.2.1", priority: 3 }); // {}
 */
export function numbersOf(r: RecordSpec): Partial<Record<NumberField, number>> {
  const numbers: Partial<Record<NumberField, number>> = {};
  for (const field of numberFieldsOf(r.type)) {
    const value = r[field];
    if (value !== undefined) numbers[field] = value;
  }
  return numbers;
}

/**
 * A record in normal form: name lower-cased, content normalized for its type, only the numbers
 * its type takes. Applied to every record the provider reads, from a program or from a state.
 *
 * @example
 * normalizeRecord({ name: "WWW", type: "CNAME", content: "Web.Example.NET." });
 * // { name: "www", type: "CNAME", content: "web.example.net." }
 */
export function normalizeRecord(r: RecordSpec): RecordSpec {
  const row = RECORD_MODEL[r.type];
  // Built field by field, not spread: every state read normalizes every record it holds.
  const record: RecordSpec = { name: r.name.toLowerCase(), type: r.type, content: row.normalize(r.content) };
  for (const field of row.numbers) {
    const value = r[field];
    if (value !== undefined) record[field] = value;
  }
  return record;
}

/** How a record reads in messages: `www A 192.0.2.1`, `@ MX 10 mx1.example.net`. */
export function describeRecord(r: RecordSpec): string {
  return describeRecordWith(r, String);
}

/**
 * {@link describeRecord} with each value but the type written by `show`: records/masking.ts passes
 * one that writes a secret value as `[secret]`.
 */
export function describeRecordWith(r: RecordSpec, show: (value: string | number) => string): string {
  let text = `${show(r.name)} ${r.type}`;
  for (const field of numberFieldsOf(r.type)) if (r[field] !== undefined) text += ` ${show(r[field])}`;
  return `${text} ${show(r.content)}`;
}

/** A string equal for two records exactly when every field but `recordId` is equal. */
export function identityOf(r: RecordSpec): string {
  return JSON.stringify([r.name, r.type, r.content, r.priority ?? null, r.weight ?? null, r.port ?? null]);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNumbers(a: number | undefined, b: number | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a - b;
}

/**
 * The canonical total order of records: by name, type, content, priority, weight, port (strings by
 * UTF-16 code units, so the order does not depend on the locale; an absent number sorts first).
 * Two records compare equal exactly when their {@link identityOf} is equal.
 *
 * @example
 * [b, a].sort(compareRecords);
 */
export function compareRecords(a: RecordSpec, b: RecordSpec): number {
  return (
    compareStrings(a.name, b.name) ||
    compareStrings(a.type, b.type) ||
    compareStrings(a.content, b.content) ||
    compareNumbers(a.priority, b.priority) ||
    compareNumbers(a.weight, b.weight) ||
    compareNumbers(a.port, b.port)
  );
}

function idOf(r: RecordSpec): string {
  return "recordId" in r && typeof r.recordId === "string" ? r.recordId : "";
}

/**
 * A sorted copy of `records` in canonical order ({@link compareRecords}); records that compare
 * equal but carry different `recordId`s are ordered by id (a record without one first, as an absent
 * number sorts first), so the result never depends on the input order.
 */
export function canonicalOrder<T extends RecordSpec>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => compareRecords(a, b) || compareStrings(idOf(a), idOf(b)));
}

/**
 * The record as sent in a PUT body or a PATCH `add` item: only the numbers its type takes, never
 * `null`, never a `recordId` or a key.
 *
 * @example
 * toWireRecord({ name: "@", type: "MX", content: "mx1.example.net", priority: 10 });
 * // { name: "@", type: "MX", content: "mx1.example.net", priority: 10 }
 */
export function toWireRecord(r: RecordSpec): WireRecord {
  const wire: WireRecord = { name: r.name, type: r.type, content: r.content };
  for (const field of numberFieldsOf(r.type)) if (r[field] !== undefined) wire[field] = r[field];
  return wire;
}

/**
 * The PATCH `update` item that turns record `recordId` into `r`. `type` is not a field of update,
 * so `r.type` must be the type the record already has (a type change is a del plus an add).
 *
 * @example
 * toUpdateItem("r7", { name: "@", type: "MX", content: "mx1.example.net", priority: 20 });
 * // { record_id: "r7", name: "@", content: "mx1.example.net", priority: 20 }
 */
export function toUpdateItem(recordId: string, r: RecordSpec): UpdateItem {
  const item: UpdateItem = { record_id: recordId, name: r.name, content: r.content };
  for (const field of numberFieldsOf(r.type)) if (r[field] !== undefined) item[field] = r[field];
  return item;
}
