/**
 * What the memory tests at the entry points share (test/provider/memory-entries.*.test.ts): a
 * process that serves many accounts one after another (an Automation API host, a long-lived
 * provider process) must not grow with the number it has served (docs/design.md, "Clients"). Each
 * account has a key of its own; the heap after 2,000 accounts stays within 25 MB of the heap after
 * 200.
 */
import { randomBytes } from "node:crypto";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, vi } from "vitest";
import { type Front, heapAfterGc, startFront } from "./accounts";

/** Where the heap is first measured, and where last. */
export const FIRST = 200;
export const LAST = Number(process.env.MEM_LAST ?? 2_000);
/** The growth allowed between them, in MB. */
export const BOUND_MB = 25;
/** Long enough for 2,000 accounts on a busy machine. */
export const TIMEOUT = { timeout: 300_000 };

const SANDBOX_KEY = "memory-entries-sandbox-key";

/** One sandbox behind a front that takes any key, for the whole test file. */
export function useAccounts(): { sandbox(): Sandbox; baseUrl(): string } {
  let sandbox: Sandbox | undefined;
  let front: Front | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: SANDBOX_KEY, contacts: 3 });
    front = await startFront(sandbox.url, SANDBOX_KEY);
  });
  afterAll(async () => {
    await front?.close();
    await sandbox?.close();
  });
  return {
    sandbox: () => sandbox as Sandbox,
    // One registrar API, as an Automation API host serving its customers sees it.
    baseUrl: () => `${(front as Front).url}/acct-1`,
  };
}

/** A key as an account's would look: 40 random hex digits, different for every account. */
function keyOf(): string {
  return randomBytes(20).toString("hex");
}

/**
 * Runs `serve` for accounts 1..LAST, one after another, each with a new key, and returns the heap
 * growth in MB between account FIRST and account LAST (after full collections).
 */
export async function growthOver(
  sandbox: Sandbox,
  serve: (n: number, key: string) => Promise<void>,
): Promise<number> {
  // Without an engine, the provider's lines go to the console, which the test runner keeps: quiet
  // it, so that what is measured is the provider's heap, not the runner's buffer.
  const quiet = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation(() => undefined),
  );
  try {
    let after200 = 0;
    for (let n = 1; n <= LAST; n++) {
      await serve(n, keyOf());
      if (n % 200 === 0) sandbox.clearRequests();
      if (n === FIRST) after200 = heapAfterGc();
    }
    return (heapAfterGc() - after200) / 2 ** 20;
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
}
