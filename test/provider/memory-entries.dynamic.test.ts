/**
 * DnsTemplateRecords through the dynamic provider's methods (dynamic/impl.ts, what the engine's
 * dynamic-provider host calls), configured per account with a key of its own
 * (test/provider/memory-entries.ts).
 */
import { describe, expect, test } from "vitest";
import { records } from "../../provider/dynamic/impl";
import { BOUND_MB, FIRST, growthOver, LAST, TIMEOUT, useAccounts } from "./memory-entries";

const accounts = useAccounts();

describe(`the dynamic provider for ${LAST} accounts keeps the heap within ${BOUND_MB} MB of where it was after ${FIRST}`, () => {
  test(
    "DnsTemplateRecords through the dynamic provider: configure, check, create, delete",
    TIMEOUT,
    async () => {
      const growth = await growthOver(accounts.sandbox(), async (_n, key) => {
        const config: Record<string, string> = {
          "domainapi:apiKey": key,
          "domainapi:baseUrl": accounts.baseUrl(),
          "domainapi:maxRetries": "0",
        };
        records.configure({
          config: { get: (k: string) => config[k], require: (k: string) => config[k] ?? "" },
        });
        const news = { templateId: "web", records: [{ name: "@", type: "A", content: "192.0.2.10" }] };
        const checked = await records.check({}, news);
        expect(checked.failures ?? []).toEqual([]);
        const made = await records.create(checked.inputs ?? {});
        expect(made.outs?.templateId).toBe("web");
        await records.delete(made.id, made.outs ?? {});
      });
      expect(growth).toBeLessThan(BOUND_MB);
    },
  );
});
