/**
 * What every program writer needs of one imported zone: the template it fills, the Pulumi
 * resource name, and the records with the lines they came from. Kept apart from the writers so
 * that each writer only spells a language.
 */
import { numberFieldsOf, type RecordSpec } from "../dns/model";
import type { ConvertedZone } from "./convert";

/** One zone file imported: one DnsTemplateRecords resource. */
export interface ImportedTemplate extends ConvertedZone {
  /** The zone file (or label) it came from. */
  readonly file: string;
  /** The DNS template the resource fills. */
  readonly templateId: string;
  /** The zone's domain, absolute: `example.com.`. */
  readonly domain: string;
  /** The Pulumi resource name: the template id where it can be one, unique in the program. */
  readonly resourceName: string;
}

/** The fields of a record in the order every program writes them, numbers only where the type takes them. */
export function recordFields(record: RecordSpec): [string, string | number][] {
  const fields: [string, string | number][] = [
    ["name", record.name],
    ["type", record.type],
    ["content", record.content],
  ];
  for (const field of numberFieldsOf(record.type)) {
    const value = record[field];
    if (value !== undefined) fields.push([field, value]);
  }
  return fields;
}

/**
 * Unique Pulumi resource names for templates: the id where it is a plain identifier, else the id
 * with other characters as `-`; a second use of a name gets `-2`, `-3`...
 */
export function resourceNames(templateIds: readonly string[]): string[] {
  const used = new Set<string>();
  return templateIds.map((id) => {
    const base = /^[A-Za-z][A-Za-z0-9_-]*$/.test(id) ? id : `template-${id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return name;
  });
}

/** The one-line comment above each resource: where it came from and what was left out. */
export function provenance(t: ImportedTemplate): string {
  const skipped = t.skipped.length === 0 ? "nothing skipped" : `${t.skipped.length} skipped`;
  const line = `${t.records.length} records imported from ${t.file} (domain ${t.domain}); ${skipped}, see import-report.md`;
  // A comment is one line, whatever a file name holds.
  return line.replace(/[\p{Cc}\u2028\u2029]/gu, "?");
}

/** The comment that tells a reader what the first `up` does. */
export const PURGE_NOTE =
  "purge: the first `up` replaces the template's records with exactly these (one PUT; every record id is new)";

/** A string literal every target language reads back as `text` (JSON's: valid in TS, Python, Go and YAML). */
export function literal(text: string): string {
  return JSON.stringify(text);
}
