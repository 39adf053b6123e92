/**
 * `domainapi-verify` and the comparison under it, against the sandbox's authoritative DNS server:
 * a template's records always verify against the sandbox's own answers for them (a property), each
 * kind of finding is reported per domain, propagation is waited for, and a server that answers
 * nothing is named with the wait.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runVerifyCommand, verifyDomains, verifyMarkdown, verifyText } from "../../../provider/cli/verify";
import { validateEach } from "../../../provider/dns/validate";

const KEY = "verify-test-key";

interface WireRecord {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** Replaces a template's records through the API (so URL forwards get the records the service makes). */
async function put(sandbox: Sandbox, templateId: string, records: readonly WireRecord[]): Promise<void> {
  const response = await fetch(`${sandbox.url}/v2/dns/templates/${templateId}/records`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ records }),
  });
  if (!response.ok) throw new Error(`PUT ${templateId}: ${response.status} ${await response.text()}`);
}

/** A stack export as `pulumi stack export` writes one DnsTemplateRecords resource (keyed records). */
function exported(templateId: string, records: readonly WireRecord[], purge = true) {
  return {
    version: 3,
    deployment: {
      resources: [
        {
          urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords::${templateId}`,
          type: "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords",
          outputs: {
            templateId,
            purge,
            records: Object.fromEntries(records.map((r, i) => [`${r.name}/${r.type}#${i}`, r])),
            ids: {},
          },
        },
      ],
    },
  };
}

function io(stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdin: Object.assign(
        (async function* () {
          yield Buffer.from(stdin);
        })(),
        { isTTY: false },
      ) as unknown as NodeJS.ReadableStream & { isTTY?: boolean },
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
    },
  };
}

const host = fc.constantFrom(
  "mx1.example.net",
  "mail.{domainname}.",
  "{domainname}.",
  "Target.Example.ORG.",
  ".",
);
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);

/** The records of one family, without their name: a CNAME alone, a URL forward alone, or other records. */
const families = fc.oneof(
  host.filter((h) => h !== ".").map((content) => [{ type: "CNAME", content }]),
  fc
    .constantFrom("URLFWD", "URLFWD301", "URLCLO")
    .map((type) => [{ type, content: "https://www.example.net/x" }]),
  fc.array(
    fc.oneof(
      fc.ipV4().map((content) => ({ type: "A", content })),
      fc.ipV6().map((content) => ({ type: "AAAA", content })),
      fc
        .record({ content: host, priority: fc.integer({ min: 0, max: 65535 }) })
        .map((r) => ({ type: "MX", ...r })),
      fc.stringMatching(/^[!-~][ -~]{0,700}$/).map((content) => ({ type: "TXT", content })),
      fc
        .record({
          flags: fc.constantFrom(0, 128),
          tag: fc.constantFrom("issue", "issuewild", "iodef", "Issue"),
          value: fc.constantFrom(
            "letsencrypt.org",
            "pki.goog; cansignhttpexchanges=yes",
            "mailto:sec@example.com",
          ),
        })
        .map(({ flags, tag, value }) => ({ type: "CAA", content: `${flags} ${tag} "${value}"` })),
      fc
        .record({
          u: fc.integer({ min: 0, max: 3 }),
          s: fc.integer({ min: 0, max: 1 }),
          m: fc.integer({ min: 0, max: 2 }),
          hex: fc.stringMatching(/^([0-9a-fA-F]{2}){1,32}$/),
        })
        .map(({ u, s, m, hex }) => ({ type: "TLSA", content: `${u} ${s} ${m} ${hex}` })),
    ),
    { minLength: 1, maxLength: 4 },
  ),
);

const srv = fc
  .record({
    content: host.filter((h) => h !== "."),
    priority: fc.integer({ min: 0, max: 65535 }),
    weight: fc.integer({ min: 0, max: 65535 }),
    port: fc.integer({ min: 0, max: 65535 }),
  })
  .map((r) => ({ name: "_sip._tcp", type: "SRV", ...r }));

const template = fc
  .tuple(
    fc.uniqueArray(
      fc.oneof(
        fc.constant("@"),
        label,
        label.map((l) => `*.${l}`),
        label.map((l) => `a.${l}`),
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    ),
    fc.array(families, { minLength: 5, maxLength: 5 }),
    fc.option(srv, { nil: undefined }),
  )
  .map(([names, groups, service]) => {
    const records = names.flatMap((name, i) => {
      const group = groups[i]!;
      // No CNAME at the apex.
      return name === "@" && group[0]?.type === "CNAME" ? [] : group.map((r) => ({ name, ...r }));
    });
    return [...records, ...(service ? [service] : [])] as WireRecord[];
  })
  // What check() would refuse (a duplicate) is no template.
  .filter((records) => validateEach(records, "records").issues.length === 0);

describe("domainapi-verify against the sandbox's DNS", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsDomains: { "shop.example": "web", "other.example": "web" },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("a template's records always verify against the sandbox's own answers for them", async () => {
    await fc.assert(
      fc.asyncProperty(template, async (records) => {
        await put(sandbox, "web", records);
        const report = await verifyDomains({
          declared: exported("web", records),
          domains: { "shop.example": "web", "Other.Example.": "web" },
          servers: [sandbox.dnsAddress!],
        });
        expect(
          report.domains.map((d) => [
            d.domain,
            d.passed,
            d.verdict?.missing,
            d.verdict?.different,
            d.verdict?.extra,
          ]),
        ).toEqual([
          ["shop.example", true, [], [], []],
          ["other.example", true, [], [], []],
        ]);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("reports per domain what is missing, different and extra, and exits 1", async () => {
    const declared: WireRecord[] = [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
      { name: "www", type: "TXT", content: "hello" },
      { name: "go", type: "URLFWD", content: "https://www.example.net/" },
    ];
    await put(sandbox, "web", [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "@", type: "A", content: "192.0.2.66" },
      { name: "@", type: "MX", content: "mail.{domainname}.", priority: 20 },
      { name: "go", type: "URLFWD", content: "https://www.example.net/" },
    ]);
    const report = await verifyDomains({
      declared: exported("web", declared),
      domains: { "shop.example": "web" },
      servers: [sandbox.dnsAddress!],
    });
    expect(report.passed).toBe(false);
    expect(verifyText(report)).toBe(
      `shop.example (template web, server ${sandbox.dnsAddress}): NOT served as declared: 2 records as declared\n` +
        "  missing: www TXT hello\n" +
        "  different: @ MX 10 mail.{domainname}. is published as @ MX 20 mail.{domainname}.\n" +
        "  extra: @ A 192.0.2.66 (published at a declared name, not declared)\n",
    );
    // Without purge, another resource's record at a declared name is none of this one's business.
    const shared = await verifyDomains({
      declared: exported("web", declared, false),
      domains: { "shop.example": "web" },
      servers: [sandbox.dnsAddress!],
    });
    expect(shared.domains[0]?.verdict?.extra).toEqual([]);

    const { io: streams, out } = io(JSON.stringify(exported("web", declared)));
    const code = await runVerifyCommand(
      ["--domain", "shop.example=web", "--server", sandbox.dnsAddress!],
      streams,
    );
    expect(code).toBe(1);
    expect(out.join("")).toContain("missing: www TXT hello");
  });

  it("writes the Markdown with every published value in code, so none can add a line or a link", async () => {
    const declared: WireRecord[] = [{ name: "@", type: "TXT", content: "ok" }];
    await put(sandbox, "web", [
      { name: "@", type: "TXT", content: "@admin [x](https://evil.example) ``` <b>" },
    ]);
    const report = await verifyDomains({
      declared: exported("web", declared),
      domains: { "shop.example": "web" },
      servers: [sandbox.dnsAddress!],
    });
    const md = verifyMarkdown(report);
    expect(md).toBe(
      "### DNS verification\n\n**Some domains do not serve their template as declared.**\n\n" +
        `**\`shop.example\`** (template \`web\`, server \`${sandbox.dnsAddress}\`): NOT served as declared: 0 records as declared\n\n` +
        "````text\ndifferent: @ TXT ok is published as @ TXT @admin [x](https://evil.example) ``` <b>\n````\n",
    );
  });

  it("reads `pulumi stack output --json` of an exported resource (records with their ids)", async () => {
    const records = [{ name: "@", type: "A", content: "192.0.2.10" }];
    await put(sandbox, "web", records);
    const outputs = {
      web: {
        templateId: "web",
        purge: true,
        records: [{ ...records[0], recordId: "rec-1", recordIds: ["rec-1"] }],
        lastPlan: "1 to create",
      },
    };
    const report = await verifyDomains({
      declared: outputs,
      domains: { "shop.example": "web" },
      servers: [sandbox.dnsAddress!],
    });
    expect(report.passed).toBe(true);
  });

  it("exits 2 naming what is wrong with the input", async () => {
    const cases: [string[], string, string][] = [
      [["--domain", "shop.example=nope"], JSON.stringify(exported("web", [])), 'declares no template "nope"'],
      [["--domain", "shop.example"], "{}", "expected <domain>=<templateId>"],
      [["--domain", "shop.example=web"], "not json", "is not JSON"],
      [["--domain", "shop.example=web"], JSON.stringify({ web: 1 }), "found no DnsTemplateRecords"],
      [
        ["--domain", "shop.example=web", "--server", "ns1.example.net"],
        JSON.stringify(exported("web", [])),
        "is not an IP address",
      ],
      [
        ["--domain", "shop.example=web"],
        JSON.stringify({ web: { templateId: "web", records: { ciphertext: "v1:abc" } } }),
        "pulumi stack export --show-secrets",
      ],
      [
        ["--domain", "shop.example=web"],
        JSON.stringify({ web: { templateId: "web", records: "[secret]" } }),
        "pulumi stack output --json --show-secrets",
      ],
    ];
    for (const [args, stdin, fragment] of cases) {
      const { io: streams, err } = io(stdin);
      expect(await runVerifyCommand(args, streams), fragment).toBe(2);
      expect(err.join("")).toContain(fragment);
    }
  });
});

describe("domainapi-verify and propagation", () => {
  it("against a late publisher, waits and passes", async () => {
    const sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsLate: 1200,
      dnsDomains: { "shop.example": "web" },
    });
    try {
      const records = [{ name: "@", type: "A", content: "192.0.2.10" }];
      await put(sandbox, "web", records);
      const declared = exported("web", records);
      const options = { declared, domains: { "shop.example": "web" }, servers: [sandbox.dnsAddress!] };
      expect((await verifyDomains(options)).passed).toBe(false);
      const report = await verifyDomains({ ...options, waitSeconds: 10 });
      expect(report.passed).toBe(true);
      expect(report.elapsedMs).toBeGreaterThan(500);
      expect(report.elapsedMs).toBeLessThan(5000);
    } finally {
      await sandbox.close();
    }
  });

  it("against a silent server, fails naming the server and the wait", async () => {
    const sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsSilent: true,
      dnsDomains: { "shop.example": "web" },
    });
    try {
      const records = [{ name: "@", type: "A", content: "192.0.2.10" }];
      const { io: streams, out } = io(JSON.stringify(exported("web", records)));
      const started = performance.now();
      const code = await runVerifyCommand(
        ["--domain", "shop.example=web", "--server", sandbox.dnsAddress!, "--timeout", "100"],
        streams,
      );
      expect(code).toBe(1);
      expect(out.join("")).toContain(
        `shop.example (template web): not verified\n  no answer: no DNS server answered for shop.example: DNS server ${sandbox.dnsAddress} asked for shop.example A: no answer within 550 ms (2 tries, the first waiting 100 ms)`,
      );
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await sandbox.close();
    }
  });
});
