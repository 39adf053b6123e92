#!/usr/bin/env node
/**
 * `domainapi-import`: zone files (RFC 1035 master files, `dig` answer sections) -> a runnable Pulumi
 * program that declares their records, one DnsTemplateRecords per file, and `import-report.md`.
 *
 *   domainapi-import example.com.zone --template web --lang yaml --out infra/dns
 *
 * Exit status: 0 the program was written (skipped records are not errors); 2 the input cannot be
 * read or the arguments are wrong (the message names file, line and what was expected); 1 anything
 * else.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import {
  importProgram,
  PROGRAM_LANGUAGES,
  type ProgramLanguage,
  summaryLine,
  ZoneInputError,
} from "../import";

const USAGE = `Usage: domainapi-import <zone-file>... [--template <id>]... [--origin <domain>]
         [--lang ts|yaml|python|go] [--out <dir>] [--keep-domain] [--keep-apex-ns]

Writes a Pulumi program that declares the records of each zone file (a master file as DNS hosts
export it, or \`dig +noall +answer\` output) as one DnsTemplateRecords resource with purge: true,
and import-report.md listing every record skipped or changed, with its line and reason.

  --template <id>   the DNS template of each file, in order (default: the file's name without
                    its extension)
  --origin <domain> the zone's domain when the file has no $ORIGIN and no SOA (dig output)
  --lang <lang>     ts (default; the dynamic resources), yaml, python or go (the plugin's SDKs)
  --out <dir>       where to write the program (default: the current directory)
  --keep-domain     keep the domain inside contents instead of writing {domainname}
  --keep-apex-ns    keep the apex NS records (skipped by default: the DNS host's own)

Exit status: 0 the program was written, 2 the input cannot be read (file, line and what was
expected are named) or the arguments are wrong.`;

/** Where the command writes its messages; the real process's streams by default. */
export interface ImportCommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

function isLanguage(value: string): value is ProgramLanguage {
  return (PROGRAM_LANGUAGES as readonly string[]).includes(value);
}

/** The range of this package a TypeScript program depends on: the version that wrote it, or newer. */
function packageRange(): string {
  // Through the package's own name, as the transport reads it: the copy that runs, from dist/ or source.
  return `^${(require("pulumi-domainapi/package.json") as { version: string }).version}`;
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
  const problem =
    positionals.length === 0
      ? "expected at least one zone file"
      : !isLanguage(lang)
        ? `--lang ${lang} is not one of ${PROGRAM_LANGUAGES.join(", ")}`
        : templates.length > positionals.length
          ? `${templates.length} --template values for ${positionals.length} zone files: give one per file, in order`
          : undefined;
  if (problem !== undefined || !isLanguage(lang)) {
    io.stderr.write(`domainapi-import: ${problem}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const sources = [];
    for (const [i, file] of positionals.entries()) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
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
    const { templates: imported, files } = importProgram(
      sources,
      lang,
      { origin: values.origin, keepDomain: values["keep-domain"], keepApexNs: values["keep-apex-ns"] },
      { packageVersion: packageRange() },
    );
    const out = values.out ?? ".";
    await mkdir(out, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(out, name), text);
    for (const t of imported) io.stdout.write(`${summaryLine(t)}\n`);
    io.stdout.write(
      `wrote ${Object.keys(files).join(", ")} to ${out}; see import-report.md before the first \`pulumi up\`\n`,
    );
    return 0;
  } catch (err) {
    io.stderr.write(`domainapi-import: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof ZoneInputError ? 2 : 1;
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      template: { type: "string", multiple: true },
      origin: { type: "string" },
      lang: { type: "string" },
      out: { type: "string" },
      "keep-domain": { type: "boolean" },
      "keep-apex-ns": { type: "boolean" },
    },
  });
}

if (require.main === module) {
  runImportCommand(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`domainapi-import: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
