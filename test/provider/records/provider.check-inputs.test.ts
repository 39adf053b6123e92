/**
 * The records resource's `check()` (what a preview calls for every resource) refuses, before any
 * request: record content holding a control character, at `records[i].content`; and malformed
 * provider settings, with the very message `up` gives (docs/design.md, "Previews and plans").
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../provider/errors";
import * as records from "../../../provider/records/provider";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { failurePath, PROVIDER } from "../helpers";

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
});

/** Configures the records provider as the engine would, with these `domainapi:*` values. */
function configure(values: Record<string, string | undefined>): void {
  records.configure({
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

const news = (content: string) => ({
  __provider: PROVIDER,
  templateId: "web",
  records: [
    { name: "@", type: "A", content: "192.0.2.1" },
    { name: "note", type: "TXT", content },
  ],
});

describe("content with a control character fails check() at records[i].content", () => {
  it.each([
    ["a line feed", "l1\nl2", "U+000A"],
    ["a carriage return", "l1\rl2", "U+000D"],
    ["a tab", "a\tb", "U+0009"],
    ["a NUL", "a\u0000b", "U+0000"],
    ["a line separator", "a\u2028b", "U+2028"],
    ["a paragraph separator", "a\u2029b", "U+2029"],
    ["a C1 control", "a\u0085b", "U+0085"],
  ])("%s", async (_what, content, code) => {
    configure({ apiKey: API_KEY, baseUrl: sandbox.url });
    const result = await records.check({}, news(content));
    const failures = result.failures ?? [];
    expect(failures.map(failurePath)).toEqual(["records[1].content"]);
    const position = [...content].findIndex((ch) => /[\p{Cc}\u2028\u2029]/u.test(ch)) + 1;
    expect(failures[0]?.reason).toContain(`(${code} at position ${position})`);
    expect(failures[0]?.reason).toContain("a record's value is one line");
    expect(sandbox.requests).toEqual([]);
  });

  it("the same content on one line passes", async () => {
    configure({ apiKey: API_KEY, baseUrl: sandbox.url });
    const result = await records.check({}, news("l1 l2"));
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("malformed settings fail the records resource's check() with up's message; nothing is sent", () => {
  it.each<[string, () => Record<string, string>]>([
    ["a baseUrl ending in /v2", () => ({ apiKey: API_KEY, baseUrl: `${sandbox.url}/v2` })],
    ["a timeoutMs of abc", () => ({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: "abc" })],
    ["a maxRetries of 11", () => ({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: "11" })],
    ["a key with a zero-width space", () => ({ apiKey: `${API_KEY}\u200b`, baseUrl: sandbox.url })],
  ])("%s", async (_what, values) => {
    configure(values());
    const atCheck = await thrown(() => records.check({}, news("v=spf1 -all")));
    const atUp = await thrown(() => records.create({ __provider: PROVIDER, templateId: "web", records: {} }));
    expect(atCheck).toBeInstanceOf(ConfigError);
    expect((atCheck as ConfigError).message).toBe((atUp as ConfigError).message);
    expect((atCheck as ConfigError).message).not.toContain(API_KEY);
    expect(sandbox.requests).toEqual([]);
  });
});
