#!/usr/bin/env node
/**
 * `npm run demo`: the quickstart program (the root Pulumi.yaml) against the offline sandbox.
 *
 * Starts the sandbox (`domainapi-sandbox`, a child process on a free loopback port), runs
 * `pulumi up` of the quickstart on a local state backend and prints what it made. Then it changes
 * the program as a pull request would (in the `web` template one record changed, one added, one
 * removed), prints the keyed preview (`pulumi preview --diff`) and the plan a pull request gets
 * (`domainapi-plan`), runs the update and prints which record ids were kept and which are new.
 * Finally it destroys the stack and stops the sandbox. With `--keep` the stack and the sandbox stay,
 * and the demo prints how to reach them and how to clean up.
 *
 *   npm run demo               # up, change, preview, plan, update, ids, destroy, stop
 *   npm run demo -- --keep     # the same, but leaves the stack and the sandbox running
 *   npm run demo -- --verbose  # also prints the engine's full output
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { repoRoot, runProgram } from "./run-program.mjs";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = paint("1");
const dim = paint("2");
const green = paint("32");
const red = paint("31");
const yellow = paint("33");

const SANDBOX_START_MS = 15_000;

/** Starts `domainapi-sandbox --port 0` detached, its output in `logFile`; resolves with its URL. */
async function startSandboxProcess(apiKey, logFile) {
  const sandboxPackage = createRequire(import.meta.url).resolve("domainapi-sandbox/package.json");
  const cli = path.join(path.dirname(sandboxPackage), "bin", "domainapi-sandbox.js");
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [cli, "--port", "0", "--api-key", apiKey], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const deadline = Date.now() + SANDBOX_START_MS;
  while (Date.now() < deadline) {
    const text = fs.readFileSync(logFile, "utf8");
    const url = /listening on (\S+)/.exec(text)?.[1];
    if (url) return { child, url };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`the sandbox did not start:\n${fs.readFileSync(logFile, "utf8")}`);
}

function stopSandbox(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function pad(text, width) {
  return String(text).padEnd(width);
}

/** The records of one template as a small table. */
function recordTable(records) {
  const rows = records.map((r) => {
    const numbers = ["priority", "weight", "port"]
      .filter((k) => r[k] !== undefined)
      .map((k) => `${k} ${r[k]}`);
    return [r.name, r.type, [r.content, ...numbers].join("  "), r.recordId];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return rows.map(
    (row) =>
      `    ${pad(row[0], widths[0])}  ${pad(row[1], widths[1])}  ${pad(row[2], widths[2])}  ${dim(row[3])}`,
  );
}

function summary(outputs, seconds) {
  const lines = [`${green("✔")} ${bold("pulumi up")} succeeded in ${seconds.toFixed(1)} s`, ""];
  for (const [template, records] of Object.entries(outputs.templates ?? {})) {
    lines.push(`  ${bold(`Template ${template}`)}  ${dim(outputs.plans?.[template] ?? "")}`);
    lines.push(...recordTable(records), "");
  }
  lines.push(
    `  ${bold("Restored")}  ${outputs.restoredDomain} is out of quarantine ${dim(`(at ${outputs.restoredAt})`)}`,
  );
  const top = (outputs.topContacts ?? []).map((c) => `${c.handle} ${c.name} (${c.connections})`).join(", ");
  lines.push(
    `  ${bold("Contacts")}  ${outputs.contactsFound} active in ${outputs.contactCountry}; most connections: ${top}`,
  );
  return lines.join("\n");
}

/**
 * The change the demo makes to the quickstart, as a pull request would: in the `web` template one
 * record changed, one added, one removed. Each `from` must occur exactly once in the program.
 */
const CHANGES = [
  {
    says: "~ @ A 192.0.2.10 -> 192.0.2.11",
    from: '{ name: "@", type: "A", content: "192.0.2.10" },',
    to: '{ name: "@", type: "A", content: "192.0.2.11" },',
  },
  {
    says: "+ api A 192.0.2.20",
    from: '    { name: "www", type: "CNAME", content: "{domainname}." },\n',
    to: '    { name: "www", type: "CNAME", content: "{domainname}." },\n    { name: "api", type: "A", content: "192.0.2.20" },\n',
  },
  {
    says: "- @ AAAA 2001:db8::10",
    from: '    { name: "@", type: "AAAA", content: "2001:db8::10" },\n',
    to: "",
  },
];

/** Writes the changed quickstart beside the stack's work directory and returns its path. */
function writeChangedProgram(entry, workDir) {
  let text = fs.readFileSync(entry, "utf8");
  for (const change of CHANGES) {
    if (text.split(change.from).length !== 2) {
      throw new Error(
        `${path.relative(repoRoot, entry)} no longer holds ${change.from.trim()} exactly once: update CHANGES in scripts/demo.mjs`,
      );
    }
    text = text.replace(change.from, () => change.to);
  }
  // .mts: an ES module whatever the package.json beside it says, so Node loads it without a warning.
  const file = path.join(workDir, "index.changed.mts");
  fs.writeFileSync(file, text);
  return file;
}

/**
 * The stack of the first `up`, now running the changed program. Node evaluates a module once per
 * URL, so each run imports the program under a URL of its own (a query string).
 */
async function changedStack(result, programFile) {
  const automation = createRequire(result.entry)("@pulumi/pulumi/automation");
  let runs = 0;
  const program = async () => {
    const mod = await import(`${pathToFileURL(programFile).href}?run=${++runs}`);
    return Object.fromEntries(Object.entries(mod).filter(([key]) => key !== "default"));
  };
  return automation.LocalWorkspace.selectStack(
    { stackName: result.stack, projectName: result.project, program },
    {
      workDir: result.workDir,
      envVars: {
        PULUMI_BACKEND_URL: pathToFileURL(result.backendDir).href,
        PULUMI_CONFIG_PASSPHRASE: result.passphrase,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PULUMI_SKIP_CONFIRMATIONS: "true",
      },
    },
  );
}

/**
 * The engine's `pulumi preview --diff` of the changed template: its resource block (records keyed
 * `name/type`, one entry per changed record) and the resource counts. The rest (unchanged resources,
 * stack outputs) with --verbose.
 */
function previewLines(text, resource) {
  const lines = text.split("\n");
  const indentOf = (line) => line.match(/^\s*/)?.[0].length ?? 0;
  const header = lines.findIndex(
    (l, i) =>
      /DnsTemplateRecords: \(/.test(l) && lines.slice(i + 1, i + 4).some((n) => n.endsWith(`::${resource}]`)),
  );
  const countsAt = lines.findIndex((l) => /^Resources:/.test(l));
  const counts = countsAt < 0 ? [] : lines.slice(countsAt);
  if (header < 0) return [...lines, ...counts].filter((l) => l.trim() !== "");
  // The resource's block: every line indented deeper than its header, shown from the header's column.
  const base = indentOf(lines[header] ?? "");
  let end = header + 1;
  while (end < lines.length && (lines[end]?.trim() === "" || indentOf(lines[end] ?? "") > base)) end++;
  const block = lines
    .slice(header, end)
    .filter((l) => l.trim() !== "" && !/^\s*\[(id|urn)=/.test(l))
    .map((l) => l.slice(Math.min(base, indentOf(l))));
  return [...block, ...counts.filter((l) => l.trim() !== "")];
}

function colourDiffLine(line) {
  const marker = line.trimStart()[0];
  if (marker === "+") return green(line);
  if (marker === "-") return red(line);
  if (marker === "~") return yellow(line);
  return line;
}

/** The plan `domainapi-plan` makes of the preview, from the engine events the preview reported. */
function planOf(events) {
  const load = (name) => createRequire(import.meta.url)(path.join(repoRoot, "dist", "provider", "cli", name));
  const { previewFromEngineEvents } = load("preview.js");
  const { templatePlans } = load("templatePlans.js");
  const { planMarkdown } = load("markdown.js");
  return planMarkdown(templatePlans(previewFromEngineEvents(events)));
}

/** Which records of a template kept their ids, which are new, which are gone. */
function idChanges(before, after) {
  const beforeIds = new Set(before.map((r) => r.recordId));
  const afterIds = new Set(after.map((r) => r.recordId));
  const rows = [
    ...after.map((r) => ({ r, fate: beforeIds.has(r.recordId) ? "kept" : "new" })),
    ...before.filter((r) => !afterIds.has(r.recordId)).map((r) => ({ r, fate: "gone" })),
  ];
  const width = Math.max(...rows.map(({ r }) => r.recordId.length));
  const paintFate = { kept: (t) => t, new: green, gone: red };
  const describe = (r) => [
    r.name,
    r.type,
    ...["priority", "weight", "port"].filter((k) => r[k] !== undefined).map((k) => r[k]),
    r.content,
  ];
  return {
    kept: rows.filter((row) => row.fate === "kept").length,
    fresh: rows.filter((row) => row.fate === "new").length,
    lines: rows.map(
      ({ r, fate }) =>
        `    ${paintFate[fate](fate.padEnd(4))}  ${dim(r.recordId.padEnd(width))}  ${describe(r).join(" ")}`,
    ),
  };
}

/** Changes the program, previews, plans, updates and shows the ids; returns the stack's new outputs. */
async function showChange(result, values, progress) {
  const write = (text = "") => process.stdout.write(`${text}\n`);
  const programFile = writeChangedProgram(result.entry, result.workDir);
  write(
    `\n${bold("The change")}  ${dim("(as a pull request would make it, in examples/quickstart/index.ts)")}`,
  );
  for (const change of CHANGES) write(`  web: ${colourDiffLine(change.says)}`);
  const stack = await changedStack(result, programFile);

  write(
    `\n${bold("pulumi preview --diff")}  ${dim("(records keyed name/type: one entry per changed record)")}`,
  );
  const events = [];
  const preview = await stack.preview({
    diff: true,
    onEvent: (e) => events.push(e),
    onOutput: values.verbose ? (t) => process.stdout.write(t) : undefined,
  });
  if (!values.verbose)
    for (const line of previewLines(preview.stdout, "web")) write(`  ${colourDiffLine(line)}`);

  write(
    `\n${bold("The plan for the pull request")}  ${dim("(npx domainapi-plan preview.json, from the same preview)")}`,
  );
  for (const line of planOf(events).trimEnd().split("\n")) write(`  ${colourDiffLine(line)}`);

  write(`\n${bold("pulumi up")}  ${dim("(the change)")}`);
  const started = Date.now();
  const up = await stack.up({ onOutput: progress() });
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  const ids = idChanges(result.outputs.templates?.web ?? [], outputs.templates?.web ?? []);
  write(`\n${green("✔")} ${bold("pulumi up")} succeeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  write(`\n  ${bold("Template web")}  ${dim(outputs.plans?.web ?? "")}`);
  write(`  ${bold("Record ids")}: ${ids.kept} kept, ${ids.fresh} new`);
  for (const line of ids.lines) write(line);
  return outputs;
}

function keepInstructions(result, sandbox) {
  const rel = (p) => path.relative(process.cwd(), p) || ".";
  const env = `PULUMI_CONFIG_PASSPHRASE=${result.passphrase}`;
  return [
    "",
    bold("Kept running:"),
    `  sandbox   ${sandbox.url}  (API key ${sandbox.apiKey}, pid ${sandbox.child.pid}, log ${sandbox.logFile})`,
    `  state     ${result.backendDir}`,
    `  stack     ${result.stack} of ${result.project}, work dir ${rel(result.workDir)}`,
    "",
    "  Look at it:",
    `    ${env} bash scripts/with-pulumi.sh pulumi stack output --cwd ${rel(result.workDir)}`,
    `    curl -H 'Authorization: Bearer ${sandbox.apiKey}' '${sandbox.url}/v2/contacts?country=NL&per_page=3'`,
    `    curl ${sandbox.url}/__sandbox/`,
    `  The stack now runs the changed program (${rel(path.join(result.workDir, "index.changed.mts"))}).`,
    "  Change examples/quickstart/index.ts, then run it again (the quickstart as it is undoes the demo's change):",
    `    bash scripts/with-pulumi.sh node scripts/run-program.mjs . --work-dir ${rel(result.workDir)} --backend ${result.backendDir}`,
    "  Clean up:",
    `    ${env} bash scripts/with-pulumi.sh pulumi destroy --yes --remove --cwd ${rel(result.workDir)}`,
    `    kill ${sandbox.child.pid}; rm -rf ${rel(result.workDir)} ${result.backendDir}`,
  ].join("\n");
}

/** Destroys the demo's stack and removes its state and work directory. */
async function destroyStack(result, values) {
  await runProgram({
    dir: repoRoot,
    op: "destroy",
    stack: "dev",
    workDir: result.workDir,
    backendDir: result.backendDir,
    onOutput: values.verbose ? undefined : () => {},
  });
  fs.rmSync(result.workDir, { recursive: true, force: true });
  fs.rmSync(result.backendDir, { recursive: true, force: true });
}

async function main() {
  const { values } = parseArgs({
    options: {
      keep: { type: "boolean" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write("Usage: npm run demo [-- --keep] [-- --verbose]\n");
    return 0;
  }
  if (!fs.existsSync(path.join(repoRoot, "dist", "provider", "index.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm run demo does)");
  }

  const apiKey = `demo-${randomBytes(6).toString("hex")}`;
  const logFile = path.join(os.tmpdir(), `domainapi-sandbox-${process.pid}.log`);
  const { child, url } = await startSandboxProcess(apiKey, logFile);
  const sandbox = { child, url, apiKey, logFile };
  process.stdout.write(
    `${dim("sandbox")}  ${url} ${dim("(offline Domain API, seeded templates web and mail)")}\n`,
  );
  process.stdout.write(`${dim("program")}  Pulumi.yaml -> examples/quickstart/index.ts\n\n`);

  // The engine's own progress lines, without the blank lines and the outputs dump (the summaries
  // show them more readably); everything with --verbose.
  const progress = () => {
    let inOutputs = false;
    return (text) => {
      if (values.verbose) return process.stdout.write(text);
      for (const line of text.split("\n")) {
        if (/^Outputs:/.test(line)) inOutputs = true;
        else if (/^Resources:/.test(line)) inOutputs = false;
        // Blank lines and the progress dots of a non-interactive terminal say nothing here.
        if (inOutputs || /^\s*$|^@ [a-z]+\.*$|^\.+$/.test(line)) continue;
        process.stdout.write(`${dim(line)}\n`);
      }
    };
  };

  let result;
  try {
    const started = Date.now();
    result = await runProgram({
      dir: repoRoot,
      op: "up",
      stack: "dev",
      baseUrl: url,
      apiKey,
      onOutput: progress(),
    });
    process.stdout.write(`\n${summary(result.outputs, (Date.now() - started) / 1000)}\n`);
    result.outputs = await showChange(result, values, progress);
  } catch (err) {
    if (result && !values.keep) await destroyStack(result, values).catch(() => {});
    await stopSandbox(child);
    throw err;
  }

  if (values.keep) {
    child.unref();
    process.stdout.write(`${keepInstructions(result, sandbox)}\n`);
    return 0;
  }
  await destroyStack(result, values);
  await stopSandbox(child);
  fs.rmSync(logFile, { force: true });
  process.stdout.write(
    `\n${green("✔")} Cleaned up: stack destroyed, sandbox stopped. ${dim("(npm run demo -- --keep leaves them running)")}\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
