/**
 * Zone entries -> the records of one DnsTemplateRecords resource, and what was skipped or changed
 * on the way, each with its line. What the provider's `check()` would refuse is decided by the
 * provider's own validation (dns/validate.ts): this module holds no second copy of its rules.
 * Of a conflicting pair (a CNAME beside other data, a URL forward beside an A), the later record
 * is skipped; a record refused on its own is skipped with the reason `check()` gives.
 */
import { findingText } from "../checks/rules";
import { checkTemplate } from "../checks/template";
import { RECORD_TYPES, type RecordType } from "../client/wire";
import { normalizeRecord, type RecordSpec } from "../dns/model";
import { type InputIssue, validateRecords } from "../dns/validate";
import { hostFlags, routingPolicy } from "./hosts";
import { asciiName, convertRdata, doubledDomain, NotImportableError } from "./rdata";
import { holdsInvalidBytes, showBytes } from "./text";
import type { ZoneEntry } from "./zone";

/** A record of the program, with the line of the zone text it came from. */
export interface ImportedRecord {
  readonly line: number;
  readonly record: RecordSpec;
}

/** A record of the zone text that the program does not declare, and why. */
export interface SkippedRecord {
  readonly line: number;
  /** The record as read: `www.example.com. PTR host.example.net.`. */
  readonly text: string;
  readonly reason: string;
}

/** A change made to a record of the zone text on its way into the program. */
export interface RecordChange {
  readonly line: number;
  readonly change: string;
}

/** Options of {@link convertEntries}. */
export interface ConvertOptions {
  /** The zone's domain, absolute and lower-cased (`example.com.`). */
  readonly domain: string;
  readonly keepDomain: boolean;
  readonly keepApexNs: boolean;
  /** How to name the file in errors. */
  readonly file: string;
  /** What reading said of the zone as a whole (`Zone.notes`), passed on to the result. */
  readonly notes?: readonly string[];
}

/** The records a zone becomes, and what it lost or changed on the way. */
export interface ConvertedZone {
  /** In the order of the zone text, each normalized as `check()` normalizes it. */
  readonly records: ImportedRecord[];
  readonly skipped: SkippedRecord[];
  readonly changes: RecordChange[];
  /** How many records gave a TTL, dropped (the API has no TTL). */
  readonly ttlsDropped: number;
  /**
   * A DNS host's own settings of an imported record that the API has no place for, dropped (e.g.
   * Cloudflare's proxying, `cf-proxied:true`): the record is imported, and answers differently.
   */
  readonly dropped: RecordChange[];
  /** What was read about the zone as a whole: where its domain came from, its `xn--` form, a BOM. */
  readonly notes: string[];
}

const API_TYPES: ReadonlySet<string> = new Set(RECORD_TYPES);

/** Why a type the API lacks is skipped, with the way forward where there is one. */
function missingTypeReason(type: string): string {
  const base = `the API has no ${type} records (it takes ${RECORD_TYPES.join(", ")})`;
  if (type === "SPF")
    return `${base}; the SPF type is obsolete (RFC 7208 3.1): its TXT twin carries the policy`;
  if (type === "ALIAS" || type === "ANAME")
    return (
      `${base}: an ${type} is the DNS host's own, answered with its target's addresses as they are at ` +
      "query time; declare A/AAAA records or a URL forward at that name"
    );
  return base;
}

function entryText(entry: ZoneEntry): string {
  const rdata = entry.rdata.map((t) => (t.quoted ? JSON.stringify(t.text) : t.text)).join(" ");
  // Bytes that are not UTF-8 shown as \xHH: the report is UTF-8, and U+FFFD would hide them.
  return showBytes(`${entry.owner} ${entry.type}${rdata ? ` ${rdata}` : ""}`).replace(
    /\\udc([89a-f][0-9a-f])/gi,
    (_, hex: string) => `\\x${hex.toUpperCase()}`,
  );
}

/** The owner relative to the domain: `@`, `www`, or undefined outside it. */
function relativeName(owner: string, domain: string): string | undefined {
  if (owner === domain) return "@";
  if (domain === ".") return owner.slice(0, -1);
  return owner.endsWith(`.${domain}`) ? owner.slice(0, -domain.length - 1) : undefined;
}

function indexOfIssue(issue: InputIssue): number {
  // Every issue names its record first: `records[3].content`.
  const index = /records\[(\d+)\]/.exec(issue.property)?.[1];
  // Stryker disable next-line ConditionalExpression,StringLiteral: every issue of validateRecords and the template checks names a record; a guard against a rule that would not
  if (index === undefined) throw new Error(`check() named ${issue.property}, which is no record`);
  return Number(index);
}

function reasonOf(issues: readonly InputIssue[], lines: readonly number[]): string {
  return issues
    .map((issue) => {
      const field = issue.property.replace(/records\[\d+\]\.?/, "");
      const reason = issue.reason.replace(/records\[(\d+)\]/g, (_, i: string) => `line ${lines[Number(i)]}`);
      return field ? `${field}: ${reason}` : reason;
    })
    .join("; ");
}

/**
 * The records the template checks refuse (their errors: a second SPF record at a name, SPF over its
 * lookups, an unparsable DMARC record, a CNAME loop, a malformed CAA), as issues at their index: the
 * finding names the record it is about, which of a pair is the later one.
 */
function templateCheckIssues(records: readonly RecordSpec[]): InputIssue[] {
  return checkTemplate(records.map((record, i) => ({ path: `records[${i}]`, record })))
    .filter((f) => f.severity === "error")
    .map((f) => ({ property: f.path, reason: findingText(f) }));
}

/**
 * Removes what `check()` refuses from `candidates`, returning the kept ones in their order: what
 * record validation refuses first, then what the template checks refuse. A record refused on its
 * own goes with its reason; of a refused pair, the later one goes.
 */
function keepWhatCheckAccepts<T extends { line: number; entry: ZoneEntry; record: RecordSpec }>(
  candidates: T[],
  skipped: SkippedRecord[],
): T[] {
  let kept = candidates;
  for (;;) {
    const records = kept.map((c) => c.record);
    const invalid = validateRecords(records).issues;
    const issues = invalid.length > 0 ? invalid : templateCheckIssues(records);
    if (issues.length === 0) return kept;
    const lines = kept.map((c) => c.line);
    const byIndex = Map.groupBy(issues, indexOfIssue);
    const drop = new Set<number>();
    for (const [index, found] of byIndex) {
      // Each issue names a record of `kept`.
      const candidate = kept[index] as T;
      const alone = [
        // Stryker disable next-line ArrayDeclaration: a record's own issues are among those found in the set, with the same text, so the reason is the same either way
        ...validateRecords([candidate.record]).issues,
        ...templateCheckIssues([candidate.record]),
      ];
      const reason = alone.length > 0 ? reasonOf(alone, [candidate.line]) : reasonOf(found, lines);
      skipped.push({
        line: candidate.line,
        text: entryText(candidate.entry),
        reason: `check() refuses it: ${reason}`,
      });
      drop.add(index);
    }
    kept = kept.filter((_, index) => !drop.has(index));
  }
}

/**
 * The records of one zone, what was skipped and why, what was changed, each with its line.
 *
 * @throws {ZoneInputError} rdata of the wrong shape for its type (errors.ts)
 * @example
 * const { records, skipped } = convertEntries(readZone(text, "example.com.zone").entries, {
 *   domain: "example.com.", keepDomain: false, keepApexNs: false, file: "example.com.zone" });
 */
export function convertEntries(entries: readonly ZoneEntry[], options: ConvertOptions): ConvertedZone {
  const skipped: SkippedRecord[] = [];
  const changes: RecordChange[] = [];
  const dropped: RecordChange[] = [];
  const candidates: { line: number; entry: ZoneEntry; record: RecordSpec; changes: string[] }[] = [];
  let ttlsDropped = 0;
  for (const entry of entries) {
    const skip = (reason: string): void => {
      skipped.push({ line: entry.line, text: entryText(entry), reason });
    };
    if (entry.hasTtl) ttlsDropped++;
    if (entry.klass === "AWS") {
      skip(
        `a Route 53 alias (cli53 writes it "AWS ${entry.type}"): Route 53 answers it with its target's ` +
          "addresses as they are at query time, which no record of the API holds; declare A/AAAA records " +
          "or a URL forward at that name",
      );
      continue;
    }
    if (entry.klass !== "IN") {
      skip(`class ${entry.klass}: only Internet (IN) records are DNS template records`);
      continue;
    }
    if (entry.type === "SOA") {
      skip("SOA: the DNS host's own record (the API has none; the service writes it)");
      continue;
    }
    // Stryker disable next-line ArrayDeclaration: a comment that is no routing policy (as Stryker's) changes nothing
    const routing = routingPolicy(entry.comments ?? []);
    if (routing !== undefined) {
      skip(routing);
      continue;
    }
    if (holdsInvalidBytes(entry.owner) || entry.rdata.some((t) => holdsInvalidBytes(t.text))) {
      skip(
        "bytes that are not UTF-8 (shown as \\xHH): a name or content of the API is text, and reading " +
          "them as something else would change the record; write the file as UTF-8, or the value with \\DDD escapes",
      );
      continue;
    }
    const ownerChanges: string[] = [];
    const name = relativeName(asciiName(entry.owner, ownerChanges), options.domain);
    if (name === undefined) {
      skip(`the owner is outside the zone's domain ${options.domain}`);
      continue;
    }
    if (entry.type === "NS" && name === "@" && !options.keepApexNs) {
      skip("the apex NS set is the DNS host's own (kept with --keep-apex-ns)");
      continue;
    }
    if (!API_TYPES.has(entry.type)) {
      skip(missingTypeReason(entry.type));
      continue;
    }
    const type = entry.type as RecordType;
    let converted: ReturnType<typeof convertRdata>;
    try {
      converted = convertRdata(entry, type, options, options.file);
    } catch (err) {
      if (err instanceof NotImportableError) {
        skip(err.message);
        continue;
      }
      throw err;
    }
    const doubled = doubledDomain(entry.owner, options.domain);
    if (doubled !== undefined) ownerChanges.push(doubled);
    const recordChanges = [...(entry.readChanges ?? []), ...ownerChanges, ...converted.changes];
    if (entry.ownerCaseChanged) recordChanges.unshift("owner lower-cased");
    const record: RecordSpec = { name, type, content: converted.content, ...converted.numbers };
    // Stryker disable next-line ArrayDeclaration: a comment that is no Cloudflare tag (as Stryker's) changes nothing
    for (const flag of hostFlags(entry.comments ?? [], type))
      dropped.push({ line: entry.line, change: flag });
    candidates.push({ line: entry.line, entry, record, changes: recordChanges });
  }
  const records: ImportedRecord[] = [];
  for (const candidate of keepWhatCheckAccepts(candidates, skipped)) {
    // As check() normalizes it (valid now, so normalizing is safe): the program says what the API gets.
    const record = normalizeRecord(candidate.record);
    if (record.content !== candidate.record.content) {
      candidate.changes.push(`content normalized: ${candidate.record.content} -> ${record.content}`);
    }
    for (const change of candidate.changes) changes.push({ line: candidate.line, change });
    records.push({ line: candidate.line, record });
  }
  skipped.sort((a, b) => a.line - b.line);
  const kept = new Set(records.map((r) => r.line));
  return {
    records,
    skipped,
    changes,
    ttlsDropped,
    dropped: dropped.filter((d) => kept.has(d.line)),
    notes: [...(options.notes ?? [])],
  };
}
