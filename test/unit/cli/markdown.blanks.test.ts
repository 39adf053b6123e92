/**
 * The pull-request plan hides nothing (issue: what a reviewer reads can hide things): every
 * character that renders as nothing, or as a space other than U+0020, is shown as an escape in
 * record content, record names, resource names and template ids; a long value is wrapped so its end
 * is on screen (GitHub shows a fenced block without wrapping and scrolls it sideways); a resource
 * name is shown whole; the footer says what an update's verification items send.
 *
 * The set is written out here from the Unicode code charts, not taken from the code under test.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import { templatePlans } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";
const CONFIG = { "domainapi:baseUrl": "https://api.example.com" };

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Characters that render as nothing or as a blank, by name in the Unicode charts. */
const BLANKS: readonly number[] = [
  0x00a0, // NO-BREAK SPACE
  0x00ad, // SOFT HYPHEN
  0x034f, // COMBINING GRAPHEME JOINER
  0x061c, // ARABIC LETTER MARK
  0x115f, // HANGUL CHOSEONG FILLER
  0x1160, // HANGUL JUNGSEONG FILLER
  0x17b4, // KHMER VOWEL INHERENT AQ
  0x17b5, // KHMER VOWEL INHERENT AA
  ...range(0x180b, 0x180f), // MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
  ...range(0x2000, 0x200f), // EN QUAD .. RIGHT-TO-LEFT MARK
  0x2028, // LINE SEPARATOR
  0x2029, // PARAGRAPH SEPARATOR
  ...range(0x202a, 0x202f), // bidi embeddings and overrides, NARROW NO-BREAK SPACE
  ...range(0x205f, 0x206f), // MEDIUM MATHEMATICAL SPACE .. NOMINAL DIGIT SHAPES
  0x2800, // BRAILLE PATTERN BLANK
  0x3000, // IDEOGRAPHIC SPACE
  0x3164, // HANGUL FILLER
  ...range(0xfe00, 0xfe0f), // VARIATION SELECTORS
  0xfeff, // ZERO WIDTH NO-BREAK SPACE
  0xffa0, // HALFWIDTH HANGUL FILLER
  ...range(0x1d173, 0x1d17a), // MUSICAL SYMBOL BEGIN BEAM .. END PHRASE
  ...range(0xe0000, 0xe007f), // TAG characters
  ...range(0xe0100, 0xe01ef), // VARIATION SELECTORS SUPPLEMENT
];

const escaped = (cp: number) => `\\u{${cp.toString(16).toUpperCase().padStart(4, "0")}}`;

function step(name: string, olds: Props, news: Props) {
  return {
    op: "update",
    urn: `urn:pulumi:dev::dns::${TYPE}::${name}`,
    oldState: { type: TYPE, inputs: {}, outputs: olds },
    newState: { type: TYPE, inputs: news, outputs: {} },
  };
}

/** The Markdown of a change of one TXT record (values held in the state reach the plan as they are). */
function markdownOf(
  parts: { content?: string; name?: string; resource?: string; templateId?: string } = {},
): string {
  const { content = "v=spf1 -all", name = "t", resource = "web", templateId = "web" } = parts;
  const olds = {
    templateId,
    records: { "t/TXT": { name, type: "TXT", content: "before" } },
    ids: { "t/TXT": "r1" },
  };
  const news = { templateId, records: { "t/TXT": { name, type: "TXT", content } } };
  return planMarkdown(templatePlans({ config: CONFIG, steps: [step(resource, olds, news)] }));
}

const BLANK_SET: ReadonlySet<number> = new Set(BLANKS);

/** The characters of `md` that are in {@link BLANKS}. */
const blanksIn = (md: string) => [...md].filter((ch) => BLANK_SET.has(ch.codePointAt(0)!));

/** The lines inside the fenced code blocks of `md`: GitHub shows them unwrapped. */
function blockLines(md: string): string[] {
  const inside: string[] = [];
  let fence: string | undefined;
  for (const line of md.split("\n")) {
    const open = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && open) fence = open;
    else if (fence !== undefined && line === fence) fence = undefined;
    else if (fence !== undefined) inside.push(line);
  }
  return inside;
}

describe("every blank or invisible character is shown as an escape", () => {
  const blank = fc.constantFrom(...BLANKS);
  const where = fc.constantFrom("content", "name", "resource", "templateId");

  it(`in content, record names, resource names and template ids (property over all ${BLANKS.length})`, () => {
    fc.assert(
      fc.property(blank, where, fc.string({ maxLength: 8 }), (cp, field, around) => {
        const value = `a${around}${String.fromCodePoint(cp)}b`;
        const md = markdownOf({ [field]: value });
        expect(blanksIn(md)).toEqual([]);
        expect(md).toContain(escaped(cp));
      }),
      { numRuns: 200 },
    );
  });

  it("each of the set, one by one, in content", () => {
    const missing = BLANKS.filter((cp) => {
      const md = markdownOf({ content: `v=spf1 include:${String.fromCodePoint(cp)}evil.example -all` });
      return blanksIn(md).length > 0 || !md.includes(`include:${escaped(cp)}evil.example`);
    });
    expect(missing.map((cp) => escaped(cp))).toEqual([]);
  });

  it("U+0020 itself stays a space, and visible letters and accents stay as they are", () => {
    const md = markdownOf({ content: "v=spf1 a:bücher.example a:cafe\u0301.example -all" });
    expect(md).toContain("v=spf1 a:bücher.example a:cafe\u0301.example -all");
  });

  it("marks that draw over text are escaped: piled on each other, enclosing, or striking through", () => {
    // A pile of combining acute accents (U+0301) draws over the lines above and below; U+0336
    // COMBINING LONG STROKE OVERLAY draws "+all" struck through, as if deleted; U+20DD COMBINING
    // ENCLOSING CIRCLE (Me) draws a ring around its character and its neighbours.
    const pile = `v=spf1 a${"\u0301".repeat(4)} -all`;
    const struck = "v=spf1 a +\u0336a\u0336l\u0336l\u0336";
    const ring = "v=spf1 a\u20DD -all";
    for (const content of [pile, struck, ring]) {
      const md = markdownOf({ content });
      expect(md, content).not.toMatch(/[\u0336\u20DD]|\p{Mn}\p{Mn}/u);
    }
    expect(markdownOf({ content: pile })).toContain(`a\u0301${"\\u{0301}".repeat(3)} -all`);
    expect(markdownOf({ content: struck })).toContain("+\\u{0336}a\\u{0336}l\\u{0336}l\\u{0336}");
    expect(markdownOf({ content: ring })).toContain("a\\u{20DD} -all");
    // One accent on each letter, as people write them, stays.
    expect(markdownOf({ content: "cafe\u0301 nai\u0308ve" })).toContain("cafe\u0301 nai\u0308ve");
  });

  // Any code point (lone surrogates too), half of them from the set.
  const anyText = fc
    .array(fc.oneof(blank, fc.integer({ min: 0, max: 0x10ffff })), { maxLength: 40 })
    .map((cps) => String.fromCodePoint(...cps));

  it("any string in any field leaves none of the set in the Markdown (property)", () => {
    fc.assert(
      fc.property(anyText, where, (value, field) => {
        expect(blanksIn(markdownOf({ [field]: `x${value}` }))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("long values are wrapped so that their end is on screen", () => {
  /** A 762-character SPF record whose `+all` sits at the end. */
  const terms = range(1, 200).map((i) => `ip4:198.51.${Math.floor(i / 250)}.${i % 250}`);
  let spf = "v=spf1";
  for (const t of terms) if (`${spf} ${t} +all`.length <= 762) spf = `${spf} ${t}`;
  spf = `${spf} +all`.padEnd(762, " ").trimEnd();
  while (spf.length < 762) spf = spf.replace("v=spf1 ", "v=spf1 a ");

  it("a 762-character SPF line: every line of the comment fits, and its +all is on the last line", () => {
    expect(spf).toHaveLength(762);
    expect(spf.endsWith(" +all")).toBe(true);
    const md = markdownOf({ content: spf });
    const lines = md.split("\n");
    // GitHub shows about 100 characters of a code block's line before it scrolls (prose wraps).
    expect(blockLines(md).filter((l) => [...l].length > 100)).toEqual([]);
    expect(blockLines(md).filter((l) => l.endsWith(" "))).toEqual([]);
    const start = lines.findIndex(
      (l) => l.startsWith("+ CREATE t TXT v=spf1") || l.startsWith("~ MODIFY t TXT"),
    );
    expect(start).toBeGreaterThan(0);
    let end = start;
    while (lines[end + 1]?.match(/^[+~-] ↳ /)) end++;
    expect(end).toBeGreaterThan(start);
    expect(lines[end]).toMatch(/\+all\s+\(id r1 kept\)$/);
    // Joined again, the continuation lines give back the value whole.
    const joined = lines
      .slice(start, end + 1)
      .map((l, i) => (i === 0 ? l : l.replace(/^[+~-] ↳ /, "")))
      .join("");
    expect(joined).toContain(`-> ${spf}`);
  });

  it("a value of wide characters is wrapped by the columns it takes, not by its code points", () => {
    // FULLWIDTH LATIN letters (U+FF21-FF3A) are East_Asian_Width F (UAX #11): two columns each in a
    // monospace block. 60 of them and a +all are 66 code points but 126 columns: off screen unwrapped.
    const wide = String.fromCodePoint(
      ...range(0xff21, 0xff3a),
      ...range(0xff21, 0xff3a),
      ...range(0xff21, 0xff28),
    );
    const content = `v=spf1 ${wide} +all`;
    expect([...content]).toHaveLength(7 + 60 + 5);
    const md = markdownOf({ content });
    const cols = (l: string) => [...l].reduce((n, ch) => n + (/[\uFF01-\uFF60]/.test(ch) ? 2 : 1), 0);
    expect(blockLines(md).filter((l) => cols(l) > 100)).toEqual([]);
    const line = blockLines(md).find((l) => l.includes("+all")) ?? "";
    expect(cols(line.slice(0, line.indexOf("+all") + 4))).toBeLessThanOrEqual(100);
  });

  it("the +all warning of that record is wrapped too, its end on screen", () => {
    const news = { templateId: "web", records: { "@/TXT": { name: "@", type: "TXT", content: spf } } };
    const created = {
      op: "create",
      urn: `urn:pulumi:dev::dns::${TYPE}::web`,
      newState: { type: TYPE, inputs: news },
    };
    const md = planMarkdown(templatePlans({ config: CONFIG, steps: [created] }));
    expect(blockLines(md).filter((l) => [...l].length > 100)).toEqual([]);
    expect(md.replaceAll("\n  ↳ ", "")).toMatch(/\+all: \[spf-pass-all, RFC 7208 §5\.1\]/);
  });
});

describe("resource names are shown whole, and the footer says what verification sends", () => {
  it("a resource named x::web is shown as x::web, not web", () => {
    const md = markdownOf({ resource: "x::web" });
    expect(md).toContain("(resource `x::web`)");
    expect(md).not.toContain("(resource `web`)");
  });

  it("the footer says that an update re-states held records and sets back what was edited outside Pulumi", () => {
    const md = markdownOf();
    const footer = md.split("\n").find((l) => l.startsWith("<sub>")) ?? "";
    expect(footer).toMatch(/re-states every record the resource keeps/);
    expect(footer).toMatch(/a record edited outside Pulumi under the same id is set back/);
    expect(footer).not.toMatch(/Records not listed stay as they are/);
  });

  it("each template says which account it is sent to, with its purge and safety threshold", () => {
    const md = markdownOf();
    expect(md).toContain(
      "Sent to account `https://api.example.com`, purge `true`, safety threshold `30% of at least 10 records`.",
    );
  });
});
