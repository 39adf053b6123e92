/**
 * Inputs nobody thought of, thrown at the DnsTemplateRecords provider's `check()`: arbitrary
 * records, names, contents, numbers and template ids. check never throws, every failure names a
 * property path, and no request is ever sent; every template id it accepts reaches the API as one
 * percent-encoded path segment, and every id a path segment can carry is accepted (judged by the
 * request the sandbox received and the template it changed, not by the provider's own encoding).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { failurePath, PROVIDER, useConfiguredSandbox } from "../helpers";

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
/**
 * Ids check() must accept: any non-empty run of the characters RFC 3986 allows in a path segment
 * unencoded (unreserved, sub-delims, ":" and "@") and of letters outside ASCII, except the dot
 * segments "." and "..". The spec says nothing of the id's form, so refusing one of these would
 * refuse a template the API may have.
 */
const validTemplateId = fc
  .oneof(
    fc.constantFrom("12345", "tpl-1", "web_prod", "a.b", "...", "v1~2", "bücher", "模板", "a:b@c", "x+y=z"),
    fc.string({
      unit: fc.oneof(
        fc.constantFrom(..."ABCXYZabcxyz0189-._~!$&'()*+,;=:@"),
        fc.constantFrom("ü", "é", "ß", "ø", "日", "本", "Ж", "ש", "🙂"),
      ),
      minLength: 1,
      maxLength: 24,
    }),
  )
  .filter((id) => id !== "." && id !== "..");
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

  it("accepts every id a path segment can carry, and that id is the template the API changes", async () => {
    await fc.assert(
      fc.asyncProperty(validTemplateId, async (id) => {
        sandbox.reset();
        const result = await records.check(
          {},
          {
            __provider: PROVIDER,
            templateId: id,
            records: [{ name: "www", type: "A", content: "192.0.2.7" }],
          },
        );
        expect(result.failures ?? []).toEqual([]);
        expect((result.inputs as Props).templateId).toBe(id);
        sandbox.seedTemplate(id, []);
        await records.create({ ...(result.inputs as Props), __provider: PROVIDER });
        // Judged by what the API received: one request, whose path has the id as one segment
        // that decodes to it, and the sandbox's template of that id now holds the record.
        expect(sandbox.requests).toHaveLength(1);
        const segments = (sandbox.requests[0]?.path ?? "").split("/");
        expect(segments).toHaveLength(6);
        expect(segments.slice(0, 4)).toEqual(["", "v2", "dns", "templates"]);
        expect(segments[5]).toBe("records");
        expect(decodeURIComponent(segments[4] ?? "")).toBe(id);
        expect(sandbox.templateRecords(id)?.map((r) => `${r.name} ${r.type} ${r.content}`)).toEqual([
          "www A 192.0.2.7",
        ]);
      }),
      { numRuns: 150 },
    );
  });
});
