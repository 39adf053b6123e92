/**
 * The rdata of one zone entry -> the content and numbers of an API record, with every change
 * made on the way said in words: TXT strings joined where they are one value (split at 255 bytes,
 * or an SPF, DKIM or DMARC record, whose readers join them with no space added), escapes decoded, TLSA hex de-spaced, names made absolute and lower-cased, the zone's
 * domain written `{domainname}` (whole labels only).
 *
 * Whether the result is acceptable is not decided here: the provider's own validation does that
 * (convert.ts). Here only the shape of the rdata is checked: a wrong shape is unreadable input.
 */
import type { RecordType } from "../client/wire";
import { asciiForm, DOMAIN_PLACEHOLDER, type NumberField } from "../dns/model";
import { ZoneInputError } from "./errors";
import type { Token } from "./tokens";
import { resolveName, type ZoneEntry } from "./zone";

/** The API record an entry becomes (its name is the owner's business: convert.ts). */
export interface ConvertedRdata {
  readonly content: string;
  readonly numbers: Partial<Record<NumberField, number>>;
  /** Each change made to the text as written, in words, e.g. `2 TXT strings joined`. */
  readonly changes: string[];
}

/** How the zone's domain is written in contents. */
export interface DomainOptions {
  /** The zone's domain, absolute and lower-cased: `example.com.`. */
  readonly domain: string;
  /** Keep the domain as written instead of `{domainname}`. */
  readonly keepDomain: boolean;
}

const DIGITS = /^\d+$/;
const HEX = /^[0-9A-Fa-f]+$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** Why a record cannot be imported as it is (the import skips it, with this message as the reason). */
export class NotImportableError extends Error {}

/** Why a character-string's bytes cannot be taken: they are not UTF-8 text. */
export class NotTextError extends NotImportableError {}

/**
 * The bytes of an RFC 1035 character-string as written: `\DDD` is the byte DDD, `\X` is X.
 *
 * @returns the bytes, and whether any escape was decoded
 */
export function characterStringBytes(text: string): { bytes: Uint8Array; escaped: boolean } {
  if (!text.includes("\\")) return { bytes: encoder.encode(text), escaped: false };
  const pieces: Uint8Array[] = [];
  let from = 0;
  let at = text.indexOf("\\");
  while (at >= 0 && at + 1 < text.length) {
    pieces.push(encoder.encode(text.slice(from, at)));
    const ddd = text.slice(at + 1, at + 4);
    // Stryker disable next-line Regex: ddd is three characters at most, so ^ and $ add nothing
    if (/^\d{3}$/.test(ddd) && Number(ddd) <= 255) {
      pieces.push(Uint8Array.of(Number(ddd)));
      from = at + 4;
    } else {
      const next = String.fromCodePoint(text.codePointAt(at + 1) as number);
      pieces.push(encoder.encode(next));
      from = at + 1 + next.length;
    }
    at = text.indexOf("\\", from);
  }
  pieces.push(encoder.encode(text.slice(from)));
  return { bytes: Buffer.concat(pieces), escaped: true };
}

function decodeStrings(tokens: readonly Token[]): { text: string; escaped: boolean } {
  // Without an escape, the strings are text already.
  if (tokens.every((t) => !t.text.includes("\\")))
    return { text: tokens.map((t) => t.text).join(""), escaped: false };
  const decoded = tokens.map((t) => characterStringBytes(t.text));
  try {
    return { text: utf8.decode(Buffer.concat(decoded.map((d) => d.bytes))), escaped: true };
  } catch {
    throw new NotTextError("its bytes are not UTF-8 text, and a record's content is text");
  }
}

/** The SPF, DKIM and DMARC forms: their readers join the strings with no space added. */
function knownJoinedForm(joined: string): string | undefined {
  if (/^v=spf1(\s|$)/i.test(joined)) return "an SPF record (RFC 7208 3.3: its strings are read joined)";
  if (/^v=DMARC1\s*(;|$)/i.test(joined)) return "a DMARC record (read joined, as DKIM's)";
  if (/^v=DKIM1\s*(;|$)/i.test(joined) || isDkimTagList(joined))
    return "a DKIM record (RFC 6376 3.6.2.2: its strings are read joined)";
  return undefined;
}

const DKIM_TAGS = new Set(["v", "g", "h", "k", "n", "p", "s", "t"]);

/** A DKIM key record without `v=DKIM1` (`k=rsa; p=MIIB...`): DKIM's tags only, and a base64 `p=`. */
function isDkimTagList(text: string): boolean {
  const items = text
    .split(";")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const tags: [string, string][] = [];
  for (const item of items) {
    // `.*` takes the rest of the item (flag s): no $ is needed.
    const match = /^([a-z])\s*=\s*(.*)/is.exec(item);
    if (!match || !DKIM_TAGS.has((match[1] as string).toLowerCase())) return false;
    // The item is trimmed and `\s*` takes the blanks after `=`: the value has none at either end.
    tags.push([(match[1] as string).toLowerCase(), match[2] as string]);
  }
  const p = tags.find(([tag]) => tag === "p");
  return p !== undefined && /^[A-Za-z0-9+/\s]*={0,2}$/.test(p[1]);
}

/** The byte length of each character-string, as the DNS counts them. */
function stringLengths(tokens: readonly Token[]): number[] {
  return tokens.map((t) => characterStringBytes(t.text).bytes.length);
}

/**
 * A TXT record's strings as one content, or why they cannot be one: several strings are joined only
 * where they are one value (every string but the last exactly 255 bytes: one value split where the
 * DNS must split it) or a known joined form (SPF, DKIM, DMARC); other strings are separate items
 * (DNS-SD's `"txtvers=1" "path=/"`), which joining would change.
 */
function txtContent(tokens: readonly Token[], changes: string[]): { text: string; escaped: boolean } {
  const decoded = decodeStrings(tokens);
  if (tokens.length === 1) return decoded;
  const lengths = stringLengths(tokens);
  const splitAt255 = lengths.every((n, i) => (i < lengths.length - 1 ? n === 255 : n <= 255));
  const form = splitAt255 ? "one value split at 255 bytes" : knownJoinedForm(decoded.text);
  if (form === undefined) {
    throw new NotImportableError(
      `${tokens.length} TXT strings that are separate items (as DNS-SD writes its key=value pairs): ` +
        "the API holds one string per TXT record, and joining them would change what clients read; " +
        "only a value split at 255 bytes, or an SPF, DKIM or DMARC record, is joined",
    );
  }
  changes.push(`${tokens.length} TXT strings joined into one value, no space added: ${form}`);
  return decoded;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The pattern of each zone's domain, built once per zone rather than once per record.
 *
 * Bound: forgotten at MAX_PATTERNS domains (importZones is exported, and a long-lived program may
 * import many zones).
 */
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 64;

/** Whole-label occurrences of `domain` (without its final dot) in a text. */
function domainPattern(domain: string): RegExp {
  return patterns.get(domain) ?? newDomainPattern(domain);
}

function newDomainPattern(domain: string): RegExp {
  const bare = escapeRegExp(domain.replace(/\.$/, ""));
  // Case-insensitive ("i"): [a-z] holds the upper-case letters too.
  const pattern = new RegExp(`(?<![a-z0-9_-])${bare}(?![a-z0-9_-]|\\.[a-z0-9_-])`, "gi");
  // Stryker disable next-line EqualityOperator,ConditionalExpression: a bound on memory only; a pattern forgotten is built again alike
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  // Stryker disable next-line CallExpression: the cache saves time only; a pattern not kept is built again alike
  patterns.set(domain, pattern);
  return pattern;
}

/**
 * `text` with every whole-label occurrence of the domain written `{domainname}`:
 * `mail.example.com` -> `mail.{domainname}`, never `notexample.com` nor `example.com.au`.
 */
export function placeDomain(text: string, options: DomainOptions): { text: string; count: number } {
  if (options.keepDomain || options.domain === ".") return { text, count: 0 };
  let count = 0;
  const replaced = text.replace(domainPattern(options.domain), () => {
    count++;
    return DOMAIN_PLACEHOLDER;
  });
  return { text: replaced, count };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * A name holding characters outside ASCII in the xn-- form DNS uses (UTS #46, Node's
 * url.domainToASCII), the change said; a name it cannot map is left for check() to refuse.
 */
export function asciiName(name: string, changes: string[]): string {
  if (!NON_ASCII.test(name)) return name;
  // Text the URL host parser would cut or change has no form: its answer would be another name.
  const ascii = asciiForm(name);
  if (ascii === "") return name;
  changes.push(`${name} written in its xn-- form: ${ascii}`);
  return ascii;
}

/** What the report says of a `{domainname}` the zone's own text holds. */
const LITERAL_PLACEHOLDER = `the zone's text holds ${DOMAIN_PLACEHOLDER} itself: the API replaces it with the domain the template is applied to, so it is not published as written`;

/**
 * The warning for a relative name that ends in the zone's domain and so holds it twice
 * (`www.example.com` under `example.com.` is `www.example.com.example.com.`): what a name written
 * without its final dot gives. Kept as RFC 1035 reads it, and said; undefined for any other name.
 */
export function doubledDomain(absolute: string, domain: string): string | undefined {
  // Under the root, `twice` is `..`, which no absolute name holds.
  const twice = `${domain}${domain}`;
  if (absolute !== twice && !absolute.endsWith(`.${twice}`)) return undefined;
  const meant = absolute.slice(0, -domain.length);
  return (
    `${absolute} holds the domain twice: kept so, but a name written without its final dot ` +
    `usually meant ${meant}; check it, and add the dot in the zone file if so`
  );
}

/** A host name of the rdata, absolute, then with the domain as `{domainname}`. */
function hostName(
  token: Token,
  entry: ZoneEntry,
  options: DomainOptions,
  file: string,
  changes: string[],
): string {
  if (token.quoted)
    throw new ZoneInputError(
      file,
      entry.line,
      `expected a host name, not a quoted string, in the ${entry.type} record`,
    );
  const absolute = asciiName(resolveName(token.text, entry.origin, file, entry.line), changes);
  // `@` holds no letter, and no final dot: it is made absolute, never lower-cased.
  if (/[A-Z]/.test(token.text)) changes.push(`${token.text} lower-cased`);
  if (!token.text.endsWith(".")) {
    changes.push(`${token.text} made absolute: ${absolute}`);
    const doubled = doubledDomain(absolute, options.domain);
    if (doubled !== undefined) changes.push(doubled);
  }
  if (options.keepDomain || options.domain === ".") return absolute;
  if (absolute === options.domain) {
    changes.push(`${absolute} written ${DOMAIN_PLACEHOLDER}.`);
    return `${DOMAIN_PLACEHOLDER}.`;
  }
  if (absolute.endsWith(`.${options.domain}`)) {
    const written = `${absolute.slice(0, -options.domain.length)}${DOMAIN_PLACEHOLDER}.`;
    changes.push(`${absolute} written ${written}`);
    return written;
  }
  return absolute;
}

function shapeError(entry: ZoneEntry, file: string, expected: string): ZoneInputError {
  const got = entry.rdata.map((t) => (t.quoted ? JSON.stringify(t.text) : t.text)).join(" ");
  return new ZoneInputError(
    file,
    entry.line,
    `expected ${entry.type} data of the form ${expected}; got "${got}"`,
  );
}

function count(entry: ZoneEntry, file: string, expected: string, n: number): readonly Token[] {
  if (entry.rdata.length !== n) throw shapeError(entry, file, expected);
  return entry.rdata;
}

function number16(token: Token, entry: ZoneEntry, file: string, expected: string): number {
  if (token.quoted || !DIGITS.test(token.text) || Number(token.text) > 65535)
    throw shapeError(entry, file, expected);
  return Number(token.text);
}

/**
 * The content and numbers of the API record that `entry` becomes.
 *
 * @param type one of the API's record types (the caller skips the others)
 * @throws {ZoneInputError} rdata of the wrong shape for its type (a missing field, a word where a
 *   number goes)
 * @throws {NotImportableError} a TXT, CAA or URL whose bytes are not UTF-8 text (NotTextError); TXT
 *   strings that are separate items
 */
export function convertRdata(
  entry: ZoneEntry,
  type: RecordType,
  options: DomainOptions,
  file: string,
): ConvertedRdata {
  const changes: string[] = [];
  const text = (raw: string): string => {
    if (raw.includes(DOMAIN_PLACEHOLDER)) changes.push(LITERAL_PLACEHOLDER);
    const placed = placeDomain(raw, options);
    if (placed.count > 0) changes.push(`the domain written ${DOMAIN_PLACEHOLDER} (${placed.count}x)`);
    return placed.text;
  };
  switch (type) {
    case "A":
      return { content: (count(entry, file, "<IPv4 address>", 1)[0] as Token).text, numbers: {}, changes };
    case "AAAA":
      return { content: (count(entry, file, "<IPv6 address>", 1)[0] as Token).text, numbers: {}, changes };
    case "CNAME":
    case "NS": {
      const [target] = count(entry, file, "<host name>", 1) as [Token];
      return { content: hostName(target, entry, options, file, changes), numbers: {}, changes };
    }
    case "MX": {
      const form = "<preference> <host name>";
      const [preference, target] = count(entry, file, form, 2) as [Token, Token];
      const priority = number16(preference, entry, file, form);
      return { content: hostName(target, entry, options, file, changes), numbers: { priority }, changes };
    }
    case "SRV": {
      const form = "<priority> <weight> <port> <target>";
      const [p, w, port, target] = count(entry, file, form, 4) as [Token, Token, Token, Token];
      const numbers = {
        priority: number16(p, entry, file, form),
        weight: number16(w, entry, file, form),
        port: number16(port, entry, file, form),
      };
      return { content: hostName(target, entry, options, file, changes), numbers, changes };
    }
    case "TXT": {
      if (entry.rdata.length === 0) throw shapeError(entry, file, '"<text>" ["<more text>"...]');
      const decoded = txtContent(entry.rdata, changes);
      if (decoded.escaped) changes.push("escapes decoded");
      return { content: text(decoded.text), numbers: {}, changes };
    }
    case "CAA": {
      const form = '<flags> <tag> "<value>"';
      const [flags, tag, value] = count(entry, file, form, 3) as [Token, Token, Token];
      if (flags.quoted || !DIGITS.test(flags.text) || tag.quoted) throw shapeError(entry, file, form);
      const decoded = decodeStrings([value]);
      if (decoded.escaped) changes.push("escapes decoded");
      return { content: `${Number(flags.text)} ${tag.text} "${text(decoded.text)}"`, numbers: {}, changes };
    }
    case "TLSA": {
      const form = "<usage> <selector> <matching-type> <hex>...";
      if (entry.rdata.length < 4) throw shapeError(entry, file, form);
      const [usage, selector, matching, ...hex] = entry.rdata as [Token, Token, Token, ...Token[]];
      for (const t of [usage, selector, matching])
        if (t.quoted || !DIGITS.test(t.text)) throw shapeError(entry, file, form);
      for (const t of hex) if (t.quoted || !HEX.test(t.text)) throw shapeError(entry, file, form);
      if (hex.length > 1) changes.push(`hex de-spaced (${hex.length} pieces joined)`);
      const data = hex.map((t) => t.text).join("");
      return {
        content: `${Number(usage.text)} ${Number(selector.text)} ${Number(matching.text)} ${data}`,
        numbers: {},
        changes,
      };
    }
    case "URLFWD":
    case "URLFWD301":
    case "URLCLO": {
      const [url] = count(entry, file, "<http(s) URL>", 1) as [Token];
      const decoded = decodeStrings([url]);
      if (decoded.escaped) changes.push("escapes decoded");
      return { content: text(decoded.text), numbers: {}, changes };
    }
  }
}
