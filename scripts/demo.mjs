#!/usr/bin/env node
/**
 * `npm run demo`: the quickstart program (the root Pulumi.yaml) against the offline sandbox.
 *
 * Starts the sandbox (`domainapi-sandbox`, a child process on a free loopback port), runs
 * `pulumi up` of the quickstart on a local state backend, prints what it made, then destroys the
 * stack and stops the sandbox. With `--keep` the stack and the sandbox stay, and the demo prints how
 * to reach them and how to clean up.
 *
 *   npm run demo               # up, summary, destroy, stop
 *   npm run demo -- --keep     # up, summary; leaves the stack and the sandbox running
 *   npm run demo -- --verbose  # also prints the engine's full output
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { repoRoot, runProgram } from "./run-program.mjs";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = paint("1");
const dim = paint("2");
const green = paint("32");

const SANDBOX_START_MS = 15_000;

/** Starts `domainapi-sandbox --port 0` detached, its output in `logFile`; resolves with its URL. */
async function startSandboxProcess(apiKey, logFile) {
  const cli = path.join(repoRoot, "dist", "sandbox", "cli.js");
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
    "  Change examples/quickstart/index.ts, then run it again:",
    `    bash scripts/with-pulumi.sh node scripts/run-program.mjs . --work-dir ${rel(result.workDir)} --backend ${result.backendDir}`,
    "  Clean up:",
    `    ${env} bash scripts/with-pulumi.sh pulumi destroy --yes --remove --cwd ${rel(result.workDir)}`,
    `    kill ${sandbox.child.pid}; rm -rf ${rel(result.workDir)} ${result.backendDir}`,
  ].join("\n");
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

  let result;
  try {
    const started = Date.now();
    // The engine's own progress lines, without the blank lines and the outputs dump (the summary
    // below shows them more readably); everything with --verbose.
    let inOutputs = false;
    const onOutput = (text) => {
      if (values.verbose) return process.stdout.write(text);
      for (const line of text.split("\n")) {
        if (/^Outputs:/.test(line)) inOutputs = true;
        else if (/^Resources:/.test(line)) inOutputs = false;
        // Blank lines and the progress dots of a non-interactive terminal say nothing here.
        if (inOutputs || /^\s*$|^@ [a-z]+\.*$|^\.+$/.test(line)) continue;
        process.stdout.write(`${dim(line)}\n`);
      }
    };
    result = await runProgram({ dir: repoRoot, op: "up", stack: "dev", baseUrl: url, apiKey, onOutput });
    process.stdout.write(`\n${summary(result.outputs, (Date.now() - started) / 1000)}\n`);
  } catch (err) {
    await stopSandbox(child);
    throw err;
  }

  if (values.keep) {
    child.unref();
    process.stdout.write(`${keepInstructions(result, sandbox)}\n`);
    return 0;
  }
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
