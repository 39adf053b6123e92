/**
 * Internationalized names (IDNA): the ASCII form DNS writes for a name, mapped label by label as
 * UTS #46 does, never read by the URL host parser as an IPv4 address; and what IDNA2008 refuses
 * that the mapping takes all the same (RFC 5891 hyphens, RFC 5892 code points, the Bidi rule of
 * RFC 5893 across labels): the reasons a user reads, for DomainRestore and verifyDomain alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiForm, idnaProblem, NUMERIC_END, RECORD_MODEL } from "../../../provider/dns/model";

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

const problemOf = (domain: string) => idnaProblem(asciiForm(domain));

describe("idnaProblem: what IDNA2008 refuses and UTS #46 maps all the same", () => {
  it.each([
    "bücher.example",
    "例え.jp",
    "пример.рф",
    "مثال.إختبار",
    "דוגמה.טעסט",
    "hawaiʻi.example",
    "हिंदी.भारत",
    "bü-cher.example",
    "ü1.example",
    "1ü.example",
    "col·legi.cat",
    "a͵b.example",
    "א׳ב.example",
    "א״ב.example",
    "ا۽ب.example",
    "ا۾ب.example",
    "བོད་ཡིག.cn",
    "نامه\u200cای.ir",
    "क्\u200dष.example",
    "a〇b.example",
    "a・b.example",
    "1stshop.example",
    "_dmarc.example",
    "xn--bcher-kva.example",
  ])("%j is taken", (domain) => {
    expect(problemOf(domain)).toBeUndefined();
  });

  it("a U-label starting or ending with a hyphen (RFC 5891 4.2.3.1)", () => {
    expect(problemOf("-bücher.example")).toBe('label "-bücher" starts or ends with "-": drop it');
    expect(problemOf("shop.bücher-.example")).toBe('label "bücher-" starts or ends with "-": drop it');
  });

  it('a U-label with "--" as its third and fourth characters', () => {
    expect(problemOf("bü--cher.example")).toBe(
      'label "bü--cher" has "--" as its third and fourth characters, which only xn-- labels may (RFC 5891 4.2.3.1): check its spelling',
    );
  });

  it("a code point RFC 5892 disallows, named with its number", () => {
    expect(problemOf("x.😀.example")).toBe(
      'label "😀" holds "😀" (U+1F600), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    );
    expect(problemOf("ü_x.example")).toBe(
      'label "ü_x" holds "_" (U+005F), which IDNA2008 leaves out of domain names (RFC 5892): use letters, digits and inner hyphens',
    );
    expect(problemOf("a★b.example")).toMatch(/^label "a★b" holds "★" \(U\+2605\)/);
  });

  it.each([
    ["ـا", "ـ"],
    ["ߒߺߞ", "ߺ"],
    ["aᄀb", "ᄀ"],
    ["a\u20d0b", "\u20d0"],
    ["a〮b", "〮"],
    ["a〯b", "〯"],
    ["a〱b", "〱"],
    ["a〻b", "〻"],
    ["aꥠb", "ꥠ"],
    ["aힰb", "ힰ"],
  ])("%j: a letter or mark RFC 5892 disallows all the same (%j)", (label, bad) => {
    expect(problemOf(`${label}.example`)).toMatch(new RegExp(`^label "${label}" holds "${bad}" \\(U\\+`));
  });

  it("an xn-- label that decodes to no valid label", () => {
    const reason = (label: string) =>
      `label "${label}" is the xn-- form of no valid label (RFC 5891 5.4): check its spelling`;
    expect(idnaProblem("xn--a.example")).toBe(reason("xn--a"));
    // "متجرa": right-to-left and left-to-right letters in one label.
    expect(idnaProblem("shop.xn--a-4mcgu1h.example")).toBe(reason("xn--a-4mcgu1h"));
  });

  it.each(["شبكة", "דוגמה", "ܣܘܪܝܝܐ", "ދިވެހި", "ߒߞߏ"])(
    "beside the right-to-left label %j, every label starts with a letter (the Bidi rule)",
    (rtl) => {
      expect(problemOf(`${rtl}.1stshop.example`)).toBe(
        'label "1stshop" does not start with a letter, as every label beside a right-to-left one must (the Bidi rule, RFC 5893): check its spelling',
      );
      expect(problemOf(`${rtl}.stshop.example`)).toBeUndefined();
    },
  );

  it("a label of digits beside a right-to-left one is named as written", () => {
    expect(problemOf("شبكة.123.example")).toMatch(/^label "123" does not start with a letter/);
  });
});
