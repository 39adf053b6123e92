/**
 * `domainapi-import` at scale: a zone of 10,000 records (every type the API takes, split TXT,
 * parentheses, comments, relative and absolute owners, and some records to skip) read, converted
 * through the provider's own validation, and written as a program in each language, in process,
 * from the built package (`npm run build` first). Target (issue 29): under one second.
 *
 *   node bench/import.ts                 # prints the table and appends nothing
 *   node bench/run.ts import             # once bench/run.ts lists it
 */
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type * as Import from "../provider/import/index.ts";
import { median, type Section, section } from "./lib/report.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { importProgram, importZones } = createRequire(import.meta.url)(
  path.join(repoRoot, "dist", "provider", "import", "index.js"),
) as typeof Import;

/** One record of the zone, by its index: the types in turn, a few skipped by design. */
function zoneLine(i: number): string {
  const host = `h${i}`;
  switch (i % 12) {
    case 0:
      return `${host} 300 IN A 192.0.${(i >> 8) & 255}.${i & 255}`;
    case 1:
      return `${host}.example.com. IN 300 AAAA 2001:db8::${i.toString(16)}`;
    case 2:
      return `${host} CNAME www.example.com.`;
    case 3:
      return `${host} MX ${i % 100} mail${i}`;
    case 4:
      return `_sip._tcp.${host} SRV 10 ${i % 50} 5060 sip${i}.example.net.`;
    case 5:
      return `${host} TXT "v=spf1 include:_spf.example.com " "ip4:192.0.2.${i & 255} -all"`;
    case 6:
      return `${host} TXT ( "k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${i}" ; a DKIM key\n    "QIDAQAB" )`;
    case 7:
      return `${host} CAA 0 issue "letsencrypt.org"`;
    case 8:
      return `_443._tcp.${host} TLSA 3 1 1 ( 2a3b4c5d6e7f8091 a2b3c4d5e6f7${(i & 0xffff).toString(16).padStart(4, "0")} )`;
    case 9:
      return `${host} NS ns1.sub-host.net.`;
    case 10:
      return `${host} URLFWD "https://www.example.com/${i}"`;
    default:
      return i % 24 === 11 ? `${host} PTR ptr.example.net.` : `    IN A 198.51.100.${i & 255}`;
  }
}

/** A master file of `n` records (plus SOA and the apex NS set). */
export function bigZone(n: number): string {
  const lines = [
    "; a large zone",
    "$ORIGIN example.com.",
    "$TTL 1h",
    "@ IN SOA ns1.dns-host.net. hostmaster.example.com. ( 1 7200 3600 1209600 300 )",
    "  IN NS ns1.dns-host.net.",
  ];
  for (let i = 0; i < n; i++) lines.push(zoneLine(i));
  return `${lines.join("\n")}\n`;
}

/** Runs the benchmark and reports it as section 9. */
export async function benchImport(sizes: readonly number[] = [1_000, 10_000]): Promise<Section[]> {
  const rows: string[][] = [];
  for (const n of sizes) {
    const text = bigZone(n);
    const source = [{ text, file: "example.com.zone", templateId: "big" }];
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const [first] = importZones(source);
    const cold = performance.now() - t0;
    const heapAfter = process.memoryUsage().heapUsed;
    const read: number[] = [];
    const readCpu: number[] = [];
    const written: Record<string, number[]> = { ts: [], yaml: [], python: [], go: [] };
    const writtenCpu: Record<string, number[]> = { ts: [], yaml: [], python: [], go: [] };
    for (let run = 0; run < 7; run++) {
      const c0 = process.cpuUsage();
      const r0 = performance.now();
      importZones(source);
      read.push(performance.now() - r0);
      const cpu = process.cpuUsage(c0);
      readCpu.push((cpu.user + cpu.system) / 1000);
      for (const lang of ["ts", "yaml", "python", "go"] as const) {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        importProgram(source, lang);
        written[lang]?.push(performance.now() - w0);
        const cpu = process.cpuUsage(c0);
        writtenCpu[lang]?.push((cpu.user + cpu.system) / 1000);
      }
    }
    const slowest = Math.max(...Object.values(written).map(median));
    const slowestCpu = Math.max(...Object.values(writtenCpu).map(median));
    rows.push([
      n.toLocaleString("en-US"),
      `${(text.length / 1024).toFixed(0)} KiB`,
      `${first?.records.length ?? 0} / ${first?.skipped.length ?? 0}`,
      `${cold.toFixed(0)} ms`,
      `${median(read).toFixed(0)} ms (CPU ${median(readCpu).toFixed(0)} ms)`,
      `${Object.values(written)
        .map((xs) => median(xs).toFixed(0))
        .join(" / ")} ms (CPU ${Object.values(writtenCpu)
        .map((xs) => median(xs).toFixed(0))
        .join(" / ")} ms)`,
      `${((slowest * 1000) / n).toFixed(1)} µs`,
      `${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB`,
      `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
      `wall ${slowest < 1000 ? "yes" : "no"}, CPU ${slowestCpu < 1000 ? "yes" : "no"}`,
    ]);
  }
  return [
    section(
      9,
      "Importing a zone (domainapi-import)",
      "In process, from the built package: the zone read, converted and validated by check()'s own rules " +
        "(`importZones`), then the whole program with its report written (`importProgram`, per language). " +
        "Cold = the first import in the process; the others are medians of 7 runs (CPU: the process's user + system time, " +
        "which a busy machine inflates less than the wall clock). Heap = heap growth " +
        "over the cold import (the templates it returns still held); peak RSS of the whole process. Target: under one second.",
      [
        "records",
        "zone",
        "imported / skipped",
        "cold import",
        "import (warm)",
        "program ts / yaml / python / go",
        "per record (slowest)",
        "heap",
        "peak RSS",
        "under 1 s",
      ],
      rows,
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${os.cpus().length} CPUs`,
  );
  await benchImport();
}
