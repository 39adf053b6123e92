/**
 * Verified updates: what the proof that every held record still exists costs. For templates of 20
 * and 1,000 records, the requests and body bytes an update sends per change, with and without purge
 * (the first PATCH re-states every unchanged held record: docs/design.md, "Verified updates").
 */
import { API_KEY } from "./lib/package.ts";
import { configureFor, create, type RecordArgs, scaleRecord, update } from "./lib/records.ts";
import { type Section, section } from "./lib/report.ts";
import { startSandbox } from "./lib/sandbox.ts";

/** The changes measured, from the declared records of a template of `n`. */
export function changesOf(declared: RecordArgs[]): Array<[string, RecordArgs[]]> {
  return [
    ["change 1", declared.map((r, i) => (i === 0 ? { ...r, content: "10.9.9.9" } : r))],
    [
      "add 3",
      [
        ...declared,
        ...[1, 2, 3].map((i) => ({ name: `new${i}`, type: "A" as const, content: `198.51.100.${i}` })),
      ],
    ],
    ["delete 1", declared.slice(1)],
  ];
}

/** Runs the benchmark and reports it as section 6. */
export async function benchVerified(): Promise<Section[]> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: { bench: [] } } });
  configureFor(sandbox, API_KEY);
  const rows: Array<Array<string | number>> = [];
  try {
    for (const n of [20, 1_000]) {
      const declared = Array.from({ length: n }, (_, i) => scaleRecord(i));
      for (const [label, desired] of changesOf(declared)) {
        for (const purge of [true, false]) {
          sandbox.seedTemplate("bench", []);
          const held = await create("bench", declared, purge);
          sandbox.clearRequests();
          await update(held, desired, purge);
          const bytes = sandbox.requests.reduce(
            (sum, r) => sum + Buffer.byteLength(JSON.stringify(r.body ?? "")),
            0,
          );
          rows.push([
            `${n.toLocaleString("en-US")} records, ${label}, purge: ${purge}`,
            sandbox.requests.length,
            bytes.toLocaleString("en-US"),
            (bytes / n).toFixed(1),
          ]);
        }
      }
    }
  } finally {
    await sandbox.close();
  }
  return [
    section(
      6,
      "Verified updates: requests and bytes sent per change",
      "What the sandbox received for one update through the provider (JSON body bytes). With purge the first " +
        "PATCH also re-states every unchanged held record; without purge a request that names record ids " +
        "carries no add, so an add costs one request more.",
      ["change", "requests", "body bytes", "bytes per held record"],
      rows,
    ),
  ];
}
