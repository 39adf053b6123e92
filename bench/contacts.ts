/**
 * getContacts over 10,000 contacts (200 pages of 50) with 20 ms of latency per request: pages one
 * after another in a plain loop, then our concurrent pagination at concurrency 1, 4 and 8. Each
 * against two floors: the latency floor (the first page alone, then the rest `c` at a time, each
 * taking the latency) and the same page requests sent raw (fetch and JSON.parse, no checks) by `c`
 * workers, which adds what the sandbox and the loopback cost on this machine. The sandbox runs as
 * a process of its own (its bin), as an API does: its work is not the client's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { API_KEY, domainapi, repoRoot } from "./lib/package.ts";
import { median, ms, ratio, type Section, section } from "./lib/report.ts";
import { startSandboxProcess, stopSandboxProcess } from "./lib/sandbox.ts";

const LATENCY_MS = 20;
const PER_PAGE = 50;
const CONTACTS = 10_000;
/** Rounds at concurrency 4 and 8 (one at 1: it takes seconds and varies little). */
const ROUNDS = 5;

/** Page requests sent raw by `concurrency` workers, each taking the next page: the transport's floor. */
async function rawPages(url: string, pages: number, concurrency: number): Promise<string[]> {
  const byPage: string[][] = [];
  const get = async (page: number): Promise<void> => {
    const res = await fetch(`${url}/v2/contacts?page=${page}&per_page=${PER_PAGE}`, {
      headers: { Authorization: `Bearer ${API_KEY}`, Accept: "application/json" },
    });
    byPage[page - 1] = ((await res.json()) as { data: Array<{ handle: string }> }).data.map((c) => c.handle);
  };
  let next = 2;
  const worker = async (): Promise<void> => {
    while (next <= pages) await get(next++);
  };
  await get(1);
  await Promise.all(Array.from({ length: concurrency }, worker));
  return byPage.flat();
}

/** Runs the benchmark and reports it as section 1. */
export async function benchContacts(): Promise<Section[]> {
  const logFile = path.join(os.tmpdir(), `domainapi-bench-sandbox-${process.pid}.log`);
  const args = ["--api-key", API_KEY, "--contacts", String(CONTACTS), "--latency-ms", String(LATENCY_MS)];
  const sandbox = await startSandboxProcess(args, logFile, repoRoot);
  // getContacts outside a program reads its settings from the environment, as in a script of a user's.
  process.env.DOMAINAPI_BASE_URL = sandbox.url;
  process.env.DOMAINAPI_API_KEY = API_KEY;
  try {
    const expected = await rawPages(sandbox.url, CONTACTS / PER_PAGE, 8);
    const check = (handles: string[]): void => {
      if (handles.length !== expected.length || handles.some((h, i) => h !== expected[i])) {
        throw new Error("a variant returned other contacts than the sandbox holds");
      }
    };
    // Warm the connection pools (the client's and fetch's) so every variant starts alike.
    const first = await domainapi.getContacts({ page: 1, perPage: PER_PAGE, concurrency: 8 });
    await rawPages(sandbox.url, 9, 8);
    const pages = first.pages;
    const rows: Array<Array<string | number>> = [];
    const add = (variant: string, took: number, concurrency: number): void => {
      const floor = (1 + Math.ceil((pages - 1) / concurrency)) * LATENCY_MS;
      rows.push([variant, pages, ms(took), ms(floor), ratio(took / floor)]);
    };
    {
      const t0 = performance.now();
      const handles: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const next = await domainapi.getContacts({ page, perPage: PER_PAGE });
        for (const c of next.contacts) handles.push(c.handle);
      }
      const took = performance.now() - t0;
      check(handles);
      add("pages one after another (own loop)", took, 1);
    }
    const raw = new Map<number, number>();
    const cpuRows: string[][] = [];
    for (const concurrency of [1, 4, 8]) {
      // Alternating rounds, medians: the machine's load moves between them, not within one pair.
      const rounds = concurrency === 1 ? 1 : ROUNDS;
      const rawTimes: number[] = [];
      const times: number[] = [];
      const rawCpu: number[] = [];
      const cpu: number[] = [];
      const cpuMs = (since: NodeJS.CpuUsage): number => {
        const used = process.cpuUsage(since);
        return (used.user + used.system) / 1000;
      };
      for (let round = 0; round < rounds; round++) {
        const r0 = performance.now();
        const rc0 = process.cpuUsage();
        const handles = await rawPages(sandbox.url, pages, concurrency);
        rawTimes.push(performance.now() - r0);
        rawCpu.push(cpuMs(rc0));
        check(handles);
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const result = await domainapi.getContacts({ perPage: PER_PAGE, concurrency });
        times.push(performance.now() - t0);
        cpu.push(cpuMs(c0));
        check(result.contacts.map((c) => c.handle));
      }
      raw.set(concurrency, median(rawTimes));
      add(`getContacts, concurrency ${concurrency}`, median(times), concurrency);
      cpuRows.push([
        `concurrency ${concurrency}`,
        `${(median(rawCpu) / pages).toFixed(2)} ms`,
        `${(median(cpu) / pages).toFixed(2)} ms`,
        ratio(median(cpu) / median(rawCpu)),
      ]);
    }
    const sequential = Number.parseFloat(String(rows[0]?.[2]));
    for (const row of rows) {
      const concurrency = Number(/concurrency (\d+)/.exec(String(row[0]))?.[1] ?? 0);
      const rawMs = raw.get(concurrency);
      row.push(rawMs === undefined ? "" : ms(rawMs));
      row.push(rawMs === undefined ? "" : ratio(Number.parseFloat(String(row[2])) / rawMs));
      row.push(ratio(sequential / Number.parseFloat(String(row[2]))));
    }
    return [
      section(
        1,
        `getContacts: ${CONTACTS.toLocaleString("en-US")} contacts, ${LATENCY_MS} ms latency per request`,
        `per_page ${PER_PAGE}; latency floor = (1 + ceil((pages - 1) / concurrency)) x latency (page 1 says how ` +
          "many pages there are); raw floor = the same page requests by `concurrency` workers with fetch and " +
          `JSON.parse alone. Concurrency 4 and 8: median of ${ROUNDS} rounds, raw and getContacts alternating. Every variant returned the same ${CONTACTS.toLocaleString("en-US")} contacts.`,
        [
          "variant",
          "pages",
          "time",
          "latency floor",
          "time / latency floor",
          "raw floor",
          "time / raw floor",
          "speed-up vs one after another",
        ],
        rows,
      ),
      section(
        1.1,
        "getContacts: the client's CPU per page",
        "CPU time of this process (the client; the sandbox runs apart) per page fetched, median of the rounds " +
          "above: the raw requests (fetch, JSON.parse) against getContacts (undici, JSON.parse, the wire schema, " +
          "the paging checks). On a loaded machine this, not the latency, decides how close to the floor it gets.",
        ["variant", "raw requests", "getContacts", "ratio"],
        cpuRows,
      ),
    ];
  } finally {
    await stopSandboxProcess(sandbox.child);
    fs.rmSync(logFile, { force: true });
  }
}
