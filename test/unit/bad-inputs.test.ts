/**
 * Bad inputs: invalid resource inputs, getContacts arguments and provider settings, each refused
 * with the property path and a reason, and with zero requests to the API. The providers' `check`
 * runs here exactly as the serialized shim calls it (`impl.records.check`, `impl.restore.check`),
 * configured against a live sandbox so that a request, were one made, would be seen.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainApiClient } from "../../provider/client/api";
import { getContacts } from "../../provider/contacts/getContacts";
import { InvalidArgumentError } from "../../provider/contacts/query";
import * as impl from "../../provider/dynamic/impl";
import { ConfigError } from "../../provider/errors";
import { resolveConfig } from "../../provider/settings/config";

const API_KEY = "bad-inputs-key-91c4";

type Props = Record<string, unknown>;
interface Case {
  title: string;
  inputs: Props;
  /** Previous outputs, for a check on update. */
  olds?: Props;
  property: string;
  reason: RegExp;
}

const ok = { templateId: "tpl-1" };
const rec = (r: Props): Props => ({ ...ok, records: [r] });

const recordCases: Case[] = [
  { title: "no templateId", inputs: { records: [] }, property: "templateId", reason: /template is required/ },
  {
    title: "a numeric templateId",
    inputs: { templateId: 42, records: [] },
    property: "templateId",
    reason: /must be a string; write templateId: "42"/,
  },
  {
    title: "an empty templateId",
    inputs: { templateId: " ", records: [] },
    property: "templateId",
    reason: /template id is empty/,
  },
  {
    title: "a templateId with a slash",
    inputs: { templateId: "a/b", records: [] },
    property: "templateId",
    reason: /cannot be a template id: it must not hold spaces, control characters, "\/"/,
  },
  { title: "no records", inputs: { ...ok }, property: "records", reason: /records are required/ },
  {
    title: "records that are a string",
    inputs: { ...ok, records: "www" },
    property: "records",
    reason: /expected a list of records/,
  },
  {
    title: "a record that is a string",
    inputs: { ...ok, records: ["www A 192.0.2.1"] },
    property: "records[0]",
    reason: /expected a record object/,
  },
  {
    title: "a record without a name",
    inputs: rec({ type: "A", content: "192.0.2.1" }),
    property: "records[0].name",
    reason: /needs a name/,
  },
  {
    title: "a record without a type",
    inputs: rec({ name: "www", content: "192.0.2.1" }),
    property: "records[0].type",
    reason: /needs a type, one of A, CNAME/,
  },
  {
    title: "an unknown type",
    inputs: rec({ name: "www", type: "AXFR", content: "192.0.2.1" }),
    property: "records[0].type",
    reason: /unknown record type "AXFR"/,
  },
  {
    title: "a record without content",
    inputs: rec({ name: "www", type: "A" }),
    property: "records[0].content",
    reason: /needs content/,
  },
  {
    title: "an A record with a bad address",
    inputs: rec({ name: "www", type: "A", content: "999.0.2.1" }),
    property: "records[0].content",
    reason: /A records need an IPv4 address/,
  },
  {
    title: "an AAAA record with an IPv4 address",
    inputs: rec({ name: "www", type: "AAAA", content: "192.0.2.1" }),
    property: "records[0].content",
    reason: /AAAA records need an IPv6 address/,
  },
  {
    title: "a CNAME at the apex",
    inputs: rec({ name: "@", type: "CNAME", content: "target.example.net." }),
    property: "records[0].name",
    reason: /a CNAME cannot be at the apex/,
  },
  {
    title: "a CNAME to something that is not a host",
    inputs: rec({ name: "www", type: "CNAME", content: "not a host!" }),
    property: "records[0].content",
    reason: /is not a host name/,
  },
  {
    title: "an MX without priority",
    inputs: rec({ name: "@", type: "MX", content: "mx1.example.net" }),
    property: "records[0].priority",
    reason: /MX records need a priority from 0 to 65535; add priority: 10/,
  },
  {
    title: "an MX priority out of range",
    inputs: rec({ name: "@", type: "MX", content: "mx1.example.net", priority: 70000 }),
    property: "records[0].priority",
    reason: /priority must be an integer from 0 to 65535; got 70000/,
  },
  {
    title: "an MX priority given as a string",
    inputs: rec({ name: "@", type: "MX", content: "mx1.example.net", priority: "10" }),
    property: "records[0].priority",
    reason: /must be a number, not a string/,
  },
  {
    title: "a fractional MX priority",
    inputs: rec({ name: "@", type: "MX", content: "mx1.example.net", priority: 1.5 }),
    property: "records[0].priority",
    reason: /integer from 0 to 65535; got 1.5/,
  },
  {
    title: "an A record with a priority",
    inputs: rec({ name: "www", type: "A", content: "192.0.2.1", priority: 10 }),
    property: "records[0].priority",
    reason: /A records take no priority \(only MX and SRV records do\)/,
  },
  {
    title: "an SRV record without weight",
    inputs: rec({ name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, port: 5060 }),
    property: "records[0].weight",
    reason: /SRV records need a weight/,
  },
  {
    title: "an SRV record whose name is not _service._proto",
    inputs: rec({ name: "sip", type: "SRV", content: "sip.example.net", priority: 1, weight: 1, port: 1 }),
    property: "records[0].name",
    reason: /_service\._proto/,
  },
  {
    title: "an MX with a weight",
    inputs: rec({ name: "@", type: "MX", content: "mx1.example.net", priority: 10, weight: 5 }),
    property: "records[0].weight",
    reason: /take no weight \(only SRV records do\)/,
  },
  {
    title: "an empty TXT",
    inputs: rec({ name: "@", type: "TXT", content: "  " }),
    property: "records[0].content",
    reason: /TXT records need non-empty text/,
  },
  {
    title: "a malformed CAA",
    inputs: rec({ name: "@", type: "CAA", content: "issue letsencrypt.org" }),
    property: "records[0].content",
    reason: /CAA content has the form flags tag "value"/,
  },
  {
    title: "a CAA with flags out of range",
    inputs: rec({ name: "@", type: "CAA", content: '300 issue "letsencrypt.org"' }),
    property: "records[0].content",
    reason: /CAA flags go from 0 to 255/,
  },
  {
    title: "a malformed TLSA",
    inputs: rec({ name: "_443._tcp", type: "TLSA", content: "3 1 1" }),
    property: "records[0].content",
    reason: /TLSA content has the form/,
  },
  {
    title: "a TLSA usage out of range",
    inputs: rec({ name: "_443._tcp", type: "TLSA", content: "4 1 1 ab12" }),
    property: "records[0].content",
    reason: /TLSA usage goes from 0 to 3/,
  },
  {
    title: "TLSA data of an odd number of hex digits",
    inputs: rec({ name: "_443._tcp", type: "TLSA", content: "3 1 1 abc" }),
    property: "records[0].content",
    reason: /whole bytes/,
  },
  {
    title: "a URL forward to an ftp URL",
    inputs: rec({ name: "go", type: "URLFWD", content: "ftp://files.example.net/" }),
    property: "records[0].content",
    reason: /URLFWD records need an absolute http\(s\) URL/,
  },
  {
    title: "a fully qualified name",
    inputs: rec({ name: "www.example.com.", type: "A", content: "192.0.2.1" }),
    property: "records[0].name",
    reason: /is not a relative name.*write "www" instead, which names www.example.com there/,
  },
  {
    title: "a name holding the domain placeholder",
    inputs: rec({ name: "www.{domainname}", type: "A", content: "192.0.2.1" }),
    property: "records[0].name",
    reason: /is not a relative name.*write "www\." instead|is not a relative name/,
  },
  {
    title: "a name with a space",
    inputs: rec({ name: "my host", type: "A", content: "192.0.2.1" }),
    property: "records[0].name",
    reason: /is not a valid name/,
  },
  {
    title: "a label longer than 63 characters",
    inputs: rec({ name: "a".repeat(64), type: "A", content: "192.0.2.1" }),
    property: "records[0].name",
    reason: /DNS labels hold at most 63/,
  },
  {
    title: "a TTL on a record (the API has none)",
    inputs: rec({ name: "www", type: "A", content: "192.0.2.1", ttl: 300 }),
    property: "records[0].ttl",
    reason:
      /"ttl" is not part of the API: its template records have only name, type, content, priority, weight, port.*remove it/,
  },
  {
    title: "a record field in the wrong case",
    inputs: rec({ name: "www", type: "A", Content: "192.0.2.1" }),
    property: "records[0].Content",
    reason: /did you mean "content"\?/,
  },
  {
    title: "a duplicate record",
    inputs: {
      ...ok,
      records: [
        { name: "www", type: "A", content: "192.0.2.1" },
        { name: "WWW", type: "a", content: "192.0.2.1" },
      ],
    },
    property: "records[1]",
    reason: /duplicates records\[0\]/,
  },
  {
    title: "a CNAME beside another record",
    inputs: {
      ...ok,
      records: [
        { name: "www", type: "CNAME", content: "{domainname}." },
        { name: "www", type: "TXT", content: "hello" },
      ],
    },
    property: "records[1].name",
    reason: /a CNAME must be the only record at its name/,
  },
  {
    title: "a URL forward beside an A record",
    inputs: {
      ...ok,
      records: [
        { name: "go", type: "A", content: "192.0.2.1" },
        { name: "go", type: "URLFWD301", content: "https://www.example.net/" },
      ],
    },
    property: "records[1].name",
    reason: /excludes A, AAAA and CNAME records at its name/,
  },
  {
    title: "purge that is not a boolean",
    inputs: { ...ok, records: [], purge: "yes" },
    property: "purge",
    reason: /expected true .* or false/,
  },
  {
    title: "a safety threshold that is a string",
    inputs: { ...ok, records: [], safetyThreshold: "strict" },
    property: "safetyThreshold",
    reason: /expected \{ minExistingRecords\?: number, maxChangePercent\?: number \} or false/,
  },
  {
    title: "a change percentage above 100",
    inputs: { ...ok, records: [], safetyThreshold: { maxChangePercent: 150 } },
    property: "safetyThreshold.maxChangePercent",
    reason: /percentage from 0 to 100; got 150/,
  },
  {
    title: "a negative minimum of existing records",
    inputs: { ...ok, records: [], safetyThreshold: { minExistingRecords: -1 } },
    property: "safetyThreshold.minExistingRecords",
    reason: /must be 0 or more; got -1/,
  },
  {
    title: "an unknown safety threshold field",
    inputs: { ...ok, records: [], safetyThreshold: { percent: 10 } },
    property: "safetyThreshold.percent",
    reason: /unknown field "percent"/,
  },
  {
    title: "an unknown input",
    inputs: { ...ok, records: [], template: "tpl-2" },
    property: "template",
    reason:
      /unknown input; DnsTemplateRecords takes templateId, records, purge, safetyThreshold, liftedChecks and verifyDomain/,
  },
  {
    title: "an update that deletes more than the safety threshold allows",
    olds: {
      ...ok,
      records: Array.from({ length: 12 }, (_, i) => ({
        name: `h${i}`,
        type: "A",
        content: `192.0.2.${i + 1}`,
      })),
    },
    inputs: { ...ok, records: [{ name: "h0", type: "A", content: "192.0.2.1" }] },
    property: "",
    reason: /refusing to update or delete 11 of 12 existing records.*safetyThreshold/,
  },
];

const restoreCases: Case[] = [
  { title: "no domain", inputs: {}, property: "domain", reason: /expected a domain name/ },
  {
    title: "a domain without a top-level domain",
    inputs: { domain: "shop" },
    property: "domain",
    reason: /has no top-level domain/,
  },
  {
    title: "a URL instead of a domain",
    inputs: { domain: "https://shop.example/" },
    property: "domain",
    reason: /without scheme or path/,
  },
  {
    title: "a domain with a trailing dot",
    inputs: { domain: "shop.example." },
    property: "domain",
    reason: /drop the trailing dot: "shop.example"/,
  },
  {
    title: "a domain label starting with a hyphen",
    inputs: { domain: "-shop.example" },
    property: "domain",
    reason: /label "-shop" is not valid/,
  },
  {
    title: "a domain with surrounding space",
    inputs: { domain: " shop.example" },
    property: "domain",
    reason: /white space/,
  },
  {
    title: "an unknown restore input",
    inputs: { domain: "shop.example", name: "x" },
    property: "name",
    reason: /unknown input; DomainRestore takes domain and triggers/,
  },
];

interface ArgumentCase {
  title: string;
  args: Record<string, unknown>;
  argument: string;
  reason: RegExp;
}

const contactCases: ArgumentCase[] = [
  {
    title: "perPage above 100",
    args: { perPage: 500 },
    argument: "perPage",
    reason: /from 1 to 100; got 500/,
  },
  { title: "page 0", args: { page: 0 }, argument: "page", reason: /must be 1 or more; got 0/ },
  {
    title: "a country name",
    args: { country: "Netherlands" },
    argument: "country",
    reason: /two-letter ISO 3166-1 country code such as "NL"/,
  },
  {
    title: "an unknown status",
    args: { status: ["active"] },
    argument: "status[0]",
    reason: /unknown status "active"; use any of ok, pending_update/,
  },
  {
    title: "a malformed comparison",
    args: { connections: ">>5" },
    argument: "connections",
    reason: /or a comparison such as ">5".*got ">>5"/,
  },
  {
    title: "a date without a time",
    args: { dateCreated: "2024-01-01" },
    argument: "dateCreated",
    reason: /YYYY-MM-DDThh:mm:ssZ/,
  },
  {
    title: "an unknown sort field",
    args: { sort: "-nonsense" },
    argument: "sort",
    reason: /unknown sort field "nonsense"; sort by any of handle/,
  },
  {
    title: "a concurrency of 64",
    args: { concurrency: 64 },
    argument: "concurrency",
    reason: /must be from 1 to 16; got 64/,
  },
  { title: "a limit of 0", args: { limit: 0 }, argument: "limit", reason: /must be 1 or more; got 0/ },
  {
    title: "an unknown argument",
    args: { emailAddress: "a@b" },
    argument: "emailAddress",
    reason: /unknown argument; known arguments are handle/,
  },
  {
    title: "autoDelete as a string",
    args: { autoDelete: "yes" },
    argument: "autoDelete",
    reason: /must be true or false/,
  },
];

interface SettingCase {
  title: string;
  settings: Record<string, string>;
  setting: string;
  reason: RegExp;
}

const settingCases: SettingCase[] = [
  {
    title: "a base URL ending in /v2",
    settings: { apiKey: API_KEY, baseUrl: "https://api.example.com/v2" },
    setting: "domainapi:baseUrl",
    reason: /ends with \/v2; drop the \/v2/,
  },
  {
    title: "a timeout that is not a number",
    settings: { apiKey: API_KEY, baseUrl: "https://api.example.com", timeoutMs: "soon" },
    setting: "domainapi:timeoutMs",
    reason: /must be an integer from 1 to 600000/,
  },
  {
    title: "too many retries",
    settings: { apiKey: API_KEY, baseUrl: "https://api.example.com", maxRetries: "99" },
    setting: "domainapi:maxRetries",
    reason: /must be an integer from 0 to 10/,
  },
  {
    title: "no API key",
    settings: { baseUrl: "https://api.example.com" },
    setting: "domainapi:apiKey",
    reason: /is not set: set it with `pulumi config set --secret domainapi:apiKey/,
  },
];

describe("bad inputs fail with a property path and a reason, and make no request", () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: API_KEY });
    // Configured as the engine configures the providers: were a check to send a request, the
    // sandbox would log it.
    const config = new Map([
      ["domainapi:baseUrl", sandbox.url],
      ["domainapi:apiKey", API_KEY],
    ]);
    const req = { config } as unknown as pulumi.dynamic.ConfigureRequest;
    impl.records.configure(req);
    impl.restore.configure(req);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("has at least 40 cases", () => {
    const total = recordCases.length + restoreCases.length + contactCases.length + settingCases.length;
    expect(total).toBeGreaterThanOrEqual(40);
  });

  it.each(recordCases)("DnsTemplateRecords: $title", async ({ inputs, olds, property, reason }) => {
    const result = await impl.records.check(olds ?? {}, inputs);
    // Paths into the records lead the reason (the engine prints a property only by its top-level name).
    const failure = result.failures
      ?.map((f) =>
        /^records[[.:]/.test(f.reason) ? { property: f.reason.split(": ")[0], reason: f.reason } : f,
      )
      .find((f) => f.property === property);
    expect(failure, JSON.stringify(result.failures)).toBeDefined();
    expect(failure?.reason).toMatch(reason);
    expect(sandbox.requests).toEqual([]);
  });

  it.each(restoreCases)("DomainRestore: $title", async ({ inputs, property, reason }) => {
    const result = await impl.restore.check({}, inputs);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure, JSON.stringify(result.failures)).toBeDefined();
    expect(failure?.reason).toMatch(reason);
    expect(sandbox.requests).toEqual([]);
  });

  it.each(contactCases)("getContacts: $title", async ({ args, argument, reason }) => {
    const client = new DomainApiClient({
      apiKey: API_KEY,
      baseUrl: sandbox.url,
      timeoutMs: 5000,
      maxRetries: 0,
    });
    try {
      const err = await getContacts(args as never, { client }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      const invalid = err as InvalidArgumentError;
      expect(invalid.argument).toBe(argument);
      expect(invalid.reason).toMatch(reason);
      expect(invalid.message).toBe(`getContacts: ${argument}: ${invalid.reason}`);
    } finally {
      await client.close();
    }
    expect(sandbox.requests).toEqual([]);
  });

  it.each(settingCases)("settings: $title", ({ settings, setting, reason }) => {
    let err: unknown;
    try {
      resolveConfig((key) => settings[key], {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problem = (err as ConfigError).problems.find((p) => p.startsWith(`${setting} `));
    expect(problem, String(err)).toBeDefined();
    expect(problem).toMatch(reason);
    expect(sandbox.requests).toEqual([]);
  });
});
