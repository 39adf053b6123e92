/**
 * Redaction before any cut, wherever a value is quoted: a key anywhere in a quoted value, of any
 * length, never survives in 8 or more consecutive characters. Run against the code as it was
 * (redaction after the 200-character cut of a quoted `baseUrl`), the `resolveConfig` property
 * fails: `"https://api.example.com/?q=…"` of 223 characters kept 12 characters of the key.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { extractApiMessage } from "../../../provider/client/body";
import { bodyStart } from "../../../provider/client/failures";
import { ConfigError } from "../../../provider/errors";
import { quote } from "../../../provider/errors/redact";
import { resolveConfig } from "../../../provider/settings/config";

/** Keys of upper-case letters, digits and base64 signs; nothing around them shares a character. */
const KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=".split("");
const FILLER_CHARS = "abcdefghijklmnopqrstuvwxyz-._~".split("");
const key = fc.array(fc.constantFrom(...KEY_CHARS), { minLength: 8, maxLength: 64 }).map((cs) => cs.join(""));
/** Text of any length up to 700 (past every cut: 60, 200, 500), made of filler characters. */
const filler = fc
  .tuple(fc.integer({ min: 0, max: 700 }), fc.constantFrom(...FILLER_CHARS), fc.constantFrom(...FILLER_CHARS))
  .map(([length, a, b]) => Array.from({ length }, (_, i) => (i % 7 === 3 ? b : a)).join(""));

/** The first piece of `secret` of 8 characters found in `text`, if any. */
function survivingPiece(text: string, secret: string): string | undefined {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

function configMessage(values: Record<string, string>): string {
  try {
    resolveConfig((k) => values[k], {});
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("no piece of the key survives a quote, whatever its place and length", () => {
  test("quote(): redacted, then cut", () => {
    fc.assert(
      fc.property(key, filler, filler, fc.integer({ min: 1, max: 300 }), (secret, before, after, max) => {
        expect(survivingPiece(quote(`${before}${secret}${after}`, secret, max), secret)).toBeUndefined();
      }),
    );
  });

  test("resolveConfig: a baseUrl with the key in its query, and a timeoutMs holding it", () => {
    fc.assert(
      fc.property(key, filler, filler, (secret, before, after) => {
        const message = configMessage({
          apiKey: secret,
          baseUrl: `https://api.example.com/?${before}api_key=${secret}${after}`,
          timeoutMs: `${before}${secret}${after}`,
        });
        expect(message).toContain("must not contain a query");
        expect(survivingPiece(message, secret)).toBeUndefined();
      }),
    );
  });

  test("the 223-character baseUrl of the report keeps nothing of the key", () => {
    const secret = "H2KLQ7/RW2+TZ9XV4NP8";
    // The key starts at character 188: a cut at 200 after it keeps 12 of its characters.
    const baseUrl = `https://api.example.com/?${"a".repeat(154)}&api_key=${secret}&region=eu-west`;
    expect(baseUrl).toHaveLength(223);
    expect(survivingPiece(configMessage({ apiKey: secret, baseUrl }), secret)).toBeUndefined();
  });

  test("an error body's message (cut at 500) and a body that is not JSON (cut at 60)", () => {
    fc.assert(
      fc.property(key, filler, filler, (secret, before, after) => {
        const body = `${before}${secret}${after}`;
        expect(survivingPiece(extractApiMessage(body, 500, secret), secret)).toBeUndefined();
        expect(
          survivingPiece(extractApiMessage(JSON.stringify({ message: body }), 400, secret), secret),
        ).toBeUndefined();
        expect(survivingPiece(bodyStart(body, secret), secret)).toBeUndefined();
      }),
    );
  });
});
