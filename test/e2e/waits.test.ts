/**
 * A long `up` against a rate-limited API says why it is quiet: each wait for a 429 or 503 is shown
 * by `pulumi up` (info, no --debug needed), with its length and the request it is for.
 */

import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, useSandbox, useStack } from "./harness";
import { API_KEY } from "./records-helpers";

describe("waits told by pulumi up", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });

  const s = useStack(() =>
    createTestStack({
      program: async () => {
        const { DomainRestore } = domainapi();
        new DomainRestore("restore", { domain: "shop.example" });
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    }),
  );

  it("a 429 then a 503 on the restore: two waits, each with its length and request", async () => {
    sandbox.addFault({ method: "POST", nth: 1, respond: { status: 429, retryAfter: "1" } });
    sandbox.addFault({ method: "POST", nth: 2, respond: { status: 503 } });
    const up = await s.up();
    expect(up.summary.result).toBe("succeeded");
    const output = up.stdout + up.stderr;
    expect(output).toMatch(
      /domainapi: POST \/v2\/domains\/shop\.example\/restore was answered 429 Too Many Requests; waiting 1\.\d s before sending it again \(attempt 2\)/,
    );
    expect(output).toMatch(
      /domainapi: POST \/v2\/domains\/shop\.example\/restore was answered 503 Service Unavailable; waiting \d+\.\d s before sending it again \(attempt 3\)/,
    );
    expect(output).not.toContain(API_KEY);
  });
});
