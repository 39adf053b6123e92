/**
 * The pull-request plan shows every invisible character as a visible escape (docs/design.md,
 * "Previews and plans"): a bidirectional override (U+202E) can make a line read backwards, a
 * zero-width space (U+200B) or byte order mark (U+FEFF) can make two different values look the
 * same. The oracle here is all of `\p{Cf}` (format characters), not a hand-picked few.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import { templatePlans } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

function step(name: string, olds: Props, news: Props) {
  return {
    op: "update",
    urn: `urn:pulumi:dev::dns::${TYPE}::${name}`,
    oldState: { type: TYPE, inputs: {}, outputs: olds },
    newState: { type: TYPE, inputs: news, outputs: {} },
  };
}

/** The plan's Markdown of a change of one TXT record's content from `before` to `after`. */
function markdownOf(before: string, after: string, resource = "web"): string {
  const olds = {
    templateId: "web",
    records: { "t/TXT": { name: "t", type: "TXT", content: before } },
    ids: { "t/TXT": "r1" },
  };
  const news = { templateId: "web", records: { "t/TXT": { name: "t", type: "TXT", content: after } } };
  return planMarkdown(templatePlans({ steps: [step(resource, olds, news)] }));
}

/** Every format character of Unicode, by scanning the code space with the property escape. */
const FORMAT_CHARACTERS: string[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const ch = String.fromCodePoint(cp);
  if (/\p{Cf}/u.test(ch)) FORMAT_CHARACTERS.push(ch);
}

const escaped = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;

describe("bidi and zero-width characters in the PR plan", () => {
  it.each([
    ["a right-to-left override", "\u202e", "\\u{202E}"],
    ["a zero-width space", "\u200b", "\\u{200B}"],
    ["a byte order mark", "\ufeff", "\\u{FEFF}"],
  ])("%s in content is shown as an escape, never as itself", (_what, ch, shown) => {
    const md = markdownOf("v=spf1 -all", `v=spf1 include:${ch}evil.example -all`);
    expect(md).not.toContain(ch);
    expect(md).toContain(`v=spf1 include:${shown}evil.example -all`);
  });

  it("in a resource name too", () => {
    const md = markdownOf("a", "b", "web\u202eresu\u200b");
    expect(md).not.toMatch(/[\u202e\u200b]/);
    expect(md).toContain("web\\u{202E}resu\\u{200B}");
  });

  it(`every format character of Unicode (${FORMAT_CHARACTERS.length}, all of \\p{Cf}) is escaped`, () => {
    expect(FORMAT_CHARACTERS.length).toBeGreaterThan(150);
    const md = markdownOf("plain", FORMAT_CHARACTERS.join("|"));
    expect(md).not.toMatch(/\p{Cf}/u);
    for (const ch of FORMAT_CHARACTERS) expect(md).toContain(escaped(ch));
  });

  it("no format character survives in any content or name (property, oracle: all of \\p{Cf})", {
    timeout: 60_000,
  }, () => {
    const unit = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...FORMAT_CHARACTERS) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
    );
    const text = fc.array(unit, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, text, text, (resource, before, after) => {
        const md = markdownOf(before, after, resource);
        expect(md).not.toMatch(/\p{Cf}/u);
      }),
      { numRuns: 100 },
    );
  });
});
