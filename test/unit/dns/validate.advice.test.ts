/**
 * The name a refusal offers ("write X instead") is one that passes: a name outside ASCII is offered
 * its UTS #46 form label by label (full-width digits are digits, never an IPv4 address the URL host
 * parser reads; a last label that is a number keeps its xn-- form).
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
