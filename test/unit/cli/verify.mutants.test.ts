/**
 * What `domainapi-verify` (cli/verify.ts) makes of input as others write it, beyond the usual: a
 * `pulumi stack output --json` whose outputs include null (an output the program left undefined),
 * an export with an entry that is no resource, and a domain left empty through the API: each read or
 * refused, named, never a crash; and a published value with a line break, which stays on its
 * finding's line.
 */
import { describe, expect, it } from "vitest";
import {
  declaredTemplates,
  type VerifyReport,
  verifyDomains,
  verifyMarkdown,
  verifyText,
} from "../../../provider/cli/verify";

const web = {
  templateId: "web",
  purge: true,
  records: [{ name: "www", type: "A", content: "192.0.2.1" }],
};
const expected = [{ templateId: "web", purge: true, records: web.records }];

describe("the stack's JSON", () => {
  it("as `pulumi stack output --json` with null outputs, or null in a list output: those are skipped", () => {
    expect(declaredTemplates({ missing: null, list: [null, 3, web], web })).toEqual([
      ...expected,
      ...expected,
    ]);
  });

  it("as `pulumi stack export` with an entry that is no resource: it is skipped", () => {
    const declared = {
      deployment: {
        resources: [null, "x", { type: "domainapi:index:DnsTemplateRecords", outputs: web }],
      },
    };
    expect(declaredTemplates(declared)).toEqual(expected);
  });
});

describe("verifyDomains before it asks DNS", () => {
  it("refuses a domain left empty, saying it is none", async () => {
    await expect(verifyDomains({ declared: { web }, domains: { "": "web" } })).rejects.toThrow(
      /^--domain : not a domain$/,
    );
  });
});

describe("a published value that holds a line break", () => {
  it("stays on its finding's line, as an escape, in the text and in the Markdown", () => {
    const declared = { name: "@", type: "TXT" as const, content: "ok" };
    const published = { ...declared, content: "ok\r\nshop.example: served as declared" };
    const report: VerifyReport = {
      passed: false,
      elapsedMs: 1,
      domains: [
        {
          domain: "shop.example",
          templateId: "web",
          server: "127.0.0.1:5353",
          passed: false,
          verdict: {
            domain: "shop.example",
            served: [],
            missing: [],
            different: [{ declared, published }],
            extra: [],
            unchecked: [],
          },
        },
      ],
    };
    const finding = "different: @ TXT ok is published as @ TXT ok\\r\\nshop.example: served as declared";
    expect(verifyText(report)).toBe(
      `shop.example (template web, server 127.0.0.1:5353): NOT served as declared: 0 records as declared\n  ${finding}\n`,
    );
    expect(verifyMarkdown(report)).toContain(`\`\`\`text\n${finding}\n\`\`\`\n`);
  });
});
