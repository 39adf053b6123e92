/**
 * What the sandbox tests of interrupted runs share (interrupted.test.ts, interrupted.attack.test.ts):
 * the provider's own methods against the sandbox behind a proxy that holds the answer of a request
 * the sandbox applied (or holds the request before it), a journal directory per test, and a `kill -9`
 * at the held moment: the journal as it was then is put back, and the next operation starts from the
 * state the engine had.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { machineDir } from "../../../provider/host/machineFiles";
import * as records from "../../../provider/records/provider";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { configureFor, PROVIDER, useConsoleLines } from "../helpers";
import { type HoldingProxy, holdingProxy } from "../holdingProxy";

type Props = Record<string, unknown>;

/** Records the tests declare. */
export const A = { name: "@", type: "A", content: "192.0.2.10" };
export const MX = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
export const WWW = { name: "www", type: "CNAME", content: "example.net." };
export const API = { name: "api", type: "A", content: "192.0.2.20" };

/**
 * The harness of one test file: its sandbox, the holding proxy in front of it, the provider
 * configured for the proxy, the console lines, a journal directory per test (`prefix` names it) and
 * the environment put back after each test.
 */
export function useInterruptedRuns(prefix: string) {
  const sandbox: Sandbox = useSandbox();
  let held: HoldingProxy | undefined;
  const said = useConsoleLines();
  const saved = { ...process.env };
  const proxy = (): HoldingProxy => held as HoldingProxy;

  beforeAll(async () => {
    held = await holdingProxy(sandbox.url);
    configureFor(records, { url: held.url } as Sandbox, API_KEY, { maxRetries: 0, timeoutMs: 5000 });
  });
  afterAll(() => held?.close());
  beforeEach(() => {
    process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), prefix));
    proxy().seen.length = 0;
  });
  afterEach(() => {
    for (const k of ["DOMAINAPI_STATE_DIR", "DOMAINAPI_EXPECT_PLAN", "DOMAINAPI_REWRITE"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  /** The journal's entries on disk. */
  const journalFiles = (): string[] => {
    const root = machineDir("journal");
    try {
      return readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".json"))
        .map((f) => join(root, f));
    } catch {
      return [];
    }
  };

  /** `check` as the engine calls it, expecting no failure; the checked inputs. */
  const checked = async (news: Props, olds: Props = {}): Promise<Props> => {
    const result = await records.check(olds, { __provider: PROVIDER, ...news });
    expect(result.failures ?? []).toEqual([]);
    return { ...(result.inputs as Props), __provider: PROVIDER };
  };

  /** A created resource: its id, checked inputs and outputs (`seed`: the template made empty first). */
  const deployed = async (templateId: string, declared: Props[], purge: boolean, seed = false) => {
    if (seed) sandbox.seedTemplate(templateId, []);
    const inputs = await checked({ templateId, records: declared, purge });
    const created = await records.create(inputs);
    return { id: created.id, inputs, outs: { ...(created.outs as Props), __provider: PROVIDER } };
  };

  /**
   * Leaves the journal as a `kill -9` would while the `nth` next `method` request was held, after
   * (`applied`) or before (`unsent`) the sandbox applied it; `whileHeld` looks at that moment.
   */
  const killed = async (
    method: string,
    operation: () => Promise<unknown>,
    nth = 1,
    when: "applied" | "unsent" = "applied",
    whileHeld: () => void = () => undefined,
  ): Promise<void> => {
    const hold = when === "applied" ? proxy().holdNext(method, nth) : proxy().holdBefore(method, nth);
    const call = operation().catch(() => undefined);
    await hold;
    const copy = mkdtempSync(join(tmpdir(), "journal-copy-"));
    cpSync(machineDir("journal"), copy, { recursive: true });
    whileHeld();
    proxy().drop();
    await call;
    rmSync(machineDir("journal"), { recursive: true, force: true });
    cpSync(copy, machineDir("journal"), { recursive: true });
    said.length = 0;
    proxy().seen.length = 0;
  };

  return {
    sandbox,
    said,
    proxy,
    journalFiles,
    checked,
    deployed,
    killed,
    /** The template as the sandbox holds it: `name TYPE content`, sorted (a doubled record shows twice). */
    template: (templateId: string): string[] =>
      (sandbox.templateRecords(templateId) ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort(),
    lines: (rs: Props[]) => rs.map((r) => `${r.name} ${r.type} ${r.content}`).sort(),
    ids: (outs: Props) => Object.values(outs.ids as Record<string, string>).sort(),
    sandboxIds: (templateId: string) =>
      (sandbox.templateRecords(templateId) ?? []).map((r) => r.record_id).sort(),
    sent: () =>
      proxy()
        .seen.filter((s) => s.method !== "GET")
        .map((s) => s.method),
  };
}
