/**
 * A key is masked wherever it appears, whatever its characters: any code point (beyond U+FFFF
 * too), each character echoed in any of the forms an API writes it (as is, backslash-escaped, JSON
 * `\uXXXX` escapes, percent-encoded UTF-8 in either case, a space as a form's `+`, the legacy
 * `escape()` form of Latin-1 pages, `%E9` and `%u4E2D`), in any mix.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { quote, redact, redactor } from "../../../provider/errors/redact";

const hex = (n: number, width: number, upper: boolean) => {
  const digits = n.toString(16).padStart(width, "0");
  return upper ? digits.toUpperCase() : digits;
};

/** One character as an API may echo it; `form` picks the form, `upper` the case of hex digits. */
function echoChar(char: string, form: number, upper: boolean): string {
  switch (form % 6) {
    case 1:
      return `\\${char}`;
    case 2: // JSON: one escape per UTF-16 code unit
      return Array.from({ length: char.length }, (_, i) => `\\u${hex(char.charCodeAt(i), 4, upper)}`).join(
        "",
      );
    case 3: // every UTF-8 byte percent-encoded, unreserved characters too
      return Array.from(new TextEncoder().encode(char), (b) => `%${hex(b, 2, upper)}`).join("");
    case 4:
      return char === " " ? "+" : char;
    case 5: // JavaScript's own legacy encoder, as a page in Latin-1 writes a query
      return upper ? escape(char) : escape(char).toLowerCase();
    default:
      return char;
  }
}

/**
 * Every kind of character: printable ASCII (each sign a regular expression gives a meaning, a
 * quote, a backslash, a space), Latin-1, other scripts, and characters beyond U+FFFF.
 */
const ALPHABET = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)),
  ..."\t\u0001\u007f\u0085",
  ..."éÅßøÿ\u00a0ЖжΩ中文キー한글ـ٣".split(""),
  ..."😀𝔘𐍈🔑",
];
const key = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 6, maxLength: 20 })
  .map((cs) => cs.join(""))
  .filter((k) => !k.includes("[redacted]"));

describe("every character, every form, any mix", () => {
  test("any key, each of its characters in any form", () => {
    fc.assert(
      fc.property(
        key,
        fc.array(fc.tuple(fc.nat(5), fc.boolean()), { minLength: 20, maxLength: 20 }),
        fc.string(),
        (key, forms, after) => {
          const echoed = Array.from(key, (c, i) => echoChar(c, ...forms[i]!)).join("");
          const out = redact(`key=${echoed}${after}`, key);
          expect(out.startsWith("key=[redacted]")).toBe(true);
          expect(out).not.toContain(echoed);
        },
      ),
    );
  });

  test("a character beyond U+FFFF escaped as its two surrogates, as PHP's json_encode writes it", () => {
    const key = "sk-😀-live";
    expect(redact('{"error":"bad key sk-\\ud83d\\ude00-live"}', key)).toBe('{"error":"bad key [redacted]"}');
    expect(redact('{"error":"bad key sk-\\uD83D\\uDE00-live"}', key)).toBe('{"error":"bad key [redacted]"}');
  });

  test("unreserved characters percent-encoded although they need not be", () => {
    expect(redact("?api_key=%61%62%63-%31%32%2e%7e", "abc-12.~")).toBe("?api_key=[redacted]");
    expect(redact("?k=%2D%5F%21%2A%27%28%29", "-_!*'()")).toBe("?k=[redacted]");
  });

  test("Latin-1 and beyond as JavaScript's escape() writes them", () => {
    expect(redact("k=caf%E9-%FF", "café-ÿ")).toBe("k=[redacted]");
    expect(redact("k=%u4E2D%u6587%09", "中文\t")).toBe("k=[redacted]");
    expect(redact("k=%uD83D%uDE00", "😀")).toBe("k=[redacted]");
  });

  test("a space echoed as a form's +, or as %20", () => {
    expect(redact("q=my+secret+key&x=1", "my secret key")).toBe("q=[redacted]&x=1");
    expect(redact("q=my%20secret%20key", "my secret key")).toBe("q=[redacted]");
    // A "+" in the key is a plus, never a space.
    expect(redact("q=a b", "a+b")).toBe("q=a b");
  });

  test("a key with a lone surrogate is masked, as is and escaped, and redaction does not throw", () => {
    const key = "ab\ud800cd";
    expect(redact(`x ${key} y`, key)).toBe("x [redacted] y");
    expect(redact("x ab\\ud800cd y", key)).toBe("x [redacted] y");
  });

  test("a case variant of the key is masked too; other text is kept as it was", () => {
    expect(redact("Bad Key SK/Live and sk/live", "sk/live")).toBe("Bad Key [redacted] and [redacted]");
    expect(redact("nothing of it here: sk/liv", "sk/live")).toBe("nothing of it here: sk/liv");
  });

  test("no key, or an empty one, changes nothing", () => {
    expect(redact("a b c", undefined)).toBe("a b c");
    expect(redact("a b c", "")).toBe("a b c");
    expect(redactor(undefined)("a b c")).toBe("a b c");
    expect(redactor("")("")).toBe("");
  });

  test("a redactor masks every text it is given, each time", () => {
    const hide = redactor("k3y/42");
    expect(hide("one k3y/42")).toBe("one [redacted]");
    expect(hide("two k3y\\/42 k3y%2F42")).toBe("two [redacted] [redacted]");
  });
});

describe("quote: redacted, then cut, then JSON-quoted", () => {
  test("cut only past the limit, with an ellipsis", () => {
    expect(quote("abc", undefined, 3)).toBe('"abc"');
    expect(quote("abcd", undefined, 3)).toBe('"abc…"');
    expect(quote("x".repeat(200), undefined)).toBe(`"${"x".repeat(200)}"`);
    expect(quote("x".repeat(201), undefined)).toBe(`"${"x".repeat(200)}…"`);
  });

  test("a line break or a quote cannot change the message's shape", () => {
    expect(quote('a"b\nc', undefined)).toBe('"a\\"b\\nc"');
  });

  test("the key is masked before the cut", () => {
    expect(quote("id=SECRETKEY", "SECRETKEY", 8)).toBe('"id=[reda…"');
  });
});
