/**
 * What a user reads during `pulumi up`, at the provider's log sink (without an engine, the SDK's
 * `pulumi.log` prints to the console): the methods are called in the engine's order for the
 * command (a create: check, create; a change: check, diff, update), and every message is counted.
 * The plan is said once; each correction is said once as it is carried out, with its id.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox, useConsoleLines } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);

const said = useConsoleLines();

beforeEach(() => sandbox.reset());

/** Every line said, one entry per line (a message of one request holds a line per correction). */
function lines(): string[] {
  return said.flatMap((m) => m.split("\n")).map((l) => l.replace(/^(info|warning): \[runtime\] /, ""));
}

/** How many lines said contain `text`. */
function times(text: string): number {
  return lines().filter((l) => l.includes(text)).length;
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

/** The id the sandbox gave the record `name TYPE content` of `templateId`. */
function idOf(templateId: string, name: string, content: string): string {
  const found = (sandbox.templateRecords(templateId) ?? []).find(
    (r) => r.name === name && r.content === content,
  );
  expect(found, `${name} ${content} in ${templateId}`).toBeDefined();
  return found?.record_id ?? "";
}

const www = { name: "www", type: "A", content: "192.0.2.1" };
const api = { name: "api", type: "A", content: "192.0.2.2" };
const old = { name: "old", type: "TXT", content: "going" };
const spf = { name: "@", type: "TXT", content: "v=spf1 -all" };

describe("one announcement per operation", () => {
  for (const purge of [false, true]) {
    it(`a create (purge: ${purge}) says each record once, as it is written, with its id`, async () => {
      const inputs = await checked({ templateId: "tpl-1", records: [www, old], purge });
      await records.create(inputs);
      for (const r of [www, old]) {
        const record = `+ CREATE ${r.name} ${r.type} ${r.content}`;
        expect(times(record), record).toBe(1);
        expect(lines()).toContain(`template tpl-1: ${record} (id ${idOf("tpl-1", r.name, r.content)})`);
      }
    });
  }

  it("an update says its plan once (the diff's) and each correction once as it is carried out, with its id", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: [www, old, spf], purge: false });
    const created = await records.create(inputs);
    const outs = { ...(created.outs as Props), __provider: PROVIDER };
    const wwwId = idOf("tpl-1", "www", www.content);
    const oldId = idOf("tpl-1", "old", old.content);
    said.length = 0;

    // The engine's calls for one `up` of the change: check, diff, update.
    const changed = [{ ...www, content: "192.0.2.9" }, spf, api];
    const news = await checked({ templateId: "tpl-1", records: changed, purge: false }, inputs);
    const diff = await records.diff("tpl-1/x", outs, news);
    expect(diff.changes).toBe(true);
    await records.update("tpl-1/x", outs, news);

    const summary = "1 to create, 1 to update, 1 to delete, 1 unchanged (2 requests)";
    expect(times(summary)).toBe(1);
    const corrections = {
      "~ MODIFY www A content 192.0.2.1 -> 192.0.2.9": `(id ${wwwId} kept)`,
      "- DELETE old TXT going": `(id ${oldId} removed)`,
      "+ CREATE api A 192.0.2.2": `(id ${idOf("tpl-1", "api", api.content)})`,
    };
    for (const [message, id] of Object.entries(corrections)) {
      // Once in the plan, once as it is carried out: never a third time.
      expect(times(message), message).toBe(2);
      expect(lines(), message).toContain(`  ${message}`);
      expect(lines(), message).toContain(`template tpl-1: ${message} ${id}`);
    }
  });

  it("a destroy says each removal once, with its id", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: [www, old], purge: false });
    const created = await records.create(inputs);
    const ids = [idOf("tpl-1", "old", old.content), idOf("tpl-1", "www", www.content)];
    said.length = 0;
    await records.delete("tpl-1/x", { ...(created.outs as Props), __provider: PROVIDER });
    expect(times("- DELETE")).toBe(2);
    expect(lines()).toContain(`template tpl-1: - DELETE old TXT going (id ${ids[0]} removed)`);
    expect(lines()).toContain(`template tpl-1: - DELETE www A 192.0.2.1 (id ${ids[1]} removed)`);
  });
});
