#!/usr/bin/env node
/**
 * The benchmarks of pulumi-domainapi, measured side by side in one run and reported as ratios
 * (absolute timings on a small shared machine are noisy; ratios taken minutes apart in one process
 * are not).
 *
 *   npm run bench            (= npm run build && bash scripts/with-pulumi.sh node bench/run.mjs)
 *
 * 1. getContacts over 10,000 contacts with 20 ms of latency per request: pages one after another
 *    vs our concurrent pagination at concurrency 1, 4 and 8, each against ceil(pages/c) x latency.
 * 2. Requests per change (and record ids changed) for our planner, a replace-everything strategy
 *    and one request per record; ours is also run against the sandbox to confirm the count.
 * 3. The serialized `__provider` and the state bytes per resource.
 * 4. `pulumi up` of 100 DnsTemplateRecords x 10 records vs 100 EngineFloor resources (the engine's
 *    floor), and the peak memory (VmHWM) of the dynamic-provider plugin process.
 * 5. The planner on 1k, 10k and 100k records with 10% changes.
 * 6. Verified updates: requests and bytes per change for templates of 20 and 1,000 records, with
 *    and without the verification items.
 * 7. Finding vanished records after a 404: halving vs one request per item.
 *
 * Prints one markdown table per benchmark and writes them to bench/results/latest.md.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The engine's plugin process loads `pulumi-domainapi/impl` by name, so stacks live under a work
// root that resolves the package through a link, as a user's project does (same as the e2e tests).
const workRoot = path.join(repoRoot, "test", ".work");
const links = createRequire(import.meta.url)("../scripts/link-package.cjs");
links.linkPackage(workRoot);
links.linkPackage(workRoot, links.engineFloor, "domainapi-engine-floor");
const load = createRequire(path.join(workRoot, "program.js"));

const domainapi = load("pulumi-domainapi");
const { EngineFloor } = load("domainapi-engine-floor");
const impl = load("pulumi-domainapi/impl");
const { startSandbox } = load("domainapi-sandbox");
const automation = load("@pulumi/pulumi/automation");
const { getClient } = load(path.join(repoRoot, "dist/provider/client/api.js"));
const { planUpdate, findVanished, requestOf } = load(path.join(repoRoot, "dist/provider/records/plan.js"));
const { keyRecords } = load(path.join(repoRoot, "dist/provider/records/state.js"));
const { validateRecords } = load(path.join(repoRoot, "dist/provider/records/validate.js"));

const API_KEY = "bench-key-5e1f";
const sections = [];

/** Prints a section (a heading, a note and a markdown table) and keeps it for the results file. */
function report(title, note, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  const table = [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)];
  const text = [`### ${title}`, "", note, "", ...table, ""].join("\n");
  console.log(`\n${text}`);
  sections.push(text);
}

const ms = (x) => `${Math.round(x)} ms`;
const ratio = (x) => `${x.toFixed(2)}x`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---------------------------------------------------------------------------------------------
// 1. getContacts

async function benchContacts() {
  const LATENCY = 20;
  const PER_PAGE = 50;
  const sandbox = await startSandbox({ apiKey: API_KEY, contacts: 10_000, latencyMs: LATENCY });
  const client = getClient({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 30_000, maxRetries: 4 });
  try {
    // Warm the connection pool so every variant starts alike.
    await domainapi.getContacts({ page: 1, perPage: PER_PAGE }, { client });
    const rows = [];
    const expected = sandbox.state.contacts.map((c) => c.handle);
    const check = (handles) => {
      if (handles.length !== expected.length || handles.some((h, i) => h !== expected[i])) {
        throw new Error("a variant returned other contacts than the sandbox holds");
      }
    };

    let pages = 0;
    {
      const t0 = performance.now();
      const first = await domainapi.getContacts({ page: 1, perPage: PER_PAGE }, { client });
      pages = first.pages;
      const handles = first.contacts.map((c) => c.handle);
      for (let page = 2; page <= pages; page++) {
        const next = await domainapi.getContacts({ page, perPage: PER_PAGE }, { client });
        for (const c of next.contacts) handles.push(c.handle);
      }
      const took = performance.now() - t0;
      check(handles);
      const floor = pages * LATENCY;
      rows.push(["pages one after another (own loop)", pages, ms(took), ms(floor), ratio(took / floor)]);
    }
    for (const concurrency of [1, 4, 8]) {
      const t0 = performance.now();
      const result = await domainapi.getContacts({ perPage: PER_PAGE, concurrency }, { client });
      const took = performance.now() - t0;
      check(result.contacts.map((c) => c.handle));
      // The first page comes alone (it says how many there are), then the rest c at a time.
      const floor = Math.ceil(pages / concurrency) * LATENCY;
      rows.push([`getContacts, concurrency ${concurrency}`, pages, ms(took), ms(floor), ratio(took / floor)]);
    }
    const sequential = Number.parseFloat(rows[0][2]);
    for (const row of rows) row.push(ratio(sequential / Number.parseFloat(row[2])));
    report(
      "1. getContacts: 10,000 contacts, 20 ms latency per request",
      `per_page ${PER_PAGE}; floor = ceil(pages / concurrency) x latency; every variant returned the same 10,000 contacts.`,
      ["variant", "pages", "time", "floor", "time / floor", "speed-up vs one after another"],
      rows,
    );
  } finally {
    await sandbox.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Requests per change

const TEMPLATE_RECORDS = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "AAAA", content: "2001:db8::10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=none" },
  { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
  ...Array.from({ length: 11 }, (_, i) => ({ name: `host${i}`, type: "A", content: `192.0.2.${20 + i}` })),
];

const CHANGES = [
  ["no-op", (rs) => rs],
  ["reorder", (rs) => [...rs].reverse()],
  ["change 1", (rs) => rs.map((r) => (r.name === "host0" ? { ...r, content: "192.0.2.99" } : r))],
  [
    "add 3",
    (rs) => [...rs, ...[1, 2, 3].map((i) => ({ name: `new${i}`, type: "A", content: `198.51.100.${i}` }))],
  ],
  [
    "type change",
    (rs) => rs.map((r) => (r.name === "www" ? { name: "www", type: "A", content: "192.0.2.80" } : r)),
  ],
  ["delete half", (rs) => rs.slice(0, rs.length / 2)],
];

function normalized(records) {
  const { records: out, issues } = validateRecords(records);
  if (issues.length > 0) throw new Error(JSON.stringify(issues));
  return Object.entries(keyRecords(out)).map(([key, r]) => ({ ...r, key }));
}

async function benchRequests() {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: { bench: [] } } });
  const config = new Map([
    ["domainapi:baseUrl", sandbox.url],
    ["domainapi:apiKey", API_KEY],
  ]);
  impl.records.configure({ config });
  const rows = [];
  // Outside the engine the provider's info lines go to console.log; they are not results.
  const log = console.log;
  console.log = () => undefined;
  try {
    for (const [label, change] of CHANGES) {
      const news = { templateId: "bench", records: change(TEMPLATE_RECORDS), safetyThreshold: false };
      // Ours, for real: create with the provider, then update, counting what reaches the sandbox.
      const created = await impl.records.create(
        (
          await impl.records.check(
            {},
            { templateId: "bench", records: TEMPLATE_RECORDS, safetyThreshold: false },
          )
        ).inputs,
      );
      const before = new Set((sandbox.templateRecords("bench") ?? []).map((r) => r.record_id));
      const checked = await impl.records.check(created.outs, news);
      if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
      sandbox.clearRequests();
      const { changes } = await impl.records.diff(created.id, created.outs, checked.inputs);
      if (changes) await impl.records.update(created.id, created.outs, checked.inputs);
      const sent = sandbox.requests.length;
      const after = sandbox.templateRecords("bench") ?? [];
      const idsChanged = after.filter((r) => !before.has(r.record_id)).length;

      // Ours on paper: the planner's steps for the same change.
      const current = normalized(TEMPLATE_RECORDS).map((r, i) => ({ ...r, recordId: `r${i}` }));
      const desired = normalized(news.records);
      const plan = planUpdate(current, desired, { purge: true });
      if (plan.requests.length !== sent) {
        throw new Error(`${label}: the plan has ${plan.requests.length} requests but ${sent} were sent`);
      }
      const { creates, updates, deletes } = plan.summary;
      const unchanged = creates + updates + deletes === 0;
      // Replace everything: one PUT whenever anything changed; every record gets a new id.
      const putRequests = unchanged ? 0 : 1;
      const putIds = unchanged ? 0 : desired.length;
      // One request per record: every create, update and delete its own PATCH.
      const perRecord = creates + updates + deletes;
      rows.push([
        label,
        `${plan.summary.creates}/${plan.summary.updates}/${plan.summary.deletes}`,
        sent,
        putRequests,
        perRecord,
        idsChanged,
        putIds,
        creates,
      ]);
    }
  } finally {
    console.log = log;
    await sandbox.close();
  }
  report(
    "2. Requests per change (template of 20 records)",
    "create/update/delete as planned; `ours` was sent to the sandbox and equals the planner's step count; " +
      "ids changed = records of the resulting template whose id did not exist before. Replace-everything skips " +
      "a change only when the set is unchanged.",
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
  );
}

// ---------------------------------------------------------------------------------------------
// 3 and 4. The engine: 100 DnsTemplateRecords vs 100 EngineFloor

const STACK_SIZE = 100;
const RECORDS_PER_RESOURCE = 10;

function resourceRecords(i) {
  return [
    { name: "@", type: "A", content: `192.0.2.${(i % 250) + 1}` },
    { name: "@", type: "AAAA", content: `2001:db8::${i.toString(16)}` },
    { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
    { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
    { name: "@", type: "TXT", content: `v=spf1 include:_spf${i}.example.net -all` },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "api", type: "A", content: `198.51.100.${(i % 250) + 1}` },
    { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=quarantine" },
    { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
    { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  ];
}

function templateOf(i) {
  return `bench-${String(i).padStart(3, "0")}`;
}

async function createStack(name, program, backendDir, config) {
  const workDir = fs.mkdtempSync(path.join(workRoot, `bench-${name}-`));
  const env = {
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
  };
  const stack = await automation.LocalWorkspace.createOrSelectStack(
    { stackName: name, projectName: "domainapi-bench", program },
    {
      workDir,
      envVars: env,
      secretsProvider: "passphrase",
      projectSettings: {
        name: "domainapi-bench",
        runtime: "nodejs",
        backend: { url: `file://${backendDir}` },
      },
    },
  );
  for (const [key, value] of Object.entries(config)) await stack.setConfig(key, value);
  return { stack, workDir };
}

/** The dynamic-provider plugin processes started for this backend, by pid. */
function providerProcesses(backendDir) {
  const pids = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("dynamic-provider")) continue;
      const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.includes(`file://${backendDir}`)) pids.push(entry);
    } catch {
      // the process ended meanwhile, or is not ours to read
    }
  }
  return pids;
}

/** Samples the peak resident set (VmHWM) of the plugin processes while `work` runs. */
async function withPeakMemory(backendDir, work) {
  let peakKib = 0;
  let processes = new Set();
  const sample = () => {
    for (const pid of providerProcesses(backendDir)) {
      processes.add(pid);
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        if (hwm) peakKib = Math.max(peakKib, Number(hwm[1]));
      } catch {
        // ended between listing and reading
      }
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakKib, processes: processes.size };
  } finally {
    clearInterval(timer);
    processes = new Set();
  }
}

async function benchEngine() {
  const sandbox = await startSandbox({ apiKey: API_KEY, seed: { templates: {} } });
  for (let i = 0; i < STACK_SIZE; i++) sandbox.seedTemplate(templateOf(i), []);
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-bench-state-"));
  const stacks = [];
  try {
    const records = await createStack(
      "records",
      async () => {
        for (let i = 0; i < STACK_SIZE; i++) {
          new domainapi.DnsTemplateRecords(`r${i}`, {
            templateId: templateOf(i),
            records: resourceRecords(i),
          });
        }
        return {};
      },
      backendDir,
      { "domainapi:baseUrl": { value: sandbox.url }, "domainapi:apiKey": { value: API_KEY, secret: true } },
    );
    const floor = await createStack(
      "floor",
      async () => {
        // The same inputs, echoed: what the engine alone costs for a stack of this shape.
        for (let i = 0; i < STACK_SIZE; i++) new EngineFloor(`r${i}`, { records: resourceRecords(i) });
        return {};
      },
      backendDir,
      {},
    );
    stacks.push(records, floor);

    const runs = { records: [], floor: [] };
    const peaks = { records: 0, floor: 0 };
    const ROUNDS = 2;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, s] of [
        ["floor", floor],
        ["records", records],
      ]) {
        const { result, peakKib } = await withPeakMemory(backendDir, async () => {
          const t0 = performance.now();
          const up = await s.stack.up();
          if (up.summary.result !== "succeeded") throw new Error(`${name}: up ${up.summary.result}`);
          return performance.now() - t0;
        });
        runs[name].push(result);
        peaks[name] = Math.max(peaks[name], peakKib);
        if (round < ROUNDS - 1) await s.stack.destroy();
      }
    }
    const sent = sandbox.requests.filter((r) => r.method === "PUT" && r.status === 200).length;
    if (sent !== STACK_SIZE * ROUNDS) throw new Error(`expected ${STACK_SIZE * ROUNDS} PUTs, saw ${sent}`);
    const floorMs = median(runs.floor);
    const recordsMs = median(runs.records);
    report(
      `4. pulumi up: ${STACK_SIZE} DnsTemplateRecords x ${RECORDS_PER_RESOURCE} records vs ${STACK_SIZE} EngineFloor`,
      `A create of the whole stack, ${ROUNDS} rounds alternating (destroy in between), median shown; EngineFloor ` +
        "echoes the same inputs and makes no request. Peak memory: the largest VmHWM of the dynamic-provider " +
        "plugin process, sampled every 50 ms.",
      ["stack", "up (median)", "runs", "ratio to floor", "above floor per resource", "provider peak RSS"],
      [
        [
          `${STACK_SIZE} EngineFloor`,
          ms(floorMs),
          runs.floor.map(ms).join(", "),
          ratio(1),
          "",
          `${(peaks.floor / 1024).toFixed(1)} MiB`,
        ],
        [
          `${STACK_SIZE} DnsTemplateRecords`,
          ms(recordsMs),
          runs.records.map(ms).join(", "),
          ratio(recordsMs / floorMs),
          `${((recordsMs - floorMs) / STACK_SIZE).toFixed(1)} ms`,
          `${(peaks.records / 1024).toFixed(1)} MiB`,
        ],
      ],
    );

    // 3. What one resource costs in the state.
    const exported = async (s) => (await s.stack.exportStack()).deployment.resources ?? [];
    const ofType = (resources, type) =>
      resources.filter((r) => r.type === `pulumi-nodejs:dynamic/domainapi:${type}`);
    const recordResources = ofType(await exported(records), "DnsTemplateRecords");
    const floorResources = ofType(await exported(floor), "EngineFloor");
    const providerBytes = (r) => Buffer.byteLength(String(r.inputs?.__provider ?? ""));
    const stateBytes = (rs) => rs.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0) / rs.length;
    const recordsState = stateBytes(recordResources);
    const floorState = stateBytes(floorResources);
    report(
      "3. State size",
      `From \`pulumi stack export\` of the stacks above (${RECORDS_PER_RESOURCE} records per resource). The ` +
        "serialized provider is stored twice per resource (inputs and outputs).",
      ["resource", "__provider", "state bytes per resource", "of which __provider (x2)", "ratio to floor"],
      [
        [
          "EngineFloor",
          `${providerBytes(floorResources[0])} B`,
          kib(floorState),
          `${providerBytes(floorResources[0]) * 2} B`,
          ratio(1),
        ],
        [
          "DnsTemplateRecords",
          `${providerBytes(recordResources[0])} B`,
          kib(recordsState),
          `${providerBytes(recordResources[0]) * 2} B`,
          ratio(recordsState / floorState),
        ],
      ],
    );
  } finally {
    for (const s of stacks) {
      try {
        await s.stack.destroy();
        await s.stack.workspace.removeStack(s.stack.name, { force: true });
      } catch {
        // best effort
      }
      fs.rmSync(s.workDir, { recursive: true, force: true });
    }
    fs.rmSync(backendDir, { recursive: true, force: true });
    await sandbox.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 5. The planner at scale

const TYPES = ["A", "AAAA", "TXT", "MX"];
function scaleRecord(i, variant = 0) {
  const type = TYPES[i % TYPES.length];
  const name = `h${i}`;
  switch (type) {
    case "A":
      return { name, type, content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i + variant) & 255}` };
    case "AAAA":
      return { name, type, content: `2001:db8::${(i + variant).toString(16)}` };
    case "TXT":
      return { name, type, content: `text ${i} ${variant}` };
    default:
      return { name, type, content: `mx${variant}.example.net`, priority: 10 };
  }
}

function benchPlanner() {
  const rows = [];
  let previous;
  for (const n of [1_000, 10_000, 100_000]) {
    const current = Array.from({ length: n }, (_, i) => ({
      ...scaleRecord(i),
      recordId: `r${i}`,
      key: `k${i}`,
    }));
    // 10% of the records change: a third updated in place, a third deleted, a third added.
    const changed = n / 10;
    const third = Math.floor(changed / 3);
    const desired = [];
    for (let i = 0; i < n; i++) {
      if (i % 10 === 0 && i / 10 < third) desired.push({ ...scaleRecord(i, 1), key: `k${i}` });
      else if (i % 10 === 1 && (i - 1) / 10 < third) continue;
      else desired.push({ ...scaleRecord(i), key: `k${i}` });
    }
    for (let k = 0; k < changed - 2 * third; k++) desired.push({ ...scaleRecord(n + k), key: `n${k}` });
    const runs = n >= 100_000 ? 3 : 7;
    const times = [];
    let plan;
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      plan = planUpdate(current, desired, { purge: true });
      times.push(performance.now() - t0);
    }
    const t = median(times);
    const { creates, updates, deletes } = plan.summary;
    rows.push([
      n.toLocaleString("en-US"),
      `${creates}/${updates}/${deletes}`,
      plan.requests.length,
      `${t.toFixed(1)} ms`,
      `${((t * 1000) / n).toFixed(2)} µs`,
      previous === undefined ? "" : ratio(t / previous),
      previous === undefined ? "" : `n^${(Math.log(t / previous) / Math.log(10)).toFixed(2)}`,
    ]);
    previous = t;
  }
  report(
    "5. The planner with 10% changes",
    "planUpdate alone (in process), median of 7 runs (3 at 100k); growth = time / time at a tenth of the size (10x is linear).",
    ["records", "c/u/d", "requests", "time", "per record", "growth for 10x records", "as a power of n"],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// 6. Verified updates: what the proof costs, and finding what vanished

/** A template of n records of every common type, held with ids and keys. */
function heldTemplate(n) {
  const records = normalized(Array.from({ length: n }, (_, i) => scaleRecord(i)));
  return records.map((r, i) => ({ ...r, recordId: `rec-${100000 + i}` }));
}

const bodyBytes = (request) => Buffer.byteLength(JSON.stringify(request.body));

/** The requests of a plan without its verification items: what an update sent before they existed. */
function unverified(plan) {
  const requests = [];
  for (const request of plan.requests) {
    const corrections = request.corrections.filter((c) => c.kind !== "verify");
    if (corrections.length > 0) requests.push(requestOf(corrections));
  }
  return requests;
}

/** Probes of the halving search for `vanished` among `items`, with an all-or-nothing oracle. */
function halvingProbes(items, vanished) {
  const search = findVanished(items);
  let probes = 0;
  let step = search.next();
  while (!step.done) {
    probes++;
    step = search.next(!step.value.some((c) => vanished.has(c)));
  }
  return probes;
}

function benchVerified() {
  const rows = [];
  const searchRows = [];
  for (const n of [20, 1_000]) {
    const held = heldTemplate(n);
    const declared = held.map(({ recordId: _id, ...r }) => r);
    const changes = [
      ["change 1", declared.map((r, i) => (i === 0 ? { ...r, content: "10.9.9.9" } : r))],
      [
        "add 3",
        [
          ...declared,
          ...[1, 2, 3].map((i) => ({
            name: `new${i}`,
            type: "A",
            content: `198.51.100.${i}`,
            key: `new${i}/A`,
          })),
        ],
      ],
      ["delete 1", declared.slice(1)],
    ];
    for (const [label, desired] of changes) {
      for (const purge of [true, false]) {
        const plan = planUpdate(held, desired, { purge });
        const before = unverified(plan);
        const bytes = plan.requests.reduce((sum, r) => sum + bodyBytes(r), 0);
        const beforeBytes = before.reduce((sum, r) => sum + bodyBytes(r), 0);
        rows.push([
          `${n} records, ${label}, purge: ${purge}`,
          plan.requests.length,
          before.length,
          bytes.toLocaleString("en-US"),
          beforeBytes.toLocaleString("en-US"),
          ratio(bytes / beforeBytes),
        ]);
      }
    }
    // Finding vanished records after the first request of "change 1" is refused.
    const first = planUpdate(held, changes[0][1], { purge: true }).requests[0].corrections;
    const named = first.filter((c) => c.kind !== "create");
    for (const k of [1, 3, named.length]) {
      const vanished = new Set(
        named.filter((_, i) => i % Math.max(1, Math.floor(named.length / k)) === 0).slice(0, k),
      );
      searchRows.push([
        `${n} records, ${vanished.size === named.length ? "all" : vanished.size} vanished`,
        halvingProbes(named, vanished),
        named.length,
        ratio(halvingProbes(named, vanished) / named.length),
      ]);
    }
  }
  report(
    "6. Verified updates: requests and bytes sent per change",
    "Bodies of the planned PATCH requests (JSON bytes), with verification (every unchanged held record " +
      "re-stated in the first request) and without it (the plan before verified updates). Requests when " +
      "nothing drifted stay as they were with purge (no-op 0, reorder 0: see section 2); without purge a " +
      "request that names record ids carries no add, so an add costs one request more.",
    ["change", "requests", "requests before", "bytes", "bytes before", "bytes ratio"],
    rows,
  );
  report(
    "7. Finding vanished records after a 404: halving vs one at a time",
    "Probes (PATCH requests) the planner's halving search sends to find which named records vanished, " +
      "against the one-request-per-item search used before; all-or-nothing answers.",
    ["case", "halving", "one at a time", "ratio"],
    searchRows,
  );
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const t0 = performance.now();
  const { execFileSync } = await import("node:child_process");
  let pulumiVersion = "unknown";
  try {
    pulumiVersion = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
  } catch {
    // reported as unknown
  }
  const machine = `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ""}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`;
  console.log(`pulumi-domainapi benchmarks, node ${process.version}, pulumi ${pulumiVersion}, ${machine}`);

  await benchContacts();
  await benchRequests();
  benchPlanner();
  benchVerified();
  await benchEngine();

  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  const header = [
    "# Benchmark results",
    "",
    `Run on ${started.toISOString().replace(/\.\d+Z$/, "Z")} with \`npm run bench\` ` +
      `(node ${process.version}, pulumi ${pulumiVersion}, ${machine}); took ${seconds} s.`,
    "",
  ];
  const ordered = [...sections].sort(
    (a, b) => Number(/^### (\d+)/.exec(a)?.[1]) - Number(/^### (\d+)/.exec(b)?.[1]),
  );
  const out = [...header, ...ordered].join("\n");
  fs.mkdirSync(path.join(repoRoot, "bench", "results"), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, "bench", "results", "latest.md"), out);
  console.log(`\nWritten to bench/results/latest.md (${seconds} s).`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
