/**
 * The rules a record list must follow, checked before any request: the shape of each record and
 * its type's rules (from the record model), then the rules across records, as octoDNS keeps its
 * zone validators (`zone/cname.py`) apart from its record types. The template checks (SPF, DMARC,
 * CAA, loops: provider/checks) and the resource's other inputs are checked above, in
 * records/inputs.ts, so that the checks can build on this vocabulary.
 *
 * Every failure is an {@link InputIssue}: the property path (`records[3].priority`) and a reason
 * that says what is wrong and how to fix it. Valid records come back normalized and in canonical
 * order, so that reordering records in a program is never a change.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { z } from "zod";
import { RECORD_TYPES, type RecordType } from "../client/wire";
import { isPlainObject } from "../values";
import { describeValue, type InputIssue, issuesOf, withoutUnset } from "./issues";
import {
  asciiForm,
  canonicalOrder,
  DOMAIN_PLACEHOLDER,
  describeRecord,
  identityOf,
  NUMBER_FIELDS,
  type NumberField,
  normalizeRecord,
  numberFieldsOf,
  RECORD_MODEL,
  type RecordSpec,
  URL_HOST_CUTS,
} from "./model";

export type { InputIssue } from "./issues";

const NUMBER_EXAMPLES: Readonly<Record<NumberField, number>> = { priority: 10, weight: 5, port: 443 };
const RECORD_FIELDS = ["name", "type", "content", ...NUMBER_FIELDS] as const;

// ---------------------------------------------------------------------------------------------
// Names

const LABEL = /^[a-z0-9_-]+$/;
const MAX_LABEL = 63;
const MAX_NAME = 253;

function srvNameReason(name: string): string {
  return `SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "${name}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

function notRelative(name: string): string {
  return `"${name}" is not a relative name; names are relative to the domain the template is applied to`;
}

/**
 * Why a name that ends with a dot is refused, and what to write. The API takes a record's name
 * relative to the domain the template is applied to (the spec: "Host name (subdomain) of the
 * record", `@` for the apex), and a template is applied to domains we do not know: so a full host
 * name cannot be taken as it is, and no name can point outside the domain. Which of its labels are
 * the domain is a guess (its last two), and the advice says so.
 */
function absoluteNameReason(name: string, type: RecordType): string {
  const labels = name.replace(/\.+$/, "").split(".");
  const relative = notRelative(name);
  const subdomain = (labels.length < 2 ? labels[0] : labels.slice(0, -2).join(".")) || "@";
  // No advice that is refused in turn: why the name to write would be, instead.
  const further = nameProblem(subdomain, type);
  if (further) return `${relative}, and ${further}`;
  if (labels.length < 2) return `${relative}: write "${subdomain}" instead (use "@" for the apex)`;
  const domain = labels.slice(-2).join(".");
  const host = labels.join(".");
  return (
    `${relative} (the API takes the subdomain only, "@" for the domain itself): if the template is applied ` +
    `to ${domain}, write "${subdomain}" instead, which names ${host} there. A template cannot name a host ` +
    `outside the domain it is applied to; and "${host}" without the final dot would name ${host}.<domain>`
  );
}

/**
 * Why a name holding characters outside ASCII is refused, with the ASCII name DNS writes for it: the
 * UTS #46 mapping of Node's `url.domainToASCII`, which gives an internationalized label its xn--
 * form and maps look-alike full stops (`。`, as Chinese and Japanese input methods type it) to `.`.
 * The name is not rewritten silently: what a program declares is what the API receives.
 */
function unicodeNameProblem(name: string, type: RecordType): string {
  const ascii = asciiForm(name);
  if (ascii === "") {
    return (
      `"${name}" is not a valid name: it holds characters that no DNS name can (Node's url.domainToASCII ` +
      `refuses it); use "@" or dot-separated labels of letters, digits, "-" and "_"`
    );
  }
  const mapped = `"${name}" holds characters outside ASCII; DNS writes it "${ascii}" (UTS #46, as Node's url.domainToASCII maps it)`;
  const further = nameProblem(ascii, type);
  return further ? `${mapped}, and ${further}` : `${mapped}: write "${ascii}" instead`;
}

/**
 * Why a (lower-cased) record name is not acceptable, or `undefined` when it is. The reasons always
 * steer towards a relative name, because the template is applied to domains we do not know.
 */
function nameProblem(name: string, type: RecordType): string | undefined {
  if (name === "") return 'the name is empty; use "@" for the apex or a relative name such as "www"';
  if (name === "@") return type === "SRV" ? srvNameReason(name) : undefined;
  // A name the URL host parser would cut or change has no mapped form: the rules below say what is wrong.
  if (NON_ASCII.test(name) && !URL_HOST_CUTS.test(name)) return unicodeNameProblem(name, type);
  if (name.includes(DOMAIN_PLACEHOLDER)) {
    const relative = name.replaceAll(DOMAIN_PLACEHOLDER, "").replace(/\.+$/, "") || "@";
    const further = nameProblem(relative, type);
    if (further) return `${notRelative(name)}, and ${further}`;
    return `${notRelative(name)}: write "${relative}" instead (use "@" for the apex)`;
  }
  if (name.endsWith(".")) return absoluteNameReason(name, type);
  if (name.length > MAX_NAME) return `the name is ${name.length} characters long; keep it to ${MAX_NAME}`;
  for (const [position, label] of name.split(".").entries()) {
    if (label === "*" && position === 0) continue;
    if (label.length > MAX_LABEL) {
      return `the label "${label}" is ${label.length} characters long; DNS labels hold at most ${MAX_LABEL}`;
    }
    if (!LABEL.test(label)) {
      return (
        `"${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ` +
        `optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)`
      );
    }
  }
  if (type === "SRV" && !/^_[a-z0-9-]+\._[a-z0-9-]+(\.|$)/.test(name)) return srvNameReason(name);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// One record

function numberSchema(field: NumberField) {
  const example = NUMBER_EXAMPLES[field];
  const range = "an integer from 0 to 65535";
  return z
    .number({
      error: (issue) =>
        typeof issue.input === "string" && /^\d+$/.test(issue.input.trim())
          ? `${field} must be a number, not a string: write ${field}: ${issue.input.trim()} (without quotes)`
          : `${field} must be ${range}, e.g. ${field}: ${example}; got ${describeValue(issue.input)}`,
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
        : `the name must be a string such as "www" or "@"; got ${describeValue(issue.input)}`,
  }),
  type: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `every record needs a type, one of ${RECORD_TYPES.join(", ")}`
          : `the type must be a string, one of ${RECORD_TYPES.join(", ")}; got ${describeValue(issue.input)}`,
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
        : `content must be a string; got ${describeValue(issue.input)}`,
  }),
  priority: numberSchema("priority"),
  weight: numberSchema("weight"),
  port: numberSchema("port"),
};

/** Line breaks, other control characters and the Unicode line and paragraph separators. */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/**
 * Why a content holding a control character cannot be sent: a record value is one line, and a
 * line break pasted with it (a DKIM key copied as PEM) would change what the reviewer reads.
 */
function controlCharacterProblem(content: string): string | undefined {
  const at = content.search(CONTROL_CHARACTER);
  if (at < 0) return undefined;
  const code = content.codePointAt(at)!.toString(16).toUpperCase().padStart(4, "0");
  const what = code === "000A" || code === "000D" ? "a line break" : "a control character";
  return (
    `content holds ${what} (U+${code} at position ${at + 1}); a record's value is one line: ` +
    "join the lines of the key or text into one (a DKIM key pasted as PEM: drop the line breaks and the BEGIN/END lines)"
  );
}

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
  const contentReason =
    controlCharacterProblem(record.content) ?? RECORD_MODEL[record.type].contentProblem(record.content);
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
  if (key.toLowerCase() === "ttl") {
    return (
      `"${key}" is not part of the API: its template records have only ${RECORD_FIELDS.join(", ")}, ` +
      "and no request can set a TTL; remove it (the records get whatever TTL the service gives them)"
    );
  }
  const near = RECORD_FIELDS.find((field) => field === key.toLowerCase());
  const hint = near ? `did you mean "${near}"?` : "remove it";
  return `unknown field "${key}"; a record has only ${RECORD_FIELDS.join(", ")}: ${hint}`;
}

/** Checks one record; returns it normalized, or the issues found. */
function validateRecord(raw: unknown, at: string): { record?: RecordSpec; issues: InputIssue[] } {
  if (!isPlainObject(raw)) {
    return {
      issues: [
        {
          property: at,
          reason: `expected a record object like { name: "www", type: "A", content: "192.0.2.1" }; got ${describeValue(raw)}`,
        },
      ],
    };
  }
  const parsed = RecordInputSchema.safeParse(withoutUnset(raw));
  if (parsed.success) return { record: normalizeRecord(parsed.data), issues: [] };
  return { issues: issuesOf(parsed.error, at, unknownFieldReason) };
}

// ---------------------------------------------------------------------------------------------
// Rules across records (octoDNS's zone validators)

/** "an MX", "a TXT": the article goes by how the letters are spoken. */
function withArticle(type: RecordType): string {
  return `${/^(A|MX|NS|SRV)/.test(type) ? "an" : "a"} ${type}`;
}

/** A record valid on its own, with its index in the declared list (for the issues' paths). */
export interface Indexed {
  index: number;
  record: RecordSpec;
}

function duplicateIssues(items: readonly Indexed[], path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const firstOfIdentity = new Map<string, number>();
  for (const { index, record } of items) {
    const first = firstOfIdentity.get(identityOf(record));
    if (first === undefined) firstOfIdentity.set(identityOf(record), index);
    else {
      issues.push({
        property: `${path}[${index}]`,
        reason: `duplicates ${path}[${first}] (${describeRecord(record)}); remove one of them`,
      });
    }
  }
  return issues;
}

/** A CNAME alone at its name; a URL forward without A, AAAA or CNAME beside it. */
function exclusionIssues(items: readonly Indexed[], path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const reported = new Set<string>();
  const conflict = (a: Indexed, b: Indexed, rule: string): void => {
    if (identityOf(a.record) === identityOf(b.record)) return; // the record itself, or a duplicate
    // Stryker disable next-line EqualityOperator: two records of one index are one record, returned above
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
  for (const group of Map.groupBy(items, (item) => item.record.name).values()) {
    // Pairing every conflicting record with the first excluder keeps this linear in the group size.
    const cname = group.find((item) => item.record.type === "CNAME");
    if (cname) {
      for (const other of group) conflict(cname, other, "a CNAME must be the only record at its name");
    }
    const forward = group.find((item) => RECORD_MODEL[item.record.type].urlForward);
    if (forward) {
      for (const other of group) {
        if (other.record.type === "A" || other.record.type === "AAAA" || other.record.type === "CNAME") {
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
 * they need (see docs/design.md, "Record validation"). The type is accepted in any case; the name is
 * lower-cased, host-name contents too, IPv6 addresses are written in their RFC 5952 form, so that
 * two spellings of one record are a duplicate. When there are no issues, `records` holds every
 * record normalized and in canonical order; when there are issues, `records` is empty. An empty
 * list is valid (it means "no records"); anything but a list is not.
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
  const { valid, issues } = validateEach(raw, path);
  if (issues.length > 0) return { records: [], issues };
  return { records: canonicalOrder(valid.map((item) => item.record)), issues };
}

/**
 * Each record checked and normalized, with its index in the list, and the rules across records:
 * what a resource's inputs check (records/inputs.ts) runs the template checks on, by index.
 */
export function validateEach(raw: unknown, path: string): { valid: Indexed[]; issues: InputIssue[] } {
  if (!Array.isArray(raw)) {
    const reason =
      raw === undefined || raw === null
        ? "records are required: give a list of records (an empty list [] means no records)"
        : `expected a list of records, e.g. [{ name: "www", type: "A", content: "192.0.2.1" }]; got ${describeValue(raw)}`;
    return { valid: [], issues: [{ property: path, reason }] };
  }
  const issues: InputIssue[] = [];
  const valid: Indexed[] = [];
  raw.forEach((item: unknown, index) => {
    const result = validateRecord(item, `${path}[${index}]`);
    issues.push(...result.issues);
    if (result.record) valid.push({ index, record: result.record });
  });
  issues.push(...duplicateIssues(valid, path), ...exclusionIssues(valid, path));
  return { valid, issues };
}

// ---------------------------------------------------------------------------------------------
// The other inputs

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
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\s/?#%\\\u0000-\u001f\u007f]/.test(raw) || raw === "." || raw === "..") {
    return [
      {
        property: path,
        reason: `${JSON.stringify(raw)} cannot be a template id: it must not hold spaces, control characters, "/", "?", "#", "%" or "\\" (or be "." / ".."), ${example}`,
      },
    ];
  }
  return [];
}
