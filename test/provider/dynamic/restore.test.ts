/**
 * The serialized shim of DomainRestore as the engine's dynamic host drives it: every method reaches
 * the implementation the package exports (`pulumi-domainapi/impl`), configured from the stack
 * config, against the sandbox: a create is the one POST, a new domain replaces, an update of a
 * confirmed restore and a delete send nothing; there is no read.
 */
import { describe, expect, it } from "vitest";
import restoreProvider from "../../../provider/dynamic/restore";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { configureFor } from "../helpers";

type Props = Record<string, unknown>;
const sandbox = useSandbox();
const sent = () => sandbox.requests.map((r) => `${r.method} ${r.path}`);

describe("the DomainRestore shim", () => {
  it("configures, checks, creates, diffs, updates and deletes through the package's implementation", async () => {
    configureFor(restoreProvider as never, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 });
    expect(restoreProvider.read).toBeUndefined();
    const checked = await restoreProvider.check?.({}, { domain: "Shop.Example" });
    expect(checked).toEqual({ inputs: { domain: "shop.example" } });

    const created = await restoreProvider.create(checked?.inputs as Props);
    expect(created.id).toBe("shop.example");
    expect(created.outs.restoredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sent()).toEqual(["POST /v2/domains/shop.example/restore"]);
    expect(sandbox.domainStatus("shop.example")).toBe("active");

    await expect(
      restoreProvider.diff?.("shop.example", created.outs, { domain: "other.example" }),
    ).resolves.toEqual({
      changes: true,
      replaces: ["domain"],
      deleteBeforeReplace: true,
    });
    sandbox.reset();
    const updated = await restoreProvider.update?.("shop.example", created.outs, { domain: "shop.example" });
    expect(updated?.outs).toEqual(created.outs);
    await restoreProvider.delete?.("shop.example", created.outs);
    expect(sent()).toEqual([]);
  });
});
