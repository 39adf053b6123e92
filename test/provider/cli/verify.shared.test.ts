/**
 * `domainapi-verify` over a template that several resources share (cli/verify.ts): their records
 * are verified together, extras count only when every one of them owns the template (`purge`), a
 * server may be given already parsed, and a domain that passed is not asked again while another
 * is waited for; without a wait, each domain is asked once; and what is no answer of the domain
 * (a server that is no address, a report that cannot be written) is not reported as one.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runVerifyCommand, verifyDomains } from "../../../provider/cli/verify";
import { parseDnsServer } from "../../../provider/settings/dnsServers";

const KEY = "verify-shared-key";
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

interface WireRecord {
  name: string;
  type: string;
  content: string;
}

const apex = { name: "@", type: "A", content: "192.0.2.10" };
const hello = { name: "www", type: "TXT", content: "hello" };

/** A stack export of resources that each declare `records` in template `web`. */
function stackOf(...resources: { records: WireRecord[]; purge: boolean }[]) {
  return {
    deployment: {
      resources: resources.map(({ records, purge }) => ({
        type: TYPE,
        outputs: { templateId: "web", purge, records },
      })),
    },
  };
}

let sandbox: Sandbox;

async function put(templateId: string, records: readonly WireRecord[]): Promise<void> {
  const response = await fetch(`${sandbox.url}/v2/dns/templates/${templateId}/records`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ records }),
  });
  if (!response.ok) throw new Error(`PUT ${templateId}: ${response.status}`);
}

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: KEY,
    dnsPort: 0,
    dnsDomains: { "shop.example": "web", "late.example": "late" },
  });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

describe("a template several resources share", () => {
  it("is verified with the records of all of them", async () => {
    await put("web", [apex, hello]);
    const report = await verifyDomains({
      declared: stackOf({ records: [apex], purge: false }, { records: [hello], purge: false }),
      domains: { "shop.example": "web" },
      servers: [sandbox.dnsAddress!],
    });
    expect(report.passed).toBe(true);
    expect(report.domains[0]?.verdict?.served).toHaveLength(2);
  });

  it("counts extras only when every resource of it owns the whole template", async () => {
    const stray = { ...apex, content: "192.0.2.66" };
    await put("web", [apex, stray, hello]);
    const servers = [parseDnsServer(sandbox.dnsAddress!).server!];
    const owned = await verifyDomains({
      declared: stackOf({ records: [apex], purge: true }, { records: [hello], purge: true }),
      domains: { "shop.example": "web" },
      servers,
    });
    expect(owned.passed).toBe(false);
    expect(owned.domains[0]?.verdict?.extra).toEqual([{ name: "@", type: "A", content: "192.0.2.66" }]);
    for (const purges of [
      [true, false],
      [false, true],
    ]) {
      const shared = await verifyDomains({
        declared: stackOf({ records: [apex], purge: purges[0]! }, { records: [hello], purge: purges[1]! }),
        domains: { "shop.example": "web" },
        servers,
      });
      expect(shared.passed, JSON.stringify(purges)).toBe(true);
      expect(shared.domains[0]?.verdict?.extra).toEqual([]);
    }
  });
});

describe("waiting for propagation", () => {
  it("asks again only for the domain that does not serve as declared yet, then gives up", async () => {
    await put("web", [apex]);
    const declared = {
      deployment: {
        resources: [
          { type: TYPE, outputs: { templateId: "web", purge: true, records: [apex] } },
          { type: TYPE, outputs: { templateId: "late", purge: true, records: [hello] } },
        ],
      },
    };
    const report = await verifyDomains({
      declared,
      domains: { "shop.example": "web", "late.example": "late" },
      servers: [sandbox.dnsAddress!],
      waitSeconds: 1,
    });
    expect(report.domains.map((d) => [d.domain, d.passed])).toEqual([
      ["shop.example", true],
      ["late.example", false],
    ]);
    expect(report.passed).toBe(false);
    expect(report.elapsedMs).toBeGreaterThanOrEqual(900);
    const asked = (domain: string) => sandbox.dnsQueries.filter((q) => q.name.toLowerCase().endsWith(domain));
    const rounds = (domain: string) => asked(domain).filter((q) => q.type === asked(domain)[0]?.type).length;
    expect(rounds("shop.example")).toBe(1);
    expect(rounds("late.example")).toBeGreaterThanOrEqual(2);
  });
});

describe("without a wait", () => {
  it("a domain that does not serve as declared is asked once and reported at once", async () => {
    const declared = {
      deployment: {
        resources: [{ type: TYPE, outputs: { templateId: "late", purge: true, records: [hello] } }],
      },
    };
    const report = await verifyDomains({
      declared,
      domains: { "late.example": "late" },
      servers: [sandbox.dnsAddress!],
    });
    expect(report.domains.map((d) => [d.domain, d.passed, d.verdict?.missing])).toEqual([
      ["late.example", false, [hello]],
    ]);
    const asked = sandbox.dnsQueries.filter((q) => q.name.toLowerCase() === "www.late.example");
    // One round: its TXT query (then the CNAME that could stand for it), not a second.
    expect(asked.filter((q) => q.type === "TXT")).toHaveLength(1);
  });
});

describe("what is not the domain's answer", () => {
  it("a server given already parsed that is no address is refused, not reported as a server that did not answer", async () => {
    const declared = stackOf({ records: [apex], purge: true });
    const server = { host: "no-address", port: 53, address: "no-address:53" };
    await expect(
      verifyDomains({ declared, domains: { "shop.example": "web" }, servers: [server] }),
    ).rejects.toThrow(/no-address/);
  });

  it("a Markdown file that cannot be written: the report is still printed, the failure named, exit 1", async () => {
    await put("web", [apex]);
    const out: string[] = [];
    const err: string[] = [];
    const stdin = Readable.from([JSON.stringify(stackOf({ records: [apex], purge: true }))]);
    const code = await runVerifyCommand(
      [
        "--domain",
        "shop.example=web",
        "--server",
        sandbox.dnsAddress!,
        "--markdown",
        path.join(tmpdir(), "no-such-directory-of-verify", "report.md"),
      ],
      { stdin, stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } },
    );
    expect(code).toBe(1);
    expect(out.join("")).toContain("shop.example (template web, server");
    expect(err.join("")).toMatch(
      /^domainapi-verify: ENOENT: no such file or directory, open '.*report\.md'\n$/,
    );
  });
});
