/**
 * Mutation testing of provider/ (StrykerJS, stryker.config.mjs), over its committed incremental
 * report (bench/results/mutation/stryker-incremental.json).
 *
 *   npm run mutate                         every module of the report whose code or tests changed since
 *   npm run mutate -- provider/checks      the modules of a folder (or files), re-tested incrementally
 *   npm run mutate -- --all                every module of provider/
 *   npm run mutate -- --ci                 as the first form, then fail below the floor (scripts/test.sh)
 *   npm run mutate -- --report             only rewrite bench/results/mutation.md from the report
 *   npm run mutate -- --concurrency 2 ...  fewer Stryker processes (default: stryker.config.mjs)
 *
 * A module is run with its own test files: those named after it (test/unit/<area>/<module>*.test.ts,
 * test/provider/...) and those that import it directly; not every test that reaches it through the
 * package: the score says what the module's own tests pin.
 * The floor (docs/development.md, "Mutation testing"): killed and timed-out mutants over the valid ones, 90%
 * per module. A mutant shown to be equivalent is disabled in the source by a `Stryker disable`
 * comment that gives the reason; it is then listed as such, and counts in no score.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const REPORT = "bench/results/mutation/stryker-incremental.json";
const SUMMARY = "bench/results/mutation.md";
const FLOOR = 90;
const TEST_DIRS = ["test/unit", "test/provider", "test/conformance"];
/**
 * Tests of the built package's scripts, run in child processes (the GitHub Action's steps over
 * `dist/`): the mutant is never in the code they run, and each costs seconds per mutant.
 */
const OUT_OF_PROCESS = new Set(["test/unit/actions/steps.test.ts"]);

/** A mutant of the report (mutation-testing-report-schema), the fields this script reads. */
interface Mutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly statusReason?: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
  readonly killedBy?: readonly string[];
  readonly coveredBy?: readonly string[];
}
/** A test of the report: Stryker numbers them afresh in each run. */
interface Test {
  readonly id: string;
  readonly name: string;
}
/** The incremental report: every mutated file and test file with the source it was run on. */
interface Report {
  readonly files: Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>;
  readonly testFiles?: Record<string, { readonly source: string; readonly tests?: readonly Test[] }>;
}
/** A module's counts and score. */
interface Score {
  readonly file: string;
  readonly killed: number;
  readonly timeout: number;
  readonly survived: readonly Mutant[];
  readonly noCoverage: readonly Mutant[];
  readonly ignored: readonly Mutant[];
  readonly invalid: number;
  readonly score: number;
}

const read = (file: string): string | undefined => {
  try {
    return fs.readFileSync(path.join(root, file), "utf8");
  } catch {
    return undefined;
  }
};

function readReport(): Report {
  const text = read(REPORT);
  return text === undefined ? { files: {}, testFiles: {} } : (JSON.parse(text) as Report);
}

function walk(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  if (!fs.existsSync(path.join(root, dir))) return out;
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(rel, keep));
    else if (keep(rel)) out.push(rel);
  }
  return out.sort();
}

/** The modules Stryker mutates (stryker.config.mjs): provider's TypeScript, generated JSON aside. */
function modules(): string[] {
  return walk("provider", (file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
}

/** The provider modules a test file imports directly (relative imports, or the package's name). */
function importsOf(testFile: string, source: string): string[] {
  const out: string[] = [];
  for (const [, spec] of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    if (spec === undefined) continue;
    let target: string | undefined;
    if (spec === "pulumi-domainapi") target = "provider/index";
    else if (spec === "pulumi-domainapi/impl") target = "provider/dynamic/impl";
    else if (spec.startsWith(".")) target = path.posix.join(path.posix.dirname(testFile), spec);
    if (target === undefined || !target.startsWith("provider/")) continue;
    target = target.replace(/\.(js|ts)$/, "");
    for (const candidate of [`${target}.ts`, `${target}/index.ts`])
      if (read(candidate) !== undefined) out.push(candidate);
  }
  return out;
}

/** Each module with the test files that import it directly. */
function testsByModule(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const tests = TEST_DIRS.flatMap((dir) =>
    walk(
      dir,
      (file) =>
        /\.test\.ts$/.test(file) && !path.basename(file).startsWith("pending-") && !OUT_OF_PROCESS.has(file),
    ),
  );
  for (const test of tests) {
    // A test named after its module (docs/development.md, "Tests") may reach it through another.
    const [, area, name] = /^test\/(?:unit|provider)\/(.+)\/([^/.]+)(?:\.[^/]+)?\.test\.ts$/.exec(test) ?? [];
    const named =
      area === undefined ? [] : [`provider/${area}/${name}.ts`].filter((m) => read(m) !== undefined);
    for (const module of [...named, ...importsOf(test, read(test) ?? "")]) {
      const list = map.get(module) ?? [];
      if (!list.includes(test)) list.push(test);
      map.set(module, list);
    }
  }
  return map;
}

/**
 * The modules of the report whose code, or whose tests, differ from what it was made from, or
 * whose mutants a test file now gone had killed. A module
 * the report does not hold yet is not among them: its first run is a whole one (`npm run mutate --
 * <module>`), listed in mutation.md as not yet run, and too long for CI's budget.
 */
function changedModules(report: Report, tests: Map<string, string[]>): string[] {
  return modules().filter((module) => {
    if (!(module in report.files)) return false;
    if (report.files[module]?.source !== read(module)) return true;
    // No mutant, nothing its tests could newly kill or let live.
    if (report.files[module]?.mutants.length === 0) return false;
    if ((tests.get(module) ?? []).some((test) => report.testFiles?.[test]?.source !== read(test)))
      return true;
    // A test file removed: the mutants it killed may live now (tests are named "<file>: <name>").
    return (report.files[module]?.mutants ?? []).some((m) =>
      (m.killedBy ?? []).some((id) => {
        const at = id.indexOf(": ");
        return at > 0 && read(id.slice(0, at)) === undefined;
      }),
    );
  });
}

function scoreOf(file: string, mutants: readonly Mutant[]): Score {
  const by = (status: string) => mutants.filter((m) => m.status === status);
  const killed = by("Killed").length;
  const timeout = by("Timeout").length;
  const survived = by("Survived");
  const noCoverage = by("NoCoverage");
  const valid = killed + timeout + survived.length + noCoverage.length;
  return {
    file,
    killed,
    timeout,
    survived,
    noCoverage,
    ignored: by("Ignored"),
    invalid: by("CompileError").length + by("RuntimeError").length,
    score: valid === 0 ? 100 : (100 * (killed + timeout)) / valid,
  };
}

function scores(report: Report): Score[] {
  return Object.entries(report.files)
    .filter(([file]) => read(file) !== undefined)
    .map(([file, { mutants }]) => scoreOf(file, mutants))
    .sort((a, b) => a.file.localeCompare(b.file));
}

const fmt = (score: number) => `${Math.floor(score * 10) / 10}%`;

function lineOf(source: string, line: number): string {
  const text = (source.split("\n")[line - 1] ?? "").trim();
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}

/** Writes bench/results/mutation.md from the report: the score per module, then every survivor. */
function writeSummary(report: Report): void {
  const all = scores(report);
  const missing = modules().filter((module) => !(module in report.files));
  const lines = [
    "# Mutation scores of provider/",
    "",
    `Written by \`npm run mutate\` (scripts/mutation.ts) from \`${REPORT}\`; do not edit by hand.`,
    `Score: killed and timed-out mutants over valid ones (survived and not covered); floor ${FLOOR}%.`,
    "Each module is run with its own test files (named after it, or importing it). Mutants that do not type-check",
    "are not counted; mutants shown to be equivalent are disabled in the source with the reason, and",
    "listed below.",
    "",
    "| Module | Score | Killed | Timed out | Survived | No coverage | Equivalent | Note |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    ...all.map((s) => {
      const notes = s.score < FLOOR ? "**below the floor**" : "";
      return `| \`${s.file}\` | ${fmt(s.score)} | ${s.killed} | ${s.timeout} | ${s.survived.length} | ${s.noCoverage.length} | ${s.ignored.length} | ${notes} |`;
    }),
    "",
  ];
  if (missing.length > 0) {
    lines.push("## Not yet run", "", ...missing.map((m) => `- \`${m}\``), "");
  }
  lines.push("## Survivors and equivalent mutants", "");
  for (const s of all) {
    const listed = [
      ...s.survived.map((m) => [m, "survived"] as const),
      ...s.noCoverage.map((m) => [m, "no test covers it"] as const),
      ...s.ignored.map((m) => [m, `equivalent: ${m.statusReason ?? "(no reason given)"}`] as const),
    ].sort(([a], [b]) => a.location.start.line - b.location.start.line);
    if (listed.length === 0) continue;
    lines.push(`### \`${s.file}\``, "");
    const source = report.files[s.file]!.source;
    for (const [m, why] of listed) {
      const replacement = (m.replacement ?? "").replaceAll("\n", " ").slice(0, 60);
      lines.push(
        `- line ${m.location.start.line} (${m.mutatorName} -> \`${replacement.replaceAll("`", "'")}\`): ${why}; in \`${lineOf(source, m.location.start.line).replaceAll("`", "'")}\``,
      );
    }
    lines.push("");
  }
  fs.writeFileSync(path.join(root, SUMMARY), lines.join("\n"));
}

/**
 * Drops the survivors of `targets` from the report, so that Stryker tests them again: its incremental
 * mode re-tests a survivor only when its code or the tests that covered it change, never for a new
 * test that would kill it. They are few; the killed ones are kept.
 */
function forgetSurvivors(report: Report, targets: readonly string[]): void {
  const files = Object.fromEntries(
    Object.entries(report.files).map(([file, entry]) => [
      file,
      targets.includes(file)
        ? {
            ...entry,
            mutants: entry.mutants.filter((m) => m.status !== "Survived" && m.status !== "NoCoverage"),
          }
        : entry,
    ]),
  );
  fs.writeFileSync(path.join(root, REPORT), JSON.stringify({ ...report, files }, null, 2));
}

/**
 * The report as this run leaves it: what it ran, and the rest as before. Stryker rewrites every file
 * of its incremental report, modules it did not run too: their source becomes today's and the
 * mutants of their changed lines are dropped untested, so a module changed since its own run would
 * pass for run. A test file's source counts as run only when every module that owns it was run.
 */
function keepUnrun(
  before: Report,
  after: Report,
  targets: readonly string[],
  tests: Map<string, string[]>,
): Report {
  const files: Record<string, Report["files"][string]> = {};
  for (const [file, entry] of Object.entries(after.files)) {
    const was = before.files[file];
    if (targets.includes(file)) files[file] = entry;
    else if (was !== undefined) files[file] = was;
  }
  for (const [file, entry] of Object.entries(before.files)) if (!(file in files)) files[file] = entry;
  // Stryker leaves out a module it ran that has no mutant (types, re-exports): it is run all the same.
  for (const module of targets) files[module] ??= { source: read(module) ?? "", mutants: [] };
  const owners = (test: string) =>
    [...tests].filter(([, list]) => list.includes(test)).map(([module]) => module);
  const testFiles: Record<string, { readonly source: string }> = {};
  for (const [test, entry] of Object.entries(after.testFiles ?? {})) {
    const run = owners(test).every((module) => targets.includes(module) || !(module in files));
    const was = before.testFiles?.[test];
    if (run) testFiles[test] = entry;
    else if (was !== undefined) testFiles[test] = was;
  }
  for (const [test, entry] of Object.entries(before.testFiles ?? {}))
    if (!(test in testFiles)) testFiles[test] = entry;
  return { ...after, files, testFiles };
}

/**
 * The report with each test named by its file and name instead of the number Stryker gave it in this
 * run: entries kept from earlier runs (keepUnrun) were numbered by those runs, and a number that now
 * names another test made Stryker judge a killed mutant by the wrong test, so it re-tested nearly all.
 */
function namedTestIds(report: Report): Report {
  const names = new Map<string, string>();
  const testFiles = Object.fromEntries(
    Object.entries(report.testFiles ?? {}).map(([file, entry]) => {
      const seen = new Map<string, number>();
      const tests = entry.tests?.map((test) => {
        const base = `${file}: ${test.name}`;
        const n = (seen.get(base) ?? 0) + 1;
        seen.set(base, n);
        const id = n === 1 ? base : `${base} (${n})`;
        names.set(test.id, id);
        return { ...test, id };
      });
      return [file, tests === undefined ? entry : { ...entry, tests }];
    }),
  );
  const named = (ids: readonly string[] | undefined) =>
    ids?.flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [name];
    });
  const files = Object.fromEntries(
    Object.entries(report.files).map(([file, entry]) => [
      file,
      {
        ...entry,
        mutants: entry.mutants.map((m) => ({
          ...m,
          ...(m.killedBy === undefined ? {} : { killedBy: named(m.killedBy) }),
          ...(m.coveredBy === undefined ? {} : { coveredBy: named(m.coveredBy) }),
        })),
      },
    ]),
  );
  return { ...report, files, testFiles };
}

function stryker(mutate: readonly string[], testFiles: readonly string[], concurrency?: string): number {
  const bin = path.join(root, "node_modules", ".bin", "stryker");
  const args = ["run", "--mutate", mutate.join(","), "--incremental"];
  if (concurrency !== undefined) args.push("--concurrency", concurrency);
  if (testFiles.length > 0) args.push("--testFiles", testFiles.join(","));
  console.log(`mutation: stryker ${args.join(" ")}`);
  return spawnSync(bin, args, { cwd: root, stdio: "inherit" }).status ?? 1;
}

function main(argv: readonly string[]): number {
  const started = Date.now();
  const ci = argv.includes("--ci");
  const tests = testsByModule();
  if (argv.includes("--report")) {
    writeSummary(readReport());
    return 0;
  }
  // `--concurrency N` (Stryker's own option): fewer processes when other work shares the machine.
  const at = argv.indexOf("--concurrency");
  const concurrency = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && !/^[1-9]\d*$/.test(concurrency ?? "")) {
    console.error("mutation: --concurrency takes a whole number of processes, such as --concurrency 2");
    return 2;
  }
  const named = argv.filter((arg, i) => !arg.startsWith("--") && !(at >= 0 && i === at + 1));
  const before = readReport();
  const targets = argv.includes("--all")
    ? modules()
    : named.length > 0
      ? modules().filter((m) => named.some((n) => m === n || m.startsWith(`${n.replace(/\/$/, "")}/`)))
      : changedModules(before, tests);
  const unrun = modules().filter((m) => !(m in before.files)).length;
  if (unrun > 0 && named.length === 0) console.log(`mutation: ${unrun} module(s) not yet in ${REPORT}`);
  if (targets.length === 0) {
    console.log(
      `mutation: no module of provider/ or test of one changed since ${REPORT} (${Date.now() - started} ms)`,
    );
    return 0;
  }
  console.log(`mutation: ${targets.length} module(s): ${targets.join(" ")}`);
  // Stryker runs each module's direct tests only; a module no test imports has every mutant uncovered.
  const testFiles = [...new Set(targets.flatMap((m) => tests.get(m) ?? []))].sort();
  if (testFiles.length === 0) {
    console.error("mutation: no test file imports these modules; every mutant would survive");
    return ci ? 1 : 0;
  }
  const original = read(REPORT);
  forgetSurvivors(before, targets);
  const status = stryker(targets, testFiles, concurrency);
  // A failed or stopped run must not leave a report without its survivors.
  if (status !== 0) {
    if (original !== undefined) fs.writeFileSync(path.join(root, REPORT), original);
    return status;
  }
  const report = keepUnrun(before, namedTestIds(readReport()), targets, tests);
  fs.writeFileSync(path.join(root, REPORT), JSON.stringify(report, null, 2));
  writeSummary(report);
  const below = scores(report).filter((s) => targets.includes(s.file) && s.score < FLOOR);
  for (const s of below)
    console.error(`mutation: ${s.file} scores ${fmt(s.score)}, below the floor of ${FLOOR}% (${SUMMARY})`);
  console.log(`mutation: done in ${Math.round((Date.now() - started) / 1000)} s`);
  return below.length > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
