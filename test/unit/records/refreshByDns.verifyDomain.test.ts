/**
 * verifyDomain as a user writes it: a final full stop in any form UTS #46 maps to "." (the
 * ideographic `。`, the full-width `．`, the half-width `｡`) is dropped as an ASCII one is; a name a
 * registrar refuses though UTS #46 maps it (IDNA2008's hyphen rules, disallowed code points, the
 * Bidi rule across labels) is refused by field, with the fix.
 */
import { describe, expect, it } from "vitest";
import { readVerifyDomain } from "../../../provider/records/refreshByDns";

describe("verifyDomain with a final full stop", () => {
  it.each(["shop.example.", "shop.example。", "shop.example．", "shop.example｡", " Shop.Example。 "])(
    "%j reads as shop.example",
    (written) => {
      expect(readVerifyDomain(written)).toEqual({ domain: "shop.example", issues: [] });
    },
  );

  it("a domain outside ASCII too, in its xn-- form", () => {
    expect(readVerifyDomain("bücher.example。")).toEqual({ domain: "xn--bcher-kva.example", issues: [] });
  });

  it("only one final stop is dropped", () => {
    expect(readVerifyDomain("shop.example。。").issues).toEqual([
      {
        property: "verifyDomain",
        reason:
          'expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got "shop.example。。"',
      },
    ]);
  });
});

describe("verifyDomain that a registrar refuses", () => {
  it.each([
    ["-bücher.example", 'label "-bücher" starts or ends with "-": drop it'],
    [
      "bü--cher.example",
      'label "bü--cher" has "--" as its third and fourth characters, which only xn-- labels may (RFC 5891 4.2.3.1): check its spelling',
    ],
    [
      "😀.example",
      'label "😀" holds "😀" (U+1F600), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    ],
    [
      "ü_x.example",
      'label "ü_x" holds "_" (U+005F), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    ],
    [
      "متجر.1stshop.example",
      'label "1stshop" does not start with a letter, as every label beside a right-to-left one must (the Bidi rule, RFC 5893): check its spelling',
    ],
  ])("%j is refused: %s", (written, why) => {
    expect(readVerifyDomain(written)).toEqual({
      issues: [
        {
          property: "verifyDomain",
          reason: `verifyDomain ${JSON.stringify(written)} is not a name a registrar takes: ${why}`,
        },
      ],
    });
  });

  it("an underscore label in ASCII is a DNS name all the same", () => {
    expect(readVerifyDomain("_dmarc.example")).toEqual({ domain: "_dmarc.example", issues: [] });
  });
});
