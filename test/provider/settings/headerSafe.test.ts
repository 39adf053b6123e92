/**
 * A key that no HTTP header can carry is refused when the settings are checked (the check a
 * preview runs, and `up` before its first request), naming the position and never the key.
 * Before, undici refused it at the first request, and the user read "lost the connection (invalid
 * authorization header) ... The request is safe to repeat", which it never is.
 */
import { describe, expect, test } from "vitest";
import { DomainApiClient, getClient } from "../../../provider/client/api";
import { ConfigError } from "../../../provider/errors";
import { type ConfigKey, checkConfig, resolveConfig } from "../../../provider/settings/config";
import { apiKeyHeaderProblem } from "../../../provider/settings/headerSafe";
import { API_KEY, useHarness } from "../client/helpers";

const KEY = "sk_live_HEADER_SECRET_7c41";

const h = useHarness({ maxRetries: 0 });

function settings(apiKey: string) {
  const values: Partial<Record<ConfigKey, string>> = { apiKey, baseUrl: h.sandbox.url };
  return (key: ConfigKey) => values[key];
}

/** Keys as they arrive from a copy and paste, with the position (from 1) of the first bad character. */
const UNSENDABLE: [what: string, key: string, position: number, codePoint: string][] = [
  ["a zero-width space pasted after it", `${KEY}\u200b`, KEY.length + 1, "U+200B"],
  ["a zero-width space inside it", `sk_live_\u200b${KEY.slice(8)}`, 9, "U+200B"],
  ["a byte order mark inside it", `sk_\ufeff${KEY.slice(3)}`, 4, "U+FEFF"],
  ["a right-to-left override", `sk\u202e${KEY.slice(2)}`, 3, "U+202E"],
  ["a character beyond Latin-1", `sk_live_\u043a${KEY.slice(9)}`, 9, "U+043A"],
  ["an emoji (a surrogate pair, one character)", `sk_\u{1f511}_${KEY.slice(4)}`, 4, "U+1F511"],
  ["a line feed inside it", `sk_live\n_${KEY.slice(8)}`, 8, "U+000A"],
  ["a carriage return inside it", `sk_live\r_${KEY.slice(8)}`, 8, "U+000D"],
  ["a tab inside it", `sk_live\t${KEY.slice(8)}`, 8, "U+0009"],
  ["a no-break space inside it", `sk_live\u00a0${KEY.slice(8)}`, 8, "U+00A0"],
  ["a C1 control character", `sk_live\u0085${KEY.slice(8)}`, 8, "U+0085"],
];

describe("the settings check refuses a key no header can carry", { timeout: 30_000 }, () => {
  test.each(UNSENDABLE)(
    "%s: named by position and code point, the key never shown",
    (_what, key, position, cp) => {
      const { error, warning } = checkConfig(settings(key), {});
      expect(warning).toBeUndefined();
      expect(error).toBeInstanceOf(ConfigError);
      const message = error?.message ?? "";
      expect(message).toContain(
        `domainapi:apiKey cannot be sent in an HTTP header: its character ${position} is`,
      );
      expect(message).toContain(`(${cp})`);
      // Where the key came from, and the one way to change it there, so the fix is at hand.
      expect(message).toContain(
        "it comes from the stack config domainapi:apiKey: change it with `pulumi config set --secret domainapi:apiKey <key>`",
      );
      for (const text of [message, String(error), JSON.stringify(error), error?.stack ?? ""]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(KEY.slice(0, 12));
        expect(text).not.toContain(KEY.slice(-8));
      }
      // `up` (resolving the settings for a client) refuses it the same way: no client, no request.
      expect(() => getClient(resolveConfig(settings(key), {}))).toThrow(ConfigError);
      expect(h.sandbox.requests).toHaveLength(0);
    },
  );

  test("a client made by hand with such a key is refused when made, before any request", () => {
    const key = `${KEY}\u200b`;
    let thrown: unknown;
    try {
      new DomainApiClient({ apiKey: key, baseUrl: h.sandbox.url, timeoutMs: 2_000, maxRetries: 0 });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect(message).toContain(`its character ${KEY.length + 1} is an invisible formatting character`);
    expect(message).not.toContain(KEY);
    expect(message).not.toMatch(/lost the connection|safe to repeat/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  test("every bad character is counted, the first named", () => {
    const problem = apiKeyHeaderProblem(`a\u200bb\u200bc\u00e9d\u2028`);
    expect(problem).toMatch(
      /its character 2 is an invisible formatting character .*\(U\+200B\); 2 more such character\(s\), at position\(s\) 4, 8\./,
    );
  });

  test("a key a header can carry passes, Latin-1 letters included, and reaches the API", async () => {
    expect(apiKeyHeaderProblem(KEY)).toBeUndefined();
    expect(apiKeyHeaderProblem("sk-Ünïcödé-latin1")).toBeUndefined();
    expect(checkConfig(settings(API_KEY), {})).toEqual({});
    const page = await getClient(resolveConfig(settings(API_KEY), {})).listContacts(
      new URLSearchParams({ per_page: "1" }),
    );
    expect(page.data).toHaveLength(1);
    // A Latin-1 key is sent (and refused by the API as a wrong key, not lost as a connection).
    const latin1 = resolveConfig(settings("sk-\u00e9-wrong"), {});
    await expect(getClient(latin1).listContacts(new URLSearchParams())).rejects.toMatchObject({
      kind: "auth",
      status: 401,
    });
  });
});
