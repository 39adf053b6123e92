/**
 * CAA records whose tag collides with a field of Node's answer (RFC 8659 lets a tag be any
 * letters and digits): a tag `type` is read as it stands; a tag `critical`, whose flags Node's
 * resolver overwrites with its value, is a failure that says so, never a record read wrong.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { DnsReadError, readRRset } from "../../../provider/client/resolver";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: "k", dnsPort: 0, dnsDomains: { "shop.example": "web" } });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => sandbox.reset());

/** The sandbox's DNS server as the reads take it (an IPv4 `host:port`). */
function served(): Parameters<typeof readRRset>[0] {
  const address = sandbox.dnsAddress!;
  const [host, port] = address.split(":");
  return { host: host!, port: Number(port), address };
}
const fast = { timeoutMs: 300, tries: 1 };

test("a tag `critical`: the read fails, naming the server, the question, the tag and its value", async () => {
  sandbox.seedTemplate("web", [
    { name: "@", type: "CAA", content: '128 critical "ca.example"' },
    { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  ]);
  const err = await readRRset(served(), "shop.example", "CAA", fast).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DnsReadError);
  expect((err as DnsReadError).server).toBe(sandbox.dnsAddress);
  expect((err as Error).message).toBe(
    `DNS server ${sandbox.dnsAddress} asked for shop.example CAA: failed (Error: a CAA record with the tag "critical" cannot be read: Node's resolver puts its value ("ca.example") where its flags belong)`,
  );
});

test("the other tags beside a tag `type` are read with their flags", async () => {
  sandbox.seedTemplate("web", [
    { name: "@", type: "CAA", content: '128 type "ca.example"' },
    { name: "@", type: "CAA", content: '0 issuewild ";"' },
  ]);
  const set = await readRRset(served(), "shop.example", "CAA", fast);
  expect(set.values).toEqual([
    { type: "CAA", flags: 128, tag: "type", value: "ca.example" },
    { type: "CAA", flags: 0, tag: "issuewild", value: ";" },
  ]);
});
