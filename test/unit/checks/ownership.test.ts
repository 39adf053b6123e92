/**
 * One template, one owner: the rule itself (TemplateClaims), and the records' check() as the plugin's
 * Check calls it, which claims each DnsTemplateRecords by its URN.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeConflict, TemplateClaims } from "../../../provider/checks/ownership";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";
import { configureFrom } from "../../../provider/host/session";
import { TOKENS } from "../../../provider/manifest";
import { RESOURCES } from "../../../provider/operations";

const claim = (resource: string, templateId: string, purge: boolean, account = "") => ({
  resource,
  account,
  templateId,
  purge,
});

describe("TemplateClaims", () => {
  it("refuses a second resource on a template when either has purge, naming both", () => {
    const claims = new TemplateClaims();
    expect(claims.claim(claim("site", "shared", true))).toBeUndefined();
    expect(claims.claim(claim("site-copy", "shared", false))).toBe(
      'DnsTemplateRecords "site" and "site-copy" both manage template "shared", and "site" has purge: true (a resource with purge owns the whole template: its create replaces every record with one PUT, which would erase the other\'s records, and the state of one would then list records that do not exist). Give each resource its own template, merge their records into one resource, or set purge: false on both (then each adds and removes only its own records).',
    );
    const both = new TemplateClaims();
    both.claim(claim("a", "t", true));
    expect(both.claim(claim("b", "t", true))).toMatch(
      /^DnsTemplateRecords "a" and "b" both manage template "t", and both have purge: true/,
    );
  });

  it("lets purge: false resources share a template with distinct records, and refuses a record both declare", () => {
    const claims = new TemplateClaims();
    expect(claims.claim(claim("a", "t", false))).toBeUndefined();
    expect(claims.declareRecords("a", [{ name: "www", type: "A", content: "192.0.2.1" }])).toBeUndefined();
    // Records may be known before the claim (an Output resolved first): checked when the claim comes.
    expect(claims.declareRecords("b", [{ name: "www", type: "A", content: "192.0.2.1" }])).toBeUndefined();
    expect(claims.claim(claim("b", "t", false))).toBe(
      'DnsTemplateRecords "a" and "b" share template "t" (purge: false) and both declare the record www A 192.0.2.1: each would add it, so the template would hold it twice, and removing it from one would delete the other\'s. Declare it in one of them only.',
    );
    expect(claims.declareRecords("b", [{ name: "mail", type: "A", content: "192.0.2.2" }])).toBeUndefined();
  });

  it("keeps resources on other templates or other accounts apart, and a resource claiming again is no conflict", () => {
    const claims = new TemplateClaims();
    expect(claims.claim(claim("a", "t", true))).toBeUndefined();
    expect(claims.claim(claim("b", "u", true))).toBeUndefined();
    expect(claims.claim(claim("c", "t", true, "https://other.example"))).toBeUndefined();
    expect(claims.claim(claim("a", "t", true))).toBeUndefined();
  });
});

describe("a refusal across providers", () => {
  it("names both resources, their providers and the account", () => {
    const refusal = purgeConflict(
      { resource: "b", account: "https://api.example.com", templateId: "t", purge: false, provider: '"two"' },
      { resource: "a", account: "https://api.example.com", templateId: "t", purge: true, provider: '"one"' },
    );
    expect(refusal).toMatch(
      /^DnsTemplateRecords "a" \(provider "one"\) and "b" \(provider "two"\) both manage template "t" of https:\/\/api\.example\.com, and "a" has purge: true/,
    );
    expect(
      purgeConflict(
        { resource: "b", account: "x", templateId: "t", purge: false },
        { resource: "a", account: "x", templateId: "t", purge: false },
      ),
    ).toBeUndefined();
  });
});

describe("the plugin's Check", () => {
  // The claims this process shares with other plugin processes go to a directory of this test.
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-owners-"));
  beforeAll(() => {
    process.env[STATE_DIR_ENV] = state;
    configureFrom({ apiKey: "owners-test-key", baseUrl: "http://127.0.0.1:9" }, "provider");
  });
  afterAll(() => {
    delete process.env[STATE_DIR_ENV];
    fs.rmSync(state, { recursive: true, force: true });
  });
  // The records' check as the plugin's gRPC Check calls it: with the resource's URN.
  const records = RESOURCES[TOKENS.records];
  const plugin = {
    check: (urn: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
      records.check(olds, news, urn),
  };
  const urn = (name: string) => `urn:pulumi:dev::proj::${TOKENS.records}::${name}`;

  it("refuses the second resource on a template with a failure on templateId naming both", async () => {
    const first = await plugin.check(urn("web"), {}, { templateId: "plugin-shared", records: [] });
    expect(first.failures ?? []).toEqual([]);
    const again = await plugin.check(urn("web"), {}, { templateId: "plugin-shared", records: [] });
    expect(again.failures ?? []).toEqual([]);
    const second = await plugin.check(urn("web-copy"), {}, { templateId: "plugin-shared", records: [] });
    expect(second.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(
          /^DnsTemplateRecords "web" and "web-copy" both manage template "plugin-shared", and both have purge: true/,
        ),
      },
    ]);
  });

  it("lets purge: false resources share a template, and refuses a record both declare", async () => {
    const www = { name: "www", type: "A", content: "192.0.2.1" };
    const a = await plugin.check(urn("a"), {}, { templateId: "plugin-t", purge: false, records: [www] });
    expect(a.failures ?? []).toEqual([]);
    const b = await plugin.check(
      urn("b"),
      {},
      {
        templateId: "plugin-t",
        purge: false,
        records: [{ name: "mail", type: "A", content: "192.0.2.2" }],
      },
    );
    expect(b.failures ?? []).toEqual([]);
    const c = await plugin.check(urn("c"), {}, { templateId: "plugin-t", purge: false, records: [www] });
    expect(c.failures?.[0]?.reason).toMatch(
      /^DnsTemplateRecords "a" and "c" share template "plugin-t" \(purge: false\) and both declare the record www A 192\.0\.2\.1/,
    );
  });
});
