/**
 * The error `domainapi-plan` exits 2 with: a `DomainApiBaseError` of code `DOMAINAPI_PREVIEW_INPUT`,
 * recognised by its brand across copies of the package (a program and a tool can each load their own).
 */
import { describe, expect, it } from "vitest";
import { PreviewInputError } from "../../../provider/cli/errors";
import { DomainApiBaseError } from "../../../provider/errors";

describe("PreviewInputError", () => {
  it("carries its message and code", () => {
    const err = new PreviewInputError("the input is not a preview");
    expect(err.message).toBe("the input is not a preview");
    expect(err.code).toBe("DOMAINAPI_PREVIEW_INPUT");
    expect(err).toBeInstanceOf(DomainApiBaseError);
  });

  it("is recognised by its brand: an error of another copy of the package is one, another error is not", () => {
    const fromOtherCopy = Object.defineProperty(
      new Error("x"),
      Symbol.for("pulumi-domainapi.PreviewInputError"),
      {
        value: true,
      },
    );
    expect(fromOtherCopy).toBeInstanceOf(PreviewInputError);
    expect(new Error("x")).not.toBeInstanceOf(PreviewInputError);
    const otherBrand = Object.defineProperty(new Error("x"), Symbol.for("pulumi-domainapi.ConfigError"), {
      value: true,
    });
    expect(otherBrand).not.toBeInstanceOf(PreviewInputError);
  });
});
