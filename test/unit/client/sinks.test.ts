/**
 * The lines the client writes about itself (provider/client/sinks.ts): the debug line of an attempt,
 * the info line of a wait, where they go without an engine, and the User-Agent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { attemptLine, defaultInfo, defaultLog, userAgent, waitLine } from "../../../provider/client/sinks";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("the debug line of an attempt", () => {
  test("method, path, outcome, duration and attempt; the wait before the next one when there is one", () => {
    expect(attemptLine("GET", "/v2/contacts?page=2", "200", 12, 1)).toBe(
      "GET /v2/contacts?page=2 -> 200 in 12 ms (attempt 1)",
    );
    expect(attemptLine("PUT", "/v2/dns/templates/web/records", "503", 7, 2, 300)).toBe(
      "PUT /v2/dns/templates/web/records -> 503 in 7 ms (attempt 2); retrying in 300 ms",
    );
  });
});

describe("the info line of a wait", () => {
  test("names the request, the status and its text, the wait in seconds and the attempt to come", () => {
    expect(waitLine("GET", "/v2/contacts", 429, 2, 1_500)).toBe(
      "GET /v2/contacts was answered 429 Too Many Requests; waiting 1.5 s before sending it again (attempt 2)",
    );
    expect(waitLine("PATCH", "/v2/dns/templates/web/records", 503, 3, 250)).toBe(
      "PATCH /v2/dns/templates/web/records was answered 503 Service Unavailable; waiting 0.3 s before sending it again (attempt 3)",
    );
  });

  test("a wait of ten seconds or more in whole seconds, a shorter one to a tenth", () => {
    expect(waitLine("GET", "/v2/contacts", 503, 2, 9_940)).toContain("waiting 9.9 s ");
    expect(waitLine("GET", "/v2/contacts", 503, 2, 10_000)).toContain("waiting 10 s ");
    expect(waitLine("GET", "/v2/contacts", 503, 2, 61_600)).toContain("waiting 62 s ");
  });

  test("a status Node has no text for is shown alone", () => {
    expect(waitLine("GET", "/v2/contacts", 599, 2, 1_000)).toBe(
      "GET /v2/contacts was answered 599; waiting 1.0 s before sending it again (attempt 2)",
    );
  });
});

// The first of these loads the Pulumi SDK (to ask whether an engine listens): slow on a busy machine.
describe("the default sinks without an engine", { timeout: 30_000 }, () => {
  function stderr(): string[] {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    return written;
  }

  test("a wait goes to stderr, prefixed, one line", () => {
    const written = stderr();
    defaultInfo("GET /v2/contacts was answered 429");
    expect(written).toEqual(["[domainapi] GET /v2/contacts was answered 429\n"]);
  });

  test("a debug line goes to stderr only with DOMAINAPI_DEBUG set", () => {
    const written = stderr();
    vi.stubEnv("DOMAINAPI_DEBUG", "");
    defaultLog("GET /v2/contacts -> 200 in 3 ms (attempt 1)");
    expect(written).toEqual([]);
    vi.stubEnv("DOMAINAPI_DEBUG", "1");
    defaultLog("GET /v2/contacts -> 200 in 3 ms (attempt 1)");
    expect(written).toEqual(["[domainapi] GET /v2/contacts -> 200 in 3 ms (attempt 1)\n"]);
  });
});

test("the User-Agent names the package and the version that runs", () => {
  const { version } = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as {
    version: string;
  };
  expect(userAgent()).toBe(`pulumi-domainapi/${version}`);
  expect(userAgent()).toBe(`pulumi-domainapi/${version}`);
});
