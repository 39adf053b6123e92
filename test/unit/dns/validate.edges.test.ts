/**
 * Refusals at the edges the other tests of validate.ts leave: a number written as a string that is
 * no whole number (the quotes are not the only fault, so dropping them is not the advice), a type
 * written with spaces around it, a CNAME written twice (one duplicate, not also a CNAME beside
 * itself), a URL forward beside two CNAMEs (each pair that cannot share the name is named), and a
 * name outside ASCII that the URL host parser behind its mapping would cut (refused by the rules of a
 * name, never offered a form that drops part of it).
 */
import { describe, expect, it } from "vitest";
import { validateRecords } from "../../../provider/dns/validate";

/** The issues of a list, each as `property: reason`. */
function lines(raw: unknown): string[] {
  return validateRecords(raw).issues.map((i) => `${i.property}: ${i.reason}`);
}

const MX = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };

describe("a number written as a string", () => {
  it.each(["1.5", "-1", "10px", "x10"])(
    "%j is no whole number: the range and an example, not 'drop the quotes'",
    (priority) => {
      expect(lines([{ ...MX, priority }])).toEqual([
        `records[0].priority: priority must be an integer from 0 to 65535, e.g. priority: 10; got the string ${JSON.stringify(priority)}`,
      ]);
    },
  );
});

describe("the type, whatever the spaces and case around it", () => {
  it("is read without them", () => {
    expect(
      validateRecords([
        { ...MX, type: " mx " },
        { name: "www", type: "A\t", content: "192.0.2.1" },
      ]),
    ).toEqual({
      records: [
        { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
        { name: "www", type: "A", content: "192.0.2.1" },
      ],
      issues: [],
    });
  });
});

describe("records that cannot share a name", () => {
  const CNAME = { name: "x", type: "CNAME", content: "a.example.net" };
  const DUPLICATE = "records[1]: duplicates records[0] (x CNAME a.example.net); remove one of them";
  const beside = (early: [number, string], late: [number, string], rule: string) =>
    `records[${late[0]}].name: "x" holds both ${early[1]} (records[${early[0]}]) and ${late[1]} (records[${late[0]}]); ${rule}: remove one of them or give it another name`;
  const CNAME_RULE = "a CNAME must be the only record at its name";

  it("a CNAME written twice is one duplicate, not a CNAME beside another", () => {
    expect(lines([CNAME, { ...CNAME, content: "A.Example.NET" }])).toEqual([DUPLICATE]);
  });

  it("a URL forward beside two CNAMEs: every pair named once", () => {
    const forward = { name: "x", type: "URLFWD", content: "https://www.example.net/" };
    expect(lines([CNAME, { ...CNAME, content: "b.example.net" }, forward])).toEqual([
      beside([0, "a CNAME"], [1, "a CNAME"], CNAME_RULE),
      beside([0, "a CNAME"], [2, "a URLFWD"], CNAME_RULE),
      beside(
        [1, "a CNAME"],
        [2, "a URLFWD"],
        "a URLFWD excludes A, AAAA and CNAME records at its name (the service creates A and AAAA records for it)",
      ),
    ]);
  });
});

describe("a name outside ASCII that the URL host parser would cut or change", () => {
  // Node's url.domainToASCII gives "xn--bcher-kva" for each of these: the rest would be lost unsaid.
  it.each(["bücher/x", "bücher?x", "bücher#x", "bücher\\x", "bü%63her"])(
    "%j: the rules of a name, no mapped form",
    (name) => {
      expect(lines([{ name, type: "A", content: "192.0.2.1" }])).toEqual([
        `records[0].name: "${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ` +
          `optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)`,
      ]);
    },
  );
});
