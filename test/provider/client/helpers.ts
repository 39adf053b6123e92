/**
 * Shared set-up of the client tests: a real sandbox on 127.0.0.1 port 0, a client configured for
 * it with short timeouts, and a log sink that keeps every debug line so tests can inspect them.
 */

import { startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import { Transport, type TransportOptions } from "../../../provider/client/transport";
import { DomainApiError } from "../../../provider/errors";
import type { ClientConfig } from "../../../provider/settings/config";

/** A key distinctive enough that any leak of it shows up in a substring search. */
export const API_KEY = "sk_test_SECRET_9f8e7d6c5b4a3210";

/** The sandbox handle as `startSandbox` returns it. */
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** A started sandbox plus a client and transport pointed at it, and the debug lines they logged. */
export interface Harness {
  sandbox: Sandbox;
  config: ClientConfig;
  client: DomainApiClient;
  transport: Transport;
  logs: string[];
  /** The info lines (waits for a 429 or 503, with their length and request). */
  infos: string[];
  close(): Promise<void>;
}

/** Starts a sandbox and a client for it. Call `close()` in afterEach/afterAll. */
export async function harness(
  overrides: Partial<ClientConfig> = {},
  options: TransportOptions = {},
  sandboxOptions: Record<string, unknown> = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ apiKey: API_KEY, port: 0, ...sandboxOptions });
  const config: ClientConfig = {
    apiKey: API_KEY,
    baseUrl: sandbox.url,
    timeoutMs: 2_000,
    maxRetries: 4,
    ...overrides,
  };
  const logs: string[] = [];
  const infos: string[] = [];
  const opts: TransportOptions = {
    log: (line) => logs.push(line),
    info: (line) => infos.push(line),
    backoffBaseMs: 20,
    ...options,
  };
  const client = new DomainApiClient(config, opts);
  const transport = new Transport(config, opts);
  return {
    sandbox,
    config,
    client,
    transport,
    logs,
    infos,
    async close() {
      await client.close();
      await transport.close();
      await sandbox.close();
    },
  };
}

/**
 * One {@link harness} for a whole test file: started before its first test, closed after its last,
 * and with the sandbox's state and the debug lines cleared before each test, so tests do not see
 * each other's requests. The returned object is filled in by the first `beforeAll`.
 *
 * @example
 * const h = useHarness({ maxRetries: 3 });
 * test("...", async () => { await h.client.replaceRecords(...); expect(h.logs).toEqual(...); });
 */
export function useHarness(overrides: Partial<ClientConfig> = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await harness(overrides));
  });
  afterAll(async () => {
    await h.close?.();
  });
  beforeEach(() => {
    h.sandbox.reset();
    h.logs.length = 0;
    h.infos.length = 0;
  });
  return h;
}

/** Runs `fn` and returns what it threw; fails the test when it did not throw. */
export async function failure(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Runs `fn` and returns the DomainApiError it threw; fails the test on success or another error. */
export async function apiFailure(fn: () => Promise<unknown>): Promise<DomainApiError> {
  const err = await failure(fn);
  if (!(err instanceof DomainApiError)) throw new Error(`expected a DomainApiError, got ${String(err)}`);
  return err;
}

/** The sandbox's log of /v2 requests matching a method. */
export function requestsOf(sandbox: Sandbox, method: string): Sandbox["requests"] {
  return sandbox.requests.filter((r) => r.method === method);
}
