import { describe, expect, test } from "vitest";
import { ConfigError } from "../../../provider/errors";
import { type ConfigKey, resolveConfig } from "../../../provider/settings/config";

const KEY = "sk_live_CONFIG_SECRET_123456";

function stack(values: Partial<Record<ConfigKey, string>>) {
  return (key: ConfigKey) => values[key];
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveConfig", () => {
  test("reads the stack config and applies defaults", () => {
    const config = resolveConfig(stack({ apiKey: KEY, baseUrl: "https://api.example.com" }), {});
    expect(config).toEqual({
      apiKey: KEY,
      baseUrl: "https://api.example.com",
      timeoutMs: 30_000,
      maxRetries: 4,
      keyAdvice:
        "it comes from the stack config domainapi:apiKey: change it with `pulumi config set --secret domainapi:apiKey <key>`",
    });
  });

  test("falls back to the environment", () => {
    const config = resolveConfig(undefined, {
      DOMAINAPI_API_KEY: KEY,
      DOMAINAPI_BASE_URL: "http://127.0.0.1:8080/",
      DOMAINAPI_TIMEOUT_MS: "1500",
      DOMAINAPI_MAX_RETRIES: "0",
    });
    expect(config).toEqual({
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:8080",
      timeoutMs: 1500,
      maxRetries: 0,
      keyAdvice:
        "it comes from the DOMAINAPI_API_KEY environment variable (domainapi:apiKey is not set): change it there",
    });
  });

  test("stack config wins over the environment, setting by setting", () => {
    const config = resolveConfig(stack({ baseUrl: "https://stack.example.com", timeoutMs: "700" }), {
      DOMAINAPI_API_KEY: KEY,
      DOMAINAPI_BASE_URL: "https://env.example.com",
      DOMAINAPI_TIMEOUT_MS: "900",
      DOMAINAPI_MAX_RETRIES: "2",
    });
    expect(config).toMatchObject({
      apiKey: KEY,
      baseUrl: "https://stack.example.com",
      timeoutMs: 700,
      maxRetries: 2,
    });
  });

  test("an empty stack value does not hide the environment", () => {
    const config = resolveConfig(stack({ apiKey: "", baseUrl: "" }), {
      DOMAINAPI_API_KEY: KEY,
      DOMAINAPI_BASE_URL: "https://env.example.com",
    });
    expect(config.baseUrl).toBe("https://env.example.com");
  });

  test.each([
    ["https://api.example.com", "https://api.example.com"],
    ["https://api.example.com/", "https://api.example.com"],
    ["https://api.example.com//", "https://api.example.com"],
    ["http://api.example.com:8443/prefix/", "http://api.example.com:8443/prefix"],
    ["  https://API.example.com  ", "https://api.example.com"],
  ])("normalizes base URL %j to %j", (input, expected) => {
    expect(resolveConfig(stack({ apiKey: KEY, baseUrl: input }), {}).baseUrl).toBe(expected);
  });

  test("missing key and base URL: one message naming both ways to set each", () => {
    const err = configError(() => resolveConfig(stack({}), {}));
    expect(err.problems).toHaveLength(2);
    expect(err.message).toContain("pulumi config set --secret domainapi:apiKey");
    expect(err.message).toContain("DOMAINAPI_API_KEY");
    expect(err.message).toContain("pulumi config set domainapi:baseUrl");
    expect(err.message).toContain("DOMAINAPI_BASE_URL");
  });

  test.each([
    ["ftp://api.example.com", "must use http or https"],
    ["api.example.com", "is not an absolute URL"],
    ["https://api.example.com/v2", "drop the /v2"],
    ["https://api.example.com/v2/", "drop the /v2"],
    ["https://api.example.com?x=1", "query or a fragment"],
  ])(
    "rejects base URL %j, naming the stack config it came from and the one way to change it",
    (baseUrl, reason) => {
      const err = configError(() => resolveConfig(stack({ apiKey: KEY, baseUrl }), {}));
      expect(err.message).toContain(reason);
      expect(err.message).toContain(
        "it comes from the stack config domainapi:baseUrl: change it with `pulumi config set domainapi:baseUrl",
      );
      // The environment variable would change nothing: the stack config wins over it.
      expect(err.message).not.toContain("DOMAINAPI_BASE_URL");
    },
  );

  test("rejects credentials in the base URL without echoing them", () => {
    const err = configError(() =>
      resolveConfig(stack({ apiKey: KEY, baseUrl: "https://user:hunter2@api.example.com" }), {}),
    );
    expect(err.message).toContain("must not contain a user name or password");
    expect(err.message).not.toContain("hunter2");
  });

  test.each([
    ["timeoutMs", "0"],
    ["timeoutMs", "600001"],
    ["timeoutMs", "1.5"],
    ["timeoutMs", "soon"],
    ["maxRetries", "11"],
    ["maxRetries", "-1"],
  ] as const)("rejects %s = %j, naming the range and where it came from", (key, value) => {
    const err = configError(() =>
      resolveConfig(stack({ apiKey: KEY, baseUrl: "https://a.example", [key]: value }), {}),
    );
    expect(err.message).toContain(`domainapi:${key}`);
    expect(err.message).toMatch(/must be an integer from \d+ to \d+/);
    expect(err.message).toContain(`change it with \`pulumi config set domainapi:${key}`);
    const envName = key === "timeoutMs" ? "DOMAINAPI_TIMEOUT_MS" : "DOMAINAPI_MAX_RETRIES";
    expect(err.message).not.toContain(envName);
    // From the environment: the variable is named, and fixed there.
    const fromEnv = configError(() =>
      resolveConfig(stack({ apiKey: KEY, baseUrl: "https://a.example" }), { [envName]: value }),
    );
    expect(fromEnv.problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${envName} "${value.replace(".", "\\.")}" must be .*: it comes from the ${envName} environment variable \\(domainapi:${key} is not set\\): change it there\\.$`,
        ),
      ),
    ]);
  });

  test("lists every problem at once", () => {
    const err = configError(() =>
      resolveConfig(stack({ baseUrl: "gopher://x", timeoutMs: "-5", maxRetries: "many" }), {}),
    );
    expect(err.problems).toHaveLength(4);
  });

  test("never puts the key in the message, even when the key is what is wrong or is pasted elsewhere", () => {
    const keyWithSpace = `${KEY} extra`;
    const errors = [
      configError(() => resolveConfig(stack({ apiKey: keyWithSpace, baseUrl: "https://a.example" }), {})),
      configError(() => resolveConfig(stack({ apiKey: KEY, baseUrl: `https://a.example/${KEY}/v2` }), {})),
      configError(() =>
        resolveConfig(stack({ apiKey: KEY, baseUrl: "https://a.example", timeoutMs: KEY }), {}),
      ),
    ];
    for (const err of errors) {
      for (const text of [err.message, String(err), JSON.stringify(err), err.stack ?? ""]) {
        expect(text).not.toContain(KEY);
      }
    }
    expect(errors[0]?.message).toContain("whitespace or control characters");
  });

  test("trims a key read with a trailing newline", () => {
    expect(
      resolveConfig(undefined, { DOMAINAPI_API_KEY: `${KEY}\n`, DOMAINAPI_BASE_URL: "https://a.example" })
        .apiKey,
    ).toBe(KEY);
  });
});
