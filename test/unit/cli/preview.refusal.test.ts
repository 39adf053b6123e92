/**
 * The refusal of a document that is JSON but not what `pulumi preview --json` prints
 * (cli/preview.ts): one line, for the log of a CI step, that names what does not fit and where,
 * each of zod's lines kept apart by a space.
 */
import { describe, expect, it } from "vitest";
import { PreviewInputError, parsePreview } from "../../../provider/cli/preview";

function refusal(text: string): string {
  try {
    parsePreview(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PreviewInputError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

describe("a JSON document that is no preview", () => {
  it("is refused in one line: what was expected, then where, words kept apart", () => {
    // zod's own message is two lines ("✖ ..." and "  → at steps"); joined by a space, not run together.
    expect(refusal('{"steps": 5}')).toBe(
      "the input is not a `pulumi preview --json` document: ✖ Invalid input: expected array, received number   → at steps",
    );
  });
});
