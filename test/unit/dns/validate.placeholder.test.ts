/**
 * A name that spells out the domain with the placeholder (`{domainname}`, which the service
 * replaces in contents, not in names) is refused with the relative name to write: what is left
 * once the placeholder and every final dot are taken away, dots inside it kept.
 */
import { describe, expect, it } from "vitest";
import { validateRecords } from "../../../provider/dns/validate";

const reasonFor = (name: string): string[] =>
  validateRecords([{ name, type: "A", content: "192.0.2.1" }]).issues.map(
    (i) => `${i.property}: ${i.reason}`,
  );

describe("the placeholder in a name", () => {
  it.each([
    ["mail.eu.{domainname}.", "mail.eu"],
    ["a.b.{domainname}", "a.b"],
    ["{domainname}..", "@"],
  ])("%s: write %s", (name, write) => {
    expect(reasonFor(name)).toEqual([
      `records[0].name: "${name}" is not a relative name; names are relative to the domain the template is applied to: write "${write}" instead (use "@" for the apex)`,
    ]);
  });
});
