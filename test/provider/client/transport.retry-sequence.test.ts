/**
 * Mixed answers against `maxRetries` (docs/design.md, "Retries"): a 429 is the API pacing us and
 * does not count against `maxRetries`; a 503 does. With `maxRetries: 2`, the answers 429, 429,
 * 503, 200 succeed in four attempts; 429, 429, 503, 503, 503 end at the fifth (the third 503 is
 * one resend too many). A test that sends only 429s never tells whether they are counted.
 */
import { describe, expect, test } from "vitest";
import { apiFailure, requestsOf, useHarness } from "./helpers";

const h = useHarness({ maxRetries: 2 });

const RECORDS_PATH = "^/v2/dns/templates/[^/]+/records$";

/** Answers the next matching requests with these statuses, in order (Retry-After 0: no wait but the floor). */
function answerInTurn(method: string, path: string, statuses: number[]): void {
  statuses.forEach((status, i) => {
    h.sandbox.addFault({ method, path, nth: i + 1, respond: { status, retryAfter: "0" } });
  });
}

describe("with maxRetries: 2", () => {
  test("a GET answered 429, 429, 503, then 200 succeeds", async () => {
    answerInTurn("GET", "^/v2/contacts$", [429, 429, 503]);
    const page = await h.client.listContacts(new URLSearchParams({ per_page: "3" }));
    expect(page.data).toHaveLength(3);
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([429, 429, 503, 200]);
  });

  test("a PATCH with an add answered 429, 429, 503, then 200 succeeds: refusals, nothing was applied", async () => {
    answerInTurn("PATCH", RECORDS_PATH, [429, 429, 503]);
    const ids = await h.client.patchRecords("web", {
      add: [{ name: "www", type: "A", content: "192.0.2.7" }],
    });
    expect(ids).toHaveLength(1);
    expect(h.sandbox.templateRecords("web")).toHaveLength(1);
    expect(requestsOf(h.sandbox, "PATCH").map((r) => r.status)).toEqual([429, 429, 503, 200]);
  });

  test("429, 429, 503, 503, 200 still succeeds: two counted resends", async () => {
    answerInTurn("GET", "^/v2/contacts$", [429, 429, 503, 503]);
    await h.client.listContacts(new URLSearchParams({ per_page: "1" }));
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([429, 429, 503, 503, 200]);
  });

  test("429, 429, 503, 503, 503 fails at the fifth attempt, saying maxRetries ended it", async () => {
    answerInTurn("GET", "^/v2/contacts$", [429, 429, 503, 503, 503]);
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams({ per_page: "1" })));
    expect(err.status).toBe(503);
    expect(err.message).toContain("after 5 attempts");
    expect(err.message).toContain("resent 2 time(s), as many as domainapi:maxRetries allows");
    expect(requestsOf(h.sandbox, "GET").map((r) => r.status)).toEqual([429, 429, 503, 503, 503]);
  });
});
