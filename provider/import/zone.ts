/**
 * The record layer of RFC 1035 master files and `dig` answer sections: logical lines -> entries
 * with an absolute owner, a type and the rdata tokens. Resolves `@`, relative owners and the blank
 * owner that continues the previous one; reads `$ORIGIN` and `$TTL`; reads and drops the TTL and
 * class, in either order (TTL units such as `1h30m` included); refuses `$INCLUDE` and the BIND
 * extensions (`$GENERATE`...) naming the line.
 *
 * This module knows nothing of the API; what becomes of each entry is convert.ts's job.
 */
import { ZoneInputError } from "./errors";
import { type LogicalLine, type Token, tokenize } from "./tokens";

/** One resource record of the zone text. */
export interface ZoneEntry {
  /** The 1-based line the record starts on. */
  readonly line: number;
  /** The owner, absolute, lower-cased, with its final dot: `www.example.com.`. */
  readonly owner: string;
  /** The `$ORIGIN` in force at this record (absolute, lower-cased): relative rdata names use it. */
  readonly origin: string | undefined;
  /** The type mnemonic, upper-cased: `A`, `MX`, `TYPE65`. */
  readonly type: string;
  /** The class, upper-cased (`IN` when the record gives none). */
  readonly klass: string;
  /** True when the record gave a TTL (which the API has no field for). */
  readonly hasTtl: boolean;
  /** The owner as written differed from its lower-cased form. */
  readonly ownerCaseChanged: boolean;
  readonly rdata: readonly Token[];
}

/** What {@link readZone} found. */
export interface Zone {
  /** The zone's domain: the given origin, else the first `$ORIGIN`, else the first SOA owner. */
  readonly domain: string | undefined;
  readonly entries: readonly ZoneEntry[];
}

const TTL = /^(\d+|(\d+[smhdw])+)$/i;
const CLASSES = new Set(["IN", "CH", "HS", "CS"]);
const TYPE = /^([A-Z][A-Z0-9-]*|TYPE\d+)$/i;

/** Lower-cased, with a final dot: the one spelling of an absolute domain name. */
export function absoluteDomain(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith(".") ? lower : `${lower}.`;
}

function isAbsolute(name: string): boolean {
  // A final dot that is not escaped (`a\.` is a relative label holding a dot).
  if (!name.endsWith(".")) return false;
  let backslashes = 0;
  for (let i = name.length - 2; i >= 0 && name[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * A name of the zone text made absolute: `@` is the origin, a relative name is followed by it.
 *
 * @throws {ZoneInputError} a relative name while no origin is known
 */
export function resolveName(name: string, origin: string | undefined, file: string, line: number): string {
  if (name === "@" || !isAbsolute(name)) {
    if (origin === undefined) {
      throw new ZoneInputError(
        file,
        line,
        `expected an absolute name (ending in "."), or a $ORIGIN line or --origin <domain> before "${name}"`,
      );
    }
    if (name === "@") return origin;
    return origin === "." ? `${name.toLowerCase()}.` : `${name.toLowerCase()}.${origin}`;
  }
  return name.toLowerCase();
}

/** The domain of the zone when none is given: the first `$ORIGIN`, else the first absolute SOA owner. */
function findDomain(lines: readonly LogicalLine[]): string | undefined {
  for (const { tokens, blankOwner } of lines) {
    const first = tokens[0]?.text ?? "";
    if (!blankOwner && first.toUpperCase() === "$ORIGIN" && tokens[1] && isAbsolute(tokens[1].text)) {
      return absoluteDomain(tokens[1].text);
    }
    const soaAt = tokens.slice(1, 4).findIndex((t) => !t.quoted && t.text.toUpperCase() === "SOA");
    if (!blankOwner && soaAt >= 0 && isAbsolute(first)) return absoluteDomain(first);
  }
  return undefined;
}

function directive(state: { origin: string | undefined }, line: LogicalLine, file: string): void {
  const [head, arg, ...rest] = line.tokens;
  const name = head?.text.toUpperCase() ?? "";
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
    state.origin = absoluteDomain(resolveName(arg.text, state.origin, file, line.line));
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
    `${head?.text} is not part of RFC 1035 master files (a BIND extension such as $GENERATE is not read): ` +
      "expected $ORIGIN, $TTL or a record; expand it into the records it stands for",
  );
}

/**
 * Reads zone text into entries.
 *
 * @param text a master file (RFC 1035 section 5) or the answer section of `dig`
 * @param file how to name the file in errors
 * @param origin the zone's domain when the text does not say it (`--origin`)
 * @throws {ZoneInputError} naming the line and what was expected
 * @example
 * readZone("$ORIGIN example.com.\nwww 300 IN A 192.0.2.1\n", "example.com.zone").entries[0].owner; // "www.example.com."
 */
export function readZone(text: string, file: string, origin?: string): Zone {
  const lines = tokenize(text, file);
  const domain = origin === undefined ? findDomain(lines) : absoluteDomain(origin);
  // RFC 1035 5.1: without $ORIGIN, relative names are relative to the zone's origin.
  const state: { origin: string | undefined } = { origin: domain };
  const entries: ZoneEntry[] = [];
  let previousOwner: string | undefined;
  let previousCaseChanged = false;
  for (const line of lines) {
    const tokens = line.tokens;
    let at = 0;
    let owner: string;
    let ownerCaseChanged: boolean;
    if (line.blankOwner) {
      if (previousOwner === undefined) {
        throw new ZoneInputError(
          file,
          line.line,
          "expected an owner name: this record starts with a blank, and no record came before it",
        );
      }
      owner = previousOwner;
      ownerCaseChanged = previousCaseChanged;
    } else {
      const first = tokens[0] as Token;
      if (!first.quoted && first.text.startsWith("$")) {
        directive(state, line, file);
        continue;
      }
      if (first.quoted)
        throw new ZoneInputError(file, line.line, "expected an owner name, not a quoted string");
      owner = resolveName(first.text, state.origin, file, line.line);
      ownerCaseChanged = first.text !== "@" && first.text !== first.text.toLowerCase();
      at = 1;
    }
    let hasTtl = false;
    let klass: string | undefined;
    // TTL and class, both optional, in either order (RFC 1035 5.1).
    for (let k = 0; k < 2; k++) {
      const token = tokens[at];
      if (!token || token.quoted) break;
      if (!hasTtl && TTL.test(token.text)) {
        hasTtl = true;
        at++;
      } else if (klass === undefined && CLASSES.has(token.text.toUpperCase())) {
        klass = token.text.toUpperCase();
        at++;
      } else break;
    }
    const typeToken = tokens[at];
    if (!typeToken || typeToken.quoted || !TYPE.test(typeToken.text)) {
      const got = typeToken ? `"${typeToken.text}"` : "the end of the record";
      throw new ZoneInputError(
        file,
        line.line,
        `expected a record type (A, MX, TXT...) after the owner, TTL and class; got ${got}`,
      );
    }
    previousOwner = owner;
    previousCaseChanged = ownerCaseChanged;
    entries.push({
      line: line.line,
      owner,
      origin: state.origin,
      type: typeToken.text.toUpperCase(),
      klass: klass ?? "IN",
      hasTtl,
      ownerCaseChanged,
      rdata: tokens.slice(at + 1),
    });
  }
  return { domain, entries };
}
