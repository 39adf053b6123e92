/**
 * The rules a DnsTemplateRecords resource's inputs must follow, checked before any request is
 * made (the provider's `check`), and the normal form the rest of the provider works with.
 *
 * Every failure is an {@link InputIssue}: the property path (`records[3].priority`) and a reason
 * that says both what is wrong and how to fix it. Records are normalized (name lower-cased, type
 * upper-cased, numbers only where the type takes them) and put in a canonical order, so that
 * reordering records in a program is never a change.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { isIPv4, isIPv6 } from "node:net";
import { z } from "zod";
import { RECORD_TYPES, type RecordType, type UpdateItem, type WireRecord } from "../client/wire";

/**
 * A desired DNS template record in normal form: `name` lower-cased, `type` upper-cased, and the
 * optional numbers present only for the types that take them (`priority` for MX and SRV, `weight`
 * and `port` for SRV).
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

/**
 * One thing wrong with the inputs: `property` is the path of the offending value (`records[2].priority`,
 * `templateId`), `reason` says what is wrong and how to fix it.
 *
 * @example
 * const issue: InputIssue = {
 *   property: "records[2].priority",
 *   reason: "MX records need a priority from 0 to 65535; add priority: 10",
 * };
 */
export interface InputIssue {
  property: string;
  reason: string;
}

/** The optional numeric fields of a record. */
export type NumberField = "priority" | "weight" | "port";

/** Every numeric field, in the order they are compared, displayed and sent. */
export const NUMBER_FIELDS: readonly NumberField[] = ["priority", "weight", "port"];

const NUMBERS_BY_TYPE: Readonly<Record<RecordType, readonly NumberField[]>> = {
  A: [],
  CNAME: [],
  TXT: [],
  MX: ["priority"],
  SRV: ["priority", "weight", "port"],
  AAAA: [],
  NS: [],
  CAA: [],
  TLSA: [],
  URLFWD: [],
  URLFWD301: [],
  URLCLO: [],
};

/**
 * The numeric fields a record type takes, and requires: `["priority"]` for MX,
 * `["priority", "weight", "port"]` for SRV, none for every other type.
 *
 * @example
 * numberFieldsOf("SRV"); // ["priority", "weight", "port"]
 */
export function numberFieldsOf(type: RecordType): readonly NumberField[] {
  return NUMBERS_BY_TYPE[type];
}

/** The types that are URL forwards at the service (it creates A and AAAA records for them). */
const URL_FORWARD_TYPES: ReadonlySet<RecordType> = new Set<RecordType>(["URLFWD", "URLFWD301", "URLCLO"]);

/** What a URL forward excludes at its name: the records the service creates for it, and a CNAME. */
const EXCLUDED_BY_URL_FORWARD: ReadonlySet<RecordType> = new Set<RecordType>(["A", "AAAA", "CNAME"]);

/** A valid content per type, used in the reasons so that each one shows the expected form. */
const CONTENT_EXAMPLES: Readonly<Record<RecordType, string>> = {
  A: "192.0.2.1",
  CNAME: "target.example.net.",
  TXT: "v=spf1 -all",
  MX: "mx1.example.net",
  SRV: "sip.example.net",
  AAAA: "2001:db8::1",
  NS: "ns1.example.net",
  CAA: '0 issue "letsencrypt.org"',
  TLSA: "3 1 1 ab12cd34",
  URLFWD: "https://www.example.net/",
  URLFWD301: "https://www.example.net/",
  URLCLO: "https://www.example.net/",
};

const NUMBER_EXAMPLES: Readonly<Record<NumberField, number>> = { priority: 10, weight: 5, port: 443 };

const RECORD_FIELDS = ["name", "type", "content", ...NUMBER_FIELDS] as const;

const DOMAIN_PLACEHOLDER = "{domainname}";

// ---------------------------------------------------------------------------------------------
// Names

const LABEL = /^[a-z0-9_-]+$/;
const MAX_LABEL = 63;
const MAX_NAME = 253;

/**
 * Why a (lower-cased) record name is not acceptable, or `undefined` when it is. The reasons always
 * steer towards a relative name, because the template is applied to domains we do not know.
 */
function nameProblem(name: string, type: RecordType): string | undefined {
  if (name === "") return 'the name is empty; use "@" for the apex or a relative name such as "www"';
  if (name === "@") return type === "SRV" ? srvNameReason(name) : undefined;
  if (name.includes(DOMAIN_PLACEHOLDER) || name.endsWith(".")) {
    const relative = name.replaceAll(DOMAIN_PLACEHOLDER, "").replace(/\.+$/, "") || "@";
    return (
      `"${name}" is not a relative name; names are relative to the domain the template is applied to: ` +
      `write "${relative}" instead (use "@" for the apex)`
    );
  }
  if (name.length > MAX_NAME) return `the name is ${name.length} characters long; keep it to ${MAX_NAME}`;
  const labels = name.split(".");
  for (const [position, label] of labels.entries()) {
    if (label === "*" && position === 0) continue;
    if (label.length > MAX_LABEL) {
      return `the label "${label}" is ${label.length} characters long; DNS labels hold at most ${MAX_LABEL}`;
    }
    if (!LABEL.test(label)) {
      return (
        `"${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ` +
        `optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev"`
      );
    }
  }
  if (type === "SRV" && !/^_[a-z0-9-]+\._[a-z0-9-]+(\.|$)/.test(name)) return srvNameReason(name);
  return undefined;
}

function srvNameReason(name: string): string {
  return `SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "${name}"`;
}

// ---------------------------------------------------------------------------------------------
// Contents

const HOST_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/i;

/** Why `content` is not a host name (which may hold `{domainname}` and end with a dot). */
function hostProblem(content: string, type: RecordType): string | undefined {
  const example = CONTENT_EXAMPLES[type];
  if (content === "") return `${type} records need a host name as content, e.g. "${example}"`;
  if (content === "@") {
    return `"@" is not a host name here; write "${DOMAIN_PLACEHOLDER}." for the apex of the domain`;
  }
  // A null MX / SRV (RFC 7505, RFC 2782) says "no service here": a single dot.
  if (content === "." && (type === "MX" || type === "SRV")) return undefined;
  const host = content.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
  if (host.includes("{") || host.includes("}")) {
    return `"${content}" holds a "{" or "}": the only placeholder is ${DOMAIN_PLACEHOLDER} (all lower case)`;
  }
  const bare = host.endsWith(".") ? host.slice(0, -1) : host;
  const fine =
    bare.length > 0 &&
    bare.length <= MAX_NAME &&
    bare.split(".").every((label) => label.length <= MAX_LABEL && HOST_LABEL.test(label));
  if (fine) return undefined;
  return (
    `"${content}" is not a host name: use dot-separated labels of letters, digits, "-" and "_", ` +
    `optionally with ${DOMAIN_PLACEHOLDER} and a final dot, e.g. "${example}"`
  );
}

const CAA = /^(\d{1,3}) ([A-Za-z0-9]+) "([^"]*)"$/;
const TLSA = /^(\d+) (\d+) (\d+) ([0-9A-Fa-f]+)$/;

function caaProblem(content: string): string | undefined {
  const form = `CAA content has the form flags tag "value", e.g. ${CONTENT_EXAMPLES.CAA}`;
  const match = CAA.exec(content);
  if (!match) return `${form}; got ${JSON.stringify(content)}`;
  const flags = Number(match[1]);
  if (flags > 255) return `CAA flags go from 0 to 255 (usually 0); got ${flags}`;
  return undefined;
}

function tlsaProblem(content: string): string | undefined {
  const form = `TLSA content has the form "usage selector matching-type hex", e.g. "${CONTENT_EXAMPLES.TLSA}"`;
  const match = TLSA.exec(content);
  if (!match) return `${form}; got ${JSON.stringify(content)}`;
  const [, usage, selector, matching, hex] = match as unknown as [string, string, string, string, string];
  if (Number(usage) > 3) return `the TLSA usage goes from 0 to 3; got ${usage}`;
  if (Number(selector) > 1) return `the TLSA selector is 0 or 1; got ${selector}`;
  if (Number(matching) > 2) return `the TLSA matching type goes from 0 to 2; got ${matching}`;
  if (hex.length % 2 !== 0) {
    return `the TLSA certificate data must be whole bytes (an even number of hex digits); it has ${hex.length}`;
  }
  return undefined;
}

function urlProblem(content: string, type: RecordType): string | undefined {
  const reason = `${type} records need an absolute http(s) URL as content, e.g. "${CONTENT_EXAMPLES[type]}"`;
  let url: URL;
  try {
    url = new URL(content.replaceAll(DOMAIN_PLACEHOLDER, "example.com"));
  } catch {
    return `${reason}; got ${JSON.stringify(content)}`;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || /\s/.test(content)) {
    return `${reason}; got ${JSON.stringify(content)}`;
  }
  return undefined;
}

/** Why `content` does not fit a record of `type`, or `undefined` when it does. */
function contentProblem(type: RecordType, content: string): string | undefined {
  switch (type) {
    case "A":
      return isIPv4(content)
        ? undefined
        : `A records need an IPv4 address as content, e.g. "${CONTENT_EXAMPLES.A}"; got ${JSON.stringify(content)}`;
    case "AAAA":
      return isIPv6(content) && !content.includes("%")
        ? undefined
        : `AAAA records need an IPv6 address as content, e.g. "${CONTENT_EXAMPLES.AAAA}"; got ${JSON.stringify(content)}`;
    case "CNAME":
    case "NS":
    case "MX":
    case "SRV":
      return hostProblem(content, type);
    case "TXT":
      return content.trim() === ""
        ? `TXT records need non-empty text as content, e.g. "${CONTENT_EXAMPLES.TXT}"`
        : undefined;
    case "CAA":
      return caaProblem(content);
    case "TLSA":
      return tlsaProblem(content);
    case "URLFWD":
    case "URLFWD301":
    case "URLCLO":
      return urlProblem(content, type);
  }
}

// ---------------------------------------------------------------------------------------------
// The record schema

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function numberSchema(field: NumberField) {
  const example = NUMBER_EXAMPLES[field];
  const range = `an integer from 0 to 65535`;
  return z
    .number({
      error: (issue) =>
        typeof issue.input === "string" && /^\d+$/.test(issue.input.trim())
          ? `${field} must be a number, not a string: write ${field}: ${issue.input.trim()} (without quotes)`
          : `${field} must be ${range}, e.g. ${field}: ${example}; got ${describe(issue.input)}`,
    })
    .int({ error: (issue) => `${field} must be ${range}; got ${String(issue.input)}` })
    .min(0, { error: (issue) => `${field} must be ${range}; got ${String(issue.input)}` })
    .max(65535, { error: (issue) => `${field} must be ${range}; got ${String(issue.input)}` })
    .optional();
}

const recordShape = {
  name: z.string({
    error: (issue) =>
      issue.input === undefined
        ? 'every record needs a name: "@" for the apex or a relative name such as "www"'
        : `the name must be a string such as "www" or "@"; got ${describe(issue.input)}`,
  }),
  type: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `every record needs a type, one of ${RECORD_TYPES.join(", ")}`
          : `the type must be a string, one of ${RECORD_TYPES.join(", ")}; got ${describe(issue.input)}`,
    })
    .transform((type) => type.trim().toUpperCase())
    .pipe(
      z.enum(RECORD_TYPES, {
        error: (issue) =>
          `unknown record type ${JSON.stringify(issue.input)}; use one of ${RECORD_TYPES.join(", ")}`,
      }),
    ),
  content: z.string({
    error: (issue) =>
      issue.input === undefined
        ? 'every record needs content, e.g. content: "192.0.2.1" for an A record'
        : `content must be a string; got ${describe(issue.input)}`,
  }),
  priority: numberSchema("priority"),
  weight: numberSchema("weight"),
  port: numberSchema("port"),
};

/**
 * One record: the shape is checked field by field, then the rules of its type (name form,
 * content form, which numbers it needs and which it must not have).
 */
const RecordInputSchema = z.strictObject(recordShape).superRefine((record, ctx) => {
  const name = record.name.toLowerCase();
  const nameReason = nameProblem(name, record.type);
  if (nameReason) ctx.addIssue({ code: "custom", path: ["name"], message: nameReason });
  if (name === "@" && record.type === "CNAME") {
    ctx.addIssue({
      code: "custom",
      path: ["name"],
      message:
        'a CNAME cannot be at the apex "@" (the apex holds the SOA and NS records); put it on a ' +
        'subdomain such as "www", or use A/AAAA records or a URLFWD at "@"',
    });
  }
  const contentReason = contentProblem(record.type, record.content);
  if (contentReason) ctx.addIssue({ code: "custom", path: ["content"], message: contentReason });
  const wanted = numberFieldsOf(record.type);
  for (const field of NUMBER_FIELDS) {
    const given = record[field] !== undefined;
    if (wanted.includes(field) && !given) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${record.type} records need a ${field} from 0 to 65535; add ${field}: ${NUMBER_EXAMPLES[field]}`,
      });
    } else if (!wanted.includes(field) && given) {
      const takers = field === "priority" ? "MX and SRV records" : "SRV records";
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${record.type} records take no ${field} (only ${takers} do); remove it`,
      });
    }
  }
});

function unknownFieldReason(key: string): string {
  const near = RECORD_FIELDS.find((field) => field === key.toLowerCase());
  const hint = near ? `did you mean "${near}"?` : "remove it";
  return `unknown field "${key}"; a record has only ${RECORD_FIELDS.join(", ")}: ${hint}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Pulumi and JSON programs spell "not set" as an absent key, `undefined` or `null`: all the same here. */
function withoutUnset(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));
}

function normalize(record: z.output<typeof RecordInputSchema>): RecordSpec {
  const spec: RecordSpec = { name: record.name.toLowerCase(), type: record.type, content: record.content };
  for (const field of numberFieldsOf(record.type)) {
    const value = record[field];
    if (value !== undefined) spec[field] = value;
  }
  return spec;
}

/** Checks one record; returns it normalized, or the issues found. */
function validateRecord(raw: unknown, at: string): { record?: RecordSpec; issues: InputIssue[] } {
  if (!isPlainObject(raw)) {
    return {
      issues: [
        {
          property: at,
          reason: `expected a record object like { name: "www", type: "A", content: "192.0.2.1" }; got ${describe(raw)}`,
        },
      ],
    };
  }
  const parsed = RecordInputSchema.safeParse(withoutUnset(raw));
  if (parsed.success) return { record: normalize(parsed.data), issues: [] };
  return { issues: issuesOf(parsed.error, at, unknownFieldReason) };
}

/**
 * Zod's issues as {@link InputIssue}s under the path `at`: an unrecognized key gives one issue per
 * key, with the reason `unknownKey` gives; every other issue keeps zod's message.
 */
function issuesOf(error: z.ZodError, at: string, unknownKey: (key: string) => string): InputIssue[] {
  return error.issues.flatMap((issue): InputIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ property: `${at}.${key}`, reason: unknownKey(key) }));
    }
    const suffix = issue.path.map((part) => `.${String(part)}`).join("");
    return [{ property: `${at}${suffix}`, reason: issue.message }];
  });
}

// ---------------------------------------------------------------------------------------------
// Rules between records

/** How a record reads in messages: `www A 192.0.2.1`, `@ MX 10 mx1.example.net`. */
export function describeRecord(r: RecordSpec): string {
  const numbers = numberFieldsOf(r.type)
    .map((field) => r[field])
    .filter((value) => value !== undefined);
  return [r.name, r.type, ...numbers, r.content].join(" ");
}

/** A string equal for two records exactly when {@link sameRecord} holds. */
export function identityOf(r: RecordSpec): string {
  return JSON.stringify([r.name, r.type, r.content, r.priority ?? null, r.weight ?? null, r.port ?? null]);
}

/** "an MX", "a TXT": the article goes by how the letters are spoken. */
function withArticle(type: RecordType): string {
  return `${/^(A|MX|NS|SRV)/.test(type) ? "an" : "a"} ${type}`;
}

interface Indexed {
  index: number;
  record: RecordSpec;
}

function crossRecordIssues(items: Indexed[], path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const firstOfIdentity = new Map<string, number>();
  for (const { index, record } of items) {
    const identity = identityOf(record);
    const first = firstOfIdentity.get(identity);
    if (first === undefined) {
      firstOfIdentity.set(identity, index);
    } else {
      issues.push({
        property: `${path}[${index}]`,
        reason: `duplicates ${path}[${first}] (${describeRecord(record)}); remove one of them`,
      });
    }
  }

  const byName = new Map<string, Indexed[]>();
  for (const item of items) {
    const group = byName.get(item.record.name);
    if (group) group.push(item);
    else byName.set(item.record.name, [item]);
  }
  const reported = new Set<string>();
  const conflict = (a: Indexed, b: Indexed, rule: string): void => {
    if (identityOf(a.record) === identityOf(b.record)) return; // already a duplicate
    const [early, late] = a.index < b.index ? [a, b] : [b, a];
    const pair = `${early.index},${late.index}`;
    if (reported.has(pair)) return;
    reported.add(pair);
    issues.push({
      property: `${path}[${late.index}].name`,
      reason:
        `"${late.record.name}" holds both ${withArticle(early.record.type)} (${path}[${early.index}]) and ` +
        `${withArticle(late.record.type)} (${path}[${late.index}]); ${rule}: remove one of them or give it another name`,
    });
  };
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    // Pairing every conflicting record with the first excluder keeps this linear in the group size.
    const cname = group.find((item) => item.record.type === "CNAME");
    if (cname) {
      for (const other of group) {
        if (other !== cname) conflict(cname, other, "a CNAME must be the only record at its name");
      }
    }
    const forward = group.find((item) => URL_FORWARD_TYPES.has(item.record.type));
    if (forward) {
      for (const other of group) {
        if (EXCLUDED_BY_URL_FORWARD.has(other.record.type)) {
          conflict(
            forward,
            other,
            `${withArticle(forward.record.type)} excludes A, AAAA and CNAME records at its name (the service creates A and AAAA records for it)`,
          );
        }
      }
    }
  }
  return issues;
}

/**
 * Validates and normalizes the `records` input of a DnsTemplateRecords resource.
 *
 * Each record must be an object with `name`, `type`, `content` and, for MX and SRV, the numbers
 * they need (see DECISIONS.md, "Record validation"). The type is accepted in any case; the name is
 * lower-cased. When there are no issues, `records` holds every record normalized and in canonical
 * order; when there are issues, `records` is empty. An empty list is valid (it means "no records").
 *
 * @param raw the value given for the records
 * @param path the property path of that value, used in every issue
 * @example
 * const { records, issues } = validateRecords([{ name: "@", type: "mx", content: "mx1.example.net" }]);
 * // issues: [{ property: "records[0].priority",
 * //            reason: "MX records need a priority from 0 to 65535; add priority: 10" }]
 */
export function validateRecords(
  raw: unknown,
  path = "records",
): { records: RecordSpec[]; issues: InputIssue[] } {
  if (!Array.isArray(raw)) {
    const reason =
      raw === undefined || raw === null
        ? "records are required: give a list of records (an empty list [] means no records)"
        : `expected a list of records, e.g. [{ name: "www", type: "A", content: "192.0.2.1" }]; got ${describe(raw)}`;
    return { records: [], issues: [{ property: path, reason }] };
  }
  const issues: InputIssue[] = [];
  const valid: Indexed[] = [];
  raw.forEach((item: unknown, index) => {
    const result = validateRecord(item, `${path}[${index}]`);
    issues.push(...result.issues);
    if (result.record) valid.push({ index, record: result.record });
  });
  issues.push(...crossRecordIssues(valid, path));
  if (issues.length > 0) return { records: [], issues };
  return { records: canonicalOrder(valid.map((item) => item.record)), issues };
}

/**
 * Formats an issue as one line, e.g. `records[2].priority: MX records need a priority ...`.
 *
 * @example
 * formatIssue({ property: "templateId", reason: "is required" }); // "templateId: is required"
 */
export function formatIssue(issue: InputIssue): string {
  return `${issue.property}: ${issue.reason}`;
}

// ---------------------------------------------------------------------------------------------
// Other inputs of the resource

/**
 * Validates the `templateId` input: a non-empty string that can sit in a URL path segment.
 *
 * @returns the issues found (none when the id is fine)
 * @example
 * validateTemplateId(""); // [{ property: "templateId", reason: "..." }]
 */
export function validateTemplateId(raw: unknown, path = "templateId"): InputIssue[] {
  const example = 'e.g. templateId: "12345"';
  if (raw === undefined || raw === null) {
    return [{ property: path, reason: `the id of the DNS template is required, ${example}` }];
  }
  if (typeof raw !== "string") {
    const hint = typeof raw === "number" ? `write templateId: "${raw}"` : example;
    return [{ property: path, reason: `the template id must be a string; ${hint}` }];
  }
  if (raw.trim() === "")
    return [{ property: path, reason: `the template id is empty; give the template's id, ${example}` }];
  if (/[\s/?#%\\]/.test(raw) || raw === "." || raw === "..") {
    return [
      {
        property: path,
        reason: `"${raw}" cannot be a template id: it must not hold spaces, "/", "?", "#", "%" or "\\" (or be "." / ".."), ${example}`,
      },
    ];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Canonical order and wire forms

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
 * Two records compare equal exactly when {@link sameRecord} holds.
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

/**
 * A sorted copy of `records` in canonical order ({@link compareRecords}); records that compare
 * equal but carry different `recordId`s are ordered by id, so the result never depends on the
 * input order.
 */
export function canonicalOrder<T extends RecordSpec>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => compareRecords(a, b) || compareStrings(idOf(a), idOf(b)));
}

function idOf(r: RecordSpec): string {
  return "recordId" in r && typeof r.recordId === "string" ? r.recordId : "";
}

/**
 * Whether two records are the same record content-wise: every field but `recordId` is equal.
 *
 * @example
 * sameRecord({ name: "www", type: "A", content: "192.0.2.1" }, { ...state, recordId: "r1" }); // true
 */
export function sameRecord(a: RecordSpec, b: RecordSpec): boolean {
  return compareRecords(a, b) === 0;
}

/**
 * The record as sent in a PUT body or a PATCH `add` item: only the numbers its type takes, never
 * `null`, never a `recordId`.
 *
 * @example
 * toWireRecord({ name: "@", type: "MX", content: "mx1.example.net", priority: 10 });
 * // { name: "@", type: "MX", content: "mx1.example.net", priority: 10 }
 */
export function toWireRecord(r: RecordSpec): WireRecord {
  const wire: WireRecord = { name: r.name, type: r.type, content: r.content };
  for (const field of numberFieldsOf(r.type)) {
    const value = r[field];
    if (value !== undefined) wire[field] = value;
  }
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
  for (const field of numberFieldsOf(r.type)) {
    const value = r[field];
    if (value !== undefined) item[field] = value;
  }
  return item;
}

// ---------------------------------------------------------------------------------------------
// Safety threshold

/**
 * When an update is refused as too large, like octoDNS's safety thresholds: if the template holds
 * at least `minExistingRecords` records, an update that would update or delete more than
 * `maxChangePercent` percent of them is refused (see `checkSafety` in `./plan`).
 */
export interface SafetyThreshold {
  /** Below this many existing records, any change is allowed. Default 10. */
  minExistingRecords: number;
  /** The largest share of existing records, in percent, one update may update or delete. Default 30. */
  maxChangePercent: number;
}

/** The threshold used when the program sets none: 30 % of at least 10 existing records. */
export const DEFAULT_SAFETY_THRESHOLD: Readonly<SafetyThreshold> = Object.freeze({
  minExistingRecords: 10,
  maxChangePercent: 30,
});

const SafetyThresholdSchema = z.strictObject({
  minExistingRecords: z
    .number({ error: (issue) => `must be a whole number of records, e.g. 10; got ${describe(issue.input)}` })
    .int({ error: (issue) => `must be a whole number of records, e.g. 10; got ${String(issue.input)}` })
    .min(0, { error: (issue) => `must be 0 or more; got ${String(issue.input)}` })
    .optional(),
  maxChangePercent: z
    .number({ error: (issue) => `must be a percentage from 0 to 100, e.g. 30; got ${describe(issue.input)}` })
    .min(0, { error: (issue) => `must be a percentage from 0 to 100; got ${String(issue.input)}` })
    .max(100, {
      error: (issue) =>
        `must be a percentage from 0 to 100; got ${String(issue.input)} (to turn the check off, set safetyThreshold: false)`,
    })
    .optional(),
});

/**
 * Validates the `safetyThreshold` input. Absent (or `true`) means {@link DEFAULT_SAFETY_THRESHOLD};
 * `false` turns the check off; an object overrides one or both fields of the default.
 *
 * @example
 * validateSafetyThreshold({ maxChangePercent: 50 });
 * // { threshold: { minExistingRecords: 10, maxChangePercent: 50 }, issues: [] }
 */
export function validateSafetyThreshold(
  raw: unknown,
  path = "safetyThreshold",
): { threshold: SafetyThreshold | false; issues: InputIssue[] } {
  if (raw === undefined || raw === null || raw === true)
    return { threshold: { ...DEFAULT_SAFETY_THRESHOLD }, issues: [] };
  if (raw === false) return { threshold: false, issues: [] };
  if (!isPlainObject(raw)) {
    return {
      threshold: { ...DEFAULT_SAFETY_THRESHOLD },
      issues: [
        {
          property: path,
          reason: `expected { minExistingRecords?: number, maxChangePercent?: number } or false; got ${describe(raw)}`,
        },
      ],
    };
  }
  const parsed = SafetyThresholdSchema.safeParse(withoutUnset(raw));
  if (parsed.success) {
    return { threshold: { ...DEFAULT_SAFETY_THRESHOLD, ...withoutUnset(parsed.data) }, issues: [] };
  }
  const issues = issuesOf(
    parsed.error,
    path,
    (key) =>
      `unknown field "${key}"; a safety threshold has only minExistingRecords and maxChangePercent: remove it`,
  );
  return { threshold: { ...DEFAULT_SAFETY_THRESHOLD }, issues };
}

/** Validates the `purge` input: a boolean, or absent (which means `true`). */
function validatePurge(raw: unknown, path = "purge"): InputIssue[] {
  if (raw === undefined || raw === null || typeof raw === "boolean") return [];
  return [
    {
      property: path,
      reason: "expected true (the resource owns the whole template) or false (only its own records)",
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// All inputs at once

/** The validated inputs of a DnsTemplateRecords resource. */
export interface TemplateRecordsInputs {
  templateId: string;
  records: RecordSpec[];
  safetyThreshold: SafetyThreshold | false;
}

/**
 * Validates every input of a DnsTemplateRecords resource (`templateId`, `records`, `purge`,
 * `safetyThreshold`), issues in that order; other keys (such as the engine's `__provider`) are
 * left alone. `inputs` is present exactly when there are no issues. `purge` is only checked to be
 * a boolean or absent: once valid, it reads as `purge !== false` and needs no normal form.
 *
 * @example
 * const { inputs, issues } = validateTemplateRecordsInputs({ templateId: "42", records: [] });
 */
export function validateTemplateRecordsInputs(raw: unknown): {
  inputs?: TemplateRecordsInputs;
  issues: InputIssue[];
} {
  const props = isPlainObject(raw) ? raw : {};
  const templateIssues = validateTemplateId(props.templateId);
  const { records, issues: recordIssues } = validateRecords(props.records);
  const purgeIssues = validatePurge(props.purge);
  const { threshold, issues: thresholdIssues } = validateSafetyThreshold(props.safetyThreshold);
  const issues = [...templateIssues, ...recordIssues, ...purgeIssues, ...thresholdIssues];
  if (issues.length > 0) return { issues };
  return { inputs: { templateId: props.templateId as string, records, safetyThreshold: threshold }, issues };
}
