/**
 * Bad inputs under the real engine: invalid programs fail `pulumi preview` and `pulumi up` with the
 * property path and the reason in the engine's output, and not one request reaches the API. (The
 * full catalogue of invalid inputs runs against the providers' `check` in test/unit/bad-inputs.)
 */

import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, useSandbox, useStack } from "./harness";
import { API_KEY } from "./records-helpers";

/** Invalid resources of one program, each with the path and reason the engine must print. */
const invalid = [
  {
    name: "mx-without-priority",
    make: () =>
      new (domainapi().DnsTemplateRecords)("mx-without-priority", {
        templateId: "tpl-1",
        records: [
          { name: "@", type: "A", content: "192.0.2.1" },
          { name: "@", type: "MX", content: "mx1.example.net" },
        ],
      }),
    expected: /records\[1\]\.priority.*MX records need a priority from 0 to 65535/,
  },
  {
    name: "cname-at-apex",
    make: () =>
      new (domainapi().DnsTemplateRecords)("cname-at-apex", {
        templateId: "tpl-2",
        records: [{ name: "@", type: "CNAME", content: "target.example.net." }],
      }),
    expected: /records\[0\]\.name.*a CNAME cannot be at the apex/,
  },
  {
    name: "bad-address",
    make: () =>
      new (domainapi().DnsTemplateRecords)("bad-address", {
        templateId: "tpl-3",
        records: [{ name: "www", type: "A", content: "192.0.2.300" }],
      }),
    expected: /records\[0\]\.content.*A records need an IPv4 address/,
  },
  {
    name: "bad-threshold",
    make: () =>
      new (domainapi().DnsTemplateRecords)("bad-threshold", {
        templateId: "tpl-4",
        records: [],
        safetyThreshold: { maxChangePercent: 150 },
      }),
    expected: /safetyThreshold\.maxChangePercent.*percentage from 0 to 100; got 150/,
  },
  {
    name: "bad-domain",
    make: () => new (domainapi().DomainRestore)("bad-domain", { domain: "https://shop.example/" }),
    expected: /domain.*give the bare domain name, without scheme or path/,
  },
];

describe("invalid programs under the engine", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const program = { only: undefined as string | undefined };

  const s = useStack(() =>
    createTestStack({
      program: async () => {
        for (const r of invalid) if (program.only === undefined || program.only === r.name) r.make();
        return {};
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    }),
  );

  it.each(invalid.map((r) => r.name))(
    "a preview of %s fails naming the property, with no request",
    async (name) => {
      program.only = name;
      const output = await s.preview().then(
        () => "",
        (err: unknown) => String(err),
      );
      expect(output).toMatch(invalid.find((r) => r.name === name)?.expected as RegExp);
      expect(sandbox.requests).toEqual([]);
    },
  );

  it("an up of the whole program fails before any request and creates nothing", async () => {
    program.only = undefined;
    const output = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    // The engine stops at the first resource whose check fails; which one comes first is its choice.
    expect(invalid.some((r) => r.expected.test(output))).toBe(true);
    expect(sandbox.requests).toEqual([]);
    const ours = (await s.resources()).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/domainapi:"));
    expect(ours).toEqual([]);
  });
});
