/**
 * Imported templates -> the files of a runnable Pulumi program, in TypeScript (the dynamic
 * resources), YAML, Python or Go (the provider plugin and its SDKs). The programs name only the
 * package, the plugin `domainapi` and the token `domainapi:index:DnsTemplateRecords`.
 *
 * Every string is written as a JSON string literal, which each of the four languages reads back
 * as the same text; YAML's `${` (Pulumi interpolation) is written `$${`.
 */
import { type ImportedTemplate, literal, PURGE_NOTE, provenance, recordFields } from "./template";

/** The languages `domainapi-import` writes programs in. */
export const PROGRAM_LANGUAGES = ["ts", "yaml", "python", "go"] as const;
/** One of {@link PROGRAM_LANGUAGES}. */
export type ProgramLanguage = (typeof PROGRAM_LANGUAGES)[number];

/** What the program files need beyond the templates. */
export interface ProgramSettings {
  /** The Pulumi project name. */
  readonly project: string;
  /** The version range of pulumi-domainapi a TypeScript program depends on. */
  readonly packageVersion: string;
}

const PULUMI_SDK = "^3.139.0";
const GO_SDK_MODULE = "github.com/pulumi-domainapi/sdk/go/domainapi";

const PLUGIN_ENTRY = `plugins:
  providers:
    # The domainapi plugin ships in the npm package: \`npm install pulumi-domainapi @pulumi/pulumi node@24\`
    # here (docs/plugin.md), or install it into Pulumi's plugin cache and drop this entry.
    - name: domainapi
      path: ./node_modules/pulumi-domainapi
`;

function projectFile(settings: ProgramSettings, runtime: string, extra = ""): string {
  return (
    `name: ${settings.project}\n` +
    "description: DNS templates imported from zone files by domainapi-import\n" +
    `runtime:${runtime.startsWith("\n") ? "" : " "}${runtime}\n${extra}`
  );
}

function typescript(
  templates: readonly ImportedTemplate[],
  settings: ProgramSettings,
): Record<string, string> {
  let code = 'import * as domainapi from "pulumi-domainapi";\n';
  for (const t of templates) {
    code += `\n// ${provenance(t)}\n`;
    code += `new domainapi.DnsTemplateRecords(${literal(t.resourceName)}, {\n`;
    code += `  templateId: ${literal(t.templateId)},\n  // ${PURGE_NOTE}\n  purge: true,\n  records: [\n`;
    for (const { line, record } of t.records) {
      const fields = recordFields(record).map(([k, v]) => `${k}: ${typeof v === "number" ? v : literal(v)}`);
      code += `    { ${fields.join(", ")} }, // line ${line}\n`;
    }
    code += "  ],\n});\n";
  }
  const pkg = {
    name: settings.project,
    private: true,
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

function yamlString(text: string): string {
  // A function, not the string "$${": in a replacement string "$$" stands for one "$".
  return literal(text).replaceAll("${", () => "$${");
}

function yaml(templates: readonly ImportedTemplate[], settings: ProgramSettings): Record<string, string> {
  let text = `${projectFile(settings, "yaml")}${PLUGIN_ENTRY}resources:\n`;
  for (const t of templates) {
    text += `  # ${provenance(t)}\n  ${yamlString(t.resourceName)}:\n    type: domainapi:index:DnsTemplateRecords\n`;
    text += `    properties:\n      templateId: ${yamlString(t.templateId)}\n      # ${PURGE_NOTE}\n      purge: true\n`;
    text += t.records.length === 0 ? "      records: []\n" : "      records:\n";
    for (const { line, record } of t.records) {
      const fields = recordFields(record).map(
        ([k, v]) => `${k}: ${typeof v === "number" ? v : yamlString(v)}`,
      );
      text += `        - { ${fields.join(", ")} } # line ${line}\n`;
    }
  }
  return { "Pulumi.yaml": text };
}

function python(templates: readonly ImportedTemplate[], settings: ProgramSettings): Record<string, string> {
  let code =
    '"""DNS templates imported from zone files by domainapi-import."""\n\nimport pulumi_domainapi as domainapi\n';
  for (const t of templates) {
    code += `\n# ${provenance(t)}\n`;
    code += `domainapi.DnsTemplateRecords(\n    ${literal(t.resourceName)},\n    template_id=${literal(t.templateId)},\n`;
    code += `    # ${PURGE_NOTE}\n    purge=True,\n    records=[\n`;
    for (const { line, record } of t.records) {
      const fields = recordFields(record).map(([k, v]) => `${k}=${typeof v === "number" ? v : literal(v)}`);
      code += `        domainapi.DnsRecordArgs(${fields.join(", ")}),  # line ${line}\n`;
    }
    code += "    ],\n)\n";
  }
  return {
    "Pulumi.yaml": projectFile(settings, "python", PLUGIN_ENTRY),
    "__main__.py": code,
    // The SDK is not on PyPI yet: install it from a checkout (docs/plugin.md), `pip install <checkout>/sdk/python`.
    "requirements.txt": "pulumi>=3.231.0,<4.0.0\npulumi_domainapi\n",
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
    code += `\tif _, err := domainapi.NewDnsTemplateRecords(ctx, ${literal(t.resourceName)}, &domainapi.DnsTemplateRecordsArgs{\n`;
    code += `\t\tTemplateId: pulumi.String(${literal(t.templateId)}),\n\t\t// ${PURGE_NOTE}\n\t\tPurge: pulumi.Bool(true),\n`;
    code += "\t\tRecords: domainapi.DnsRecordArray{\n";
    for (const { line, record } of t.records) {
      const fields = recordFields(record).map(
        ([k, v]) =>
          `${GO_FIELDS[k]}: ${typeof v === "number" ? `pulumi.Int(${v})` : `pulumi.String(${literal(v)})`}`,
      );
      code += `\t\t\tdomainapi.DnsRecordArgs{${fields.join(", ")}}, // line ${line}\n`;
    }
    code += "\t\t},\n\t}); err != nil {\n\t\treturn err\n\t}\n";
  }
  code += "\treturn nil\n}\n\nfunc main() {\n\tpulumi.Run(declare)\n}\n";
  const mod =
    `module ${settings.project}\n\ngo 1.25\n\n` +
    `require (\n\t${GO_SDK_MODULE} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.259.0\n)\n\n` +
    "// The Go SDK is not published as a module yet: use it from a checkout (docs/plugin.md), then `go mod tidy`.\n" +
    `// replace ${GO_SDK_MODULE} => <checkout>/sdk/go/domainapi\n`;
  return { "Pulumi.yaml": projectFile(settings, "go", PLUGIN_ENTRY), "main.go": code, "go.mod": mod };
}

/**
 * The files of a program declaring `templates` in `language` (file name -> text), without the
 * report.
 *
 * @example
 * renderProgram(templates, "yaml", { project: "dns", packageVersion: "^0.1.0" })["Pulumi.yaml"];
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
