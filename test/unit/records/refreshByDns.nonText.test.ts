/**
 * verifyDomain that is no text (a number or a boolean from a YAML program, an object, a list): refused by
 * field as any other value that names no domain is, with the value as the program wrote it, never
 * read as a domain and never a crash.
 */
import { expect, it } from "vitest";
import { readVerifyDomain } from "../../../provider/records/refreshByDns";

it.each([
  [42, "42"],
  [true, "true"],
  [{ domain: "shop.example" }, '{"domain":"shop.example"}'],
  [["shop.example"], '["shop.example"]'],
])("%j is refused, named as written", (written, shown) => {
  expect(readVerifyDomain(written)).toEqual({
    issues: [
      {
        property: "verifyDomain",
        reason: `expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got ${shown}`,
      },
    ],
  });
});
