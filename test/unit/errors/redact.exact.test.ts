/**
 * Redaction masks the key and nothing else: a form one character of the key may take (a space as a
 * form's "+") is no form of the other characters, so text that only looks like the key stays.
 */
import { describe, expect, it } from "vitest";
import { redact } from "../../../provider/errors/redact";

describe("only the key", () => {
  it("a + stands for a space of the key, not for any other character", () => {
    expect(redact("sk+live sk live", "sk-live")).toBe("sk+live sk live");
    expect(redact("a+c", "abc")).toBe("a+c");
    expect(redact("my+key", "my key")).toBe("[redacted]");
  });

  it("text that differs from the key in one character stays", () => {
    expect(redact("sk_live_abd sk_live_ab", "sk_live_abc")).toBe("sk_live_abd sk_live_ab");
    expect(redact("sk\\_live%5Fabd", "sk_live_abc")).toBe("sk\\_live%5Fabd");
  });
});
