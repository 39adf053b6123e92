/**
 * The key in an error body is redacted once: a key that happens to be part of the word
 * `[redacted]` shows as one marker where it stood, in a plain-text body and in a JSON one alike,
 * and not again inside the markers.
 */
import { describe, expect, test } from "vitest";
import { extractApiMessage } from "../../../provider/client/body";

// Short keys are a configuration mistake, but they are redacted too (and so may match the marker).
const KEYS = ["redacted", "act", "[red", "cted]"];

describe("a key that is part of the marker", () => {
  test.each(KEYS)("%j in a plain-text body: one marker where it stood", (key) => {
    expect(extractApiMessage(`key ${key} is not valid`, 401, key)).toBe("key [redacted] is not valid");
  });

  test.each(KEYS)("%j in a JSON body's message: one marker where it stood", (key) => {
    expect(extractApiMessage(JSON.stringify({ message: `key ${key} is not valid` }), 401, key)).toBe(
      "key [redacted] is not valid",
    );
  });
});
