/**
 * verifyDomain as a user writes it: a final full stop in any form UTS #46 maps to "." (the
 * ideographic `。`, the full-width `．`, the half-width `｡`) is dropped as an ASCII one is.
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
