/**
 * Refresh by DNS below the provider's methods: the witness domain as the input reads it, and the
 * read of what it publishes from the first server that answers (docs/behaviour.md), against the
 * sandbox's DNS server and a port where nothing listens.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DnsReadError } from "../../../provider/client/resolver";
import type { RecordSpec } from "../../../provider/dns/model";
import { readPublished, readVerifyDomain, witnessOf } from "../../../provider/records/refreshByDns";
import { parseDnsServer } from "../../../provider/settings/dnsServers";

describe("readVerifyDomain", () => {
  it("takes no witness when none is given", () => {
    for (const raw of [undefined, null, ""]) expect(readVerifyDomain(raw)).toEqual({ issues: [] });
  });

  it("reads a domain in lower case, without its trailing dot, in its xn-- form", () => {
    expect(readVerifyDomain(" Shop.Example. ")).toEqual({ domain: "shop.example", issues: [] });
    expect(readVerifyDomain("bücher.example")).toEqual({ domain: "xn--bcher-kva.example", issues: [] });
    expect(readVerifyDomain("_dmarc.shop.example")).toEqual({ domain: "_dmarc.shop.example", issues: [] });
    expect(readVerifyDomain(`${"a".repeat(63)}.example`).domain).toBe(`${"a".repeat(63)}.example`);
  });

  it("refuses what is no domain, naming the input and quoting what it got", () => {
    expect(readVerifyDomain("localhost")).toEqual({
      issues: [
        {
          property: "verifyDomain",
          reason:
            'expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got "localhost"',
        },
      ],
    });
    for (const raw of ["shop example", "-shop.example", "shop-.example", "shop..example", ".", " ", 42, {}]) {
      expect(readVerifyDomain(raw).issues, JSON.stringify(raw)).toHaveLength(1);
      expect(readVerifyDomain(raw).domain).toBeUndefined();
    }
    expect(readVerifyDomain(`${"a".repeat(64)}.example`).issues).toHaveLength(1);
    expect(readVerifyDomain(`${"a.".repeat(127)}example`).issues).toHaveLength(1);
    expect(readVerifyDomain(42).issues[0]?.reason).toMatch(/; got 42$/);
  });

  it("refuses text that the URL host parser behind the mapping would cut or change, reading no other domain", () => {
    // Node's url.domainToASCII gives "shop.example" (or "xn--bcher-kva.example") for each of these.
    const cut = ["shop.example/x", "shop.example?x", "shop.example#x", "shop.example\\x", "sh%6fp.example"];
    for (const raw of [...cut, "shop.ex\tample", "shop.ex\nample", "shop.ex\rample", "bücher.example#x"]) {
      expect(readVerifyDomain(raw), JSON.stringify(raw)).toEqual({
        issues: [
          {
            property: "verifyDomain",
            reason: `expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got ${JSON.stringify(raw)}`,
          },
        ],
      });
    }
    expect(witnessOf({ verifyDomain: "shop.example?x" })).toBeUndefined();
  });

  it("is read from a resource's stored outputs", () => {
    expect(witnessOf({ verifyDomain: "Shop.Example." })).toBe("shop.example");
    expect(witnessOf({ verifyDomain: "no domain" })).toBeUndefined();
    expect(witnessOf({})).toBeUndefined();
  });
});

describe("readPublished", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: "k", dnsPort: 0, dnsDomains: { "shop.example": "web" } });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => sandbox.reset());

  const served = () => parseDnsServer(sandbox.dnsAddress!).server!;
  const silent = parseDnsServer("127.0.0.1:9").server!;
  const fast = { timeoutMs: 300, tries: 1 };

  /** Twenty records: more questions than are asked at once. */
  const many: RecordSpec[] = Array.from({ length: 20 }, (_, i) => ({
    name: `h${i}`,
    type: "TXT",
    content: `value ${i}`,
  }));

  it("reads every question of a large template, in any order of answers", async () => {
    sandbox.seedTemplate("web", many);
    const { verdict, server } = await readPublished(many, "shop.example", true, [served()], fast);
    expect(server).toBe(sandbox.dnsAddress);
    expect(verdict.served).toHaveLength(many.length);
    expect(verdict.served).toEqual(expect.arrayContaining(many));
    expect(verdict.missing).toEqual([]);
  });

  it("asks the next server when one does not answer, and says which answered", async () => {
    sandbox.seedTemplate("web", many.slice(0, 2));
    const { verdict, server } = await readPublished(
      many.slice(0, 3),
      "shop.example",
      false,
      [silent, served()],
      fast,
    );
    expect(server).toBe(sandbox.dnsAddress);
    expect(verdict.served).toEqual(many.slice(0, 2));
    expect(verdict.missing).toEqual([many[2]]);
  });

  it("fails naming every server and why when none answers", async () => {
    const other = parseDnsServer("127.0.0.1:7").server!;
    const err = await readPublished(many.slice(0, 1), "shop.example", true, [silent, other], fast).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DnsReadError);
    const read = err as DnsReadError;
    expect(read.server).toBe("127.0.0.1:9, 127.0.0.1:7");
    expect(read.message).toMatch(
      /^no DNS server answered for shop\.example: .*127\.0\.0\.1:9.*; .*127\.0\.0\.1:7/,
    );
  });
});
