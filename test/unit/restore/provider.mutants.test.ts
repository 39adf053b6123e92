/**
 * DomainRestore's domain check at its edges: several final dots are one fault, a name of exactly
 * 253 characters is taken, and a name Node's mapping refuses is refused in words.
 */
import { describe, expect, it } from "vitest";
import { domainProblem } from "../../../provider/restore/provider";

describe("DomainRestore: the edges of a domain name", () => {
  it("several final dots are dropped together, and the name without them suggested", () => {
    expect(domainProblem("shop.example..")).toBe('drop the trailing dot: "shop.example"');
    expect(domainProblem("shop.example。.")).toBe('drop the trailing dot: "shop.example"');
  });

  it("a name of 253 characters is taken; one of 254 is refused", () => {
    const label = "a".repeat(63);
    const at253 = [label, label, label, "b".repeat(61)].join(".");
    expect(at253).toHaveLength(253);
    expect(domainProblem(at253)).toBeUndefined();
    expect(domainProblem(`${at253}c`)).toBe("a domain name has at most 253 characters (in its xn-- form)");
  });

  it("a name the mapping refuses (a label it would split, then start with a hyphen) says so, whole", () => {
    expect(domainProblem("a\u2488-b.example")).toBe(
      '"a\u2488-b.example" is not a domain name: it holds characters that no domain name can ' +
        "(Node's url.domainToASCII refuses it); use letters, digits and inner hyphens, " +
        'or an internationalized name such as "bücher.example"',
    );
  });
});
