/**
 * Bringing existing DNS in: zone text (RFC 1035 master files, `dig` answer sections) -> the
 * records of DnsTemplateRecords resources, what was skipped and changed, and a program that
 * declares them in TypeScript, YAML, Python or Go. Pure: reads no file and writes none (the
 * `domainapi-import` command does); an Automation API program can call it directly.
 */
import { validateTemplateId } from "../dns/validate";
import { convertEntries } from "./convert";
import { ZoneInputError } from "./errors";
import { type ProgramLanguage, renderProgram } from "./programs";
import { importReport } from "./report";
import { type ImportedTemplate, resourceNames } from "./template";
import { readZone } from "./zone";

export type { ImportedRecord, RecordChange, SkippedRecord } from "./convert";
export { ZoneInputError } from "./errors";
export { PROGRAM_LANGUAGES, type ProgramLanguage } from "./programs";
export { importReport, summaryLine } from "./report";
export type { ImportedTemplate } from "./template";

/** One zone to import. */
export interface ZoneSource {
  /** The zone: a master file or `dig` output, as the file's bytes (bytes that are not UTF-8 are then skipped with their line) or as text. */
  text: string | Uint8Array;
  /** Where it came from, for messages and the report; the template id defaults to its base name. */
  file: string;
  /** The DNS template to fill; default: the file's name without its extension. */
  templateId?: string;
}

/** How zones are read. */
export interface ImportOptions {
  /** The zone's domain when the text does not say it (no `$ORIGIN`, no SOA): `example.com`. */
  origin?: string;
  /** Keep the domain inside contents as written instead of `{domainname}`. */
  keepDomain?: boolean;
  /** Keep the apex NS records (the DNS host's own, skipped by default). */
  keepApexNs?: boolean;
}

/** The default template id of a file: its base name without the last extension (`example.com.zone` -> `example.com`). */
export function defaultTemplateId(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Reads zones into templates, one per zone.
 *
 * @throws {ZoneInputError} text that cannot be read, naming file, line and what was expected; a
 *   zone whose domain is unknown; a template id the API cannot take
 * @example
 * const [web] = importZones([{ text: fs.readFileSync("web.zone"), file: "web.zone" }]);
 * new domainapi.DnsTemplateRecords("web", { templateId: web.templateId, records: web.records.map((r) => r.record) });
 */
export function importZones(sources: readonly ZoneSource[], options: ImportOptions = {}): ImportedTemplate[] {
  const ids = sources.map((s) => s.templateId ?? defaultTemplateId(s.file));
  const names = resourceNames(ids);
  for (const [i, id] of ids.entries()) {
    const first = ids.indexOf(id);
    if (first < i) {
      // Both indices are of ids, one per source.
      const [a, b] = [(sources[first] as ZoneSource).file, (sources[i] as ZoneSource).file];
      throw new ZoneInputError(
        b,
        0,
        `would fill template ${JSON.stringify(id)}, as ${a} does: two zones onto one template would ` +
          "leave only the records of the last (each resource purges the template); give each file its own --template <id>",
      );
    }
  }
  return sources.map((source, i) => {
    const templateId = ids[i] as string;
    const idIssue = validateTemplateId(templateId)[0];
    if (idIssue) {
      throw new ZoneInputError(
        source.file,
        0,
        `cannot be template ${JSON.stringify(templateId)}: ${idIssue.reason}; give --template <id>`,
      );
    }
    // readZone refuses a zone whose domain it cannot tell.
    const zone = readZone(source.text, source.file, options.origin);
    const converted = convertEntries(zone.entries, {
      domain: zone.domain,
      keepDomain: options.keepDomain ?? false,
      keepApexNs: options.keepApexNs ?? false,
      file: source.file,
      notes: zone.notes,
    });
    return {
      ...converted,
      file: source.file,
      templateId,
      domain: zone.domain,
      resourceName: names[i] as string,
    };
  });
}

/** The version of this package: the copy that runs, from dist/ or from source (through its own name). */
function ownVersion(): string {
  return (require("pulumi-domainapi/package.json") as { version: string }).version;
}

/**
 * A template with no record to import: its program would empty the template (`purge: true`) on
 * the first `up`. `report` is the import report that says why each record was skipped.
 */
export class NothingToImportError extends ZoneInputError {
  /** The Markdown of `import-report.md` for all the templates read. */
  readonly report: string;

  constructor(template: ImportedTemplate, report: string) {
    super(
      template.file,
      0,
      `no record of template ${JSON.stringify(template.templateId)} can be imported ` +
        `(${template.skipped.length} skipped): its program would empty the template on the first \`pulumi up\` ` +
        "(purge: true), so none is written; the report below says why each record was skipped",
    );
    this.name = "NothingToImportError";
    this.report = report;
  }
}

/** What {@link importProgram} makes. */
export interface ImportedProgram {
  templates: ImportedTemplate[];
  /** File name -> text: the program's files and `import-report.md`. */
  files: Record<string, string>;
}

/**
 * Reads zones and writes the program that declares them, with its `import-report.md`.
 *
 * @param settings `project`: the Pulumi project name (default `dns-templates`); `packageVersion`:
 *   the pulumi-domainapi version every program pins (default: this package's)
 * @throws {ZoneInputError} as {@link importZones}
 * @throws {NothingToImportError} a template with no record to import: never a program that empties it
 * @example
 * const { files } = importProgram([{ text, file: "web.zone" }], "yaml");
 */
export function importProgram(
  sources: readonly ZoneSource[],
  language: ProgramLanguage,
  options: ImportOptions = {},
  settings: { project?: string; packageVersion?: string } = {},
): ImportedProgram {
  const templates = importZones(sources, options);
  const empty = templates.find((t) => t.records.length === 0);
  if (empty) throw new NothingToImportError(empty, importReport(templates));
  const files = renderProgram(templates, language, {
    project: settings.project ?? "dns-templates",
    packageVersion: settings.packageVersion ?? ownVersion(),
  });
  files["import-report.md"] = importReport(templates);
  return { templates, files };
}
