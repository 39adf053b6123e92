/**
 * Readable previews: `pulumi preview --diff` under the real engine shows one entry per changed
 * record (records are keyed in the state), and a state written in the earlier array shape previews
 * as no change.
 */

import type { Deployment } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { typeToken, useSandbox, useStack } from "./harness";
import { API_KEY, type DesiredRecord, programFor, recordsStack } from "./records-helpers";

const base: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
  { name: "api", type: "A", content: "192.0.2.20" },
  { name: "mail", type: "A", content: "192.0.2.30" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  { name: "@", type: "TXT", content: "google-site-verification=abc123" },
  { name: "@", type: "TXT", content: "ms=ms12345" },
];

/** The corrections of the plan the preview logged (`+ CREATE ...`, `~ MODIFY ...`, `- DELETE ...`), by kind. */
function planCorrections(text: string): { create: number; update: number; delete: number } {
  const count = (re: RegExp) => text.split("\n").filter((l) => re.test(l)).length;
  return {
    create: count(/^\s*\+ CREATE /),
    update: count(/^\s*~ MODIFY /),
    delete: count(/^\s*- DELETE /),
  };
}

/** The record entries the preview shows inside `records: { ... }`, by marker. */
function recordEntries(previewText: string): {
  added: string[];
  removed: string[];
  changed: string[];
  same: string[];
} {
  const out = {
    added: [] as string[],
    removed: [] as string[],
    changed: [] as string[],
    same: [] as string[],
  };
  const lines = previewText.split("\n");
  const start = lines.findIndex((l) => /^\s+[~+-]?\s*records\s*:\s*\{/.test(l));
  if (start < 0) return out;
  const indent = (lines[start + 1]?.match(/^\s*/)?.[0].length ?? 0) + 0;
  for (const line of lines.slice(start + 1)) {
    const m = line.match(/^(\s*)([+~-])?\s*("?[^\s:"]+\/[A-Z0-9]+[^:"]*"?)\s*:\s*\{/);
    if (/^\s*}\s*$/.test(line) && (line.match(/^\s*/)?.[0].length ?? 0) < indent - 2) break;
    if (!m) continue;
    const key = (m[3] ?? "").replaceAll('"', "").trim();
    if (m[2] === "+") out.added.push(key);
    else if (m[2] === "-") out.removed.push(key);
    else if (m[2] === "~") out.changed.push(key);
    else out.same.push(key);
  }
  return out;
}

describe("pulumi preview --diff of DnsTemplateRecords", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const desired = { records: base };

  const s = useStack(() =>
    recordsStack(
      sandbox,
      programFor("tpl-1", () => desired.records),
    ),
  );
  beforeAll(async () => {
    await s.up();
  });

  async function previewOf(records: DesiredRecord[]) {
    desired.records = records;
    const preview = await s.preview({ diff: true });
    return { preview, entries: recordEntries(preview.stdout) };
  }

  it("shows exactly one added entry for one added record (inserted at the top)", async () => {
    const { entries } = await previewOf([{ name: "@", type: "AAAA", content: "2001:db8::1" }, ...base]);
    expect(entries.added).toEqual(["@/AAAA"]);
    expect(entries.removed).toEqual([]);
    expect(entries.changed).toEqual([]);
  });

  it("shows exactly one removed entry for one removed record", async () => {
    const { entries } = await previewOf(base.filter((r) => r.name !== "api"));
    expect(entries).toMatchObject({ added: [], removed: ["api/A"], changed: [] });
  });

  it.each([
    ["content", (r: DesiredRecord) => (r.name === "mail" ? { ...r, content: "192.0.2.31" } : r), "mail/A"],
    ["port", (r: DesiredRecord) => (r.type === "SRV" ? { ...r, port: 5061 } : r), "_sip._tcp/SRV"],
    ["weight", (r: DesiredRecord) => (r.type === "SRV" ? { ...r, weight: 6 } : r), "_sip._tcp/SRV"],
    ["priority", (r: DesiredRecord) => (r.type === "SRV" ? { ...r, priority: 11 } : r), "_sip._tcp/SRV"],
    [
      "priority of one of two MX records",
      (r: DesiredRecord) => (r.content === "mx2.example.net" ? { ...r, priority: 30 } : r),
      "@/MX/mx2.example.net",
    ],
  ])("shows exactly one changed entry for a change of %s", async (_field, change, key) => {
    const { entries } = await previewOf(base.map(change));
    expect(entries).toMatchObject({ added: [], removed: [], changed: [key] });
    expect(entries.same.length).toBe(base.length - 1);
  });

  it.each([
    [
      "the content of the lone @ A changed, one of two @ MX removed, one AAAA added",
      () => [
        ...base
          .filter((r) => r.content !== "mx1.example.net")
          .map((r) => (r.name === "@" && r.type === "A" ? { ...r, content: "192.0.2.11" } : r)),
        { name: "@", type: "AAAA", content: "2001:db8::1" },
      ],
      { added: ["@/AAAA"], removed: ["@/MX/mx1.example.net"], changed: ["@/A"] },
    ],
    [
      "one of two MX removed",
      () => base.filter((r) => r.content !== "mx2.example.net"),
      { added: [], removed: ["@/MX/mx2.example.net"], changed: [] },
    ],
    [
      "the content of one of three TXT records changed",
      () => base.map((r) => (r.content === "ms=ms12345" ? { ...r, content: "ms=ms67890" } : r)),
      { added: [], removed: [], changed: ["@/TXT/ms=ms12345"] },
    ],
    [
      "the priority of one MX changed",
      () => base.map((r) => (r.content === "mx1.example.net" ? { ...r, priority: 5 } : r)),
      { added: [], removed: [], changed: ["@/MX/mx1.example.net"] },
    ],
    [
      "an insert",
      () => [{ name: "@", type: "TXT", content: "new=1" }, ...base],
      { added: ["@/TXT/new=1"], removed: [], changed: [] },
    ],
    [
      "a type change",
      () =>
        base.map((r) => (r.name === "api" ? { name: "api", type: "CNAME", content: "api.example.net." } : r)),
      { added: ["api/CNAME"], removed: ["api/A"], changed: [] },
    ],
    ["a reorder", () => [...base].reverse(), { added: [], removed: [], changed: [] }],
  ])(
    "shows one entry per correction of the plan, signed by its kind: %s",
    async (_case, records, expected) => {
      const { preview, entries } = await previewOf(records());
      expect(entries).toMatchObject(expected);
      const plan = planCorrections(preview.stdout + preview.stderr);
      expect(plan).toEqual({
        create: expected.added.length,
        update: expected.changed.length,
        delete: expected.removed.length,
      });
    },
  );

  it("shows a type change as one removed and one added entry", async () => {
    const { entries } = await previewOf(
      base.map((r) => (r.name === "www" ? { name: "www", type: "A", content: "192.0.2.40" } : r)),
    );
    expect(entries).toMatchObject({ added: ["www/A"], removed: ["www/CNAME"], changed: [] });
  });

  it("shows nothing when the program reorders its records", async () => {
    const { preview, entries } = await previewOf([...base].reverse());
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(entries).toMatchObject({ added: [], removed: [], changed: [] });
  });

  it("previews a stack whose state has the earlier array shape as no change", async () => {
    desired.records = base;
    const deployment = await s.exportState();
    const resources = (deployment.deployment as { resources: Array<Record<string, unknown>> }).resources;
    const target = resources.find((r) => r.type === typeToken("DnsTemplateRecords"));
    if (!target) throw new Error("no DnsTemplateRecords in the state");
    // The earlier shape: records as an array (outputs carry each record's id), recordIds aligned.
    const outputs = target.outputs as { records: Record<string, DesiredRecord>; ids: Record<string, string> };
    const array = Object.entries(outputs.records).map(([key, r]) => ({ ...r, recordId: outputs.ids[key] }));
    const inputs = target.inputs as Record<string, unknown>;
    target.inputs = {
      __provider: inputs.__provider,
      templateId: "tpl-1",
      purge: true,
      records: array.map(({ recordId: _id, ...r }) => r),
    };
    target.outputs = {
      __provider: inputs.__provider,
      templateId: "tpl-1",
      purge: true,
      records: array,
      recordIds: array.map((r) => r.recordId),
    };
    await s.stack.importStack(deployment as Deployment);
    sandbox.clearRequests();
    const preview = await s.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(sandbox.requests).toEqual([]);
    // And the next real change works from that state, keeping every id.
    const before = (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort();
    desired.records = base.map((r) => (r.name === "mail" ? { ...r, content: "192.0.2.32" } : r));
    await s.up();
    expect(sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method)).toEqual(["PATCH"]);
    expect((sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort()).toEqual(before);
  });
});
