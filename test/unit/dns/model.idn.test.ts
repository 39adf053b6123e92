/**
 * Internationalized names (IDNA): the ASCII form DNS writes for a name, mapped label by label as
 * UTS #46 does, never read by the URL host parser as an IPv4 address.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiForm, NUMERIC_END, RECORD_MODEL } from "../../../provider/dns/model";

/** The full-width form of ASCII text (U+FF01..U+FF5E), as East Asian input methods type it. */
const fullWidth = (text: string) =>
  [...text].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("");

describe("asciiForm: the UTS #46 form, label by label", () => {
  it.each([
    ["Bücher.Example", "xn--bcher-kva.example"],
    ["bücher.example.", "xn--bcher-kva.example."],
    ["shop。example", "shop.example"],
    ["Shop.Example", "shop.example"],
    ["１", "1"],
    ["１.２", "1.2"],
    ["０x７f.１", "0x7f.1"],
    ["büro.２０２４", "xn--bro-hoa.2024"],
    ["１０.２.", "10.2."],
    ["", ""],
  ])("%j -> %j", (name, ascii) => {
    expect(asciiForm(name)).toBe(ascii);
  });

  it("a name ending in a number keeps its labels, as written or full-width", () => {
    const numeric = fc.stringMatching(/^(0x)?[0-9a-f]{1,4}(\.(0x)?[0-9a-f]{1,4}){0,3}$/);
    fc.assert(
      fc.property(numeric, (ascii) => {
        expect(asciiForm(ascii)).toBe(ascii);
        expect(asciiForm(fullWidth(ascii))).toBe(ascii);
      }),
    );
  });

  it.each(["bücher/x", "bücher?x", "bücher#x", "bücher\\x", "bü%63her", "bü\tcher", "bü\ncher", "bü\rcher"])(
    "%j: none, for the URL host parser would cut or change it",
    (name) => {
      expect(asciiForm(name)).toBe("");
    },
  );

  it("none for what UTS #46 refuses", () => {
    expect(asciiForm("ü w")).toBe("");
  });
});

describe("a host name outside ASCII as content: the advice names its own labels", () => {
  it("full-width digits are digits, never an IPv4 address", () => {
    expect(RECORD_MODEL.CNAME.contentProblem("１０.２.")).toBe(
      `"１０.２." holds characters outside ASCII; DNS writes this host "10.2." (UTS #46, as Node's url.domainToASCII maps it): write "10.2." instead`,
    );
    expect(RECORD_MODEL.MX.contentProblem("mx.ü.１")).toMatch(/: write "mx\.xn--tda\.1" instead$/);
  });
});

describe("NUMERIC_END: a last label the URL host parser reads as a number", () => {
  it.each(["0x7f.1", "1.2", "010.1", "1.0x7f", "shop.0x7f", "shop.0XFF", "shop.0x", "4294967296"])(
    "%j ends in one",
    (name) => {
      expect(NUMERIC_END.test(name)).toBe(true);
    },
  );

  it.each(["shop.example", "1stshop.example", "shop.co1", "2024.example", "shop.0x7g", "a1"])(
    "%j does not",
    (name) => {
      expect(NUMERIC_END.test(name)).toBe(false);
    },
  );
});
