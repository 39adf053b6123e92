/**
 * The API's words end a sentence of the message: a full stop is added unless they already end
 * with punctuation, wherever else a dot may stand in them (a domain name, a version, a question).
 */
import { describe, expect, test } from "vitest";
import { httpError } from "../../../provider/client/failures";

const KEY = "sk_test_SENTENCES_0123456789";

const refusal = (message: string): string =>
  httpError({
    method: "GET",
    path: "/v2/contacts",
    status: 422,
    bodyText: JSON.stringify({ message }),
    attempts: 1,
    replayable: true,
    secret: KEY,
  }).message;

describe("the API's message as the end of a sentence", () => {
  test("a dot or question mark inside the words is not their end: the full stop is still added", () => {
    expect(refusal("no zone shop.example.net on this account")).toBe(
      "GET /v2/contacts returned 422 Unprocessable Entity: no zone shop.example.net on this account.",
    );
    expect(refusal("is v2.1 supported? not here")).toBe(
      "GET /v2/contacts returned 422 Unprocessable Entity: is v2.1 supported? not here.",
    );
  });

  test("words that already end with punctuation get none added", () => {
    for (const end of [".", "!", "?", "…"]) {
      expect(refusal(`no zone shop.example.net${end}`)).toBe(
        `GET /v2/contacts returned 422 Unprocessable Entity: no zone shop.example.net${end}`,
      );
    }
  });
});
