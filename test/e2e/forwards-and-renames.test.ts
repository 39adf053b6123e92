/**
 * Under the real engine, against the sandbox's default (a URL forward brings an A and an AAAA
 * record, and the answer to its add names all their ids): forwards created, their URL changed,
 * removed and destroyed with purge and without, the state's ids exactly the template's after each
 * step; and a rename while another record of the type is deleted keeps the renamed record's id.
 */

import { FORWARD_SERVER } from "domainapi-sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { type TestStack, useSandbox } from "./harness";
import {
  API_KEY,
  type DesiredRecord,
  mutating,
  programFor,
  recordIdOf,
  recordsStack,
} from "./records-helpers";

const sandbox = useSandbox({ apiKey: API_KEY });
let s: TestStack | undefined;

afterEach(async () => {
  await s?.cleanup();
  s = undefined;
  sandbox.reset();
});

const line = (r: { name: string; type: string; content: string }) => `${r.name} ${r.type} ${r.content}`;

/** Every id the resource's state holds (a forward's are a list). */
async function stateIds(stack: TestStack): Promise<string[]> {
  const [resource] = await stack.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
  const ids = (resource!.outputs as { ids: Record<string, string | string[]> }).ids;
  return Object.values(ids).flat().sort();
}

for (const purge of [true, false]) {
  describe(`URL forwards under the engine (purge ${purge})`, () => {
    it("created, URL changed, removed, destroyed: the state's ids are exactly the template's, nothing added twice", async () => {
      const templateId = purge ? "tpl-1" : "tpl-2";
      const legacy = { name: "legacy", type: "TXT", content: "made by hand" };
      if (!purge) sandbox.seedTemplate(templateId, [legacy]);
      const desired: { records: DesiredRecord[] } = {
        records: [
          { name: "@", type: "A", content: "192.0.2.10" },
          { name: "www", type: "CNAME", content: "{domainname}." },
          { name: "go", type: "URLFWD", content: "https://example.org/" },
          { name: "moved", type: "URLFWD301", content: "https://example.net/new" },
        ],
      };
      s = await recordsStack(
        sandbox,
        programFor(templateId, () => desired.records, { purge }),
      );
      const check = async (label: string) => {
        const held = sandbox.templateRecords(templateId) ?? [];
        const forwards = desired.records.filter((r) => r.type.startsWith("URL"));
        const expected = [
          ...desired.records.map(line),
          ...forwards.flatMap((f) => [
            `${f.name} A ${FORWARD_SERVER.A}`,
            `${f.name} AAAA ${FORWARD_SERVER.AAAA}`,
          ]),
          ...(purge ? [] : [line(legacy)]),
        ].sort();
        expect(held.map(line).sort(), label).toEqual(expected);
        const owned = held.filter((r) => line(r) !== line(legacy)).map((r) => r.record_id);
        expect(await stateIds(s!), label).toEqual(owned.sort());
      };

      const created = await s.up();
      await check("created");
      expect(created.outputs.recordIds?.value).toHaveLength(4 + 2 * 2);
      // The A and AAAA records the service made are neither drift nor changes.
      sandbox.clearRequests();
      const same = await s.preview();
      expect(same.changeSummary?.update ?? 0).toBe(0);
      expect(mutating(sandbox)).toEqual([]);

      desired.records = desired.records.map((r) =>
        r.name === "go" ? { ...r, content: "https://example.org/v2" } : r,
      );
      await s.up();
      await check("URL changed");

      desired.records = desired.records.filter((r) => r.name !== "moved");
      await s.up();
      await check("forward removed");

      await s.destroy();
      expect((sandbox.templateRecords(templateId) ?? []).map(line)).toEqual(purge ? [] : [line(legacy)]);
    });
  });
}

describe("a rename while another record of the type is deleted", () => {
  it("keeps the renamed record's id (www renamed to web, api deleted)", async () => {
    const desired: { records: DesiredRecord[] } = {
      records: [
        { name: "@", type: "A", content: "192.0.2.10" },
        { name: "www", type: "A", content: "192.0.2.30" },
        { name: "api", type: "A", content: "192.0.2.20" },
      ],
    };
    s = await recordsStack(
      sandbox,
      programFor("tpl-3", () => desired.records),
    );
    await s.up();
    const wwwId = recordIdOf(sandbox, "tpl-3", "www", "A");
    const atId = recordIdOf(sandbox, "tpl-3", "@", "A");
    desired.records = [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "web", type: "A", content: "192.0.2.30" },
    ];
    const preview = await s.preview();
    const said = preview.stdout + preview.stderr;
    expect(said).toContain("- DELETE api A 192.0.2.20");
    expect(said).toContain("~ MODIFY www A 192.0.2.30 name www -> web");
    await s.up();
    expect(recordIdOf(sandbox, "tpl-3", "web", "A")).toBe(wwwId);
    expect(recordIdOf(sandbox, "tpl-3", "@", "A")).toBe(atId);
    expect((sandbox.templateRecords("tpl-3") ?? []).map(line).sort()).toEqual([
      "@ A 192.0.2.10",
      "web A 192.0.2.30",
    ]);
  });
});
