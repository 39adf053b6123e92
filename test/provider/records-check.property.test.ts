/**
 * Inputs nobody thought of, thrown at the DnsTemplateRecords provider's `check()`: arbitrary
 * records, names, contents, numbers and template ids. check never throws, every failure names a
 * property path, and no request is ever sent; every template id it accepts reaches the API as one
 * percent-encoded path segment.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as records from "../../provider/records/provider";
import { failurePath, PROVIDER, useConfiguredSandbox } from "./helpers";

type Props = Record<string, unknown>;
const sandbox = useConfiguredSandbox(records);

const name = fc.oneof(
  fc.constantFrom("@", "www", "*", "*.dev", "_sip._tcp", "xn--bcher-kva", "WWW", "www.", " www", "a..b", ""),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
);
const content = fc.oneof(
  fc.constantFrom(
    "192.0.2.1",
    "2001:DB8::1",
    "mx1.example.net",
    "NS1.EXAMPLE.NET.",
    "{domainname}.",
    "x{domainname}y",
    "https://www.example.net/",
    '0 issue "letsencrypt.org"',
    "3 1 1 ab12",
    "v=spf1 -all",
    "",
    "\u0000\u001b[31m",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 3990, maxLength: 4000 }),
);
const number = fc.oneof(
  fc.integer({ min: -5, max: 70_000 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 1.5, 2 ** 53, -0),
  fc.constantFrom("10", "x", null, true),
);
const type = fc.oneof(
  fc.constantFrom("A", "AAAA", "CNAME", "MX", "SRV", "TXT", "NS", "CAA", "TLSA", "URLFWD", "mx", "SPF"),
  fc.string({ maxLength: 5 }),
);
const record = fc.record(
  { name, type, content, priority: number, weight: number, port: number, extra: fc.string() },
  { requiredKeys: [] },
);
const templateId = fc.oneof(
  fc.constantFrom("tpl-1", "a/b", "a?b", "..", ".", "a b", "bücher", "%2F", "a#b", "", " ", "x\\y"),
  fc.string({ maxLength: 16 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const recordsValue = fc.oneof(
  fc.array(fc.oneof(record, fc.anything({ maxDepth: 1 })), { maxLength: 8 }),
  fc.anything({ maxDepth: 2 }),
);

describe("check() over arbitrary inputs", () => {
  it("never throws, names a property path for every failure, and sends nothing", async () => {
    await fc.assert(
      fc.asyncProperty(templateId, recordsValue, fc.anything({ maxDepth: 1 }), async (id, recs, purge) => {
        const result = await records.check(
          {},
          { __provider: PROVIDER, templateId: id, records: recs, purge },
        );
        for (const failure of result.failures ?? []) {
          expect(failurePath(failure)).toMatch(
            /^(templateId|records|purge|safetyThreshold)(\[\d+\]|\.[A-Za-z_$][\w$]*|\[".*"\])*$/,
          );
          expect(failure.reason.length).toBeGreaterThan(0);
        }
        expect(sandbox.requests).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("sends every accepted template id as one percent-encoded path segment", async () => {
    await fc.assert(
      fc.asyncProperty(templateId, async (id) => {
        const result = await records.check({}, { __provider: PROVIDER, templateId: id, records: [] });
        if ((result.failures ?? []).length > 0) return;
        sandbox.clearRequests();
        // The template does not exist in the sandbox: the PUT is refused, which is all we need.
        await records.create({ ...(result.inputs as Props), __provider: PROVIDER }).catch(() => undefined);
        const [request] = sandbox.requests;
        expect(request?.path).toBe(`/v2/dns/templates/${encodeURIComponent(id)}/records`);
        expect(request?.path.split("/")).toHaveLength(6);
      }),
      { numRuns: 150 },
    );
  });
});
