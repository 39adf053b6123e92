/**
 * The heap of a process that looks up contacts for many accounts one after another (an
 * Automation API host serving its customers), through the packed package's getContacts with the
 * key from the environment. Two ways side by side in one process: every account with a key of its
 * own, and the floor, every lookup with one key (no per-key state can grow there). Reported: the
 * heap growth between account 200 and account 2,000 of each, per account, and their ratio. The
 * bound the tests hold (test/provider/memory-entries.test.ts) is 25 MB over those 1,800 accounts.
 */
import { randomBytes } from "node:crypto";
import { createServer, Agent as HttpAgent, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { API_KEY, domainapi, repoRoot } from "./lib/package.ts";
import { kib, mib, ratio, type Section, section } from "./lib/report.ts";
import { startSandboxProcess, stopSandboxProcess } from "./lib/sandbox.ts";

const FIRST = 200;
const LAST = 2_000;

function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** A front on loopback that takes any bearer key and hands the sandbox its own, as accounts of one API. */
async function startFront(upstreamUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamUrl);
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const server = createServer((req, res) => {
    req.headers.authorization = `Bearer ${API_KEY}`;
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** Heap growth in bytes between account FIRST and account LAST, each looked up with `keyOf(n)`. */
async function growth(baseUrl: string, keyOf: (n: number) => string): Promise<number> {
  let atFirst = 0;
  process.env.DOMAINAPI_BASE_URL = baseUrl;
  for (let n = 1; n <= LAST; n++) {
    process.env.DOMAINAPI_API_KEY = keyOf(n);
    const result = await domainapi.getContacts({ perPage: 2, limit: 2 });
    if (result.contacts.length !== 2) throw new Error(`account ${n}: ${result.contacts.length} contacts`);
    if (n === FIRST) atFirst = heapAfterGc();
  }
  return heapAfterGc() - atFirst;
}

/** Runs the benchmark and reports it as section 8. */
export async function benchMemory(): Promise<Section[]> {
  const logFile = path.join(os.tmpdir(), `domainapi-bench-memory-${process.pid}.log`);
  const sandbox = await startSandboxProcess(["--api-key", API_KEY, "--contacts", "3"], logFile, repoRoot);
  const front = await startFront(sandbox.url);
  try {
    const floor = await growth(front.url, () => API_KEY);
    const perKey = await growth(front.url, () => randomBytes(20).toString("hex"));
    const accounts = LAST - FIRST;
    return [
      section(
        8,
        `Memory: getContacts for ${LAST.toLocaleString("en")} accounts one after another`,
        `Heap after full collections, growth from account ${FIRST} to account ${LAST}, through the packed ` +
          "package with the key from the environment. Floor: one key for every lookup. The tests bound the " +
          `per-key growth at 25 MB over these ${accounts.toLocaleString("en")} accounts.`,
        ["way", "growth", "per account", "vs floor"],
        [
          ["floor (one key)", mib(floor / 1024), kib(floor / accounts), ratio(1)],
          [
            "a key per account",
            mib(perKey / 1024),
            kib(perKey / accounts),
            ratio(perKey / Math.max(floor, 1)),
          ],
        ],
      ),
    ];
  } finally {
    await front.close();
    await stopSandboxProcess(sandbox.child);
    delete process.env.DOMAINAPI_API_KEY;
    delete process.env.DOMAINAPI_BASE_URL;
  }
}
