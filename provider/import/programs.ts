/**
 * Imported templates -> the files of a runnable Pulumi program, in TypeScript (the dynamic
 * resources), YAML, Python or Go (the provider plugin and its SDKs). The programs name only the
 * package, the plugin `domainapi` and the token `domainapi:index:DnsTemplateRecords`.
 *
 * Each program is written as its language's formatter leaves it (Biome for TypeScript, Black for
 * Python, gofmt for Go): records one field a line with trailing commas, each under a `line N`
 * comment of its own, which no formatter joins, wraps or aligns. Strings are written by each
 * language's own literal function (template.ts): invisible characters as escapes, `$` doubled in
 * YAML. The dependency on this package is pinned to the version that wrote the program.
 */
import {
  goLiteral,
  type ImportedTemplate,
  PURGE_NOTE,
  provenance,
  pythonLiteral,
  recordFields,
  tsLiteral,
  yamlLiteral,
} from "./template";

/** The languages `domainapi-import` writes programs in. */
export const PROGRAM_LANGUAGES = ["ts", "yaml", "python", "go"] as const;
/** One of {@link PROGRAM_LANGUAGES}. */
export type ProgramLanguage = (typeof PROGRAM_LANGUAGES)[number];

/** What the program files need beyond the templates. */
export interface ProgramSettings {
  /** The Pulumi project name. */
  readonly project: string;
  /** The version of pulumi-domainapi that writes the program (`0.1.0`): every dependency on it is pinned to it. */
  readonly packageVersion: string;
}

/**
 * Where the SDKs come from: the repository of the plugin's release address
 * (manifest.ts, `DEFAULT_PLUGIN_DOWNLOAD_URL`). Neither name can be taken by someone else first:
 * the Go module path lies under that GitHub organization, and the Python SDK is installed from
 * that repository at the version's tag, never looked up by name on a package index.
 */
const REPOSITORY = "https://github.com/pulumi-domainapi/pulumi-domainapi";
const PULUMI_SDK = "^3.139.0";
const GO_SDK_MODULE = "github.com/pulumi-domainapi/sdk/go/domainapi";

function pluginEntry(version: string): string {
  return `plugins:
  providers:
    # The domainapi plugin of pulumi-domainapi ${version}, the version that wrote this program. It ships in
    # the npm package: \`npm install pulumi-domainapi@${version} @pulumi/pulumi node@24\` here (docs/plugin.md);
    # or install the release's plugin (\`pulumi plugin install resource domainapi ${version}\`) and drop this entry.
    - name: domainapi
      path: ./node_modules/pulumi-domainapi
      version: ${version}
`;
}

function projectFile(settings: ProgramSettings, runtime: string, extra = ""): string {
  return (
    `name: ${settings.project}\n` +
    "description: DNS templates imported from zone files by domainapi-import\n" +
    `runtime:${runtime.startsWith("\n") ? "" : " "}${runtime}\n${extra}`
  );
}

/** A record's fields, each as `key`, `separator`, value, numbers bare, strings as `str` writes them. */
function fields(
  record: ImportedTemplate["records"][number]["record"],
  str: (text: string) => string,
  num: (value: number) => string,
  key: (name: string) => string,
): string[] {
  return recordFields(record).map(([k, v]) => `${key(k)}${typeof v === "number" ? num(v) : str(v)}`);
}

/** The line width of the repository's Biome configuration (biome.json), which the TypeScript program is formatted to. */
const TS_LINE_WIDTH = 110;

/**
 * The blocks of East Asian wide characters and emoji (UAX #11, as wcwidth counts them), first and
 * last code point: two columns each. U+303F, inside one, is one column.
 */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Columns a formatter gives `text`: East Asian wide characters and emoji two, combining marks none. */
function columns(text: string): number {
  let width = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) as number;
    // Zero widths (U+200B) never reach here: every program writes them as escapes (template.ts).
    if (/\p{Mn}|\p{Me}/u.test(char)) continue;
    width += cp !== 0x303f && WIDE.some(([first, last]) => cp >= first && cp <= last) ? 2 : 1;
  }
  return width;
}

/** `key: value,` at `indent`, or broken after the colon where Biome breaks it: past the line width. */
function tsProperty(indent: string, key: string, value: string): string {
  const line = `${indent}${key}: ${value},`;
  return columns(line) <= TS_LINE_WIDTH ? `${line}\n` : `${indent}${key}:\n${indent}  ${value},\n`;
}

function typescript(
  templates: readonly ImportedTemplate[],
  settings: ProgramSettings,
): Record<string, string> {
  let code = 'import * as domainapi from "pulumi-domainapi";\n';
  for (const t of templates) {
    code += `\n// ${provenance(t)}\n`;
    code += `new domainapi.DnsTemplateRecords(${tsLiteral(t.resourceName)}, {\n`;
    code += tsProperty("  ", "templateId", tsLiteral(t.templateId));
    code += `  // ${PURGE_NOTE}\n  purge: true,\n  records: [\n`;
    for (const { line, record } of t.records) {
      code += `    // line ${line}\n    {\n`;
      for (const [k, v] of recordFields(record)) {
        code += tsProperty("      ", k, typeof v === "number" ? String(v) : tsLiteral(v));
      }
      code += "    },\n";
    }
    code += "  ],\n});\n";
  }
  const pkg = {
    name: settings.project,
    private: true,
    description: `DNS templates imported by domainapi-import of pulumi-domainapi ${settings.packageVersion} (npm)`,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": PULUMI_SDK, "pulumi-domainapi": settings.packageVersion },
    devDependencies: { "@types/node": "^24.0.0", "ts-node": "^10.9.2", typescript: ">=5.8 <7" },
  };
  return {
    "Pulumi.yaml": projectFile(settings, "\n  name: nodejs\n  options:\n    typescript: true"),
    "index.ts": code,
    "package.json": `${JSON.stringify(pkg, null, 2)}\n`,
  };
}

function yaml(templates: readonly ImportedTemplate[], settings: ProgramSettings): Record<string, string> {
  let text = `${projectFile(settings, "yaml")}${pluginEntry(settings.packageVersion)}resources:\n`;
  for (const t of templates) {
    text += `  # ${provenance(t)}\n  ${yamlLiteral(t.resourceName)}:\n    type: domainapi:index:DnsTemplateRecords\n`;
    text += `    properties:\n      templateId: ${yamlLiteral(t.templateId)}\n      # ${PURGE_NOTE}\n      purge: true\n`;
    text += "      records:\n";
    for (const { line, record } of t.records) {
      text += `        # line ${line}\n        - { ${fields(record, yamlLiteral, String, (k) => `${k}: `).join(", ")} }\n`;
    }
  }
  return { "Pulumi.yaml": text };
}

function python(templates: readonly ImportedTemplate[], settings: ProgramSettings): Record<string, string> {
  let code =
    '"""DNS templates imported from zone files by domainapi-import."""\n\nimport pulumi_domainapi as domainapi\n';
  for (const t of templates) {
    code += `\n# ${provenance(t)}\n`;
    code += `domainapi.DnsTemplateRecords(\n    ${pythonLiteral(t.resourceName)},\n    template_id=${pythonLiteral(t.templateId)},\n`;
    code += `    # ${PURGE_NOTE}\n    purge=True,\n    records=[\n`;
    for (const { line, record } of t.records) {
      code += `        # line ${line}\n        domainapi.DnsRecordArgs(\n`;
      for (const f of fields(record, pythonLiteral, String, (k) => `${k}=`)) code += `            ${f},\n`;
      code += "        ),\n";
    }
    code += "    ],\n)\n";
  }
  const v = settings.packageVersion;
  return {
    "Pulumi.yaml": projectFile(settings, "python", pluginEntry(v)),
    "__main__.py": code,
    "requirements.txt":
      "pulumi>=3.231.0,<4.0.0\n" +
      `# The Python SDK of pulumi-domainapi ${v}, the version that wrote this program, from its repository at\n` +
      "# that version's tag (never looked up by name on a package index). From a checkout instead:\n" +
      "# pip install <checkout>/sdk/python (docs/plugin.md).\n" +
      `pulumi_domainapi @ git+${REPOSITORY}@v${v}#subdirectory=sdk/python\n`,
  };
}

const GO_FIELDS: Readonly<Record<string, string>> = {
  name: "Name",
  type: "Type",
  content: "Content",
  priority: "Priority",
  weight: "Weight",
  port: "Port",
};

function go(templates: readonly ImportedTemplate[], settings: ProgramSettings): Record<string, string> {
  let code =
    "// DNS templates imported from zone files by domainapi-import.\npackage main\n\nimport (\n" +
    `\t"${GO_SDK_MODULE}"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\n` +
    "// declare declares the imported templates; main runs it as a Pulumi program.\n" +
    "func declare(ctx *pulumi.Context) error {\n";
  for (const t of templates) {
    code += `\t// ${provenance(t)}\n`;
    code += `\tif _, err := domainapi.NewDnsTemplateRecords(ctx, ${goLiteral(t.resourceName)}, &domainapi.DnsTemplateRecordsArgs{\n`;
    code += `\t\tTemplateId: pulumi.String(${goLiteral(t.templateId)}),\n\t\t// ${PURGE_NOTE}\n\t\tPurge: pulumi.Bool(true),\n`;
    code += "\t\tRecords: domainapi.DnsRecordArray{\n";
    for (const { line, record } of t.records) {
      const f = fields(
        record,
        (s) => `pulumi.String(${goLiteral(s)})`,
        (n) => `pulumi.Int(${n})`,
        (k) => `${GO_FIELDS[k]}: `,
      );
      code += `\t\t\t// line ${line}\n\t\t\tdomainapi.DnsRecordArgs{${f.join(", ")}},\n`;
    }
    code += "\t\t},\n\t}); err != nil {\n\t\treturn err\n\t}\n";
  }
  code += "\treturn nil\n}\n\nfunc main() {\n\tpulumi.Run(declare)\n}\n";
  const v = settings.packageVersion;
  const mod =
    `module ${settings.project}\n\ngo 1.25\n\n` +
    `require (\n\t${GO_SDK_MODULE} v${v}\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.259.0\n)\n\n` +
    `// The Go SDK of pulumi-domainapi ${v}, the version that wrote this program. Until it is published\n` +
    "// as a module, use it from a checkout of that version (docs/plugin.md), then `go mod tidy`:\n" +
    `// replace ${GO_SDK_MODULE} => <checkout>/sdk/go/domainapi\n`;
  return { "Pulumi.yaml": projectFile(settings, "go", pluginEntry(v)), "main.go": code, "go.mod": mod };
}

/**
 * The files of a program declaring `templates` in `language` (file name -> text), without the
 * report.
 *
 * @throws {Error} a lone surrogate in a value, which YAML and Go strings cannot hold (zone text
 *   read as UTF-8 holds none)
 * @example
 * renderProgram(templates, "yaml", { project: "dns", packageVersion: "0.1.0" })["Pulumi.yaml"];
 */
export function renderProgram(
  templates: readonly ImportedTemplate[],
  language: ProgramLanguage,
  settings: ProgramSettings,
): Record<string, string> {
  switch (language) {
    case "ts":
      return typescript(templates, settings);
    case "yaml":
      return yaml(templates, settings);
    case "python":
      return python(templates, settings);
    case "go":
      return go(templates, settings);
  }
}
