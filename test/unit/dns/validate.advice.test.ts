/**
 * The name a refusal offers ("write X instead") is one that passes: a name outside ASCII is offered
 * its UTS #46 form label by label (full-width digits are digits, never an IPv4 address the URL host
 * parser reads; a last label that is a number keeps its xn-- form), and a name whose relative part
 * would be refused in turn is told why instead of being offered it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateRecords } from "../../../provider/dns/validate";

const reasonsFor = (name: string, type = "A") =>
  validateRecords([
    {
      name,
      type,
      content: type === "SRV" ? "sip.example.net" : "192.0.2.1",
      ...(type === "SRV" ? { priority: 1, weight: 1, port: 5060 } : {}),
    },
  ]).issues.map((i) => i.reason);
const MAPPED = (name: string, ascii: string) =>
  `"${name}" holds characters outside ASCII; DNS writes it "${ascii}" (UTS #46, as Node's url.domainToASCII maps it): write "${ascii}" instead`;
const NOT_RELATIVE = (name: string) =>
  `"${name}" is not a relative name; names are relative to the domain the template is applied to`;
const INVALID = (name: string) =>
  `"${name}" is not a valid name: use "@" or dot-separated labels of letters, digits, "-" and "_", ` +
  `optionally starting with a "*" label, e.g. "www", "_dmarc" or "*.dev" (internationalized names in their xn-- form)`;
const SRV_FORM = (name: string) =>
  `SRV record names have the form _service._proto[.sub], e.g. "_sip._tcp" or "_ldap._tcp.corp"; got "${name}"`;

/** The full-width form of ASCII text (U+FF01..U+FF5E), as East Asian input methods type it. */
const fullWidth = (text: string) =>
  [...text].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("");

describe("a name outside ASCII: its UTS #46 form, label by label", () => {
  it.each([
    ["１", "1"],
    ["１.２", "1.2"],
    ["０x７f.１", "0x7f.1"],
    ["büro.2024", "xn--bro-hoa.2024"],
    ["ü.1", "xn--tda.1"],
  ])("%j: write %j", (name, ascii) => {
    expect(reasonsFor(name)).toEqual([MAPPED(name, ascii)]);
  });

  it("full-width digits and dots are offered as the ASCII name they spell, which passes", () => {
    const name = fc.stringMatching(/^[0-9]{1,3}(\.[0-9]{1,3}){0,3}$/);
    fc.assert(
      fc.property(name, (ascii) => {
        expect(reasonsFor(fullWidth(ascii))).toEqual([MAPPED(fullWidth(ascii), ascii)]);
        expect(reasonsFor(ascii)).toEqual([]);
      }),
    );
  });
});

describe("no advice that is refused in turn", () => {
  it.each([
    ["bü?x.{domainname}", "bü?x"],
    ["bü%41.{domainname}.", "bü%41"],
    ["a b.{domainname}", "a b"],
  ])("%j: the placeholder, and why %j would be refused too", (name, relative) => {
    expect(reasonsFor(name)).toEqual([`${NOT_RELATIVE(name)}, and ${INVALID(relative)}`]);
  });

  it.each([
    ["ü#x.", "ü#x"],
    ["bücher/x.", "bücher/x"],
    ["bü\tcher.", "bü\tcher"],
    ["a?x.", "a?x"],
  ])("%j: a final dot, and why %j would be refused too", (name, relative) => {
    expect(reasonsFor(name)).toEqual([`${NOT_RELATIVE(name)}, and ${INVALID(relative)}`]);
  });

  it("an SRV name is offered only a name of the SRV form", () => {
    expect(reasonsFor("www.{domainname}", "SRV")).toEqual([
      `${NOT_RELATIVE("www.{domainname}")}, and ${SRV_FORM("www")}`,
    ]);
    expect(reasonsFor("www.example.com.", "SRV")).toEqual([
      `${NOT_RELATIVE("www.example.com.")}, and ${SRV_FORM("www")}`,
    ]);
    expect(reasonsFor("_sip._tcp.{domainname}", "SRV")).toEqual([
      `${NOT_RELATIVE("_sip._tcp.{domainname}")}: write "_sip._tcp" instead (use "@" for the apex)`,
    ]);
    expect(reasonsFor("_sip._tcp.example.com.", "SRV")[0]).toContain(
      'if the template is applied to example.com, write "_sip._tcp" instead',
    );
  });

  it("whatever a refusal offers passes", () => {
    const names = [
      "bü?x.{domainname}",
      "bü%41.{domainname}.",
      "ü#x.",
      "bücher/x.",
      "bü\tcher.",
      "１.２",
      "büro.2024",
      "www.",
      "a.b.example.com.",
      "bücher.{domainname}",
    ];
    for (const name of names) {
      const offered = /write "([^"]*)" instead/.exec(reasonsFor(name)[0] ?? "")?.[1];
      if (offered !== undefined) expect(reasonsFor(offered)).toEqual([]);
    }
  });
});
