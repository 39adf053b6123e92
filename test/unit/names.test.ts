/**
 * Names as users write them, and the advice they get: full host names in a record's name (which the
 * API takes relative to the domain the template is applied to), names outside ASCII (mapped as Node's
 * `url.domainToASCII` maps them, UTS #46), and a TTL, which the API does not have. Every suggestion
 * given is checked to pass when written as suggested.
 */
import { domainToASCII } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { validateRecords } from "../../provider/dns/validate";
import { configureFrom } from "../../provider/host/session";
import { check as checkRecords } from "../../provider/records/provider";
import { asciiDomain, check as checkRestore, domainProblem } from "../../provider/restore/provider";

// check() fails on malformed settings first, as `up` would: give it well-formed ones (it sends nothing).
beforeAll(() => configureFrom({ apiKey: "names-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

type Record = { name: string; type: string; content: string; priority?: number };

/** The one issue of one record, or a failure of the test. */
function issueOf(record: Record): { property: string; reason: string } {
  const { issues } = validateRecords([record]);
  expect(issues).toHaveLength(1);
  return issues[0] as { property: string; reason: string };
}

/** The quoted value after `write`, which the advice asks the user to write instead. */
function suggestion(reason: string): string {
  const match = /write "([^"]*)" instead/.exec(reason);
  if (!match) throw new Error(`no suggestion in: ${reason}`);
  return match[1] as string;
}

describe("a full host name as a record's name", () => {
  it("gets the relative name to write, not the same name without its dot (that would be www.example.com.<domain>)", () => {
    const { property, reason } = issueOf({ name: "www.example.com.", type: "A", content: "192.0.2.1" });
    expect(property).toBe("records[0].name");
    expect(suggestion(reason)).toBe("www");
    expect(reason).toContain("if the template is applied to example.com");
    expect(reason).toContain("cannot name a host outside the domain it is applied to");
    expect(reason).toContain('"www.example.com" without the final dot would name www.example.com.<domain>');
    expect(validateRecords([{ name: "www", type: "A", content: "192.0.2.1" }]).issues).toEqual([]);
  });

  it.each([
    ["example.com.", "@"],
    ["*.dev.example.com.", "*.dev"],
    ["_sip._tcp.example.com.", "_sip._tcp"],
    ["www.", "www"],
    ["mail.{domainname}", "mail"],
    ["mail.{domainname}.", "mail"],
    ["{domainname}.", "@"],
  ])("%s: write %s", (name, relative) => {
    const type = name.startsWith("_sip") ? "SRV" : "A";
    const numbers = type === "SRV" ? { priority: 0, weight: 5, port: 5060 } : {};
    const content = type === "SRV" ? "sip.example.net" : "192.0.2.1";
    const { issues } = validateRecords([{ name, type, content, ...numbers }]);
    expect(issues.map((i) => i.property)).toEqual(["records[0].name"]);
    const written = suggestion(issues[0]?.reason ?? "");
    expect(written).toBe(relative);
    expect(validateRecords([{ name: written, type, content, ...numbers }]).issues).toEqual([]);
  });
});

describe("names outside ASCII, as UTS #46 (Node's url.domainToASCII) maps them", () => {
  it.each([
    ["shop。example", "shop.example"], // ideographic full stop, as CJK input methods type it
    ["shop．example", "shop.example"], // fullwidth full stop
    ["bücher", "xn--bcher-kva"],
    ["ＷＷＷ", "www"], // fullwidth letters
    ["faße", "xn--fae-6ka"],
  ])("record name %s: refused, suggesting %s, which passes", (name, ascii) => {
    expect(domainToASCII(name.toLowerCase())).toBe(ascii);
    const { issues } = validateRecords([{ name, type: "A", content: "192.0.2.1" }]);
    expect(issues.map((i) => i.property)).toEqual(["records[0].name"]);
    expect(suggestion(issues[0]?.reason ?? "")).toBe(ascii);
    expect(validateRecords([{ name: ascii, type: "A", content: "192.0.2.1" }]).issues).toEqual([]);
  });

  it("a mapped name that is still wrong says both things: www。example。com。 is a full host name", () => {
    const { reason } = issueOf({ name: "www。example。com。", type: "A", content: "192.0.2.1" });
    expect(reason).toContain('DNS writes it "www.example.com."');
    expect(suggestion(reason)).toBe("www");
  });

  it("a name no mapping can save is refused without a suggestion", () => {
    const { reason } = issueOf({ name: "a\u00a0b", type: "A", content: "192.0.2.1" });
    expect(domainToASCII("a\u00a0b")).toBe("");
    expect(reason).toMatch(/not a valid name.*refuses it/);
  });

  it.each([
    ["CNAME", "münchen.example.", "xn--mnchen-3ya.example."],
    ["MX", "mx。example。net", "mx.example.net"],
    ["CNAME", "bücher.{domainname}.", "xn--bcher-kva.{domainname}."],
  ])("%s host %s: refused, suggesting %s, which passes", (type, content, ascii) => {
    const numbers = type === "MX" ? { priority: 10 } : {};
    const { issues } = validateRecords([{ name: "www", type, content, ...numbers }]);
    expect(issues.map((i) => i.property)).toEqual(["records[0].content"]);
    expect(suggestion(issues[0]?.reason ?? "")).toBe(ascii);
    expect(validateRecords([{ name: "www", type, content: ascii, ...numbers }]).issues).toEqual([]);
  });
});

describe("DomainRestore's domain, mapped as UTS #46 maps it", () => {
  it.each([
    ["shop。example", "shop.example"],
    ["shop｡example", "shop.example"],
    ["Bücher.Example", "xn--bcher-kva.example"],
    ["SHOP.example", "shop.example"],
  ])("%s is restored as %s", async (domain, ascii) => {
    expect(asciiDomain(domain)).toBe(domainToASCII(domain));
    const { inputs, failures } = await checkRestore({}, { domain });
    expect(failures ?? []).toEqual([]);
    expect(inputs.domain).toBe(ascii);
  });

  it.each([
    ["shop。example。", 'drop the trailing dot: "shop。example"'],
    ["shop.example..", 'drop the trailing dot: "shop.example"'],
    ["shop", 'has no top-level domain; give the full name, e.g. "shop.example"'],
    ["shop_1.example", 'label "shop_1" is not valid'],
    ["a\u00a0b.example", "refuses it"],
  ])("%s is refused: %s", async (domain, advice) => {
    const { failures } = await checkRestore({}, { domain });
    expect(failures?.map((f) => f.property)).toEqual(["domain"]);
    expect(failures?.[0]?.reason).toContain(advice);
  });

  it("every suggested domain passes", () => {
    for (const domain of ["shop。example。", "shop.example..", "shop", "Shop.Example."]) {
      const reason = domainProblem(domain) ?? "";
      const suggested = /"([^"]+)"\s*$/.exec(reason)?.[1];
      expect(suggested, reason).toBeDefined();
      expect(domainProblem(suggested), `${domain} -> ${suggested}`).toBeUndefined();
    }
  });
});

describe("a TTL, which the API does not have", () => {
  it("on a record: refused, saying that the API has no TTL and to remove it", () => {
    const { property, reason } = issueOf({
      name: "www",
      type: "A",
      content: "192.0.2.1",
      ttl: 300,
    } as Record);
    expect(property).toBe("records[0].ttl");
    expect(reason).toMatch(/not part of the API.*no request can set a TTL; remove it/);
  });

  it("on the resource: check() refuses it, naming the fix", async () => {
    const { failures } = await checkRecords({}, { templateId: "tpl-1", records: [], ttl: 3600 });
    expect(failures).toEqual([
      { property: "ttl", reason: expect.stringMatching(/DnsTemplateRecords has no TTL.*remove it/) },
    ]);
  });
});
