/**
 * The API's message is redacted twice (docs/design.md, "Errors"): in the raw body, and again after
 * JSON parsing has undone its escapes. A key with a character beyond the Basic Multilingual Plane
 * echoed as a JSON surrogate-pair escape (`\ud83d\udd11`) is found only by the second pass.
 */
import { describe, expect, it } from "vitest";
import { extractApiMessage } from "../../../provider/client/body";
import { httpError } from "../../../provider/client/failures";

const KEY = "sk_live_\u{1f511}_Q7x9";
/** The key as a JSON encoder that escapes everything beyond ASCII writes it. */
const ESCAPED = "sk_live_\\ud83d\\udd11_Q7x9";

describe("an API message echoing the key with a surrogate-pair escape", () => {
  it("is redacted in the message taken from the body", () => {
    const body = `{"error":{"code":"unauthorized","message":"invalid key ${ESCAPED} for this account"}}`;
    const message = extractApiMessage(body, 401, KEY);
    expect(message).toBe("invalid key [redacted] for this account");
  });

  it("is redacted in the error the user reads, whatever field carries it", () => {
    for (const body of [
      `{"message":"key ${ESCAPED} refused"}`,
      `{"errors":[{"message":"key ${ESCAPED} refused"}]}`,
      `{"detail":"key ${ESCAPED} refused"}`,
    ]) {
      const err = httpError({
        method: "GET",
        path: "/v2/contacts",
        status: 403,
        bodyText: body,
        attempts: 1,
        replayable: true,
        secret: KEY,
      });
      for (const text of [err.message, JSON.stringify(err), String(err)]) {
        expect(text).toContain("key [redacted] refused");
        expect(text).not.toContain(KEY);
        expect(text).not.toContain("\u{1f511}");
        expect(text).not.toMatch(/ud83d/i);
      }
    }
  });
});
