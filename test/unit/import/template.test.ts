/**
 * How each program spells what it declares: string literals that the language itself reads back
 * as the value (TypeScript and Python quoted as Biome and Black quote them, Go's interpreted
 * strings, YAML double-quoted scalars with Pulumi YAML's `$$`), every invisible character an escape
 * (the Unicode general categories Cc, Cf, Zl, Zp, Cn, Cs and the spaces other than U+0020); the
 * fields of a record in one order, numbers only where the type takes them; the resource names,
 * unique; the one-line provenance comment.
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  goLiteral,
  type ImportedTemplate,
  INVISIBLE,
  PURGE_NOTE,
  provenance,
  pythonLiteral,
  recordFields,
  resourceNames,
  tsLiteral,
  yamlLiteral,
} from "../../../provider/import/template";
import { pulumiYamlText } from "../import-languages";

/** What JavaScript reads a TypeScript string literal as (the literal holds no type syntax). */
const readTs = (literal: string): unknown => new Function(`"use strict"; return ${literal};`)();
/** What Pulumi YAML reads a scalar as: YAML's value, then `$$` as `$`. */
const readYaml = (literal: string): string => pulumiYamlText(parse(`v: ${literal}\n`).v as string);

describe("the fields of a record", () => {
  it("name, type, content, then the numbers its type takes, in that order", () => {
    expect(recordFields({ name: "@", type: "MX", content: "m.", priority: 10 })).toEqual([
      ["name", "@"],
      ["type", "MX"],
      ["content", "m."],
      ["priority", 10],
    ]);
    expect(recordFields({ name: "s", type: "SRV", content: "t.", port: 3, weight: 2, priority: 1 })).toEqual([
      ["name", "s"],
      ["type", "SRV"],
      ["content", "t."],
      ["priority", 1],
      ["weight", 2],
      ["port", 3],
    ]);
  });

  it("no number for a type that takes none, nor one that is not given", () => {
    expect(recordFields({ name: "a", type: "A", content: "192.0.2.1", priority: 5 })).toEqual([
      ["name", "a"],
      ["type", "A"],
      ["content", "192.0.2.1"],
    ]);
    expect(recordFields({ name: "@", type: "MX", content: "m." }).map(([k]) => k)).toEqual([
      "name",
      "type",
      "content",
    ]);
  });
});

describe("resource names", () => {
  it("the template id where it is a plain identifier, else template-<id> with - for the rest", () => {
    expect(resourceNames(["web", "Web_2-x", "9lives", "a.b c", "é"])).toEqual([
      "web",
      "Web_2-x",
      "template-9lives",
      "template-a-b-c",
      "template--",
    ]);
  });

  it("every letter, digit, _ and - kept; a letter first", () => {
    expect(resourceNames(["A", "Z1", "a", "z", "aAZz09_-", "0aAZz09_-.x", "_a", "-a"])).toEqual([
      "A",
      "Z1",
      "a",
      "z",
      "aAZz09_-",
      "template-0aAZz09_--x",
      "template-_a",
      "template--a",
    ]);
  });

  it("cut to 40 characters", () => {
    expect(resourceNames(["w".repeat(41), `x.${"y".repeat(50)}`])).toEqual([
      "w".repeat(40),
      `template-x-${"y".repeat(29)}`,
    ]);
  });

  it("unique: a second use gets -2, a third -3, never a name already taken", () => {
    expect(resourceNames(["a", "a", "a", "a.", "a-2"])).toEqual(["a", "a-2", "a-3", "template-a-", "a-2-2"]);
  });
});

function template(file: string, skipped: number): ImportedTemplate {
  return {
    records: [{ line: 2, record: { name: "a", type: "A", content: "192.0.2.1" } }],
    skipped: Array.from({ length: skipped }, (_, i) => ({ line: 3 + i, text: "x", reason: "r" })),
    changes: [],
    ttlsDropped: 0,
    dropped: [],
    notes: [],
    file,
    templateId: "t",
    domain: "example.com.",
    resourceName: "t",
  };
}

describe("the provenance comment", () => {
  it("says how many records came from which file and domain, and how many were skipped", () => {
    expect(provenance(template("web.zone", 0))).toBe(
      "1 records imported from web.zone (domain example.com.); nothing skipped, see import-report.md",
    );
    expect(provenance(template("web.zone", 2))).toBe(
      "1 records imported from web.zone (domain example.com.); 2 skipped, see import-report.md",
    );
  });

  it("is one line whatever the file name holds: invisible characters and line ends shown as ?", () => {
    expect(provenance(template("a\nb\u2028c\u202ed\ufeffe\u00a0f.zone", 0))).toBe(
      "1 records imported from a?b?c?d?e?f.zone (domain example.com.); nothing skipped, see import-report.md",
    );
  });

  it("the purge note says what the first up does", () => {
    expect(PURGE_NOTE).toBe(
      "purge: the first `up` replaces the template's records with exactly these (one PUT; every record id is new)",
    );
  });
});

describe("invisible characters", () => {
  it("controls, format characters, separators, odd spaces, unassigned code points and surrogates", () => {
    for (const char of [
      "\u0000",
      "\u007f",
      "\u0085",
      "\u00ad",
      "\u200b",
      "\u200e",
      "\u2028",
      "\u2029",
      "\u2066",
      "\ufeff",
      "\ufffe",
      "\u00a0",
      "\u1680",
      "\u2000",
      "\u200a",
      "\u202f",
      "\u205f",
      "\u3000",
      "\ud800",
      "\u{e0001}",
      "\u{1fffe}",
    ])
      expect(INVISIBLE.test(char), `U+${(char.codePointAt(0) as number).toString(16)}`).toBe(true);
  });

  it("not a visible character nor the plain space", () => {
    for (const char of [" ", "a", "é", "漢", "😀", "\u0301", "$", "\\", '"', "\u2001".normalize("NFKC")])
      expect(INVISIBLE.test(char), char).toBe(false);
  });
});

describe("TypeScript string literals, as Biome writes them", () => {
  it("double quotes, or single where the text holds more double quotes than single", () => {
    expect(tsLiteral("plain")).toBe('"plain"');
    expect(tsLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(tsLiteral("it's")).toBe(`"it's"`);
    expect(tsLiteral(`'"`)).toBe(`"'\\""`);
    expect(tsLiteral(`"'"`)).toBe(`'"\\'"'`);
  });

  it("backslashes and line ends escaped; ${ and $ as they are, since this is no template literal", () => {
    expect(tsLiteral("a\\b\nc\rd\te")).toBe('"a\\\\b\\nc\\rd\\te"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a value, on purpose
    expect(tsLiteral("${x} $$ `")).toBe('"${x} $$ `"');
  });

  it("invisible characters as \\uXXXX, above U+FFFF as \\u{...}, visible ones as they are", () => {
    expect(tsLiteral("\u2028\ufeff\u0000é漢😀")).toBe('"\\u2028\\ufeff\\u0000é漢😀"');
    expect(tsLiteral("\u{e0001}")).toBe('"\\u{e0001}"');
    expect(tsLiteral("\ud800")).toBe('"\\ud800"');
  });

  it("JavaScript reads any text back from it (property)", () => {
    const odd = fc.string({ unit: fc.constantFrom('"', "'", "\\", "$", "{", "a", "\u2028", "\n") });
    // Any code point, lone surrogates included, most from the first blocks.
    const cp = fc.oneof(fc.integer({ min: 0, max: 0x3000 }), fc.integer({ min: 0, max: 0x10ffff }));
    const any = fc.array(cp, { maxLength: 20 }).map((c) => String.fromCodePoint(...c));
    const texts = [...fc.sample(any, 300), ...fc.sample(odd, 300)];
    // One evaluation of all the literals: JavaScript's own parser reads them.
    expect(readTs(`[${texts.map(tsLiteral).join(", ")}]`)).toEqual(texts);
  });
});

describe("Python string literals, as Black writes them", () => {
  it("the same choice of quotes, escapes as Python spells them", () => {
    expect(pythonLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(pythonLiteral("it's")).toBe(`"it's"`);
    expect(pythonLiteral("a\\b\n\u2029\u{e0001}\ud800{x}")).toBe('"a\\\\b\\n\\u2029\\U000e0001\\ud800{x}"');
  });

  it("Python reads each back as the text", () => {
    const texts = [
      "plain",
      'say "hi"',
      "it's",
      `'"`,
      "a\\b\nc\rd\te",
      "\u2028\ufeff\u0000é漢😀",
      "\u{e0001}\u{1fffe}",
      "{x} %s $",
    ];
    const script =
      "import ast, json, sys\nprint(json.dumps([ast.literal_eval(l) for l in json.load(sys.stdin)]))";
    const run = spawnSync("python3", ["-c", script], {
      input: JSON.stringify(texts.map(pythonLiteral)),
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual(texts);
  });
});

describe("Go interpreted string literals", () => {
  it("always double-quoted; invisible characters as \\u and \\U escapes", () => {
    expect(goLiteral('say "hi"')).toBe('"say \\"hi\\""');
    expect(goLiteral("it's")).toBe(`"it's"`);
    expect(goLiteral("a\\b\n\ufeff\u{e0001}`")).toBe('"a\\\\b\\n\\ufeff\\U000e0001`"');
  });

  it("a lone surrogate, which no Go string can hold, is refused naming it", () => {
    expect(() => goLiteral("a\udc80")).toThrow("a lone surrogate (U+dc80) cannot be written in a Go string");
    expect(() => goLiteral("\udfff")).toThrow("a lone surrogate (U+dfff) cannot be written in a Go string");
    // Next to the surrogates: an unassigned code point is an escape, a private-use one is itself.
    expect(goLiteral("\ud7ff\ue000")).toBe('"\\ud7ff\ue000"');
  });

  it("the last code point of the BMP is \\u, the first above it that is invisible \\U", () => {
    expect(goLiteral("\uffff")).toBe('"\\uffff"');
    expect(tsLiteral("\uffff")).toBe('"\\uffff"');
    expect(goLiteral("\u{e0000}\u{10000}")).toBe('"\\U000e0000\u{10000}"');
  });
});

describe("YAML double-quoted scalars, as Pulumi YAML reads them", () => {
  it("every $ doubled: Pulumi YAML reads $$ as $ and $-brace as an interpolation", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation, on purpose
    expect(yamlLiteral("${x} $$ $")).toBe('"$${x} $$$$ $$"');
    expect(yamlLiteral('say "hi"')).toBe('"say \\"hi\\""');
    expect(yamlLiteral("a\\b\n\u2028\u0085\u{e0001}")).toBe('"a\\\\b\\n\\u2028\\u0085\\U000e0001"');
  });

  it("a lone surrogate, which YAML cannot hold, is refused naming it", () => {
    expect(() => yamlLiteral("\ud800")).toThrow(
      "a lone surrogate (U+d800) cannot be written in a YAML string",
    );
  });

  it("YAML and Pulumi YAML read any text back from it (property)", () => {
    const wellFormed = fc.string({ unit: "grapheme" });
    fc.assert(
      fc.property(wellFormed, (text) => {
        expect(readYaml(yamlLiteral(text))).toBe(text);
      }),
    );
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("$", "{", "}", '"', "'", "\\", "#", ":", "\u2028", "\u0085", "\t", " "),
        }),
        (text) => {
          expect(readYaml(yamlLiteral(text))).toBe(text);
        },
      ),
    );
  });
});
