/**
 * Finding vanished records after a 404: records deleted behind the provider's back (the sandbox's
 * drift), then an update of one record through the provider. The requests it sends against one
 * request per held record (how the search worked before halving).
 */
import { API_KEY } from "./lib/package.ts";
import { configureFor, create, scaleRecord, update } from "./lib/records.ts";
import { ratio, type Section, section } from "./lib/report.ts";
import { startSandbox } from "./lib/sandbox.ts";
import { changesOf } from "./verified.ts";

/** Runs the benchmark and reports it as section 7. */
export async function benchVanished(): Promise<Section[]> {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: { bench: [] } } });
  configureFor(sandbox, API_KEY);
  const rows: Array<Array<string | number>> = [];
  try {
    for (const purge of [false, true])
      for (const n of [20, 256, 1_000]) {
        const declared = Array.from({ length: n }, (_, i) => scaleRecord(i));
        const [, changeOne] = changesOf(declared)[0] as [string, typeof declared];
        for (const k of [1, 3, Math.floor(n / 2), n]) {
          // Without purge the search runs to the end: it names every vanished record. With purge it
          // stops as soon as the rewrite is certain: the PUT that follows fixes the template.
          sandbox.seedTemplate("bench", []);
          const held = await create("bench", declared, purge);
          const ids = [...(sandbox.templateRecords("bench") ?? [])].map((r) => r.record_id);
          const step = Math.max(1, Math.floor(ids.length / k));
          const gone = ids.filter((_, i) => i % step === 0).slice(0, k);
          for (const id of gone) {
            if (!sandbox.deleteRecord("bench", id)) throw new Error(`record ${id} was not in the template`);
          }
          sandbox.clearRequests();
          await update(held, changeOne, purge);
          // Re-adds (or the PUT) carry the records; everything before them is the refused PATCH and the search.
          const readds = sandbox.requests.filter((r) => {
            const add = (r.body as { add?: unknown[] } | undefined)?.add;
            return (Array.isArray(add) && add.length > 0) || r.method === "PUT";
          }).length;
          const search = sandbox.requests.length - readds;
          rows.push([
            `${n.toLocaleString("en-US")} records, ${k === n ? "all" : k} vanished, purge ${purge}`,
            search,
            readds,
            n + 1,
            ratio(search / (n + 1)),
          ]);
        }
      }
  } finally {
    await sandbox.close();
  }
  return [
    section(
      7,
      "Finding vanished records after a 404: galloping and halving vs one at a time",
      "An update of one record after records vanished behind the provider's back: the requests the provider " +
        "sent to find them (the refused PATCH and the probes, which also carry the change) against the refused " +
        "PATCH plus one probe per held record, and what restored them: without purge the re-adds of the vanished " +
        'records still declared (one request each: docs/design.md, "Record ids"), with purge the one PUT.',
      [
        "case",
        "search (refused PATCH + probes)",
        "re-adds or PUT",
        "one at a time (n + 1)",
        "search / one at a time",
      ],
      rows,
    ),
  ];
}
