/**
 * The planner at scale: the provider's `diff` (decode the state and the checked inputs, plan) of a
 * template of 1,000, 10,000 and 100,000 records with 10% changes (a third updated, a third deleted,
 * a third added), in process. Growth against the same at a tenth of the size: 10x is linear.
 */
import { performance } from "node:perf_hooks";
import { API_KEY, domainapi } from "./lib/package.ts";
import { checked, configureFor, type RecordArgs, scaleRecord } from "./lib/records.ts";
import { median, ratio, type Section, section } from "./lib/report.ts";

/**
 * The outputs of a resource holding `n` records (checked inputs, an id per record key) and the
 * declared records with 10% of them changed.
 */
async function workload(
  n: number,
): Promise<{ olds: Record<string, unknown>; desired: RecordArgs[]; changed: number }> {
  const inputs = await checked(
    "scale",
    Array.from({ length: n }, (_, i) => scaleRecord(i)),
  );
  const keys = Object.keys(inputs.records as Record<string, unknown>);
  const ids = Object.fromEntries(keys.map((key, i) => [key, `r${i}`]));
  const changed = n / 10;
  const third = Math.floor(changed / 3);
  const desired: RecordArgs[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0 && i / 10 < third) desired.push(scaleRecord(i, 1));
    else if (i % 10 === 1 && (i - 1) / 10 < third) continue;
    else desired.push(scaleRecord(i));
  }
  for (let k = 0; k < changed - 2 * third; k++) desired.push(scaleRecord(n + k));
  const olds = { ...inputs, ids, lastPlan: "" };
  return { olds, desired, changed };
}

/** Runs the benchmark and reports it as section 5. */
export async function benchPlanner(): Promise<Section[]> {
  const rows: string[][] = [];
  let previous: number | undefined;
  // The provider's info lines (the plan it logs) are not results.
  const log = console.log;
  console.log = () => undefined;
  // Settings only: planning sends nothing, so nothing listens there.
  configureFor({ url: "http://127.0.0.1:9" }, API_KEY);
  try {
    for (const n of [1_000, 10_000, 100_000]) {
      const { olds, desired, changed } = await workload(n);
      const news = await checked("scale", desired, olds);
      const runs = n >= 100_000 ? 5 : 9;
      const times: number[] = [];
      let changes = false;
      // One run first, not counted: the provider process has run check() on the same records
      // before the engine calls diff, so its code is warm.
      await domainapi.dnsTemplateRecordsProvider.diff!("scale", olds, news);
      for (let run = 0; run < runs; run++) {
        const t0 = performance.now();
        changes = (await domainapi.dnsTemplateRecordsProvider.diff!("scale", olds, news)).changes ?? false;
        times.push(performance.now() - t0);
      }
      if (!changes) throw new Error(`${n}: the diff found no change`);
      const t = median(times);
      rows.push([
        n.toLocaleString("en-US"),
        changed.toLocaleString("en-US"),
        `${t.toFixed(1)} ms`,
        `${((t * 1000) / n).toFixed(2)} µs`,
        previous === undefined ? "" : ratio(t / previous),
        previous === undefined ? "" : `n^${(Math.log(t / previous) / Math.log(10)).toFixed(2)}`,
      ]);
      previous = t;
    }
  } finally {
    console.log = log;
  }
  return [
    section(
      5,
      "The planner with 10% changes",
      "The provider's diff (decode the held state and the checked inputs, plan once) in process, median of 9 " +
        "runs (5 at 100k) after one not counted; growth = time / time at a tenth of the size (10x is linear).",
      ["records", "changed", "time", "per record", "growth for 10x records", "as a power of n"],
      rows,
    ),
  ];
}
