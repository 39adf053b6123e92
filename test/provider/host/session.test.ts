/**
 * The provider session (provider/host/session.ts) as the engine configures it: from the stack
 * config (a default provider's `configure()`) or from an explicit provider's inputs, with the
 * environment behind both. What each accessor then gives: the client (against a real sandbox), the
 * journal's account (never the key), the base address, the DNS servers, and the check a preview
 * runs. Only the engine's log is stood in for: there is no engine here.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { ConfigError } from "../../../provider/errors";
import { keyFingerprint } from "../../../provider/host/machineFiles";
import {
  checkSettings,
  client,
  configure,
  configuredBaseUrl,
  configuredProvider,
  configureFrom,
  diffProviderInputs,
  dnsServersSetting,
  journalAccount,
  providerInputFailures,
  settingsCheck,
  settingsText,
  verifyOnRefreshSetting,
} from "../../../provider/host/session";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";

const sandbox = useSandbox({ contacts: 3 });
const ENV = [
  "DOMAINAPI_API_KEY",
  "DOMAINAPI_BASE_URL",
  "DOMAINAPI_TIMEOUT_MS",
  "DOMAINAPI_MAX_RETRIES",
  "DOMAINAPI_VERIFY_ON_REFRESH",
  "DOMAINAPI_DNS_SERVERS",
];
const savedEnv = Object.fromEntries(ENV.map((v) => [v, process.env[v]]));
let warn: MockInstance<typeof pulumi.log.warn>;

beforeEach(() => {
  for (const v of ENV) delete process.env[v];
  warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const v of ENV) {
    if (savedEnv[v] === undefined) delete process.env[v];
    else process.env[v] = savedEnv[v];
  }
});

/** `configure()` as the engine calls a dynamic provider's, with this stack config. */
function configureStack(values: Record<string, string>): void {
  configure({
    config: {
      get: (k: string) => values[k],
      require: (k: string) => values[k] as string,
    },
  });
}

function warnings(): string[] {
  return warn.mock.calls.map((call) => String(call[0]));
}

describe("configured from the stack config", () => {
  it("reads domainapi:* settings; the client reaches the API they name", async () => {
    configureStack({
      "domainapi:apiKey": API_KEY,
      "domainapi:baseUrl": `${sandbox.url}/`,
      "domainapi:verifyOnRefresh": "dns",
    });
    expect(configuredProvider()).toBe("the default provider");
    expect(configuredBaseUrl()).toBe(sandbox.url);
    expect(verifyOnRefreshSetting()).toBe("dns");
    const page = await client().listContacts(new URLSearchParams({ per_page: "2" }));
    expect(page.data).toHaveLength(2);
    expect(sandbox.requests.map((r) => r.status)).toEqual([200]);
  });

  it("a setting the stack config leaves unset falls back to the environment", async () => {
    process.env.DOMAINAPI_API_KEY = API_KEY;
    process.env.DOMAINAPI_BASE_URL = sandbox.url;
    configureStack({});
    expect(configuredBaseUrl()).toBe(sandbox.url);
    expect(journalAccount()).toEqual({ baseUrl: sandbox.url, keyFingerprint: keyFingerprint(API_KEY) });
    await client().listContacts(new URLSearchParams());
    expect(sandbox.requests).toHaveLength(1);
  });

  it("a refused key names the stack config as the place to change it", async () => {
    configureStack({ "domainapi:apiKey": "not-the-key", "domainapi:baseUrl": sandbox.url });
    await expect(client().listContacts(new URLSearchParams())).rejects.toThrow(
      "it comes from the stack config domainapi:apiKey: change it with `pulumi config set --secret domainapi:apiKey <key>`",
    );
  });
});

describe("configured from an explicit provider's inputs", () => {
  const URN = "urn:pulumi:dev::shop::pulumi:providers:domainapi::live";

  it("takes the inputs as text, names the provider, and reaches the API they name", async () => {
    configureFrom({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 5000, maxRetries: 0 }, "provider", URN);
    expect(configuredProvider()).toBe('"live"');
    expect(journalAccount()).toEqual({ baseUrl: sandbox.url, keyFingerprint: keyFingerprint(API_KEY) });
    expect(JSON.stringify(journalAccount())).not.toContain(API_KEY);
    await client().listContacts(new URLSearchParams());
    expect(sandbox.requests.map((r) => r.status)).toEqual([200]);
  });

  it("a refused key names the provider's input as the place to change it, not the stack config", async () => {
    configureFrom({ apiKey: "not-the-key", baseUrl: sandbox.url, maxRetries: 0 }, "provider", URN);
    const error = await client()
      .listContacts(new URLSearchParams())
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toContain(
      "it comes from the explicit provider's `apiKey` input: change that input in the program",
    );
    expect(error?.message).not.toContain("pulumi config set");
  });

  it("a default provider, or one without a URN, is the default provider in messages", () => {
    configureFrom({}, "provider");
    expect(configuredProvider()).toBe("the default provider");
    configureFrom({}, "stack", URN);
    expect(configuredProvider()).toBe("the default provider");
    configureFrom({}, "provider", "live");
    expect(configuredProvider()).toBe("the default provider");
  });

  it("an empty input is unset: the environment gives it", () => {
    process.env.DOMAINAPI_BASE_URL = "https://env.example.com/";
    configureFrom({ baseUrl: "" }, "provider", URN);
    expect(configuredBaseUrl()).toBe("https://env.example.com");
  });
});

describe("the base address", () => {
  it("is undefined when unset or malformed, so no resource is compared with it", () => {
    configureFrom({}, "provider");
    expect(configuredBaseUrl()).toBeUndefined();
    configureFrom({ baseUrl: "ftp://files.example.com" }, "provider");
    expect(configuredBaseUrl()).toBeUndefined();
  });

  it("an empty stack setting gives way to the environment", () => {
    process.env.DOMAINAPI_BASE_URL = "https://env.example.com";
    configureFrom(() => "", "stack");
    expect(configuredBaseUrl()).toBe("https://env.example.com");
  });
});

describe("the DNS servers of a refresh by DNS", () => {
  it("come from the setting, as addresses with their ports", () => {
    configureFrom({ dnsServers: "192.0.2.53, 127.0.0.1:5353 [2001:db8::53]:5300" }, "provider");
    expect(dnsServersSetting()?.map((s) => s.address)).toEqual([
      "192.0.2.53:53",
      "127.0.0.1:5353",
      "[2001:db8::53]:5300",
    ]);
  });

  it("else from DOMAINAPI_DNS_SERVERS; unset or blank, none (the witness's own servers are asked)", () => {
    configureFrom({}, "provider");
    expect(dnsServersSetting()).toBeUndefined();
    process.env.DOMAINAPI_DNS_SERVERS = "   ";
    expect(dnsServersSetting()).toBeUndefined();
    process.env.DOMAINAPI_DNS_SERVERS = "198.51.100.7";
    expect(dnsServersSetting()?.map((s) => s.address)).toEqual(["198.51.100.7:53"]);
    configureFrom(() => "", "stack");
    expect(dnsServersSetting()?.map((s) => s.address)).toEqual(["198.51.100.7:53"]);
  });

  it("a malformed server fails naming each one, the setting, its variable and an example", () => {
    configureFrom({ dnsServers: "ns1.example.com, 127.0.0.1:70000" }, "provider");
    const error = (() => {
      try {
        dnsServersSetting();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const fix =
      "set domainapi:dnsServers (or DOMAINAPI_DNS_SERVERS) to IP addresses with optional ports, e.g. 192.0.2.53, 127.0.0.1:5353.";
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^dnsServers: "ns1\.example\.com" is not an IP address/),
      `dnsServers: "127.0.0.1:70000": the port must be from 1 to 65535: ${fix}`,
    ]);
    expect((error as ConfigError).problems[0]?.endsWith(`: ${fix}`)).toBe(true);
  });
});

describe("the check a preview runs", () => {
  it("a malformed setting throws up's ConfigError, before any request", () => {
    configureFrom({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: "soon" }, "provider");
    expect(() => checkSettings()).toThrow(ConfigError);
    expect(() => checkSettings()).toThrow(/timeoutMs/);
    expect(settingsCheck().error).toBeInstanceOf(ConfigError);
    expect(() => journalAccount()).toThrow(ConfigError);
    expect(() => client()).toThrow(ConfigError);
    expect(warnings()).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });

  it("a missing key is a warning, told once per configuration", () => {
    configureFrom({ baseUrl: sandbox.url }, "stack");
    checkSettings();
    checkSettings();
    expect(warnings()).toEqual([
      "domainapi:apiKey is not set: set it with `pulumi config set --secret domainapi:apiKey <key>` or the " +
        "DOMAINAPI_API_KEY environment variable. A preview goes on without it and sends no request; " +
        "`pulumi up` fails until it is set.",
    ]);
    // The next configuration (another provider of the process) is told again.
    configureFrom({ baseUrl: sandbox.url }, "provider");
    checkSettings();
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatch(/^the provider's apiKey is not set/);
  });

  it("complete settings pass silently", () => {
    configureFrom({ apiKey: API_KEY, baseUrl: sandbox.url }, "provider");
    expect(() => checkSettings()).not.toThrow();
    expect(settingsCheck()).toEqual({});
    expect(warnings()).toEqual([]);
  });
});

describe("an explicit provider's inputs, as the plugin's CheckConfig and DiffConfig see them", () => {
  it("null, empty and unknown names are not settings; a zero is", () => {
    expect(
      settingsText({ timeoutMs: null, baseUrl: "", apiKey: undefined, colour: "blue", maxRetries: 0 }),
    ).toEqual({ maxRetries: "0" });
  });

  it("a key that cannot go in a header is named as the provider's apiKey input", () => {
    const [failure, ...rest] = providerInputFailures({ apiKey: "dk_live\n1" }, "provider");
    expect(rest).toEqual([]);
    expect(failure?.property).toBe("apiKey");
    expect(failure?.reason).toMatch(
      /^the provider's apiKey cannot be sent in an HTTP header: its character 8 is a line break/,
    );
    expect(failure?.reason).not.toContain("dk_live");
  });

  it("two malformed base addresses that differ are another API: replaced", () => {
    expect(diffProviderInputs({ baseUrl: "ftp://a.example" }, { baseUrl: "ftp://b.example" })).toEqual({
      changes: true,
      replaces: ["baseUrl"],
    });
    expect(diffProviderInputs({ baseUrl: "ftp://a.example" }, { baseUrl: "ftp://a.example" })).toEqual({
      changes: false,
      replaces: [],
    });
  });
});

describe("before any configure()", () => {
  it("is the default provider, reading the environment alone, and warns of a missing key once", async () => {
    vi.resetModules();
    const fresh = await import("../../../provider/host/session.ts");
    process.env.DOMAINAPI_BASE_URL = `${sandbox.url}/`;
    expect(fresh.configuredProvider()).toBe("the default provider");
    expect(fresh.configuredBaseUrl()).toBe(sandbox.url);
    expect(fresh.verifyOnRefreshSetting()).toBeUndefined();
    fresh.checkSettings();
    fresh.checkSettings();
    expect(warnings()).toEqual([
      expect.stringMatching(/^domainapi:apiKey is not set: set it with `pulumi config set --secret/),
    ]);
  });
});
