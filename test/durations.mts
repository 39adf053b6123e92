/**
 * The table of expected file durations that test/sequencer.mts orders the run by
 * (test/durations.json), made from the results `npm test` writes (test/.work/vitest-results.json).
 * Refresh it after a full run that changed which files are long: `node test/durations.mts [report]`.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Seconds a test file took, by its path from the repository root (with `/`). */
export type Durations = Record<string, number>;

/** The part of vitest's JSON report read here. */
interface JsonReport {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

/**
 * The durations of a vitest JSON report, rounded to a second; a file's time is its run's, as the
 * report has it (collection and set-up included).
 */
export function durationsFromResults(report: JsonReport): Durations {
  // The report names files by absolute path in the checkout that ran it: the root is what they share.
  const dirs = report.testResults.map((file) => path.dirname(file.name).split(path.sep));
  const first = dirs[0] ?? [];
  let shared = first.length;
  for (const dir of dirs)
    while (dir.slice(0, shared).join(path.sep) !== first.slice(0, shared).join(path.sep)) shared--;
  const root = first.slice(0, shared).join(path.sep) || path.sep;
  const entries = report.testResults.map((file) => [
    path.relative(root, file.name).split(path.sep).join("/"),
    Math.max(1, Math.round((file.endTime - file.startTime) / 1000)),
  ]);
  return Object.fromEntries(entries.sort(([a], [b]) => String(a).localeCompare(String(b))));
}

if (import.meta.main) {
  const root = path.resolve(import.meta.dirname, "..");
  const results = process.argv[2] ?? path.join(root, "test", ".work", "vitest-results.json");
  const report = JSON.parse(fs.readFileSync(results, "utf8")) as JsonReport;
  const out = path.join(root, "test", "durations.json");
  fs.writeFileSync(out, `${JSON.stringify(durationsFromResults(report), null, 2)}\n`);
  console.log(`wrote ${out} (${report.testResults.length} files)`);
}
