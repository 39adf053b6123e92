/**
 * Shared set-up of the provider-method tests: configure a provider module (as the engine's plugin
 * does through `configure()`) with stack-config settings pointing at a sandbox.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Sandbox } from "domainapi-sandbox";
import { afterEach, beforeAll, beforeEach, vi } from "vitest";
import { API_KEY as SANDBOX_KEY, useSandbox } from "../../sandbox/test/helpers";

/** The text tests use as the engine's serialized provider; partial states must carry it. */
export const PROVIDER = "serialized-provider-text";

/** Calls `configure` as the engine would, with `domainapi:*` settings for `sandbox`. */
export function configureFor(
  provider: { configure(req: pulumi.dynamic.ConfigureRequest): void },
  sandbox: Sandbox,
  apiKey: string,
  settings: { maxRetries: number; timeoutMs: number },
): void {
  const values: Record<string, string> = {
    "domainapi:apiKey": apiKey,
    "domainapi:baseUrl": sandbox.url,
    "domainapi:maxRetries": String(settings.maxRetries),
    "domainapi:timeoutMs": String(settings.timeoutMs),
  };
  provider.configure({
    config: { get: (k: string) => values[k], require: (k: string) => values[k] as string },
  });
}

/**
 * One sandbox for a whole test file (see `useSandbox`) with `provider` configured for it, as the
 * engine's plugin would configure it, before the first test.
 *
 * @example
 * const sandbox = useConfiguredSandbox(records);
 */
export function useConfiguredSandbox(
  provider: { configure(req: pulumi.dynamic.ConfigureRequest): void },
  settings: { maxRetries: number; timeoutMs: number } = { maxRetries: 0, timeoutMs: 2000 },
): Sandbox {
  const sandbox = useSandbox();
  beforeAll(() => configureFor(provider, sandbox, SANDBOX_KEY, settings));
  return sandbox;
}

/**
 * The property path a check failure is about: its `property`, or for a path into the records (which
 * the engine could not print, see `checkFailure` in records/provider.ts) the path the reason starts with.
 */
export function failurePath(failure: { property: string; reason: string }): string {
  if (failure.property !== "") return failure.property;
  return (
    /^records(?:\[\d+\]|\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])*(?=: )/.exec(failure.reason)?.[0] ?? ""
  );
}

/**
 * What the provider prints in a test, line by line: without an engine the SDK's `pulumi.log`
 * prints to the console. Collected from each test's start; `said.length = 0` forgets what an
 * earlier step of the test printed.
 *
 * @example
 * const said = useConsoleLines();
 */
export function useConsoleLines(): string[] {
  const said: string[] = [];
  beforeEach(() => {
    said.length = 0;
    for (const method of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, method).mockImplementation((line: unknown) => {
        said.push(String(line));
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());
  return said;
}
