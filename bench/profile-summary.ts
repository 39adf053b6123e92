/**
 * Prints where CPU profiles spend their time, as markdown tables (self time by package, then by
 * function), for bench/README.md.
 *
 *   node bench/profile-summary.ts [--top 15] file.cpuprofile...
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { readProfile, summarize } from "./lib/cpuprofile.ts";
import { table } from "./lib/report.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "15" } },
});
const top = Number(values.top);
for (const file of positionals) {
  const { total, functions, packages } = summarize(readProfile(file));
  const row = (s: { name: string; ms: number; share: number }): string[] => [
    `\`${s.name}\``,
    `${Math.round(s.ms)} ms`,
    `${(s.share * 100).toFixed(1)}%`,
  ];
  console.log(`#### ${path.basename(file)}: ${Math.round(total)} ms profiled\n`);
  console.log(`${table(["package", "self time", "share"], packages.slice(0, top).map(row))}\n`);
  console.log(`${table(["function", "self time", "share"], functions.slice(0, top).map(row))}\n`);
}
