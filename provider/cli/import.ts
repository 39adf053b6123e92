#!/usr/bin/env node
/**
 * `domainapi-import`: zone files (RFC 1035 master files, `dig` answer sections) -> a runnable Pulumi
 * program that declares their records, one DnsTemplateRecords per file, and `import-report.md`.
 *
 *   domainapi-import example.com.zone --template web --lang yaml --out infra/dns
 *
 * Exit status: 0 the program was written (skipped records are not errors); 2 the input cannot be
 * read, a template would have no record, the output directory is taken, or the arguments are wrong
 * (the message names file, line and what was expected); 1 anything else.
 */
// First: on a Node the package does not support, the command stops here and says which it needs.
import "./node-version";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import {
  type ImportedTemplate,
  importProgram,
  NothingToImportError,
  PROGRAM_LANGUAGES,
  type ProgramLanguage,
  summaryLine,
  ZoneInputError,
} from "../import";

const USAGE = `Usage: domainapi-import <zone-file>... [--template <id>]... [--origin <domain>]
         [--lang ts|yaml|python|go] [--out <dir>] [--force] [--keep-domain] [--keep-apex-ns]

Writes a Pulumi program that declares the records of each zone file (a master file as DNS hosts
export it, or \`dig +noall +answer\` output) as one DnsTemplateRecords resource with purge: true,
and import-report.md listing every record skipped or changed, with its line and reason.

  --template <id>   the DNS template of each file, in order (default: the file's name without
                    its extension); two files onto one template are refused
  --origin <domain> the zone's domain when the file names none (dig output); refused for a file
                    whose SOA or $ORIGIN names another
  --lang <lang>     ts (default; the dynamic resources), yaml, python or go (the plugin's SDKs)
  --out <dir>       where to write the program: a new or empty directory (default: a new
                    directory named after the first template)
  --force           write into a directory that holds files, replacing those of the same names
  --keep-domain     keep the domain inside contents instead of writing {domainname}
  --keep-apex-ns    keep the apex NS records (skipped by default: the DNS host's own)
  -h, --help        show this help

Exit status: 0 the program was written; 2 the input cannot be read (file, line and what was
expected are named), a template would have no record (the report is printed), the output
directory is taken, or the arguments are wrong. On exit 2 nothing is written.`;

/** Where the command writes its messages; the real process's streams by default. */
export interface ImportCommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A refusal of the command's own (arguments, the output directory): exit 2. */
class UsageError extends Error {}

/** The directory the program goes to when `--out` is not given: the first template's id, in the current directory. */
function defaultOut(templates: readonly ImportedTemplate[]): string {
  // One template per zone file, and there is one at least. Template ids hold no separator, `.` or
  // `..` (validateTemplateId).
  return (templates[0] as ImportedTemplate).templateId;
}

/** What is in `dir`: undefined when it does not exist; refuses a file. */
async function entriesOf(dir: string): Promise<string[] | undefined> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new UsageError(`--out ${dir} is a file, not a directory`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return readdir(dir);
}

/**
 * The directory `out` names: itself, or where a symbolic link leads (a rename onto the link itself
 * would fail, or replace the link), so that `--out` a link to a directory writes into that directory.
 */
async function followLink(out: string): Promise<string> {
  try {
    if (!(await lstat(out)).isSymbolicLink()) return out;
  } catch {
    // Nothing there (a new directory), or a path that cannot be reached: entriesOf's stat says which.
    return out;
  }
  try {
    return await realpath(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new UsageError(
      `--out ${out} is a symbolic link to ${await readlink(out)}, which does not exist: create that directory, or give another --out`,
    );
  }
}

/**
 * Writes `files` into `out` as a whole, so that a failure leaves no half-written program and every
 * file of the user's as it was. A new `out`: written in a temporary directory beside it, moved there
 * by one rename. An existing one (empty, or `--force`): the temporary directory is inside it, since
 * `out` may be a mount point (a container's volume) that no rename from beside it can cross; each
 * file of the user's that a program file replaces is moved aside first and moved back on a failure.
 * Returns the names of the files it replaced.
 */
async function writeWhole(given: string, files: Record<string, string>, force: boolean): Promise<string[]> {
  const out = await followLink(given);
  const existing = await entriesOf(out);
  if (existing !== undefined && existing.length > 0 && !force) {
    const shown = existing.sort().slice(0, 5).join(", ") + (existing.length > 5 ? ", ..." : "");
    throw new UsageError(
      `--out ${given} is not empty (it holds ${shown}): give a new or empty directory, ` +
        "or --force to write there and replace the files of the same names",
    );
  }
  const names = Object.keys(files);
  for (const name of names) {
    // A rename cannot replace a directory: found now, before any file moves, not halfway through.
    if (existing?.includes(name) && (await stat(path.join(out, name))).isDirectory()) {
      throw new UsageError(`--out ${given} holds a directory ${name}, where the program's file ${name} goes`);
    }
  }
  if (existing === undefined) {
    const parent = path.dirname(path.resolve(out));
    await mkdir(parent, { recursive: true });
    const temp = await mkdtemp(path.join(parent, `.${path.basename(path.resolve(out))}.domainapi-import-`));
    try {
      for (const name of names) await writeFile(path.join(temp, name), files[name] as string);
      await rename(temp, out);
    } catch (err) {
      // temp, this command's own, is there until the rename succeeds: no force needed.
      await rm(temp, { recursive: true });
      throw err;
    }
    return [];
  }
  const temp = await mkdtemp(path.join(out, ".domainapi-import-"));
  const staged = path.join(temp, "program");
  const aside = path.join(temp, "replaced");
  const moved: string[] = [];
  const replaced: string[] = [];
  try {
    await mkdir(staged);
    await mkdir(aside);
    for (const name of names) await writeFile(path.join(staged, name), files[name] as string);
    for (const name of names) {
      if (existing.includes(name)) {
        await rename(path.join(out, name), path.join(aside, name));
        replaced.push(name);
      }
      await rename(path.join(staged, name), path.join(out, name));
      moved.push(name);
    }
  } catch (err) {
    // Back as it was: the program's files out, the user's back in. Each named file, and temp, is
    // there: moved into place by this command, or made by it.
    for (const name of moved) await rm(path.join(out, name));
    for (const name of replaced) await rename(path.join(aside, name), path.join(out, name));
    await rm(temp, { recursive: true });
    throw err;
  }
  await rm(temp, { recursive: true });
  return replaced;
}

/**
 * Runs `domainapi-import` with `args` (without `node` and the script) and returns the exit status.
 *
 * @example
 * await runImportCommand(["example.com.zone", "--lang", "go", "--out", "dns"]); // 0
 */
export async function runImportCommand(
  args: readonly string[],
  io: ImportCommandIo = process,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (err) {
    io.stderr.write(`domainapi-import: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const lang = values.lang ?? "ts";
  const templates = values.template ?? [];
  const isLanguage = (value: string): value is ProgramLanguage =>
    (PROGRAM_LANGUAGES as readonly string[]).includes(value);
  const problem =
    positionals.length === 0
      ? "expected at least one zone file"
      : !isLanguage(lang)
        ? `--lang ${lang} is not one of ${PROGRAM_LANGUAGES.join(", ")}`
        : templates.length > positionals.length
          ? `${templates.length} --template values for ${positionals.length} zone files: give one per file, in order`
          : undefined;
  if (problem !== undefined) {
    io.stderr.write(`domainapi-import: ${problem}\n\n${USAGE}\n`);
    return 2;
  }
  // A language: checked above.
  const language = lang as ProgramLanguage;
  try {
    const sources = [];
    for (const [i, file] of positionals.entries()) {
      // Bytes, not text: a byte that is not UTF-8 is skipped with its line, never read as U+FFFD.
      let text: Uint8Array;
      try {
        text = await readFile(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new ZoneInputError(
          file,
          0,
          code === "ENOENT" ? "no such file" : `cannot be read (${code ?? String(err)})`,
        );
      }
      sources.push({ text, file, templateId: templates[i] });
    }
    // The program pins the version of this package that runs (importProgram's default).
    const { templates: imported, files } = importProgram(sources, language, {
      origin: values.origin,
      keepDomain: values["keep-domain"],
      keepApexNs: values["keep-apex-ns"],
    });
    if (values.out !== undefined && values.out.trim() === "")
      throw new UsageError("--out is empty: name a directory");
    const out = values.out ?? defaultOut(imported);
    let replaced: string[];
    try {
      replaced = await writeWhole(out, files, values.force === true);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(
        `cannot write the program into ${out} (${why}): nothing was written, and the files there are as they were`,
      );
    }
    for (const t of imported) io.stdout.write(`${summaryLine(t)}\n`);
    // Under --force, the files of the user's that are gone are named: nothing is replaced unsaid.
    const over = replaced.length > 0 ? ` (replacing ${out}'s own ${replaced.join(", ")}: --force)` : "";
    io.stdout.write(
      `wrote ${Object.keys(files).join(", ")} to ${out}${over}; see import-report.md before the first \`pulumi up\`\n`,
    );
    return 0;
  } catch (err) {
    io.stderr.write(`domainapi-import: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof NothingToImportError) io.stderr.write(`\n${err.report}`);
    return err instanceof ZoneInputError || err instanceof UsageError ? 2 : 1;
  }
}

/** The command's options, as `parseArgs` takes them: `--help` lists every one. */
export const IMPORT_OPTIONS = {
  help: { type: "boolean", short: "h" },
  template: { type: "string", multiple: true },
  origin: { type: "string" },
  lang: { type: "string" },
  out: { type: "string" },
  force: { type: "boolean" },
  "keep-domain": { type: "boolean" },
  "keep-apex-ns": { type: "boolean" },
} as const;

function parse(args: readonly string[]) {
  return parseArgs({ args: [...args], allowPositionals: true, options: IMPORT_OPTIONS });
}

/**
 * A reader that stops reading `stream` (`| head`) ends the command quietly, as Unix tools do: on
 * EPIPE, `exit` with `code()`; any other error of the stream is thrown.
 */
export function quietOnClosedPipe(
  stream: NodeJS.EventEmitter,
  code: () => number,
  exit: (code: number) => void = process.exit,
): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    exit(code());
  });
}

/** What {@link runAsCommand} needs of the process: its arguments, its streams, its exit status. */
export interface CommandProcess {
  readonly argv: readonly string[];
  readonly stdout: NodeJS.EventEmitter & { write(text: string): unknown };
  readonly stderr: NodeJS.EventEmitter & { write(text: string): unknown };
  exitCode: number | string | null | undefined;
  exit(code: number): void;
}

/**
 * `domainapi-import` as its binary runs it: the arguments after `node` and the script, the exit
 * status the command returns (1, said, for a failure it did not foresee), a closed pipe quiet.
 */
export async function runAsCommand(proc: CommandProcess = process): Promise<void> {
  const exit = (code: number): void => proc.exit(code);
  quietOnClosedPipe(proc.stdout, () => 0, exit);
  quietOnClosedPipe(proc.stderr, () => Number(proc.exitCode ?? 1), exit);
  try {
    proc.exitCode = await runImportCommand(proc.argv.slice(2), proc);
  } catch (err) {
    proc.stderr.write(`domainapi-import: ${err instanceof Error ? err.message : String(err)}\n`);
    proc.exitCode = 1;
  }
}

if (require.main === module) void runAsCommand();
