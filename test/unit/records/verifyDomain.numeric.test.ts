/**
 * A name whose last label is a number is read by the URL host parser as an IPv4 address
 * ("0x7f.1" -> "127.0.0.1"); no top-level label is all digits (RFC 3696, section 2). Both entries that
 * take a domain refuse such a name by field, and never turn it into another name.
 */
import { describe, expect, it } from "vitest";
import { readVerifyDomain } from "../../../provider/records/refreshByDns";
import { asciiDomain, domainProblem, imported } from "../../../provider/restore/provider";

// Written as the user types them, with what the URL host parser would have made of each.
const NUMERIC: Array<[string, string]> = [
  ["0x7f.1", "127.0.0.1"],
  ["1.2", "1.0.0.2"],
  ["010.1", "8.0.0.1"],
  ["1.2.3.4", "1.2.3.4"],
  ["１.２", "1.0.0.2"],
  ["０x７f.１", "127.0.0.1"],
  ["１２７.０.０.１", "127.0.0.1"],
  ["1.0x7f", "1.0.0.127"],
  ["10.0.0.10", "10.0.0.10"],
];

// Ending in a number the parser cannot read as an address (another label is no number): still no domain.
const UNREADABLE = ["shop.0x7f", "shop.0XFF", "shop.0x", "shop.42", "4294967296"];

// A last label with digits in it, not all digits, is fine.
const VALID: Array<[string, string]> = [
  ["bücher.example", "xn--bcher-kva.example"],
  ["shop.example", "shop.example"],
  ["1stshop.example", "1stshop.example"],
  ["2024.example", "2024.example"],
  ["shop.co1", "shop.co1"],
];

describe("verifyDomain ending in a number", () => {
  it.each(NUMERIC)("refuses %j by name instead of reading %s", (written) => {
    const read = readVerifyDomain(written);
    expect(read.domain).toBeUndefined();
    expect(read.issues).toEqual([
      {
        property: "verifyDomain",
        reason: `a domain's last label is never a number (${JSON.stringify(written)} would be read as an IP address); write the domain that uses this template, e.g. "shop.example"`,
      },
    ]);
  });

  it.each(UNREADABLE)("refuses %j as a number too", (written) => {
    expect(readVerifyDomain(written).issues[0]?.reason).toMatch(
      new RegExp(`^a domain's last label is never a number \\(${JSON.stringify(written)} would`),
    );
  });

  it("refuses it with a trailing dot too", () => {
    expect(readVerifyDomain("0x7f.1.").issues[0]?.reason).toMatch(/last label is never a number/);
  });

  it.each(VALID)("still maps %j to %j", (written, sent) => {
    expect(readVerifyDomain(written)).toEqual({ domain: sent, issues: [] });
  });
});

describe("DomainRestore domain ending in a number", () => {
  it.each(NUMERIC)("refuses %j, naming the IP address %s it would be read as", (written, address) => {
    expect(domainProblem(written)).toBe(
      `"${written}" is not a domain name: its last label is a number, and a domain's last label never is ` +
        `(Node's url.domainToASCII would read it as the IP address ${address}); ` +
        'write the domain to restore, e.g. domain: "shop.example"',
    );
    // No form to send: the caller cannot send another domain than the one written.
    expect(asciiDomain(written)).toBe("");
  });

  it.each(UNREADABLE)("refuses %j as a number too, naming no address", (written) => {
    expect(domainProblem(written)).toBe(
      `"${written}" is not a domain name: its last label is a number, and a domain's last label never is; ` +
        'write the domain to restore, e.g. domain: "shop.example"',
    );
    expect(asciiDomain(written)).toBe("");
  });

  it("refuses it with a trailing dot, naming the name without it", () => {
    expect(domainProblem("1.2.")).toMatch(
      /^drop the trailing dot, and "1\.2" is not a domain name: its last label is a number/,
    );
  });

  it.each(NUMERIC)("imports %j as written (capitals kept), for check to refuse", (written) => {
    const id = written.toUpperCase();
    const state = imported(id);
    expect(state).toEqual({ props: { domain: id }, inputs: { domain: id } });
    expect(domainProblem(state.inputs.domain)).toMatch(/its last label is a number/);
  });

  it.each(VALID)("still maps %j to %j", (written, sent) => {
    expect(domainProblem(written)).toBeUndefined();
    expect(asciiDomain(written)).toBe(sent);
    expect(imported(written)).toEqual({ props: { domain: sent }, inputs: { domain: sent } });
  });
});
