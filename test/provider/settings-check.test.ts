/**
 * A preview fails where `up` would, for what needs no request: malformed settings fail the
 * provider's `check()` (which a preview calls for every resource) with the very message `up`
 * gives, and nothing is sent; a missing key is a warning at `check()` (previews of pull requests
 * from forks run without secrets) and an error at `create`. Driven at the provider-method level
 * against a real sandbox, counting its requests.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getContactsOutput } from "../../provider/contacts/getContacts";
import { ConfigError } from "../../provider/errors";
import { configureFrom, settingsCheck, verifyOnRefreshSetting } from "../../provider/host/session";
import * as restore from "../../provider/restore/provider";
import { checkConfig } from "../../provider/settings/config";
import { API_KEY, useSandbox } from "../../sandbox/test/helpers";
import { PROVIDER } from "./helpers";

const sandbox = useSandbox();
const ENV = ["DOMAINAPI_API_KEY", "DOMAINAPI_BASE_URL", "DOMAINAPI_TIMEOUT_MS", "DOMAINAPI_MAX_RETRIES"];
const savedEnv = Object.fromEntries(ENV.map((v) => [v, process.env[v]]));

beforeEach(() => {
  for (const v of ENV) delete process.env[v];
  sandbox.reset();
});
afterEach(() => {
  for (const v of ENV) {
    if (savedEnv[v] === undefined) delete process.env[v];
    else process.env[v] = savedEnv[v];
  }
  vi.restoreAllMocks();
});

/** Configures the restore provider as the engine would, with these `domainapi:*` values. */
function configure(values: Record<string, string | undefined>): void {
  restore.configure({
    config: {
      get: (k: string) => values[k.replace(/^domainapi:/, "")],
      require: (k: string) => values[k.replace(/^domainapi:/, "")] as string,
    },
  });
}

async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

const news = () => ({ __provider: PROVIDER, domain: "shop.example" });

describe("malformed settings fail check() with up's message, and nothing is sent", () => {
  const cases: Array<[string, () => Record<string, string>]> = [
    ["a baseUrl ending in /v2", () => ({ apiKey: API_KEY, baseUrl: `${sandbox.url}/v2` })],
    ["a baseUrl without a scheme", () => ({ apiKey: API_KEY, baseUrl: sandbox.url.replace("http://", "") })],
    ["a timeoutMs of abc", () => ({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: "abc" })],
    ["a maxRetries of 11", () => ({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: "11" })],
    ["a maxRetries of -1", () => ({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: "-1" })],
    ["a key with a space", () => ({ apiKey: "two words", baseUrl: sandbox.url })],
    ["no baseUrl", () => ({ apiKey: API_KEY })],
    ["a bad baseUrl and no key", () => ({ baseUrl: "ftp://api.example.com" })],
  ];
  it.each(cases)("%s", async (_what, values) => {
    configure(values());
    const atCheck = await thrown(() => restore.check({}, news()));
    const atUp = await thrown(() => restore.create({ ...news() }));
    expect(atCheck).toBeInstanceOf(ConfigError);
    expect((atCheck as ConfigError).message).toBe((atUp as ConfigError).message);
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a missing key", () => {
  it("is a warning at check(), said once, and an error at create; nothing is sent", async () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    configure({ baseUrl: sandbox.url });
    const result = await restore.check({}, news());
    await restore.check({}, news());
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toEqual({ domain: "shop.example" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain("domainapi:apiKey is not set");
    expect(warn.mock.calls[0]?.[0]).toContain("`pulumi up` fails until it is set");
    const atUp = await thrown(() => restore.create({ ...news() }));
    expect(atUp).toBeInstanceOf(ConfigError);
    expect((atUp as ConfigError).problems).toEqual([expect.stringMatching(/^domainapi:apiKey is not set: /)]);
    expect(sandbox.requests).toEqual([]);
  });

  it("with good settings, check() neither warns nor fails, and create is sent", async () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    configure({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: "0" });
    await restore.check({}, news());
    expect(warn).not.toHaveBeenCalled();
    expect(sandbox.requests).toEqual([]);
    await restore.create({ ...news() });
    expect(sandbox.requests.map((r) => r.method)).toEqual(["POST"]);
  });
});

describe("checkConfig and explicit provider settings", () => {
  it("tells the missing key from the malformed settings", () => {
    expect(checkConfig(() => undefined, {}).error?.problems).toHaveLength(2);
    expect(checkConfig((k) => ({ baseUrl: "https://api.example.com" })[k as string], {})).toEqual({
      warning: expect.stringContaining("domainapi:apiKey is not set"),
    });
    expect(
      checkConfig((k) => ({ apiKey: "k", baseUrl: "https://api.example.com" })[k as string], {}),
    ).toEqual({});
  });

  it("a provider's inputs configure the session, numbers as numbers, and bad ones are named as inputs", () => {
    configureFrom(
      { apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 1500, maxRetries: 2, verifyOnRefresh: true },
      "provider",
    );
    expect(settingsCheck()).toEqual({});
    expect(verifyOnRefreshSetting()).toBe("true");
    configureFrom({ apiKey: API_KEY, baseUrl: `${sandbox.url}/v2`, timeoutMs: 0 }, "provider");
    expect(settingsCheck().error?.problems).toEqual([
      expect.stringContaining("ends with /v2"),
      expect.stringMatching(
        /^the provider's timeoutMs "0" must be .*: it comes from the explicit provider's `timeoutMs` input: change that input in the program/,
      ),
    ]);
    expect(settingsCheck().error?.message).not.toContain("pulumi config set");
  });

  it("a bad setting's advice names where it came from: stack config, environment or provider input", () => {
    const fromStack = checkConfig(
      (k) => ({ apiKey: "key-12345", baseUrl: sandbox.url, timeoutMs: "soon" })[k as string],
      {},
    );
    expect(fromStack.error?.problems).toEqual([
      'domainapi:timeoutMs "soon" must be an integer from 1 to 600000: it comes from the stack config domainapi:timeoutMs: ' +
        "change it with `pulumi config set domainapi:timeoutMs 30000`.",
    ]);
    const env = { DOMAINAPI_TIMEOUT_MS: "soon" };
    for (const [source, unset] of [
      ["stack", "domainapi:timeoutMs"],
      ["provider", "the provider's input"],
    ] as const) {
      const fromEnv = checkConfig(
        (k) => ({ apiKey: "key-12345", baseUrl: sandbox.url })[k as string],
        env,
        source,
      );
      expect(fromEnv.error?.problems).toEqual([
        `DOMAINAPI_TIMEOUT_MS "soon" must be an integer from 1 to 600000: it comes from the DOMAINAPI_TIMEOUT_MS environment variable (${unset} is not set): change it there.`,
      ]);
    }
    const missing = checkConfig(() => undefined, {}, "provider");
    expect(missing.error?.problems).toEqual([
      expect.stringContaining("set the provider's `apiKey` input"),
      expect.stringContaining("set the provider's `baseUrl` input"),
    ]);
  });
});

describe("getContactsOutput in a preview without a key", () => {
  it("warns and is unknown, as a value only up can tell; nothing is sent", async () => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    vi.spyOn(pulumi.runtime, "isDryRun").mockReturnValue(true);
    vi.spyOn(pulumi.runtime, "getConfig").mockImplementation((k: string) =>
      k === "domainapi:baseUrl" ? sandbox.url : undefined,
    );
    const out = getContactsOutput({ perPage: 5 });
    expect(await (out as unknown as { isKnown: Promise<boolean> }).isKnown).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("domainapi:apiKey is not set"));
    expect(sandbox.requests).toEqual([]);
  });
});
