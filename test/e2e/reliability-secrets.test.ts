/**
 * Secrets: the API key appears zero times in `pulumi stack export`, the stored state, the engine's
 * output with `--debug`, every error message (including an API error body that echoes the key, a
 * refused key, a malformed key) and the serialized providers.
 */

import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, useSandbox, useStack } from "./harness";
import { API_KEY } from "./records-helpers";

/** An error body that carries the key, as a careless API might send it. */
const ECHO = JSON.stringify({ error: { message: `the key ${API_KEY} may not do this` } });

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe("the API key never leaks", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const inputs = { content: "192.0.2.10", domain: "shop.example" };
  const seen: string[] = [];

  const s = useStack(() =>
    createTestStack({
      program: async () => {
        const { DnsTemplateRecords, DomainRestore, getContactsOutput } = domainapi();
        const records = new DnsTemplateRecords("records", {
          templateId: "tpl-5",
          records: [
            { name: "@", type: "A", content: inputs.content },
            { name: "www", type: "CNAME", content: "{domainname}." },
          ],
        });
        const restored = new DomainRestore("restore", { domain: inputs.domain });
        const found = getContactsOutput({ country: "NL", limit: 5 });
        return { ids: records.recordIds, restoredAt: restored.restoredAt, total: found.total };
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    }),
  );

  it("is not in the engine's --debug output of an up that retries, nor of a preview", async () => {
    sandbox.addFault({ method: "PUT", nth: 1, respond: { status: 503 } });
    sandbox.addFault({ method: "GET", nth: 1, respond: { status: 429, retryAfter: "1" } });
    const up = await s.up({ debug: true });
    expect(up.summary.result).toBe("succeeded");
    // The debug output holds the transport's per-attempt lines: it is the output we mean to check.
    expect(up.stdout + up.stderr).toMatch(/domainapi: PUT \/v2\/dns\/templates\/tpl-5\/records -> 503/);
    seen.push(up.stdout, up.stderr);
    const preview = await s.preview({ debug: true, diff: true });
    seen.push(preview.stdout, preview.stderr);
    expect(occurrences(up.stdout + up.stderr + preview.stdout + preview.stderr, API_KEY)).toBe(0);
  });

  it("is not in errors whose API body echoes it, from a resource and from getContacts", async () => {
    inputs.content = "192.0.2.11";
    sandbox.addFault({ method: "PATCH", nth: 1, respond: { status: 500, body: ECHO } });
    const fromResource = await s.up({ debug: true }).then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(fromResource).toMatch(/returned 500/);
    expect(fromResource).toContain("[redacted]");
    sandbox.clearFaults();
    sandbox.addFault({ method: "GET", nth: 1, respond: { status: 400, body: ECHO } });
    const fromLookup = await s.up({ debug: true }).then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(fromLookup).toMatch(/GET \/v2\/contacts.*returned 400/);
    expect(fromLookup).toContain("[redacted]");
    sandbox.clearFaults();
    seen.push(fromResource, fromLookup);
    expect(occurrences(fromResource + fromLookup, API_KEY)).toBe(0);
    await s.up();
  });

  it("is not in the error of a refused key or a malformed key", async () => {
    const wrong = "wrong-key-7d1e0b";
    const malformed = "malformed key 5c2a";
    inputs.content = "192.0.2.12";
    await s.stack.setConfig("domainapi:apiKey", { value: wrong, secret: true });
    const refused = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(refused).toMatch(/Authentication failed/);
    expect(refused).toMatch(/domainapi:apiKey/);
    await s.stack.setConfig("domainapi:apiKey", { value: malformed, secret: true });
    const invalid = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(invalid).toMatch(/domainapi:apiKey cannot be sent in an HTTP header: its character 10 is/);
    await s.stack.setConfig("domainapi:apiKey", { value: API_KEY, secret: true });
    seen.push(refused, invalid);
    expect(occurrences(refused, wrong)).toBe(0);
    expect(occurrences(invalid, malformed)).toBe(0);
    expect(occurrences(invalid, "5c2a")).toBe(0);
    await s.up();
  });

  it("is not in the exported or stored state, nor in any serialized provider", async () => {
    const exported = await s.exportText();
    expect(exported).toContain("domainapi:apiKey");
    expect(occurrences(exported, API_KEY)).toBe(0);
    expect(occurrences(s.storedText(), API_KEY)).toBe(0);
    const resources = await s.resources();
    const providers = resources.map((r) => r.inputs?.__provider).filter((p) => typeof p === "string");
    expect(providers.length).toBeGreaterThanOrEqual(2);
    for (const provider of providers) expect(occurrences(String(provider), API_KEY)).toBe(0);
    // Everything the engine printed in every operation of this stack, failures included.
    expect(occurrences(s.transcript(), API_KEY)).toBe(0);
    expect(occurrences(seen.join("\n"), API_KEY)).toBe(0);
  });
});
