/**
 * A `secretRecords` mark that names no record of the keyed records (a name every object inherits,
 * such as `__proto__` or `toString`, or an index where records are keyed): it marks nothing
 * secret, so nothing else is masked, and it does not fail the operation.
 */
import { expect, it } from "vitest";
import { maskText, NO_SECRETS, secretsOf } from "../../../provider/records/masking";

function keyed(): Record<string, unknown> {
  return {
    www: { name: "www", type: "A", content: "192.0.2.10" },
    "_k/TXT": { name: "_k", type: "TXT", content: "s3cret-token" },
  };
}

it.each([["__proto__"], ["__proto__:content"], ["constructor"], ["toString:name"], ["hasOwnProperty"]])(
  "the mark %j marks nothing secret",
  (mark) => {
    const secrets = secretsOf({ records: keyed(), secretRecords: [mark] });
    expect(secrets).toEqual(NO_SECRETS);
    expect(maskText("www A 192.0.2.10; _k TXT s3cret-token", secrets)).toBe(
      "www A 192.0.2.10; _k TXT s3cret-token",
    );
  },
);

it("a key names its record beside such marks", () => {
  const secrets = secretsOf({ records: keyed(), secretRecords: ["__proto__", "_k/TXT:content"] });
  expect(maskText("www A 192.0.2.10; _k TXT s3cret-token", secrets)).toBe(
    "www A 192.0.2.10; _k TXT [secret]",
  );
});
