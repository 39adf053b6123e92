/**
 * What the provider says never shows what the program marked secret. A program (or the plugin,
 * from the engine's secret values) names the secret records in the `secretRecords` input: an index
 * into the list it gives (the whole record is secret) or `index:field` (`1:content`), or, once
 * `check()` has keyed the records, `key` or `key:field` (`_verify/TXT:content`). From those come
 * the secret values; every announcement line (the plan, each correction, recoveries, template
 * checks) writes a record's value that is one of them, or holds one, as `[secret]`. The plan itself
 * is untouched: only the text for people is masked.
 *
 * A record's type is always shown (it says what the change is, and no type is a secret); its name,
 * content and numbers are masked where secret. Lines that are free text (template checks, the adds
 * of unknown outcome) are masked by the secret texts they hold, and by the longer words of a secret
 * content (`include:_spf.secret.example` of a secret SPF record, which a lookup count quotes).
 *
 * Pure: no HTTP, no Pulumi. The secret values live only in memory, never in the state.
 */

import type { RecordType } from "../client/wire";
import { describeRecordWith, RECORD_MODEL, type RecordSpec } from "../dns/model";
import { isPlainObject } from "../values";
import type { KeyedRecord, ShownCorrection, ShowValue } from "./corrections";
import { correctionMessage } from "./corrections";
import type { Plan } from "./plan";

/** The input that names the secret records: indexes into the program's list, or record keys. */
export const SECRET_RECORDS_INPUT = "secretRecords";

/** What a secret value is written as. */
export const MASK = "[secret]";

/** The values of the secret records, ready to mask text with. */
export interface Secrets {
  /** Every secret text (names, contents, their normalized forms and the longer words of a content). */
  readonly texts: ReadonlySet<string>;
  /** Every secret number (priority, weight, port). */
  readonly numbers: ReadonlySet<number>;
  /** One pattern for all of them, longest first; absent when nothing is secret. */
  readonly pattern?: RegExp;
}

/** Nothing is secret. */
export const NO_SECRETS: Secrets = Object.freeze({ texts: new Set<string>(), numbers: new Set<number>() });

/** A word of a secret content longer than this is masked wherever a free-text line quotes it. */
const WORD_MIN = 7;

/** Node 22 has no `RegExp.escape` (the package supports it). */
function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

/**
 * The secrets of some records' values: a record's name, content (as given and normalized) and
 * numbers. The type is left out: it is shown.
 *
 * @example
 * secretsOfRecords([{ name: "_k", type: "TXT", content: "s3cret" }]).texts; // Set {"_k", "s3cret"}
 */
export function secretsOfRecords(records: readonly unknown[]): Secrets {
  const texts = new Set<string>();
  const numbers = new Set<number>();
  const addText = (value: string): void => {
    if (value.trim() === "") return;
    texts.add(value);
  };
  for (const raw of records) {
    if (!isPlainObject(raw)) {
      if (typeof raw === "string") addText(raw);
      continue;
    }
    for (const [field, value] of Object.entries(raw)) {
      if (field === "type" || field === "key" || field === "recordId") continue;
      if (typeof value === "number") numbers.add(value);
      if (typeof value !== "string") continue;
      addText(value);
      // Stryker disable next-line ConditionalExpression: a name has no space, and its form as a content differs only in letter case (masked whatever the case), or as an IPv6 address, which no name is
      if (field !== "content") continue;
      const row = (RECORD_MODEL as Partial<Record<string, (typeof RECORD_MODEL)[RecordType]>>)[
        String(raw.type).toUpperCase()
      ];
      try {
        if (row) addText(row.normalize(value));
      } catch {
        // Content that cannot be normalized is shown (and masked) only as given.
      }
      // Stryker disable next-line Regex: split by each space instead, the empty words between two are shorter than WORD_MIN
      for (const word of value.split(/\s+/)) if (word.length >= WORD_MIN) addText(word);
    }
  }
  return withPattern(texts, numbers);
}

function withPattern(texts: Set<string>, numbers: Set<number>): Secrets {
  const alternatives = [...texts].sort((a, b) => b.length - a.length).map(literal);
  // A number is masked as a whole number only: the 10 of `192.0.2.10` or of an id `r10` is not
  // a secret priority 10, and masking it there would only garble the line.
  if (numbers.size > 0) alternatives.push(`(?<![\\w.])(?:${[...numbers].join("|")})(?![\\w.])`);
  if (alternatives.length === 0) return { texts, numbers };
  // Case-insensitive: a host name or a record name is shown lower-cased, whatever the program wrote.
  return { texts, numbers, pattern: new RegExp(alternatives.join("|"), "gi") };
}

/** Both sets of secrets at once (what the state held and what the program declares now). */
export function unionOf(a: Secrets, b: Secrets): Secrets {
  if (a.pattern === undefined) return b;
  if (b.pattern === undefined) return a;
  return withPattern(new Set([...a.texts, ...b.texts]), new Set([...a.numbers, ...b.numbers]));
}

/** The fields of a record that can be secret (the type is always shown). */
const SECRET_FIELDS = ["name", "content", "priority", "weight", "port"] as const;

/** The marks of the `secretRecords` input: indexes and keys, whatever else it holds dropped. */
function marksOf(raw: unknown): (number | string)[] {
  // Stryker disable next-line ArrayDeclaration: a mark of other text than `key` or `key:field` names no record (a key holds a "/")
  if (!Array.isArray(raw)) return [];
  return raw.filter((m): m is number | string => typeof m === "string" || Number.isInteger(m));
}

/** A mark read: the record it names (index or key) and the one field, or every field. */
function readMark(mark: number | string): { record: number | string; field: string | undefined } {
  if (typeof mark === "number") return { record: mark, field: undefined };
  const colon = mark.lastIndexOf(":");
  // Stryker disable next-line EqualityOperator: a mark starting with ":" names the record "" either way, and no record has that key
  const field = colon < 0 ? undefined : mark.slice(colon + 1);
  const ref = field === undefined ? mark : mark.slice(0, colon);
  const record = /^\d+$/.test(ref) ? Number(ref) : ref;
  return { record, field };
}

/**
 * The secrets of a resource's properties (inputs or outputs): the values of the records its
 * `secretRecords` names, by index into a list of records or by key into keyed records.
 *
 * @example
 * secretsOf({ records: [{ name: "_k", type: "TXT", content: "s3cret" }], secretRecords: [0] });
 */
export function secretsOf(props: Readonly<Record<string, unknown>>): Secrets {
  const marks = marksOf(props[SECRET_RECORDS_INPUT]);
  const records = props.records;
  const named: unknown[] = [];
  for (const mark of marks) {
    const { record, field } = readMark(mark);
    let found: unknown;
    if (Array.isArray(records) && typeof record === "number") found = records[record];
    else if (isPlainObject(records) && typeof record === "string" && Object.hasOwn(records, record))
      found = records[record];
    if (!isPlainObject(found)) continue;
    if (field === undefined) named.push(found);
    else if ((SECRET_FIELDS as readonly string[]).includes(field))
      named.push({ type: found.type, [field]: found[field] });
  }
  return named.length === 0 ? NO_SECRETS : secretsOfRecords(named);
}

/**
 * `text` with every secret it holds written as `[secret]`: for lines that quote values in free
 * text (template checks, adds of unknown outcome, failures).
 *
 * @example
 * maskText("TXT s3cret at _k", secretsOfRecords([{ name: "_k", type: "TXT", content: "s3cret" }])); // "TXT [secret] at [secret]"
 */
export function maskText(text: string, secrets: Secrets): string {
  return secrets.pattern === undefined ? text : text.replace(secrets.pattern, MASK);
}

/** How a record's value is written where `secrets` are masked: `[secret]` where it holds one. */
export function showValue(secrets: Secrets): ShowValue {
  // Stryker disable next-line ConditionalExpression: a shortcut; without a pattern nothing is secret, and the masking writes every value as String does
  if (secrets.pattern === undefined) return String;
  return (value) =>
    typeof value === "number"
      ? secrets.numbers.has(value)
        ? MASK
        : String(value)
      : maskText(value, secrets);
}

/** A record as messages read it, its secret values masked. */
export function describeMasked(record: RecordSpec, secrets: Secrets): string {
  return describeRecordWith(record, showValue(secrets));
}

/** A correction's message, its secret values masked. */
export function maskedMessage(c: ShownCorrection, secrets: Secrets): string {
  return correctionMessage(c, showValue(secrets));
}

/**
 * The announcement of a plan (what `diff` says once per command): its summary, each correction and
 * each record set aside, every secret value masked. The plan is not changed.
 *
 * @example
 * planAnnouncement(plan, secretsOf(news)); // "template web: 0 to create, 1 to update, ...\n  ~ MODIFY _k TXT content [secret] -> [secret]"
 */
export function planAnnouncement(plan: Plan, secrets: Secrets): string {
  const lines = plan.corrections.map((c) => `  ${maskedMessage(c, secrets)}`);
  const aside = plan.setAside.map(
    (r) => `  (set aside: ${maskText(r, secrets)}: its earlier add is of unknown outcome)`,
  );
  return [`template ${plan.templateId}: ${plan.text}`, ...lines, ...aside].join("\n");
}

/**
 * The fields of keyed records that show a secret value, as `key:field`: what the checked inputs
 * and the outputs keep in `secretRecords`, so that a later command (a preview, a destroy) masks
 * them too. Keys and field names only: no secret value goes into the state.
 *
 * @example
 * secretRecordKeys(declared, secretsOf(news)); // ["_k/TXT:content"]
 */
export function secretRecordKeys(records: readonly KeyedRecord[], secrets: Secrets): string[] {
  // Stryker disable next-line ConditionalExpression: a shortcut past every record of a large template; without a pattern no value shows masked, so no mark is found
  if (secrets.pattern === undefined) return [];
  const show = showValue(secrets);
  const marks: string[] = [];
  for (const r of records) {
    for (const field of SECRET_FIELDS) {
      const value = r[field];
      if (value !== undefined && show(value) !== String(value)) marks.push(`${r.key}:${field}`);
    }
  }
  return marks;
}

/**
 * The `secretRecords` property to store beside keyed records: absent when none is secret, so that
 * a stack without secrets keeps exactly the state it had (no spurious diff after an upgrade).
 */
export function secretRecordsProperty(
  records: readonly KeyedRecord[],
  secrets: Secrets,
): { secretRecords?: string[] } {
  const keys = secretRecordKeys(records, secrets);
  return keys.length > 0 ? { [SECRET_RECORDS_INPUT]: keys } : {};
}
