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

/** The longest resource name: a formatter keeps `new domainapi.DnsTemplateRecords("<name>", {` on one line (80 columns). */
const MAX_RESOURCE_NAME = 40;

/**
 * Unique Pulumi resource names for templates: the id where it is a plain identifier, else the id
 * with other characters as `-`, cut to 40 characters; a second use of a name gets `-2`, `-3`...
 */
export function resourceNames(templateIds: readonly string[]): string[] {
  const used = new Set<string>();
  return templateIds.map((id) => {
    const base = (
      /^[A-Za-z][A-Za-z0-9_-]*$/.test(id) ? id : `template-${id.replace(/[^A-Za-z0-9_-]/g, "-")}`
    ).slice(0, MAX_RESOURCE_NAME);
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
  // A comment is one line whatever a file name holds, and shows what it says: no invisible character.
  return line.replace(new RegExp(INVISIBLE.source, "gu"), "?");
}

/** The comment that tells a reader what the first `up` does. */
export const PURGE_NOTE =
  "purge: the first `up` replaces the template's records with exactly these (one PUT; every record id is new)";

/**
 * Characters a reader cannot see or that change how the text around them is shown: controls,
 * format characters (BOM U+FEFF, bidi controls U+200E/F, U+202A-202E, U+2066-2069, zero widths,
 * soft hyphen), line and paragraph separators, spaces other than U+0020, surrogates, and
 * unassigned code points and noncharacters (U+FFFE, U+FFFF, U+FDD0-U+FDEF, ...). Every program
 * writes them as escapes, so a diff reads as the value and no parser meets them raw.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Cs}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;

/** How one language spells a string literal. */
interface LiteralStyle {
  /** The escape of a code point above U+FFFF (`\u{1fffe}`, `\U0001fffe`). */
  readonly astral: (hex: string) => string;
  /** The language's name where a lone surrogate cannot be written, and is refused; absent where it can (as `\udXXX`). */
  readonly refusesSurrogates?: string;
  /** Whether the literal may be single-quoted where that needs fewer escapes (as Prettier, Biome and Black choose). */
  readonly singleQuotes: boolean;
}

const SHORT: Readonly<Record<string, string>> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function quote(text: string, style: LiteralStyle): string {
  const doubles = text.split('"').length - 1;
  const singles = text.split("'").length - 1;
  const q = style.singleQuotes && doubles > singles ? "'" : '"';
  let out = q;
  for (const char of text) {
    const cp = char.codePointAt(0) as number;
    if (char === q) out += `\\${q}`;
    else if (SHORT[char] !== undefined) out += SHORT[char];
    else if (INVISIBLE.test(char)) {
      if (cp >= 0xd800 && cp <= 0xdfff && style.refusesSurrogates !== undefined) {
        throw new Error(
          `a lone surrogate (U+${cp.toString(16)}) cannot be written in a ${style.refusesSurrogates} string`,
        );
      }
      const hex = cp.toString(16);
      out += cp > 0xffff ? style.astral(hex) : `\\u${hex.padStart(4, "0")}`;
    } else out += char;
  }
  return out + q;
}

const TS_STYLE: LiteralStyle = { astral: (h) => `\\u{${h}}`, singleQuotes: true };
const PYTHON_STYLE: LiteralStyle = { astral: (h) => `\\U${h.padStart(8, "0")}`, singleQuotes: true };
const GO_STYLE: LiteralStyle = {
  astral: (h) => `\\U${h.padStart(8, "0")}`,
  refusesSurrogates: "Go",
  singleQuotes: false,
};
const YAML_STYLE: LiteralStyle = {
  astral: (h) => `\\U${h.padStart(8, "0")}`,
  refusesSurrogates: "YAML",
  singleQuotes: false,
};

/** A TypeScript string literal of `text`, quoted as Biome (and Prettier) would leave it. */
export function tsLiteral(text: string): string {
  return quote(text, TS_STYLE);
}

/** A Python string literal of `text`, quoted as Black would leave it (hex escapes lower-case). */
export function pythonLiteral(text: string): string {
  return quote(text, PYTHON_STYLE);
}

/**
 * A Go interpreted string literal of `text`: a BOM inside a Go source file is a compile error,
 * so it is an escape like every invisible character.
 *
 * @throws {Error} a lone surrogate, which no Go string literal can hold
 */
export function goLiteral(text: string): string {
  return quote(text, GO_STYLE);
}

/**
 * A YAML double-quoted scalar that Pulumi YAML reads back as `text`: YAML escapes for what YAML
 * would refuse or fold, and every `$` doubled, since Pulumi YAML reads `$$` as `$` and `${...}` as an
 * interpolation (pulumi-yaml, pkg/pulumiyaml/ast/interpolation.go), in every string it reads.
 *
 * @throws {Error} a lone surrogate, which YAML cannot hold
 */
export function yamlLiteral(text: string): string {
  // A function, not the string "$$$$": in a replacement string "$$" stands for one "$".
  return quote(text, YAML_STYLE).replaceAll("$", () => "$$");
}
