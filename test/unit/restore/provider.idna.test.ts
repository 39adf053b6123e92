/**
 * DomainRestore's domain: a name UTS #46 maps but a registrar refuses under IDNA2008 (a U-label's
 * hyphens, RFC 5891 4.2.3.1; a code point RFC 5892 disallows; a label not starting with a letter
 * beside a right-to-left one, RFC 5893) is refused by field, with the fix, before any request.
 */
import { describe, expect, it } from "vitest";
import { asciiForm } from "../../../provider/dns/model";
import { asciiDomain, domainProblem } from "../../../provider/restore/provider";

const refused = (domain: string, why: string) => `domain "${domain}" is not a name a registrar takes: ${why}`;

describe("DomainRestore: U-labels IDNA2008 forbids", () => {
  it.each([
    ["-bücher.example", 'label "-bücher" starts or ends with "-": drop it'],
    ["bücher-.example", 'label "bücher-" starts or ends with "-": drop it'],
    [
      "bü--cher.example",
      'label "bü--cher" has "--" as its third and fourth characters, which only xn-- labels may (RFC 5891 4.2.3.1): check its spelling',
    ],
    [
      "😀.example",
      'label "😀" holds "😀" (U+1F600), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    ],
    [
      "xn--e28h.example",
      'label "😀" holds "😀" (U+1F600), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    ],
    [
      "متجر.1stshop.example",
      'label "1stshop" does not start with a letter, as every label beside a right-to-left one must (the Bidi rule, RFC 5893): check its spelling',
    ],
  ])("%j is refused: %s", (domain, why) => {
    expect(domainProblem(domain)).toBe(refused(domain, why));
  });

  it.each(["bücher.example", "متجر.example", "col·legi.cat", "1stshop.example"])("%j is taken", (domain) => {
    expect(domainProblem(domain)).toBeUndefined();
  });
});

describe("a capital sharp s (ẞ, U+1E9E)", () => {
  // UTS #46 15.1 maps it to ß, as Node 24 does; Node 22.19 gives "ss": one program, two domains.
  it("names the domain of ß on every supported Node", () => {
    expect(asciiDomain("STRAẞE.de")).toBe("xn--strae-oqa.de");
    expect(asciiDomain("STRAẞE.de")).toBe(asciiDomain("straße.de"));
    expect(asciiForm("www.STRAẞE.de.")).toBe("www.xn--strae-oqa.de.");
  });
});
