/**
 * One template, one owner: which pairs of resources meet, and which of the two a
 * refusal names as the owner with purge.
 */
import { describe, expect, it } from "vitest";
import { purgeConflict, TemplateClaims } from "../../../provider/checks/ownership";
import type { RecordSpec } from "../../../provider/dns/model";

const claim = (resource: string, templateId: string, purge: boolean, account = "") => ({
  resource,
  account,
  templateId,
  purge,
});
const www: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };

describe("which of two resources a purge refusal names", () => {
  it("the resource that claims second, when it is the one with purge", () => {
    const claims = new TemplateClaims();
    expect(claims.claim(claim("plain", "t", false))).toBeUndefined();
    expect(claims.claim(claim("owner", "t", true))).toMatch(
      /^DnsTemplateRecords "plain" and "owner" both manage template "t", and "owner" has purge: true \(/,
    );
  });

  it("names the account only when the claims have one", () => {
    expect(purgeConflict(claim("b", "t", true), claim("a", "t", false))).toMatch(
      /^DnsTemplateRecords "a" and "b" both manage template "t", and "b" has purge: true/,
    );
    expect(
      purgeConflict(
        claim("b", "t", true, "https://api.example.com"),
        claim("a", "t", true, "https://api.example.com"),
      ),
    ).toMatch(
      /^DnsTemplateRecords "a" and "b" both manage template "t" of https:\/\/api\.example\.com, and both have purge: true/,
    );
  });
});

describe("which resources' records meet (purge: false)", () => {
  it("the same record on two templates, or on two accounts, is no conflict", () => {
    const claims = new TemplateClaims();
    claims.claim(claim("a", "t", false));
    claims.declareRecords("a", [www]);
    claims.claim(claim("b", "u", false));
    expect(claims.declareRecords("b", [www])).toBeUndefined();
    claims.claim(claim("c", "t", false, "https://other.example"));
    expect(claims.declareRecords("c", [www])).toBeUndefined();
  });

  it("a resource whose records are not known yet conflicts with nothing, until they are", () => {
    const claims = new TemplateClaims();
    expect(claims.claim(claim("a", "t", false))).toBeUndefined();
    expect(claims.claim(claim("b", "t", false))).toBeUndefined();
    expect(claims.declareRecords("b", [www])).toBeUndefined();
    expect(claims.declareRecords("a", [www])).toBe(
      'DnsTemplateRecords "b" and "a" share template "t" (purge: false) and both declare the record www A 192.0.2.1: each would add it, so the template would hold it twice, and removing it from one would delete the other\'s. Declare it in one of them only.',
    );
  });

  it("records declared before the claim are checked at the claim; a resource never conflicts with itself", () => {
    const claims = new TemplateClaims();
    expect(claims.declareRecords("a", [www, www])).toBeUndefined();
    expect(claims.claim(claim("a", "t", false))).toBeUndefined();
    expect(claims.declareRecords("a", [www])).toBeUndefined();
  });
});
