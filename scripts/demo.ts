/**
 * `npm run demo`: the quickstart program (the root Pulumi.yaml) against the offline sandbox.
 *
 * Starts the sandbox (its `domainapi-sandbox` bin, a child process on a free loopback port), runs
 * `pulumi up` of the quickstart on a local state backend and prints what it made. Then it changes
 * the program as a pull request would (in the `web` template one record changed, one added, one
 * removed: as data, the stack config the quickstart reads its `web` records from), previews it with
 * `pulumi preview --json`, prints the keyed diff from that document and the plan a pull request
 * gets from it (the `domainapi-plan` bin), runs the update and prints which record ids were kept
 * and which are new. Finally it destroys the stack and stops the sandbox. With `--keep`
 * the stack and the sandbox stay, and the demo prints how to reach them and how to clean up.
 *
 *   npm run demo               # up, change, preview, plan, update, ids, destroy, stop
 *   npm run demo -- --keep     # the same, but leaves the stack and the sandbox running
 *   npm run demo -- --verbose  # also prints the engine's full output
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type * as Automation from "@pulumi/pulumi/automation/index.js";
import { CHANGE_SAYS, changedWebRecords, WEB_RECORDS_CONFIG } from "./demo/change.ts";
import {
  bold,
  colourDiffLine,
  dim,
  green,
  idChanges,
  type QuickstartOutputs,
  summary,
  write,
} from "./demo/output.ts";
import { keyedDiff, planMarkdown, previewJson } from "./demo/preview.ts";
import { consumerRequire } from "./lib/consumer.ts";
import { type SandboxProcess, startSandboxProcess, stopSandboxProcess } from "./lib/sandbox.ts";
import { type RunResult, repoRoot, runProgram } from "./run-program.ts";

interface Flags {
  keep?: boolean;
  verbose?: boolean;
}

/**
 * The stack of the first `up`, running the quickstart again. Node evaluates a module once per
 * URL, so each run imports the program under a URL of its own (a query string).
 */
async function sameStack(result: RunResult): Promise<Automation.Stack> {
  const automation = consumerRequire("@pulumi/pulumi/automation") as typeof Automation;
  let runs = 0;
  const program = async (): Promise<Record<string, unknown>> => {
    const mod = (await import(`${pathToFileURL(result.entry).href}?run=${++runs}`)) as Record<
      string,
      unknown
    >;
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

/** Changes the program's data, previews, plans, updates and shows the ids; returns the new outputs. */
async function showChange(
  result: RunResult,
  flags: Flags,
  progress: () => (text: string) => void,
): Promise<QuickstartOutputs> {
  const first = result.outputs as QuickstartOutputs;
  const webRecords = changedWebRecords(first.templates?.web ?? []);
  write(
    `\n${bold("The change")}  ${dim(`(as a pull request would make it: the web records, as the stack config ${WEB_RECORDS_CONFIG})`)}`,
  );
  for (const says of CHANGE_SAYS) write(`  web: ${colourDiffLine(says)}`);
  const stack = await sameStack(result);
  await stack.setConfig(`${result.project}:${WEB_RECORDS_CONFIG}`, { value: JSON.stringify(webRecords) });

  write(
    `\n${bold("pulumi preview --json")}  ${dim("(records keyed name/type: one entry per changed record)")}`,
  );
  const previewFile = path.join(result.workDir, "preview.json");
  const doc = await previewJson(stack, previewFile);
  if (flags.verbose) write(fs.readFileSync(previewFile, "utf8"));
  for (const line of keyedDiff(doc, "web")) write(`  ${colourDiffLine(line)}`);

  write(
    `\n${bold("The plan for the pull request")}  ${dim(`(npx domainapi-plan preview.json, from the same preview: ${path.relative(process.cwd(), previewFile)})`)}`,
  );
  for (const line of planMarkdown(previewFile).trimEnd().split("\n")) write(`  ${colourDiffLine(line)}`);

  write(`\n${bold("pulumi up")}  ${dim("(the change)")}`);
  const started = Date.now();
  const up = await stack.up({ onOutput: progress() });
  const outputs = Object.fromEntries(
    Object.entries(up.outputs).map(([k, v]) => [k, v.value]),
  ) as QuickstartOutputs;
  const ids = idChanges(first.templates?.web ?? [], outputs.templates?.web ?? []);
  write(`\n${green("✔")} ${bold("pulumi up")} succeeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  write(`\n  ${bold("Template web")}  ${dim(outputs.plans?.web ?? "")}`);
  write(`  ${bold("Record ids")}: ${ids.kept} kept, ${ids.fresh} new`);
  for (const line of ids.lines) write(line);
  return outputs;
}

function keepInstructions(
  result: RunResult,
  sandbox: SandboxProcess & { apiKey: string; logFile: string },
): string {
  const rel = (p: string): string => path.relative(process.cwd(), p) || ".";
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
    `  The stack holds the changed web records as config (${WEB_RECORDS_CONFIG} in ${rel(path.join(result.workDir, `Pulumi.${result.stack}.yaml`))}).`,
    "  Change them or examples/quickstart/index.ts, then run it again:",
    `    bash scripts/with-pulumi.sh node scripts/run-program.ts . --work-dir ${rel(result.workDir)} --backend ${result.backendDir}`,
    "  Clean up:",
    `    ${env} bash scripts/with-pulumi.sh pulumi destroy --yes --remove --cwd ${rel(result.workDir)}`,
    `    kill ${sandbox.child.pid}; rm -rf ${rel(result.workDir)} ${result.backendDir}`,
  ].join("\n");
}

/** Destroys the demo's stack and removes its state and work directory. */
async function destroyStack(result: RunResult, flags: Flags): Promise<void> {
  await runProgram({
    dir: repoRoot,
    op: "destroy",
    stack: "dev",
    workDir: result.workDir,
    backendDir: result.backendDir,
    onOutput: flags.verbose ? undefined : () => {},
  });
  fs.rmSync(result.workDir, { recursive: true, force: true });
  fs.rmSync(result.backendDir, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const { values: flags } = parseArgs({
    options: {
      keep: { type: "boolean" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (flags.help) {
    process.stdout.write("Usage: npm run demo [-- --keep] [-- --verbose]\n");
    return 0;
  }
  try {
    consumerRequire.resolve("pulumi-domainapi");
  } catch {
    throw new Error("the package is not built: run `npm run build` first (npm run demo does)");
  }

  const apiKey = `demo-${randomBytes(6).toString("hex")}`;
  const logFile = path.join(os.tmpdir(), `domainapi-sandbox-${process.pid}.log`);
  const started = await startSandboxProcess(["--api-key", apiKey], logFile, repoRoot);
  const sandbox = { ...started, apiKey, logFile };
  process.stdout.write(
    `${dim("sandbox")}  ${sandbox.url} ${dim("(offline Domain API, seeded templates web and mail)")}\n`,
  );
  process.stdout.write(`${dim("program")}  Pulumi.yaml -> examples/quickstart/index.ts\n\n`);

  // The engine's own progress lines, without the blank lines and the outputs dump (the summaries
  // show them more readably); everything with --verbose.
  const progress = () => {
    let inOutputs = false;
    return (text: string): void => {
      if (flags.verbose) {
        process.stdout.write(text);
        return;
      }
      for (const line of text.split("\n")) {
        if (/^Outputs:/.test(line)) inOutputs = true;
        else if (/^Resources:/.test(line)) inOutputs = false;
        // Blank lines and the progress dots of a non-interactive terminal say nothing here.
        if (inOutputs || /^\s*$|^@ [a-z]+\.*$|^\.+$/.test(line)) continue;
        process.stdout.write(`${dim(line)}\n`);
      }
    };
  };

  let result: RunResult | undefined;
  try {
    const t0 = Date.now();
    result = await runProgram({
      dir: repoRoot,
      op: "up",
      stack: "dev",
      baseUrl: sandbox.url,
      apiKey,
      onOutput: progress(),
    });
    process.stdout.write(`\n${summary(result.outputs as QuickstartOutputs, (Date.now() - t0) / 1000)}\n`);
    result.outputs = { ...(await showChange(result, flags, progress)) };
  } catch (err) {
    if (result && !flags.keep) await destroyStack(result, flags).catch(() => {});
    await stopSandboxProcess(sandbox.child);
    throw err;
  }

  if (flags.keep) {
    sandbox.child.unref();
    process.stdout.write(`${keepInstructions(result, sandbox)}\n`);
    return 0;
  }
  await destroyStack(result, flags);
  await stopSandboxProcess(sandbox.child);
  fs.rmSync(logFile, { force: true });
  process.stdout.write(
    `\n${green("✔")} Cleaned up: stack destroyed, sandbox stopped. ${dim("(npm run demo -- --keep leaves them running)")}\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
