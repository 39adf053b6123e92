/**
 * What the settings check tells a user, word for word: each malformed base address or number, the
 * edges of each range, and the one place to fix each value (the stack config, an explicit
 * provider's input, or the environment variable behind either). Pure: the environment is passed in.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../provider/errors";
import {
  type ConfigKey,
  canonicalBaseUrl,
  checkConfig,
  resolveConfig,
  type SettingsSource,
} from "../../../provider/settings/config";

const KEY = "sk_live_123";
const URL_OK = "https://api.example.net";
const STACK_URL_FIX =
  "it comes from the stack config domainapi:baseUrl: change it with `pulumi config set domainapi:baseUrl https://api.example.com`.";

const lookup = (values: Partial<Record<ConfigKey, string>>) => (key: ConfigKey) => values[key];

function problems(
  values: Partial<Record<ConfigKey, string>>,
  env: NodeJS.ProcessEnv = {},
  source?: SettingsSource,
): readonly string[] {
  try {
    resolveConfig(lookup(values), env, source);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("the base address", () => {
  it.each([
    ["ftp://x.example", 'domainapi:baseUrl "ftp://x.example" must use http or https, not ftp: '],
    ["not a url", 'domainapi:baseUrl "not a url" is not an absolute URL: '],
    [
      "https://x.example/?a=1",
      'domainapi:baseUrl "https://x.example/?a=1" must not contain a query or a fragment: ',
    ],
    [
      "https://x.example/#top",
      'domainapi:baseUrl "https://x.example/#top" must not contain a query or a fragment: ',
    ],
    [
      "https://x.example/api/V2//",
      'domainapi:baseUrl "https://x.example/api/V2//" ends with /v2; drop the /v2, since every request path starts with it (e.g. https://x.example/api): ',
    ],
    [
      "https://x.example/v2",
      'domainapi:baseUrl "https://x.example/v2" ends with /v2; drop the /v2, since every request path starts with it (e.g. https://x.example): ',
    ],
  ])("%j", (baseUrl, start) => {
    expect(problems({ apiKey: KEY, baseUrl })).toEqual([start + STACK_URL_FIX]);
  });

  it("a user name or password is refused without echoing the address", () => {
    for (const baseUrl of ["https://me:pw@x.example", "https://me@x.example", "https://:pw@x.example"]) {
      expect(problems({ apiKey: KEY, baseUrl })).toEqual([
        `domainapi:baseUrl must not contain a user name or password (the key goes in apiKey): ${STACK_URL_FIX}`,
      ]);
    }
  });

  it("is used as the client writes it: trimmed, the origin's own form, no trailing slashes; /v20 is a path like another", () => {
    const resolve = (baseUrl: string) => resolveConfig(lookup({ apiKey: KEY, baseUrl }), {}).baseUrl;
    expect(resolve(" https://API.Example.net:443/api/// ")).toBe("https://api.example.net/api");
    expect(resolve("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
    expect(resolve("https://x.example/api/v20")).toBe("https://x.example/api/v20");
  });

  it("canonicalBaseUrl: that form, or nothing for an address the settings would refuse", () => {
    expect(canonicalBaseUrl("https://api.example.com/")).toBe("https://api.example.com");
    expect(canonicalBaseUrl("https://api.example.com/x//")).toBe("https://api.example.com/x");
    for (const raw of [
      undefined,
      "",
      " ",
      "x",
      "ftp://a.example",
      "https://a.example/v2",
      "https://u@a.example",
      "https://a.example?q",
    ]) {
      expect(canonicalBaseUrl(raw)).toBeUndefined();
    }
  });
});

describe("the numbers, at the edges of their ranges", () => {
  const resolve = (values: Partial<Record<ConfigKey, string>>) =>
    resolveConfig(lookup({ apiKey: KEY, baseUrl: URL_OK, ...values }), {});

  it("takes 1 and 600000 ms, 0 and 10 retries, spaces around them trimmed", () => {
    expect(resolve({ timeoutMs: "1", maxRetries: "0" })).toMatchObject({ timeoutMs: 1, maxRetries: 0 });
    expect(resolve({ timeoutMs: " 600000 ", maxRetries: "10\n" })).toMatchObject({
      timeoutMs: 600_000,
      maxRetries: 10,
    });
  });

  it("refuses what lies outside, or is not written as digits", () => {
    const timeout = (v: string) =>
      `domainapi:timeoutMs ${JSON.stringify(v)} must be an integer from 1 to 600000: it comes from the stack config domainapi:timeoutMs: change it with \`pulumi config set domainapi:timeoutMs 30000\`.`;
    const retries = (v: string) =>
      `domainapi:maxRetries ${JSON.stringify(v)} must be an integer from 0 to 10: it comes from the stack config domainapi:maxRetries: change it with \`pulumi config set domainapi:maxRetries 4\`.`;
    expect(problems({ apiKey: KEY, baseUrl: URL_OK, timeoutMs: "0", maxRetries: "11" })).toEqual([
      timeout("0"),
      retries("11"),
    ]);
    expect(problems({ apiKey: KEY, baseUrl: URL_OK, timeoutMs: "600001", maxRetries: "-1" })).toEqual([
      timeout("600001"),
      retries("-1"),
    ]);
    expect(problems({ apiKey: KEY, baseUrl: URL_OK, timeoutMs: "1.5", maxRetries: "1e1" })).toEqual([
      timeout("1.5"),
      retries("1e1"),
    ]);
    expect(problems({ apiKey: KEY, baseUrl: URL_OK, timeoutMs: "99999999999999999999" })).toEqual([
      timeout("99999999999999999999"),
    ]);
  });
});

describe("the one place to fix each value", () => {
  it("a value from the environment under a stack: change it there, the stack setting being unset", () => {
    expect(problems({ apiKey: KEY, baseUrl: URL_OK }, { DOMAINAPI_TIMEOUT_MS: "abc" })).toEqual([
      'DOMAINAPI_TIMEOUT_MS "abc" must be an integer from 1 to 600000: it comes from the DOMAINAPI_TIMEOUT_MS environment variable (domainapi:timeoutMs is not set): change it there.',
    ]);
    expect(resolveConfig(lookup({}), { DOMAINAPI_API_KEY: KEY, DOMAINAPI_BASE_URL: URL_OK }).keyAdvice).toBe(
      "it comes from the DOMAINAPI_API_KEY environment variable (domainapi:apiKey is not set): change it there",
    );
  });

  it("a value from the environment under an explicit provider: its input is unset", () => {
    expect(
      problems(
        {},
        { DOMAINAPI_API_KEY: KEY, DOMAINAPI_BASE_URL: URL_OK, DOMAINAPI_MAX_RETRIES: "x" },
        "provider",
      ),
    ).toEqual([
      'DOMAINAPI_MAX_RETRIES "x" must be an integer from 0 to 10: it comes from the DOMAINAPI_MAX_RETRIES environment variable (the provider\'s input is not set): change it there.',
    ]);
  });

  it("a provider's input: change that input in the program", () => {
    expect(problems({ apiKey: KEY, baseUrl: URL_OK, timeoutMs: "abc" }, {}, "provider")).toEqual([
      "the provider's timeoutMs \"abc\" must be an integer from 1 to 600000: it comes from the explicit provider's `timeoutMs` input: change that input in the program (e.g. timeoutMs: 30000).",
    ]);
  });

  it("a value set nowhere: both ways, in the words of its source", () => {
    expect(problems({}, {}, "provider")).toEqual([
      "the provider's apiKey is not set: set the provider's `apiKey` input (as a secret) or the DOMAINAPI_API_KEY environment variable.",
      "the provider's baseUrl is not set: set the provider's `baseUrl` input (e.g. baseUrl: https://api.example.com) in the program, or the DOMAINAPI_BASE_URL environment variable.",
    ]);
    const stack = [
      "domainapi:apiKey is not set: set it with `pulumi config set --secret domainapi:apiKey <key>` or the DOMAINAPI_API_KEY environment variable.",
      "domainapi:baseUrl is not set: set it with `pulumi config set domainapi:baseUrl https://api.example.com` or the DOMAINAPI_BASE_URL environment variable.",
    ];
    expect(problems({})).toEqual(stack);
    // A key of spaces is no key; an empty stack value is unset.
    expect(problems({ apiKey: "  ", baseUrl: "" })).toEqual(stack);
  });

  it("a key no header can carry: the character, and where the key comes from", () => {
    expect(problems({ apiKey: `${KEY}\u200b`, baseUrl: URL_OK })).toEqual([
      "domainapi:apiKey cannot be sent in an HTTP header: its character 12 is an invisible formatting character (zero-width or direction mark) (U+200B). A key holds no whitespace or control characters and none beyond Latin-1; such characters usually come with a copy and paste, so copy the key again without them: it comes from the stack config domainapi:apiKey: change it with `pulumi config set --secret domainapi:apiKey <key>`.",
    ]);
    expect(problems({ apiKey: `${KEY}\n x`, baseUrl: URL_OK }, {}, "provider")[0]).toMatch(
      /^the provider's apiKey cannot be sent in an HTTP header: its character 12 is a line break \(U\+000A\); 1 more such character\(s\), at position\(s\) 13\. .*: it comes from the explicit provider's `apiKey` input: change that input in the program \(e\.g\. apiKey: <key>\)\.$/,
    );
  });

  it("a key read with a line break after it is trimmed, not refused", () => {
    expect(resolveConfig(lookup({ apiKey: `${KEY}\n`, baseUrl: URL_OK }), {}).apiKey).toBe(KEY);
  });
});

describe("checkConfig: what a preview is told", () => {
  it("a missing key alone is a warning, in the words of its source", () => {
    expect(checkConfig(lookup({ baseUrl: URL_OK }), {})).toEqual({
      warning:
        "domainapi:apiKey is not set: set it with `pulumi config set --secret domainapi:apiKey <key>` or the DOMAINAPI_API_KEY environment variable. A preview goes on without it and sends no request; `pulumi up` fails until it is set.",
    });
    expect(checkConfig(lookup({ baseUrl: URL_OK }), {}, "provider")).toEqual({
      warning:
        "the provider's apiKey is not set: set the provider's `apiKey` input (as a secret) or the DOMAINAPI_API_KEY environment variable. A preview goes on without it and sends no request; `pulumi up` fails until it is set.",
    });
  });

  it("a missing key beside another problem is an error listing both; good settings, nothing", () => {
    const { error, warning } = checkConfig(lookup({ baseUrl: "x" }), {});
    expect(warning).toBeUndefined();
    expect(error?.problems).toEqual([
      "domainapi:apiKey is not set: set it with `pulumi config set --secret domainapi:apiKey <key>` or the DOMAINAPI_API_KEY environment variable.",
      `domainapi:baseUrl "x" is not an absolute URL: ${STACK_URL_FIX}`,
    ]);
    expect(checkConfig(lookup({ apiKey: KEY }), {}).error?.problems).toHaveLength(1);
    expect(checkConfig(lookup({ apiKey: KEY, baseUrl: URL_OK }), {})).toEqual({});
  });

  it("an error that is not about the settings is not swallowed", () => {
    const broken = () => {
      throw new TypeError("lookup broke");
    };
    expect(() => checkConfig(broken, {})).toThrow("lookup broke");
  });
});
