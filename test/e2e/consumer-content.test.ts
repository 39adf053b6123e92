/**
 * Record content as the API receives it, for the cases the README's "Using it in a program" names:
 * TXT quoting, TXT values longer than 255 characters (DKIM keys), trailing dots, internationalized
 * names. Under the real engine (check, create) against the sandbox, which stores what it is sent.
 */

import { afterAll, describe, expect, it } from "vitest";
import { failurePath } from "../provider/helpers";
import { domainapi, type TestStack, useSandbox } from "./harness";
import { API_KEY, type DesiredRecord, programFor, recordsStack } from "./records-helpers";

/** A 2048-bit DKIM public key is about 400 characters of base64: past one 255-byte TXT string. */
const DKIM = `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(9)}IDAQAB`;

const declared: DesiredRecord[] = [
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  { name: "quoted", type: "TXT", content: '"v=spf1 mx -all"' },
  { name: "sel._domainkey", type: "TXT", content: DKIM },
  { name: "absolute", type: "CNAME", content: "target.example.net." },
  { name: "relative", type: "CNAME", content: "target" },
  { name: "xn--bcher-kva", type: "CNAME", content: "xn--mnchen-3ya.example." },
];

/**
 * The provider's check() as the engine calls it, from the built package, configured as the engine
 * would (well-formed settings: check() fails on malformed ones first, as `up` would). Each failure
 * is given by the path it is about (a path into the records leads the reason).
 */
async function check(records: DesiredRecord[]) {
  const { check, configure } = domainapi().dnsTemplateRecordsProvider;
  if (!check || !configure) throw new Error("the provider has no check() or configure()");
  const settings: Record<string, string> = {
    "domainapi:apiKey": API_KEY,
    "domainapi:baseUrl": "http://127.0.0.1:9",
  };
  await configure({
    config: { get: (k: string) => settings[k], require: (k: string) => settings[k] as string },
  } as never);
  const result = await check({}, { templateId: "tpl-1", records });
  return {
    ...result,
    failures: result.failures?.map((f: { property: string; reason: string }) => ({
      property: failurePath(f),
      reason: f.reason,
    })),
  };
}

describe("record content as sent", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  let s: TestStack | undefined;
  afterAll(async () => {
    await s?.cleanup();
  });

  it("sends TXT text, trailing dots and xn-- names exactly as declared: no quotes added or removed, no splitting", async () => {
    expect(DKIM.length).toBeGreaterThan(255);
    s = await recordsStack(
      sandbox,
      programFor("tpl-1", () => declared),
    );
    await s.up();
    const put = sandbox.requests.find((r) => r.method === "PUT");
    expect(put?.body).toEqual({ records: expect.arrayContaining(declared) });
    const stored = (sandbox.templateRecords("tpl-1") ?? []).map(({ name, type, content }) => ({
      name,
      type,
      content,
    }));
    expect(stored).toEqual(expect.arrayContaining(declared));
    expect(stored).toHaveLength(declared.length);
  });

  it("refuses internationalized names and hosts in Unicode; their xn-- form is the one accepted", async () => {
    const unicodeName = await check([{ name: "bücher", type: "A", content: "192.0.2.1" }]);
    expect(unicodeName.failures?.map((f) => f.property)).toEqual(["records[0].name"]);
    const unicodeHost = await check([{ name: "www", type: "CNAME", content: "münchen.example." }]);
    expect(unicodeHost.failures?.map((f) => f.property)).toEqual(["records[0].content"]);
    const ascii = await check([
      { name: "xn--bcher-kva", type: "A", content: "192.0.2.1" },
      { name: "www", type: "CNAME", content: "xn--mnchen-3ya.example." },
    ]);
    expect(ascii.failures ?? []).toEqual([]);
  });

  it("refuses a name with a trailing dot or the domain in it, and says which relative name to write", async () => {
    const { failures } = await check([
      { name: "www.", type: "A", content: "192.0.2.1" },
      { name: "mail.{domainname}", type: "A", content: "192.0.2.2" },
    ]);
    expect(failures?.map((f) => f.property)).toEqual(["records[0].name", "records[1].name"]);
    expect(failures?.[0]?.reason).toContain('write "www" instead');
    expect(failures?.[1]?.reason).toContain('write "mail" instead');
  });
});
