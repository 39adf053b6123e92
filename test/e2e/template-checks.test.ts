/**
 * The template checks and the one-owner rule under the real engine: a template with two SPF
 * records fails its preview with the record's path, the rule and the fix, and two resources that
 * would fight over one template fail the preview naming both; neither sends a request. Two
 * `purge: false` resources sharing a template with distinct records are fine.
 */

import type * as Pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, requireFromWork, typeToken, useSandbox, useStack } from "./harness";
import { API_KEY, type DesiredRecord, sortRecords } from "./records-helpers";

type Resource = {
  name: string;
  templateId: string;
  purge?: boolean;
  records: DesiredRecord[];
  /** Give the template id as a secret Output, as a program that reads it from config does. */
  secretTemplateId?: boolean;
};

describe("template checks and template owners under the engine", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const program = { resources: [] as Resource[] };

  const s = useStack(() =>
    createTestStack({
      program: async () => {
        const { DnsTemplateRecords } = domainapi();
        const pulumi = requireFromWork<typeof Pulumi>("@pulumi/pulumi");
        for (const r of program.resources) {
          new DnsTemplateRecords(r.name, {
            templateId: r.secretTemplateId ? pulumi.secret(r.templateId) : r.templateId,
            records: r.records as never,
            ...(r.purge === undefined ? {} : { purge: r.purge }),
          });
        }
        return {};
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    }),
  );

  const failedPreview = () =>
    s.preview().then(
      () => "",
      (err: unknown) => String(err),
    );

  it("a template with two SPF records at one name fails its preview with the path, rule and fix, sending nothing", async () => {
    sandbox.seedTemplate("mail", []);
    program.resources = [
      {
        name: "mail",
        templateId: "mail",
        records: [
          { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
          { name: "@", type: "TXT", content: "v=spf1 mx -all" },
          { name: "@", type: "TXT", content: "v=spf1 include:_spf.mailhost.example -all" },
        ],
      },
    ];
    const output = await failedPreview();
    expect(output).toMatch(
      /records\[2\]\.content: \[spf-single-record, RFC 7208 §3\.2\] a second v=spf1 record at "@" \(the first is records\[1\]\)/,
    );
    expect(output).toMatch(/fix: merge the two into one record and remove records\[2\]/);
    expect(sandbox.requests).toEqual([]);
  });

  it("two resources on one template (one id a secret Output), both with purge, fail the preview naming both, sending nothing", async () => {
    sandbox.seedTemplate("shared", []);
    program.resources = [
      {
        name: "site",
        templateId: "shared",
        records: [
          { name: "@", type: "A", content: "192.0.2.10" },
          { name: "www", type: "CNAME", content: "{domainname}." },
        ],
      },
      {
        name: "site-copy",
        templateId: "shared",
        secretTemplateId: true,
        records: [{ name: "mail", type: "A", content: "192.0.2.20" }],
      },
    ];
    const output = await failedPreview();
    // Which of the two is refused depends on which claims first; the refusal names both.
    expect(output).toMatch(
      /DnsTemplateRecords "(site|site-copy)" and "(site|site-copy)" both manage template "shared", and both have purge: true/,
    );
    expect(output).toContain('"site"');
    expect(output).toContain('"site-copy"');
    expect(output).toMatch(/set purge: false on both/);
    expect(sandbox.requests).toEqual([]);
  });

  it("two purge: false resources that both declare one record fail the preview naming it, sending nothing", async () => {
    program.resources = [
      {
        name: "a",
        templateId: "shared",
        purge: false,
        records: [{ name: "www", type: "A", content: "192.0.2.1" }],
      },
      {
        name: "b",
        templateId: "shared",
        purge: false,
        records: [{ name: "WWW", type: "a", content: "192.0.2.1" }],
      },
    ];
    const output = await failedPreview();
    expect(output).toMatch(
      /share template "shared" \(purge: false\) and both declare the record www A 192\.0\.2\.1/,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it("two purge: false resources sharing a template with distinct records pass, and up makes both", async () => {
    sandbox.seedTemplate("shared", [{ name: "legacy", type: "A", content: "192.0.2.99" }]);
    const site = [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "www", type: "CNAME", content: "{domainname}." },
    ];
    const mail = [{ name: "mail", type: "A", content: "192.0.2.20" }];
    program.resources = [
      { name: "site", templateId: "shared", purge: false, records: site },
      { name: "mail", templateId: "shared", purge: false, records: mail },
    ];
    await s.preview();
    await s.up();
    const held = sandbox.templateRecords("shared") ?? [];
    expect(sortRecords(held as DesiredRecord[])).toEqual(
      sortRecords([...site, ...mail, { name: "legacy", type: "A", content: "192.0.2.99" }]),
    );
    expect(await s.resources(typeToken("DnsTemplateRecords"))).toHaveLength(2);
    // A second run in the same process (the Automation API host) starts from no claims.
    const again = await s.preview();
    expect(again.changeSummary?.same).toBe(3);
  });
});
