/**
 * The default sinks under an engine (`pulumi up`): a request's debug line and a wait's info line
 * reach the engine at their severity, prefixed `domainapi:`, and a wait says nothing on stderr
 * (the engine shows it). The engine is the Pulumi SDK's own runtime, told that one listens.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { defaultInfo, defaultLog } from "../../../provider/client/sinks";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** What the engine is sent, by severity, and what the process writes to stderr. */
interface Seen {
  engine: Array<{ severity: string; message: string }>;
  stderr: string[];
}

let seen: Seen;

beforeEach(() => {
  seen = { engine: [], stderr: [] };
  vi.spyOn(pulumi.runtime, "hasEngine").mockReturnValue(true);
  for (const severity of ["debug", "info", "warn"] as const) {
    vi.spyOn(pulumi.log, severity).mockImplementation(async (message: string) => {
      seen.engine.push({ severity, message });
    });
  }
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    seen.stderr.push(String(chunk));
    return true;
  });
});

// The first of these loads the Pulumi SDK through the log module: slow on a busy machine.
describe("the default sinks with an engine listening", { timeout: 30_000 }, () => {
  test("a wait reaches the engine as info, prefixed, and nothing is written to stderr", () => {
    defaultInfo("GET /v2/contacts was answered 429; waiting 1.0 s before sending it again (attempt 2)");
    expect(seen).toEqual({
      engine: [
        {
          severity: "info",
          message:
            "domainapi: GET /v2/contacts was answered 429; waiting 1.0 s before sending it again (attempt 2)",
        },
      ],
      stderr: [],
    });
  });

  test("a request's debug line reaches the engine as debug, prefixed; stderr only with DOMAINAPI_DEBUG", () => {
    vi.stubEnv("DOMAINAPI_DEBUG", "");
    defaultLog("GET /v2/contacts -> 200 in 3 ms (attempt 1)");
    expect(seen).toEqual({
      engine: [{ severity: "debug", message: "domainapi: GET /v2/contacts -> 200 in 3 ms (attempt 1)" }],
      stderr: [],
    });
  });
});
