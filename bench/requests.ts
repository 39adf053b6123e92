/**
 * Requests per change, and record ids changed, on a template of 20 records: ours (sent to the
 * sandbox through the provider's own create, diff and update), a replace-everything strategy (one
 * PUT, every id new) and one request per record. The run stops if the requests the sandbox saw
 * differ from the count the provider's plan states.
 */
import { API_KEY } from "./lib/package.ts";
import { configureFor, create, idsAt, planCounts, type RecordArgs, update } from "./lib/records.ts";
import { type Section, section } from "./lib/report.ts";
import { startSandbox } from "./lib/sandbox.ts";

const TEMPLATE_RECORDS: RecordArgs[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "AAAA", content: "2001:db8::10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=none" },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
  ...Array.from({ length: 11 }, (_, i) => ({
    name: `host${i}`,
    type: "A" as const,
    content: `192.0.2.${20 + i}`,
  })),
];

const CHANGES: Array<[string, (rs: RecordArgs[]) => RecordArgs[]]> = [
  ["no-op", (rs) => rs],
  ["reorder", (rs) => [...rs].reverse()],
  ["change 1", (rs) => rs.map((r) => (r.name === "host0" ? { ...r, content: "192.0.2.99" } : r))],
  [
    "add 3",
    (rs) => [
      ...rs,
      ...[1, 2, 3].map((i) => ({ name: `new${i}`, type: "A" as const, content: `198.51.100.${i}` })),
    ],
  ],
  [
    "type change",
    (rs) => rs.map((r) => (r.name === "www" ? { name: "www", type: "A", content: "192.0.2.80" } : r)),
  ],
  ["delete half", (rs) => rs.slice(0, rs.length / 2)],
];

/** Runs the benchmark and reports it as section 2. */
export async function benchRequests(): Promise<Section[]> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: { bench: [] } } });
  configureFor(sandbox, API_KEY);
  const rows: Array<Array<string | number>> = [];
  try {
    for (const [label, change] of CHANGES) {
      const created = await create("bench", TEMPLATE_RECORDS);
      const before = idsAt(sandbox, "bench");
      sandbox.clearRequests();
      const desired = change(TEMPLATE_RECORDS);
      const updated = await update(created, desired);
      const sent = sandbox.requests.length;
      const idsChanged = [...idsAt(sandbox, "bench")].filter((id) => !before.has(id)).length;
      const plan =
        updated === created
          ? { creates: 0, updates: 0, deletes: 0, requests: 0 }
          : planCounts(updated.outs.lastPlan);
      if (plan.requests !== sent) {
        throw new Error(`${label}: the plan states ${plan.requests} requests but ${sent} were sent`);
      }
      const changed = plan.creates + plan.updates + plan.deletes;
      rows.push([
        label,
        `${plan.creates}/${plan.updates}/${plan.deletes}`,
        sent,
        changed === 0 ? 0 : 1,
        changed,
        idsChanged,
        changed === 0 ? 0 : desired.length,
        plan.creates,
      ]);
    }
  } finally {
    await sandbox.close();
  }
  return [
    section(
      2,
      "Requests per change (template of 20 records)",
      "create/update/delete as the provider's plan states them; `ours` is what the sandbox received and equals " +
        "the plan's request count; ids changed = records of the resulting template whose id did not exist " +
        "before. Replace-everything skips a change only when the set is unchanged.",
      [
        "change",
        "c/u/d",
        "requests: ours",
        "replace-everything",
        "one per record",
        "ids changed: ours",
        "replace-everything",
        "one per record",
      ],
      rows,
    ),
  ];
}
