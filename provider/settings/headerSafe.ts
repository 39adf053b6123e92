/**
 * Whether the API key can travel in the Authorization header at all. A key with a zero-width
 * space pasted with it, a character beyond Latin-1 or a line break is refused by the HTTP stack
 * only when the first request is sent, where it reads as a lost connection that "is safe to
 * repeat", which it never is. The settings check calls this instead, so a preview fails with the
 * fix, naming where the character is and never showing the key.
 */

/** The kinds of character no key may hold, in the words of the message. */
function kindOf(char: string, code: number): string | undefined {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
    return code === 0x0a || code === 0x0d ? "a line break" : "a control character";
  }
  if (/\p{Cf}/u.test(char)) return "an invisible formatting character (zero-width or direction mark)";
  if (/\s/u.test(char)) return "whitespace";
  if (code > 0xff) return "a character beyond Latin-1, which no HTTP header can carry";
  return undefined;
}

/** `U+200B` for a code point. */
function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The reason a key cannot be sent as `Authorization: Bearer <key>`, or undefined when it can.
 * `name` is the setting as the user set it (`domainapi:apiKey`, or an explicit provider's input).
 * Names the first offending character by its position (from 1, in characters) and code point, and
 * how many more there are; never quotes the key or any part of it that could be sent.
 *
 * @example
 * apiKeyHeaderProblem("sk_live_abc\u200b");
 * // "domainapi:apiKey cannot be sent in an HTTP header: its character 12 is an invisible formatting character … (U+200B). …"
 * apiKeyHeaderProblem("sk_live_abc"); // undefined
 */
export function apiKeyHeaderProblem(key: string, name = "domainapi:apiKey"): string | undefined {
  const bad: { position: number; code: number; kind: string }[] = [];
  let position = 0;
  for (const char of key) {
    position += 1;
    const code = char.codePointAt(0) ?? 0;
    const kind = kindOf(char, code);
    if (kind !== undefined) bad.push({ position, code, kind });
  }
  const first = bad[0];
  if (first === undefined) return undefined;
  const more =
    bad.length > 1
      ? `; ${bad.length - 1} more such character(s), at position(s) ${bad
          .slice(1, 6)
          .map((b) => b.position)
          .join(", ")}${bad.length > 6 ? ", …" : ""}`
      : "";
  return (
    `${name} cannot be sent in an HTTP header: its character ${first.position} is ${first.kind} ` +
    `(${codePointName(first.code)})${more}. A key holds no whitespace or control characters and none beyond ` +
    "Latin-1; such characters usually come with a copy and paste, so copy the key again without them"
  );
}
