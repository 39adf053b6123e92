/**
 * The record layer of RFC 1035 master files and `dig` answer sections: logical lines -> entries
 * with an absolute owner, a type and the rdata tokens. Resolves `@`, relative owners, GoDaddy's
 * `name.@` and the blank owner that continues the previous one; decodes `\DDD` in owners; reads
 * `$ORIGIN` from its own line on (RFC 1035 5.1) and `$TTL`; reads and drops the TTL and class, in
 * either order (TTL units such as `1h30m` included); reads RFC 3597 generic records; refuses
 * `$INCLUDE` and the BIND extensions (`$GENERATE`...) naming the line. Decides the zone's domain.
 *
 * This module knows nothing of the API; what becomes of each entry is convert.ts's job.
 */
import { asciiForm } from "../dns/model";
import { ZoneInputError } from "./errors";
import { genericRdata, typeMnemonic } from "./generic";
import { zoneText } from "./text";
import { type LogicalLine, type Token, tokenize } from "./tokens";

/** One resource record of the zone text. */
export interface ZoneEntry {
  /** The 1-based line the record starts on. */
  readonly line: number;
  /** The owner, absolute, lower-cased, with its final dot: `www.example.com.`. */
  readonly owner: string;
  /** The `$ORIGIN` in force at this record (absolute, lower-cased): relative rdata names use it. */
  readonly origin: string | undefined;
  /** The type mnemonic, upper-cased: `A`, `MX`, `TYPE65` (`TYPE1` is read as `A`). */
  readonly type: string;
  /** The class, upper-cased (`IN` when the record gives none; `CLASS1` is `IN`). */
  readonly klass: string;
  /** True when the record gave a TTL (which the API has no field for). */
  readonly hasTtl: boolean;
  /** The owner as written differed from its lower-cased form. */
  readonly ownerCaseChanged: boolean;
  readonly rdata: readonly Token[];
  /** The `;` comments on the record's lines, without the `;` (cli53 and Cloudflare write flags there). */
  readonly comments?: readonly string[];
  /** What reading changed on the way, in words (`\052 read as "*"`, `RFC 3597 generic form read`). */
  readonly readChanges?: readonly string[];
}

/** Where the zone's domain came from. */
export type DomainSource = "--origin" | "SOA" | "$ORIGIN";

/** What {@link readZone} found. */
export interface Zone {
  /**
   * The zone's domain, absolute, lower-cased, ASCII (`xn--` form): `--origin`, else the SOA owner,
   * else a `$ORIGIN` before any record. Never the root.
   */
  readonly domain: string;
  readonly domainSource: DomainSource;
  readonly entries: readonly ZoneEntry[];
  /** What was read about the file as a whole: its domain's `xn--` form, a byte-order mark. */
  readonly notes: string[];
}

const TTL = /^(\d+|(\d+[smhdw])+)$/i;
const CLASSES: ReadonlyMap<string, string> = new Map([
  ["IN", "IN"],
  ["CH", "CH"],
  ["HS", "HS"],
  ["CS", "CS"],
  ["CLASS1", "IN"],
  ["CLASS2", "CS"],
  ["CLASS3", "CH"],
  ["CLASS4", "HS"],
  // cli53 writes Route 53 aliases as `name 86400 AWS ALIAS A target zone-id false`.
  ["AWS", "AWS"],
]);
// TYPEn (RFC 3597) is a word of this shape too.
const TYPE = /^[A-Z][A-Z0-9-]*$/i;
/** The aging stamp of a dynamically registered record in a Windows DNS Server zone file (`dnscmd /zoneexport`): hours since 1601. */
const WINDOWS_AGING = /^\[AGE:\d+\]$/i;

/** Lower-cased, with a final dot: the one spelling of an absolute domain name. */
export function absoluteDomain(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith(".") ? lower : `${lower}.`;
}

function isAbsolute(name: string): boolean {
  // A final dot that is not escaped (`a\.` is a relative label holding a dot).
  if (!name.endsWith(".")) return false;
  let backslashes = 0;
  // Stryker disable next-line ConditionalExpression,UpdateOperator: name[-1] is undefined, which ends the run without i >= 0; counting down, -n is even exactly when n is
  for (let i = name.length - 2; i >= 0 && name[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** A name of printable ASCII without escapes: parseName would give it back as written. */
// Stryker disable next-line Regex: a pattern taking fewer names sends them to parseName, which reads them alike (taking more is caught, but the disable is per mutator)
const PLAIN_NAME = /^[\x21-\x5b\x5d-\x7e]+$/;
/** Tested on one character. */
const LABEL_CHAR = /[A-Za-z0-9-]/;
/** What Route 53 writes as itself; it writes any other character as `\` and three octal digits. */
const ROUTE53_PLAIN = "abcdefghijklmnopqrstuvwxyz0123456789-_";

/** A name as written, split into labels with `\DDD` and `\X` decoded (a dot inside a label kept as `\.`). */
function parseName(
  text: string,
  route53: boolean,
  changes: string[],
): { labels: string[]; absolute: boolean } {
  const labels: string[] = [];
  let bytes: number[] = [];
  const end = (): void => {
    let label: string;
    try {
      label = utf8.decode(Uint8Array.from(bytes));
    } catch {
      // Kept as lone surrogates: the record is skipped as not UTF-8 (text.ts).
      label = bytes
        .map((b) => (b < 0x80 ? String.fromCharCode(b) : String.fromCharCode(0xdc00 + b)))
        .join("");
    }
    labels.push(label.replaceAll("\\", "\\\\").replaceAll(".", "\\."));
    bytes = [];
  };
  const encoder = new TextEncoder();
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ".") {
      end();
      i++;
      continue;
    }
    if (c === "\\" && i + 1 < text.length) {
      const ddd = text.slice(i + 1, i + 4);
      // ddd is three characters at most.
      if (/\d\d\d/.test(ddd)) {
        let value = Number(ddd);
        const decimal = String.fromCharCode(value);
        // Route 53 writes characters outside a-z0-9-_ as three OCTAL digits (`\052` is `*`); a
        // decimal escape of a letter, digit or hyphen is one no RFC 1035 writer needs. Octal is
        // read only where both hold: a needless decimal escape, of a character Route 53 escapes.
        // "" when ddd is no octal number: the empty string is in ROUTE53_PLAIN.
        const octal = /[0-7]{3}/.test(ddd) ? String.fromCharCode(Number.parseInt(ddd, 8)) : "";
        if (route53 && LABEL_CHAR.test(decimal) && !ROUTE53_PLAIN.includes(octal)) {
          value = Number.parseInt(ddd, 8);
          changes.push(`\\${ddd} read as "${String.fromCharCode(value)}": Route 53's octal escape`);
        } else if (value > 255) {
          value = -1;
        }
        if (value >= 0) {
          bytes.push(value);
          i += 4;
          continue;
        }
      }
      const next = String.fromCodePoint(text.codePointAt(i + 1) as number);
      bytes.push(...encoder.encode(next));
      i += 1 + next.length;
      continue;
    }
    const code = text.charCodeAt(i);
    const char = String.fromCodePoint(text.codePointAt(i) as number);
    // A byte of the file that was not UTF-8 (text.ts) is that byte again.
    if (code >= 0xdc80 && code <= 0xdcff) bytes.push(code - 0xdc00);
    else bytes.push(...encoder.encode(char));
    i += char.length;
  }
  const absolute = isAbsolute(text);
  // An absolute name ended its last label at its final dot.
  if (!absolute) end();
  return { labels, absolute };
}

function noOrigin(file: string, line: number, name: string): ZoneInputError {
  return new ZoneInputError(
    file,
    line,
    `expected an absolute name (ending in "."), or a $ORIGIN line or --origin <domain> before "${name}"`,
  );
}

/** A name made absolute: `@` is the origin; `name.@` (GoDaddy) is `name` under it; a relative name is followed by it. */
function resolve(
  name: string,
  origin: string | undefined,
  file: string,
  line: number,
  route53: boolean,
  changes: string[],
): string {
  if (name === "@") {
    if (origin === undefined) throw noOrigin(file, line, name);
    return origin;
  }
  // The common case, a name of plain ASCII without escapes, needs no decoding.
  // Stryker disable next-line ConditionalExpression: false only skips the shortcut (true is caught, but the disable is per mutator)
  if (PLAIN_NAME.test(name)) {
    if (name.endsWith(".")) return name.toLowerCase();
    if (origin === undefined) throw noOrigin(file, line, name);
    // Stryker disable next-line ConditionalExpression: false sends the name to parseName, which reads it alike (true is caught)
    if (!name.endsWith(".@")) {
      const relative = name.toLowerCase();
      return origin === "." ? `${relative}.` : `${relative}.${origin}`;
    }
  }
  const parsed = parseName(name, route53, changes);
  if (parsed.absolute) return `${parsed.labels.join(".")}.`.toLowerCase();
  if (origin === undefined) throw noOrigin(file, line, name);
  const labels = [...parsed.labels];
  // The last label is an unescaped "@" after an unescaped dot.
  if (name.endsWith("@") && isAbsolute(name.slice(0, -1))) {
    // GoDaddy writes `_sip._tls.@`: the `@` stands for the origin, as it does alone.
    labels.pop();
    changes.push(`${name} read as ${labels.join(".")} under ${origin}`);
  }
  const relative = labels.join(".").toLowerCase();
  return origin === "." ? `${relative}.` : `${relative}.${origin}`;
}

/**
 * A name of the zone text made absolute: `@` is the origin, a relative name is followed by it.
 *
 * @throws {ZoneInputError} a relative name while no origin is known
 */
export function resolveName(name: string, origin: string | undefined, file: string, line: number): string {
  return resolve(name, origin, file, line, false, []);
}

/** An absolute, lower-cased domain in its ASCII form (UTS #46, node:url's domainToASCII), the change said; undefined if it has none. */
function asciiDomain(domain: string, notes: string[]): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (/^[\u0000-\u007f]*$/.test(domain)) return domain;
  // Text the URL host parser would cut or change has none: its answer would be another domain.
  const ascii = asciiForm(domain);
  if (ascii === "") return undefined;
  notes.push(`the domain ${domain} is written in its xn-- form: ${ascii}`);
  return ascii;
}

/** Where the record's type is among its tokens (after the owner, TTL and class), and what those were. */
function recordShape(
  tokens: readonly Token[],
  at: number,
): { typeAt: number; hasTtl: boolean; klass?: string; aging?: string } {
  let hasTtl = false;
  let klass: string | undefined;
  let aging: string | undefined;
  // TTL and class, both optional, in either order (RFC 1035 5.1); Windows DNS writes its aging stamp before them.
  // Each is read at most once, so the loop ends by a break within three rounds.
  for (;;) {
    const token = tokens[at];
    if (!token || token.quoted) break;
    if (aging === undefined && !hasTtl && klass === undefined && WINDOWS_AGING.test(token.text)) {
      aging = token.text;
      at++;
    } else if (!hasTtl && TTL.test(token.text)) {
      hasTtl = true;
      at++;
    } else if (klass === undefined && CLASSES.has(token.text.toUpperCase())) {
      klass = CLASSES.get(token.text.toUpperCase());
      at++;
    } else break;
  }
  return { typeAt: at, hasTtl, klass, aging };
}

function isDirective(line: LogicalLine): boolean {
  const first = line.tokens[0] as Token;
  return !line.blankOwner && !first.quoted && first.text.startsWith("$");
}

/** Whether a line whose first token is its owner is an SOA record. */
function isSoa(line: LogicalLine): boolean {
  const type = line.tokens[recordShape(line.tokens, 1).typeAt];
  return type !== undefined && !type.quoted && typeMnemonic(type.text) === "SOA";
}

/** A domain a zone names for itself, and how. */
interface OwnDomain {
  readonly domain: string;
  readonly source: "SOA" | "$ORIGIN";
}

/** What the file itself says its domain is (SOA owner, else a `$ORIGIN` before any record), and the line of the SOA read undotted. */
function fileDomain(
  lines: readonly LogicalLine[],
  file: string,
): { own?: OwnDomain; undottedSoaLine?: number; notes: string[] } {
  const notes: string[] = [];
  let origin: string | undefined;
  let leading: string | undefined;
  let sawRecord = false;
  let sawOrigin = false;
  for (const line of lines) {
    if (isDirective(line)) {
      const [head, arg] = line.tokens as [Token, Token | undefined];
      if (head.text.toUpperCase() !== "$ORIGIN" || !arg) continue;
      try {
        origin = absoluteDomain(resolveName(arg.text, origin, file, line.line));
      } catch {
        // A relative $ORIGIN with none before it: the origin stays unknown.
      }
      sawOrigin = true;
      if (!sawRecord && leading === undefined && origin !== ".") leading = origin;
      continue;
    }
    if (!line.blankOwner && isSoa(line)) {
      const owner = (line.tokens[0] as Token).text;
      let soa: string | undefined;
      let undottedSoaLine: number | undefined;
      if (!sawRecord && !sawOrigin && owner !== "@" && !isAbsolute(owner)) {
        // Cloudflare writes the SOA first, its owner without the final dot, and no $ORIGIN.
        soa = absoluteDomain(owner);
        undottedSoaLine = line.line;
      } else {
        try {
          soa = absoluteDomain(resolveName(owner, origin, file, line.line));
        } catch {
          // A relative owner (or @) with no origin: it names nothing.
        }
      }
      if (soa !== undefined && soa !== ".") {
        const ascii = asciiDomain(soa, notes);
        if (ascii !== undefined) return { own: { domain: ascii, source: "SOA" }, undottedSoaLine, notes };
      }
    }
    sawRecord = true;
  }
  if (leading !== undefined) {
    const ascii = asciiDomain(leading, notes);
    if (ascii !== undefined) return { own: { domain: ascii, source: "$ORIGIN" }, notes };
  }
  return { notes };
}

const DOMAIN = /^(?=.{1,253}\.$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+$/;

/**
 * The zone domain a `--origin` value names: absolute, lower-cased, ASCII.
 *
 * @throws {ZoneInputError} the root, or a value that is no domain name
 */
// Stryker disable next-line ArrayDeclaration: the default only collects notes that no caller reads; what it holds to begin with is never seen
export function originDomain(origin: string, file: string, notes: string[] = []): string {
  const trimmed = origin.trim();
  if (trimmed === "" || trimmed === "." || trimmed === "@") {
    throw new ZoneInputError(
      file,
      0,
      `--origin ${JSON.stringify(origin)} is not a domain: the root is never a template's domain; give the zone's domain, e.g. --origin example.com`,
    );
  }
  const ascii = asciiDomain(absoluteDomain(trimmed), notes);
  if (ascii === undefined || !DOMAIN.test(ascii)) {
    throw new ZoneInputError(
      file,
      0,
      `--origin ${JSON.stringify(origin)} is not a domain name (labels of letters, digits and "-", separated by dots), e.g. --origin example.com`,
    );
  }
  return ascii;
}

/**
 * The domain a zone text names for itself: its SOA owner, else a `$ORIGIN` before any record;
 * undefined when it names none (`dig` output). What a command checks one `--origin` against when
 * it is given for several files.
 *
 * @throws {ZoneInputError} text that cannot be tokenized
 */
export function zoneDomain(
  input: string | Uint8Array,
  file: string,
): { domain: string; source: "SOA" | "$ORIGIN" } | undefined {
  return fileDomain(tokenize(zoneText(input).text, file), file).own;
}

function directive(
  state: { origin: string | undefined },
  line: LogicalLine,
  file: string,
  notes: string[],
): void {
  const [head, arg, ...rest] = line.tokens as [Token, ...Token[]];
  const name = head.text.toUpperCase();
  if (name === "$INCLUDE") {
    throw new ZoneInputError(
      file,
      line.line,
      `$INCLUDE is not read: a file outside the ones given would be a surprise; paste ${
        arg ? `"${arg.text}"` : "the included file"
      } in place of this line, or give it as a zone file of its own`,
    );
  }
  if (name === "$ORIGIN") {
    if (!arg || rest.length > 0) throw new ZoneInputError(file, line.line, "expected $ORIGIN <domain-name>");
    const origin = absoluteDomain(resolveName(arg.text, state.origin, file, line.line));
    state.origin = asciiDomain(origin, notes) ?? origin;
    return;
  }
  if (name === "$TTL") {
    if (!arg || !TTL.test(arg.text) || rest.length > 0) {
      throw new ZoneInputError(file, line.line, 'expected $TTL <seconds> (or with units: "1h", "15m", "1w")');
    }
    return;
  }
  throw new ZoneInputError(
    file,
    line.line,
    `${head.text} is not part of RFC 1035 master files (a BIND extension such as $GENERATE is not read): ` +
      "expected $ORIGIN, $TTL or a record; expand it into the records it stands for",
  );
}

/**
 * Reads zone text into entries, and decides the zone's domain: `origin` (`--origin`), else the
 * SOA owner (undotted on a first-line SOA with no `$ORIGIN` before it, as Cloudflare writes it,
 * it is absolute), else a `$ORIGIN` before any record. A `$ORIGIN` applies from its own line on.
 *
 * @param input a master file (RFC 1035 section 5) or the answer section of `dig`: the file's bytes
 *   (bytes that are not UTF-8 are kept so that their records are skipped, text.ts), or its text
 * @param file how to name the file in errors
 * @param origin the zone's domain when the text does not say it (`--origin`)
 * @throws {ZoneInputError} naming the line and what was expected; an `origin` that contradicts the
 *   file's own domain, naming both; no domain at all, asking for `--origin`
 * @example
 * readZone("$ORIGIN example.com.\nwww 300 IN A 192.0.2.1\n", "example.com.zone").entries[0].owner; // "www.example.com."
 */
export function readZone(input: string | Uint8Array, file: string, origin?: string): Zone {
  const decoded = zoneText(input);
  const notes = [...decoded.notes];
  const lines = tokenize(decoded.text, file);
  const { own, undottedSoaLine, notes: ownNotes } = fileDomain(lines, file);
  let domain: string;
  let domainSource: DomainSource;
  if (origin !== undefined) {
    domain = originDomain(origin, file, notes);
    domainSource = "--origin";
    if (own !== undefined && own.domain !== domain) {
      throw new ZoneInputError(
        file,
        0,
        `--origin ${domain} contradicts the file, whose ${own.source === "SOA" ? "SOA record" : "$ORIGIN before its first record"} names ${own.domain}; ` +
          `give --origin ${own.domain.replace(/\.$/, "")}, or leave --origin out`,
      );
    }
  } else if (own !== undefined) {
    domain = own.domain;
    domainSource = own.source;
    notes.push(...ownNotes);
  } else {
    throw new ZoneInputError(
      file,
      0,
      "expected the zone's domain: the text names none (no SOA record whose owner is known, no $ORIGIN line " +
        "before its first record; dig output names none); give --origin <domain>",
    );
  }
  notes.push(
    `the zone's domain, ${domain}, is ${
      {
        "--origin": "given by --origin",
        SOA: "its SOA record's owner",
        $ORIGIN: "the $ORIGIN before its first record",
      }[domainSource]
    }`,
  );
  // RFC 1035 5.1: until a $ORIGIN, relative names are relative to the zone's origin.
  const state: { origin: string | undefined } = { origin: domain };
  const entries: ZoneEntry[] = [];
  // The owner a record with a blank owner continues, and whether its case was changed.
  let previous: { owner: string; caseChanged: boolean } | undefined;
  for (const line of lines) {
    const tokens = line.tokens;
    let at = 0;
    let owner: string;
    let ownerCaseChanged: boolean;
    const readChanges: string[] = [];
    if (line.blankOwner) {
      if (previous === undefined) {
        throw new ZoneInputError(
          file,
          line.line,
          "expected an owner name: this record starts with a blank, and no record came before it",
        );
      }
      owner = previous.owner;
      ownerCaseChanged = previous.caseChanged;
    } else {
      const first = tokens[0] as Token;
      if (isDirective(line)) {
        directive(state, line, file, notes);
        continue;
      }
      if (first.quoted)
        throw new ZoneInputError(file, line.line, "expected an owner name, not a quoted string");
      if (line.line === undottedSoaLine) {
        owner = absoluteDomain(first.text);
        readChanges.push(`${first.text} read as absolute: the SOA owner, written without its final dot`);
      } else {
        owner = resolve(first.text, state.origin, file, line.line, true, readChanges);
      }
      // A \DDD escape is digits: an escaped letter is no change of case.
      ownerCaseChanged = /[A-Z]/.test(first.text);
      at = 1;
    }
    const { typeAt, hasTtl, klass, aging } = recordShape(tokens, at);
    if (aging !== undefined) {
      readChanges.push(
        `Windows DNS aging stamp ${aging} dropped: the API does not scavenge, so the record stays until it is removed`,
      );
    }
    const typeToken = tokens[typeAt];
    if (!typeToken || typeToken.quoted || !TYPE.test(typeToken.text)) {
      const got = typeToken ? `"${typeToken.text}"` : "the end of the record";
      throw new ZoneInputError(
        file,
        line.line,
        `expected a record type (A, MX, TXT...) after the owner, TTL and class; got ${got}`,
      );
    }
    previous = { owner, caseChanged: ownerCaseChanged };
    const type = typeMnemonic(typeToken.text);
    if (type !== typeToken.text.toUpperCase()) readChanges.push(`${typeToken.text} read as ${type}`);
    let rdata: readonly Token[] = tokens.slice(typeAt + 1);
    const generic = genericRdata(type, rdata, file, line.line);
    if (generic !== undefined) {
      rdata = generic;
      readChanges.push(`RFC 3597 generic data read as ${type} data`);
    }
    entries.push({
      line: line.line,
      owner,
      origin: state.origin,
      type,
      klass: klass ?? "IN",
      hasTtl,
      ownerCaseChanged,
      rdata,
      comments: line.comments,
      readChanges,
    });
  }
  // A Unicode $ORIGIN before the first record is read twice (for the domain, then for the names): said once.
  return { domain, domainSource, entries, notes: [...new Set(notes)] };
}
