/**
 * How the plan comment (cli/markdown.ts) wraps a long line, for any text: every line fits the block
 * (so a value's end is on screen), nothing of the value is lost or moved, no line is empty, and no
 * line ends in a space a reader would not see. The columns each character takes; and a plan given
 * without a digest, which the comment gives no digest for; code points drawn as nothing, and marks
 * drawn over text, each shown as an escape.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planMarkdown, visible, wrapped } from "../../../provider/cli/markdown";
import type { TemplatePlan } from "../../../provider/cli/templatePlans";

/** Columns in a code block: the CJK ideographs take two, ASCII one (GitHub's monospace font). */
const columnsOf = (line: string) => [...line].reduce((n, ch) => n + (/\p{Ideographic}/u.test(ch) ? 2 : 1), 0);

/** The value back from its wrapped lines: each continuation without its lead and arrow. */
const rejoined = (lines: readonly string[], lead: string) =>
  lines.map((l, i) => (i === 0 ? l : l.slice(`${lead} ↳ `.length))).join("");

const word = fc.stringMatching(/^[a-z0-9=:.;"-]{1,12}$|^[一二三四五六七八九十]{1,6}$/);
const lead = fc.constantFrom("+", "-", " ", "!");

describe("a wrapped line", () => {
  it("fits the width, continues after its lead and an arrow, ends in no space, and loses nothing (property)", () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 10, max: 100 }),
        lead,
        (words, width, sign) => {
          const line = words.join(" ");
          const lines = wrapped(line, width, sign);
          for (const l of lines) expect(columnsOf(l), l).toBeLessThanOrEqual(width);
          for (const l of lines.slice(1)) expect(l.startsWith(`${sign} ↳ `), l).toBe(true);
          for (const l of lines) expect(l.endsWith(" "), l).toBe(false);
          expect(rejoined(lines, sign)).toBe(line);
          expect(lines.length === 1).toBe(columnsOf(line) <= width);
        },
      ),
    );
  });

  it("even narrower than its pieces or full of spaces: no line is empty, and nothing is lost (property)", () => {
    const text = fc.stringMatching(/^[ a-z一二三]{1,30}$/);
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), (line, width) => {
        const lines = wrapped(line, width, "+");
        expect(lines.every((l) => l !== "")).toBe(true);
        expect(rejoined(lines, "+")).toBe(line);
      }),
    );
  });

  it("a piece wider than the width is a line of its own, after the first", () => {
    expect(wrapped("一二三", 1, "+")).toEqual(["一", "+ ↳ 二", "+ ↳ 三"]);
  });
});

describe("the columns a character takes in the block", () => {
  it("from U+1100 (the first Hangul letter, drawn wide) two, just before it one", () => {
    expect(wrapped("\u1100".repeat(5), 9)).toEqual(["\u1100".repeat(4), `  ↳ \u1100`]);
    expect(wrapped("\u10ff".repeat(9), 9)).toEqual(["\u10ff".repeat(9)]);
  });

  it("four for the Arabic ligatures, the two- and three-em dashes, cuneiform and hieroglyphs, range ends included", () => {
    const wide = ["\uFDFA", "\uFDFD", "\u2E3A", "\u2E3B", "\u{12000}", "\u{1254F}", "\u{13000}", "\u{1345F}"];
    for (const ch of wide) {
      // 1 + 4 + 4 columns fill a line of 9; one more character goes on the next.
      expect(wrapped(`a${ch}${ch}`, 9), ch).toEqual([`a${ch}${ch}`]);
      expect(wrapped(`a${ch}${ch}b`, 9), ch).toEqual([`a${ch}${ch}`, "  ↳ b"]);
    }
  });
});

describe("a plan given without a digest, and no reason why", () => {
  it("shows no digest line, and the value to set names no digest for it", () => {
    const plan: TemplatePlan = {
      resource: "web",
      templateId: "web",
      summary: "1 to create, 0 to update, 0 to delete (1 request)",
      corrections: [{ kind: "create", message: "+ CREATE www A 192.0.2.1", id: "new" }],
      setAside: [],
    };
    const md = planMarkdown([plan]);
    expect(md).not.toContain("Plan digest");
    expect(md).not.toContain("No plan digest");
    expect(md).not.toContain("web=");
  });
});

describe("code points a font may draw as nothing", () => {
  it("a lone surrogate, a private-use and an unassigned code point are shown as escapes", () => {
    // U+0378 and U+FFFF are unassigned (U+FFFF is a noncharacter, never to be assigned).
    const plan: TemplatePlan = {
      resource: "web",
      templateId: "web",
      summary: "1 to create",
      corrections: [{ kind: "create", message: "+ CREATE @ TXT a\uD800b\uE000c\u0378d\uFFFF", id: "new" }],
      setAside: [],
    };
    expect(planMarkdown([plan])).toContain(
      "+ CREATE @ TXT a\\u{D800}b\\u{E000}c\\u{0378}d\\u{FFFF}  (new id)\n",
    );
  });
});

describe("marks that draw over text", () => {
  it("each overlay mark (canonical combining class 1) on a letter is an escape, the letter stays", () => {
    const overlays = [
      ...[0x0334, 0x0335, 0x0336, 0x0337, 0x0338],
      ...[0x20d2, 0x20d3, 0x20d8, 0x20d9, 0x20da, 0x20e5, 0x20e6, 0x20ea, 0x20eb],
      ...[0x1cd4, 0x1ce2, 0x1ce3, 0x1ce4, 0x1ce5, 0x1ce6, 0x1ce7, 0x1ce8],
    ];
    for (const cp of overlays) {
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      expect(visible(`x${String.fromCodePoint(cp)}`), hex).toBe(`x\\u{${hex}}`);
    }
  });

  it("a nonspacing mark after an enclosing one is an escape too; a single accent stays", () => {
    expect(visible("a\u20DD\u0301")).toBe("a\\u{20DD}\\u{0301}");
    expect(visible("e\u0301")).toBe("e\u0301");
  });
});
