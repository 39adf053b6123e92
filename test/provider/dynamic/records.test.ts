/**
 * The serialized shim of DnsTemplateRecords as the engine's dynamic host drives it: every method
 * reaches the implementation the package exports (`pulumi-domainapi/impl`), configured from the
 * stack config, against the sandbox: a create is one PUT, an update a PATCH, a refresh sends
 * nothing, a delete empties the template.
 */
import { describe, expect, it } from "vitest";
import recordsProvider from "../../../provider/dynamic/records";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { configureFor } from "../helpers";

type Props = Record<string, unknown>;
const sandbox = useSandbox();
const sent = () => sandbox.requests.map((r) => r.method);

describe("the DnsTemplateRecords shim", () => {
  it("configures, checks, creates, diffs, updates, reads and deletes through the package's implementation", async () => {
    configureFor(recordsProvider as never, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 });
    const first = { templateId: "web", records: [{ name: "@", type: "A", content: "192.0.2.1" }] };
    const checked = await recordsProvider.check?.({}, first);
    expect(checked?.failures ?? []).toEqual([]);
    const inputs = checked?.inputs as Props;
    expect(sent()).toEqual([]);

    const created = await recordsProvider.create(inputs);
    expect(created.id).toBe("web");
    expect(sent()).toEqual(["PUT"]);
    expect(sandbox.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.1"]);

    const next = (
      await recordsProvider.check?.(inputs, {
        templateId: "web",
        records: [...first.records, { name: "www", type: "A", content: "192.0.2.2" }],
      })
    )?.inputs as Props;
    const diff = await recordsProvider.diff?.("web", created.outs, next);
    expect(diff?.changes).toBe(true);

    sandbox.reset();
    const updated = await recordsProvider.update?.("web", created.outs, next);
    expect(Object.keys(updated?.outs.ids as Props)).toHaveLength(2);
    expect(sent()).toContain("PATCH");
    expect(sandbox.templateRecords("web")).toHaveLength(2);

    sandbox.reset();
    const read = await recordsProvider.read?.("web", updated?.outs);
    expect(read).toEqual({ id: "web", props: updated?.outs });
    expect(sent()).toEqual([]);

    await recordsProvider.delete?.("web", updated?.outs);
    expect(sandbox.templateRecords("web")).toEqual([]);
  });
});
