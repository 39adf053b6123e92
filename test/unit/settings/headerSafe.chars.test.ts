/**
 * Which keys an `Authorization` header can carry (RFC 9110 5.5: visible ASCII, space and tab
 * inside a value, Latin-1 as obsolete text; Node refuses the rest), and what the refusal says: the
 * first offending character by position and code point, how many more and where, never the key.
 */
import { describe, expect, it } from "vitest";
import { apiKeyHeaderProblem } from "../../../provider/settings/headerSafe";

const TAIL =
  ". A key holds no whitespace or control characters and none beyond Latin-1; such characters usually come with a copy and paste, so copy the key again without them";

describe("each kind of character, at its edges", () => {
  it.each([
    ["\n", "a line break", "U+000A"],
    ["\r", "a line break", "U+000D"],
    ["\u0000", "a control character", "U+0000"],
    ["\t", "a control character", "U+0009"],
    ["\u001f", "a control character", "U+001F"],
    ["\u007f", "a control character", "U+007F"],
    ["\u0085", "a control character", "U+0085"],
    ["\u009f", "a control character", "U+009F"],
    [" ", "whitespace", "U+0020"],
    ["\u00a0", "whitespace", "U+00A0"],
    ["\u2003", "whitespace", "U+2003"],
    ["\u200b", "an invisible formatting character (zero-width or direction mark)", "U+200B"],
    ["\u200f", "an invisible formatting character (zero-width or direction mark)", "U+200F"],
    ["\ufeff", "an invisible formatting character (zero-width or direction mark)", "U+FEFF"],
    ["\u0100", "a character beyond Latin-1, which no HTTP header can carry", "U+0100"],
    ["Ж", "a character beyond Latin-1, which no HTTP header can carry", "U+0416"],
    ["😀", "a character beyond Latin-1, which no HTTP header can carry", "U+1F600"],
  ])("%j is %s", (char, kind, code) => {
    expect(apiKeyHeaderProblem(`sk-${char}-1`)).toBe(
      `domainapi:apiKey cannot be sent in an HTTP header: its character 4 is ${kind} (${code})${TAIL}`,
    );
  });

  it("visible ASCII and Latin-1 letters pass, up to U+00FF", () => {
    const visible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join("");
    expect(apiKeyHeaderProblem(visible)).toBeUndefined();
    expect(apiKeyHeaderProblem("\u00a1éÿ\u00bf")).toBeUndefined();
    expect(apiKeyHeaderProblem("")).toBeUndefined();
  });
});

describe("positions and counts", () => {
  it("positions count characters, a character beyond U+FFFF as one", () => {
    expect(apiKeyHeaderProblem("😀😀ab\n", "apiKey")).toBe(
      `apiKey cannot be sent in an HTTP header: its character 1 is a character beyond Latin-1, which no HTTP header can carry (U+1F600); 2 more such character(s), at position(s) 2, 5${TAIL}`,
    );
  });

  it("names at most five more positions, then says there are others", () => {
    const six = "a\u200b".repeat(6);
    expect(apiKeyHeaderProblem(six)).toContain(
      "; 5 more such character(s), at position(s) 4, 6, 8, 10, 12. A key",
    );
    const eight = "a\u200b".repeat(8);
    expect(apiKeyHeaderProblem(eight)).toContain(
      "; 7 more such character(s), at position(s) 4, 6, 8, 10, 12, …. A key",
    );
  });

  it("never shows the key or a piece of it", () => {
    const key = "sk_live_9f8e7d6c5b4a\u200b";
    const problem = apiKeyHeaderProblem(key, "provider apiKey")!;
    expect(problem.startsWith("provider apiKey cannot be sent")).toBe(true);
    expect(problem).not.toContain("sk_live");
    expect(problem).not.toContain("9f8e");
  });
});
