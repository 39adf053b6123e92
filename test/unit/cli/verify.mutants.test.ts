/**
 * What `domainapi-verify` (cli/verify.ts) makes of input as others write it, beyond the usual: a
 * `pulumi stack output --json` whose outputs include null (an output the program left undefined),
 * an export with an entry that is no resource, a domain left empty through the API, and a server
 * given as an object that is no address: each read or refused, named, never a crash.
 */
import { describe, expect, it } from "vitest";
import { declaredTemplates, verifyDomains } from "../../../provider/cli/verify";

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
