/**
 * The round trip of issue 29: any record set the provider accepts, written as a zone file by this
 * test's own zone writer (in the many ways DNS hosts write one), imports back as the same
 * canonical record set. Over every record type, odd TXT (quotes, backslashes, semicolons,
 * parentheses, non-ASCII, strings over 255 bytes), IDN punycode names, wildcards and
 * `_service._proto` names; the writer varies relative/absolute/blank owners, TTL and class order,
 * escapes, TXT splitting and parentheses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RecordType } from "../../provider/client/wire";
import type { RecordSpec } from "../../provider/dns/model";
import { validateRecords } from "../../provider/dns/validate";
import { importZones, type ProgramLanguage } from "../../provider/import";
import { renderProgram } from "../../provider/import/programs";
import type { ImportedTemplate } from "../../provider/import/template";
import { validateTemplateRecordsInputs } from "../../provider/records/inputs";
import {
  declaredByGo,
  declaredByPython,
  declaredByTypeScript,
  declaredByYaml,
  MAIN_FILE,
} from "./import-languages";

const ORIGIN = "zone-roundtrip.example";
const PLACEHOLDER = "{domainname}";

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
const punycode = fc.constantFrom("xn--bcher-kva", "xn--mnchen-3ya", "xn--80ak6aa92e", "xn--fiqs8s");
const plainName = fc
  .array(fc.oneof(label, punycode, fc.constant("_dmarc")), { minLength: 1, maxLength: 3 })
  .map((labels) => labels.join("."));
const ownerName = fc.oneof(
  fc.constant("@"),
  plainName,
  plainName.map((n) => `*.${n}`),
  fc.constant("*"),
);
const srvName = fc
  .tuple(
    fc.constantFrom("_sip", "_xmpp-server", "_ldap", "_h323cs"),
    fc.constantFrom("_tcp", "_udp", "_tls"),
    fc.option(label),
  )
  .map(([service, proto, sub]) => (sub ? `${service}.${proto}.${sub}` : `${service}.${proto}`));

/** A host target as the import writes it: absolute, inside the domain as `{domainname}`. */
const host = fc.oneof(
  plainName.map((n) => `${n}.example.net.`),
  plainName.map((n) => `${n}.${PLACEHOLDER}.`),
  fc.constant(`${PLACEHOLDER}.`),
);
const u16 = fc.integer({ min: 0, max: 65535 });

/** Text pieces that make TXT awkward for a writer and a reader. */
const oddChar = fc.constantFrom(
  "a",
  "Z",
  "0",
  " ",
  '"',
  "\\",
  ";",
  "(",
  ")",
  "é",
  "漢",
  "😀",
  "$",
  ".",
  "@",
  "=",
);
const oddText = fc
  .oneof(
    fc.array(oddChar, { minLength: 1, maxLength: 40 }).map((c) => c.join("")),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
    fc.string({ unit: "grapheme-ascii", minLength: 250, maxLength: 600 }),
    fc.constantFrom(
      `v=spf1 include:_spf.${PLACEHOLDER} mx -all`,
      `v=DMARC1; p=none; rua=mailto:d@${PLACEHOLDER}`,
    ),
  )
  .filter((t) => t.trim() !== "" && !/[\p{Cc}\u2028\u2029{}]/u.test(t.replaceAll(PLACEHOLDER, "")));

const ipv4 = fc.ipV4();
const ipv6 = fc.ipV6();
const url = fc
  .tuple(
    fc.constantFrom("http", "https"),
    fc.oneof(
      plainName.map((n) => `${n}.example.org`),
      fc.constant(`www.${PLACEHOLDER}`),
    ),
    label,
  )
  .map(([scheme, h, path]) => `${scheme}://${h}/${path}`);

const recordArb: fc.Arbitrary<RecordSpec> = fc.oneof(
  fc.record({ name: ownerName, type: fc.constant<RecordType>("A"), content: ipv4 }),
  fc.record({ name: ownerName, type: fc.constant<RecordType>("AAAA"), content: ipv6 }),
  fc.record({
    name: ownerName.filter((n) => n !== "@"),
    type: fc.constant<RecordType>("CNAME"),
    content: host,
  }),
  fc.record({ name: ownerName, type: fc.constant<RecordType>("NS"), content: host }),
  fc.record({
    name: ownerName,
    type: fc.constant<RecordType>("MX"),
    content: fc.oneof(host, fc.constant(".")),
    priority: u16,
  }),
  fc.record({
    name: srvName,
    type: fc.constant<RecordType>("SRV"),
    content: fc.oneof(host, fc.constant(".")),
    priority: u16,
    weight: u16,
    port: u16,
  }),
  fc.record({ name: ownerName, type: fc.constant<RecordType>("TXT"), content: oddText }),
  fc.record({
    name: ownerName,
    type: fc.constant<RecordType>("CAA"),
    content: fc
      .tuple(
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom("issue", "issuewild", "iodef", "tbs"),
        oddText.filter((t) => !t.includes('"')),
      )
      .map(([flags, tag, value]) => `${flags} ${tag} "${value}"`),
  }),
  fc.record({
    name: ownerName,
    type: fc.constant<RecordType>("TLSA"),
    content: fc
      .tuple(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.boolean(),
      )
      .map(([u, s, m, bytes, upper]) => {
        const hex = Buffer.from(bytes).toString("hex");
        return `${u} ${s} ${m} ${upper ? hex.toUpperCase() : hex}`;
      }),
  }),
  fc.record({
    name: ownerName,
    type: fc.constantFrom<RecordType>("URLFWD", "URLFWD301", "URLCLO"),
    content: url,
  }),
);

/** Whether check() accepts `records`: each record, and the template checks across them. */
const accepted = (records: RecordSpec[]): boolean =>
  validateTemplateRecordsInputs({ templateId: "t", records }).issues.length === 0;

/** Records the provider accepts: each drawn record kept only if check() still accepts the set with it. */
const acceptedSet = fc.array(recordArb, { maxLength: 25 }).map((drawn) => {
  const kept: RecordSpec[] = [];
  for (const r of drawn) if (accepted([...kept, r])) kept.push(r);
  return kept;
});

/** How the writer writes each record: the many ways a DNS host writes one. */
const style = fc.record({
  owner: fc.constantFrom("relative", "absolute", "blank", "upper"),
  ttl: fc.constantFrom("none", "ttl-class", "class-ttl", "units", "class"),
  escapeAll: fc.boolean(),
  chunk: fc.integer({ min: 1, max: 255 }),
  parens: fc.boolean(),
  relativeTarget: fc.boolean(),
});
type Style = typeof style extends fc.Arbitrary<infer S> ? S : never;

// ---------------------------------------------------------------------------------------------
// The test's own zone writer (independent of the importer's code).

const utf8 = new TextEncoder();

/** An RFC 1035 character-string, quoted: `"`, `\` escaped; other bytes raw or as \DDD. */
function quoted(bytes: Uint8Array, escapeAll: boolean): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (escapeAll && (b < 0x21 || b > 0x7e || b === 0x3b)) out += `\\${String(b).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  // Raw bytes above 0x7f are written back as UTF-8 text: the byte string holds them once decoded.
  return `${Buffer.from(out, "latin1").toString("utf8")}"`;
}

/** A TXT value as character-strings, split where the DNS must split it (255 bytes), as hosts write it. */
function characterStrings(text: string, s: Style): string[] {
  const bytes = utf8.encode(text);
  const pieces: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) {
    pieces.push(quoted(bytes.subarray(i, i + 255), s.escapeAll || 255 < bytes.length));
  }
  return pieces;
}

function inZone(text: string): string {
  return text.replaceAll(PLACEHOLDER, ORIGIN);
}

function target(content: string, s: Style): string {
  if (content === ".") return ".";
  const absolute = inZone(content);
  const suffix = `.${ORIGIN}.`;
  if (s.relativeTarget && absolute === `${ORIGIN}.`) return "@";
  if (s.relativeTarget && absolute.endsWith(suffix)) return absolute.slice(0, -suffix.length);
  return absolute;
}

function rdata(r: RecordSpec, s: Style): string {
  switch (r.type) {
    case "CNAME":
    case "NS":
      return target(r.content, s);
    case "MX":
      return `${r.priority} ${target(r.content, s)}`;
    case "SRV":
      return `${r.priority} ${r.weight} ${r.port} ${target(r.content, s)}`;
    case "TXT": {
      const strings = characterStrings(inZone(r.content), s);
      return s.parens ? `( ${strings.join("\n    ")} )` : strings.join(" ");
    }
    case "CAA": {
      const [, flags, tag, value] = /^(\d+) (\S+) "(.*)"$/.exec(r.content) as unknown as string[];
      return `${flags} ${tag} ${quoted(utf8.encode(inZone(value as string)), s.escapeAll)}`;
    }
    case "TLSA": {
      const [u, sel, m, hex] = r.content.split(" ") as [string, string, string, string];
      const pieces = hex.match(new RegExp(`.{1,${2 * Math.max(1, s.chunk % 17)}}`, "g")) ?? [hex];
      const data = s.parens ? `( ${pieces.join("\n    ")} )` : pieces.join(" ");
      return `${u} ${sel} ${m} ${data}`;
    }
    case "URLFWD":
    case "URLFWD301":
    case "URLCLO":
      return s.escapeAll ? quoted(utf8.encode(inZone(r.content)), false) : inZone(r.content);
    default:
      return r.content;
  }
}

function ownerOf(r: RecordSpec, s: Style, previous: string | undefined): string {
  if (s.owner === "blank" && previous === r.name) return "";
  const absolute = r.name === "@" ? `${ORIGIN}.` : `${r.name}.${ORIGIN}.`;
  if (s.owner === "absolute") return absolute;
  if (s.owner === "upper") return absolute.toUpperCase();
  return r.name;
}

const TTLS: Record<Style["ttl"], string> = {
  none: "",
  "ttl-class": "300 IN ",
  "class-ttl": "IN 300 ",
  units: "1h30m ",
  class: "IN ",
};

/** A master file holding `records`, each written in its own style. */
function writeZone(records: readonly RecordSpec[], styles: readonly Style[]): string {
  let text = `; written by the round-trip test\n$ORIGIN ${ORIGIN}.\n$TTL 1d\n`;
  text += `@ IN SOA ns1.dns-host.net. hostmaster.${ORIGIN}. ( 1 7200 3600 1209600 300 )\n`;
  let previous: string | undefined;
  for (const [i, r] of records.entries()) {
    const s = styles[i % styles.length] as Style;
    const owner = ownerOf(r, s, previous);
    text += `${owner === "" ? "    " : `${owner} `}${TTLS[s.ttl]}${r.type} ${rdata(r, s)} ; record ${i}\n`;
    previous = r.name;
  }
  return text;
}

describe("the import round trip", () => {
  it("any record set the provider accepts, written as a zone file, imports as the same canonical set", () => {
    fc.assert(
      fc.property(acceptedSet, fc.array(style, { minLength: 1, maxLength: 8 }), (records, styles) => {
        const zone = writeZone(records, styles);
        const [t] = importZones([{ text: zone, file: "roundtrip.zone", templateId: "t" }], {
          keepApexNs: true,
        });
        expect(t?.skipped.map((s) => s.text)).toEqual([
          `${ORIGIN}. SOA ns1.dns-host.net. hostmaster.${ORIGIN}. 1 7200 3600 1209600 300`,
        ]);
        const back = validateRecords(t?.records.map((r) => r.record) ?? []);
        expect(back.issues).toEqual([]);
        expect(back.records).toEqual(validateRecords(records).records);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Every value through every language: what each language (and Pulumi YAML) reads back from the
// program is the value written, whatever it holds.

/** The characters a language or Pulumi YAML would interpret, and the ones a reader cannot see. */
const hostile = fc.constantFrom(
  "$",
  "${",
  "$${x}",
  "$$",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation, on purpose
  "${foo.bar}",
  "}",
  '"',
  "'",
  "\\",
  "\\n",
  "\\u0041",
  "`",
  "#",
  ": ",
  "- ",
  "\n",
  "\r",
  "\t",
  "\0",
  "\x7f",
  "\x85",
  "\u00a0",
  "\u00ad",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\ufdd0",
  "\ufdef",
  "\u{1fffe}",
  "\u{10ffff}",
  "\u202a",
  "\u202e",
  "\u2066",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u200b",
  "\u2028",
  "\u2029",
  "é",
  "😀",
);
/** Any text without lone surrogates (zone text read as UTF-8 holds none), hostile pieces often. */
const anyValue = fc
  .array(fc.oneof(hostile, fc.string({ unit: "binary", maxLength: 6 })), { maxLength: 12 })
  .map((pieces) => pieces.join(""));

/** One template per value set: every value as a record's name and content, and as the template id and file. */
function templateOf(values: readonly string[], index: number): ImportedTemplate {
  const records = values.map((value, i) => ({
    line: i + 1,
    record:
      i % 3 === 1
        ? { name: value, type: "MX" as const, content: value, priority: i }
        : { name: value, type: "TXT" as const, content: value },
  }));
  return {
    records,
    skipped: [],
    changes: [],
    dropped: [],
    notes: [],
    ttlsDropped: 0,
    file: values[0] ?? "",
    templateId: values[1] ?? "t",
    domain: "example.com.",
    resourceName: `t${index}`,
  };
}

const EXPECTED_KEYS = ["name", "type", "content", "priority"] as const;

function declaredOf(t: ImportedTemplate) {
  return {
    name: t.resourceName,
    templateId: t.templateId,
    purge: true,
    records: t.records.map(({ record }) =>
      Object.fromEntries(EXPECTED_KEYS.filter((k) => record[k] !== undefined).map((k) => [k, record[k]])),
    ),
  };
}

describe("every value through every language", () => {
  it("reads back as written in TypeScript, YAML (yaml.v3 + Pulumi YAML), Go and Python", async () => {
    // Many values per run, few runs: each language builds or starts once per run.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(anyValue, { minLength: 2, maxLength: 30 }), { minLength: 5, maxLength: 12 }),
        async (sets) => {
          const templates = sets.map(templateOf);
          const settings = { project: "p", packageVersion: "0.1.0" };
          const expected = templates.map((t) => [declaredOf(t)]);
          const program = (lang: ProgramLanguage) =>
            templates.map((t) => renderProgram([t], lang, settings)[MAIN_FILE[lang]] ?? "");
          const [yaml, go, python] = await Promise.all([
            declaredByYaml(program("yaml")),
            declaredByGo(program("go")),
            declaredByPython(program("python")),
          ]);
          expect(program("ts").map((code) => declaredByTypeScript(code))).toEqual(expected);
          expect(yaml).toEqual(expected);
          expect(go).toEqual(expected);
          expect(python).toEqual(expected);
        },
      ),
      { numRuns: 4, endOnFailure: true },
    );
  }, 120_000);
});
