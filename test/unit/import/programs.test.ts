/**
 * The files of the program domainapi-import writes, in each language, as the user finds them on
 * disk: every file and its text (the project file, the plugin entry, the dependencies pinned to
 * the version that wrote them, one resource per template with purge and a `line N` comment above
 * each record), and the TypeScript program broken where Biome breaks a line (past 110 columns,
 * East Asian wide characters and emoji counted as two, combining marks as none: Unicode's East
 * Asian Width, UAX #11).
 */
import { describe, expect, it } from "vitest";
import { importZones } from "../../../provider/import";
import { PROGRAM_LANGUAGES, type ProgramLanguage, renderProgram } from "../../../provider/import/programs";
import type { ImportedTemplate } from "../../../provider/import/template";
import { declaredByTypeScript } from "../import-languages";

const SETTINGS = { project: "dns", packageVersion: "1.2.3" };

function templates(): ImportedTemplate[] {
  return importZones([
    {
      text: "$ORIGIN example.com.\n@ MX 10 mail\nwww A 192.0.2.1\n_s._tcp SRV 1 2 3 t.example.net.\nx PTR a.\n",
      file: "web.zone",
    },
  ]);
}

const render = (language: ProgramLanguage, ts = templates()) => renderProgram(ts, language, SETTINGS);

const PLUGIN = `plugins:
  providers:
    # The domainapi plugin of pulumi-domainapi 1.2.3, the version that wrote this program. It ships in
    # the npm package: \`npm install pulumi-domainapi@1.2.3 @pulumi/pulumi node@24\` here (docs/plugin.md);
    # or install the release's plugin (\`pulumi plugin install resource domainapi 1.2.3\`) and drop this entry.
    - name: domainapi
      path: ./node_modules/pulumi-domainapi
      version: 1.2.3
`;
const PROVENANCE = "3 records imported from web.zone (domain example.com.); 1 skipped, see import-report.md";
const PURGE =
  "purge: the first `up` replaces the template's records with exactly these (one PUT; every record id is new)";
const HEAD = "name: dns\ndescription: DNS templates imported from zone files by domainapi-import\n";

describe("each language's files, every character", () => {
  it("the languages, in the order --help names them", () => {
    expect(PROGRAM_LANGUAGES).toEqual(["ts", "yaml", "python", "go"]);
  });

  it("TypeScript: the project, index.ts as Biome leaves it, package.json pinning the version", () => {
    const files = render("ts");
    expect(Object.keys(files)).toEqual(["Pulumi.yaml", "index.ts", "package.json"]);
    expect(files["Pulumi.yaml"]).toBe(`${HEAD}runtime:\n  name: nodejs\n  options:\n    typescript: true\n`);
    expect(files["index.ts"]).toBe(`import * as domainapi from "pulumi-domainapi";

// ${PROVENANCE}
new domainapi.DnsTemplateRecords("web", {
  templateId: "web",
  // ${PURGE}
  purge: true,
  records: [
    // line 2
    {
      name: "@",
      type: "MX",
      content: "mail.{domainname}.",
      priority: 10,
    },
    // line 3
    {
      name: "www",
      type: "A",
      content: "192.0.2.1",
    },
    // line 4
    {
      name: "_s._tcp",
      type: "SRV",
      content: "t.example.net.",
      priority: 1,
      weight: 2,
      port: 3,
    },
  ],
});
`);
    expect(JSON.parse(files["package.json"] as string)).toEqual({
      name: "dns",
      private: true,
      description: "DNS templates imported by domainapi-import of pulumi-domainapi 1.2.3 (npm)",
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": "^3.139.0", "pulumi-domainapi": "1.2.3" },
      devDependencies: { "@types/node": "^24.0.0", "ts-node": "^10.9.2", typescript: ">=5.8 <7" },
    });
    // Indented by two, as npm writes package.json, with a final newline.
    expect(files["package.json"]).toBe(
      `${JSON.stringify(JSON.parse(files["package.json"] as string), null, 2)}\n`,
    );
  });

  it("YAML: one Pulumi.yaml with the plugin entry and the resources, each record on its line", () => {
    expect(render("yaml")).toEqual({
      "Pulumi.yaml": `${HEAD}runtime: yaml
${PLUGIN}resources:
  # ${PROVENANCE}
  "web":
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: "web"
      # ${PURGE}
      purge: true
      records:
        # line 2
        - { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 }
        # line 3
        - { name: "www", type: "A", content: "192.0.2.1" }
        # line 4
        - { name: "_s._tcp", type: "SRV", content: "t.example.net.", priority: 1, weight: 2, port: 3 }
`,
    });
  });

  it("Python: the project with the plugin, __main__.py as Black leaves it, requirements from the tag", () => {
    expect(render("python")).toEqual({
      "Pulumi.yaml": `${HEAD}runtime: python\n${PLUGIN}`,
      "__main__.py": `"""DNS templates imported from zone files by domainapi-import."""

import pulumi_domainapi as domainapi

# ${PROVENANCE}
domainapi.DnsTemplateRecords(
    "web",
    template_id="web",
    # ${PURGE}
    purge=True,
    records=[
        # line 2
        domainapi.DnsRecordArgs(
            name="@",
            type="MX",
            content="mail.{domainname}.",
            priority=10,
        ),
        # line 3
        domainapi.DnsRecordArgs(
            name="www",
            type="A",
            content="192.0.2.1",
        ),
        # line 4
        domainapi.DnsRecordArgs(
            name="_s._tcp",
            type="SRV",
            content="t.example.net.",
            priority=1,
            weight=2,
            port=3,
        ),
    ],
)
`,
      "requirements.txt": `pulumi>=3.231.0,<4.0.0
# The Python SDK of pulumi-domainapi 1.2.3, the version that wrote this program, from its repository at
# that version's tag (never looked up by name on a package index). From a checkout instead:
# pip install <checkout>/sdk/python (docs/plugin.md).
pulumi_domainapi @ git+https://github.com/pulumi-domainapi/pulumi-domainapi@v1.2.3#subdirectory=sdk/python
`,
    });
  });

  it("Go: the project with the plugin, main.go as gofmt leaves it, go.mod requiring the version", () => {
    expect(render("go")).toEqual({
      "Pulumi.yaml": `${HEAD}runtime: go\n${PLUGIN}`,
      "main.go": `// DNS templates imported from zone files by domainapi-import.
package main

import (
\t"github.com/pulumi-domainapi/sdk/go/domainapi"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// declare declares the imported templates; main runs it as a Pulumi program.
func declare(ctx *pulumi.Context) error {
\t// ${PROVENANCE}
\tif _, err := domainapi.NewDnsTemplateRecords(ctx, "web", &domainapi.DnsTemplateRecordsArgs{
\t\tTemplateId: pulumi.String("web"),
\t\t// ${PURGE}
\t\tPurge: pulumi.Bool(true),
\t\tRecords: domainapi.DnsRecordArray{
\t\t\t// line 2
\t\t\tdomainapi.DnsRecordArgs{Name: pulumi.String("@"), Type: pulumi.String("MX"), Content: pulumi.String("mail.{domainname}."), Priority: pulumi.Int(10)},
\t\t\t// line 3
\t\t\tdomainapi.DnsRecordArgs{Name: pulumi.String("www"), Type: pulumi.String("A"), Content: pulumi.String("192.0.2.1")},
\t\t\t// line 4
\t\t\tdomainapi.DnsRecordArgs{Name: pulumi.String("_s._tcp"), Type: pulumi.String("SRV"), Content: pulumi.String("t.example.net."), Priority: pulumi.Int(1), Weight: pulumi.Int(2), Port: pulumi.Int(3)},
\t\t},
\t}); err != nil {
\t\treturn err
\t}
\treturn nil
}

func main() {
\tpulumi.Run(declare)
}
`,
      "go.mod": `module dns

go 1.25

require (
\tgithub.com/pulumi-domainapi/sdk/go/domainapi v1.2.3
\tgithub.com/pulumi/pulumi/sdk/v3 v3.259.0
)

// The Go SDK of pulumi-domainapi 1.2.3, the version that wrote this program. Until it is published
// as a module, use it from a checkout of that version (docs/plugin.md), then \`go mod tidy\`:
// replace github.com/pulumi-domainapi/sdk/go/domainapi => <checkout>/sdk/go/domainapi
`,
    });
  });

  it("several templates: one resource each, in order, each under its own provenance line", () => {
    const ts = importZones([
      { text: "$ORIGIN a.example.\nwww A 192.0.2.1\n", file: "a.zone" },
      { text: "$ORIGIN b.example.\nwww A 192.0.2.2\nx PTR y.\n", file: "b.zone", templateId: "b-tpl" },
    ]);
    const provenances = [
      "1 records imported from a.zone (domain a.example.); nothing skipped, see import-report.md",
      "1 records imported from b.zone (domain b.example.); 1 skipped, see import-report.md",
    ];
    for (const language of PROGRAM_LANGUAGES) {
      const text = Object.values(renderProgram(ts, language, SETTINGS)).join("\n");
      const at = provenances.map((p) => text.indexOf(p));
      expect(at[0], language).toBeGreaterThan(0);
      expect(at[1], language).toBeGreaterThan(at[0] as number);
      expect(text.indexOf("192.0.2.1"), language).toBeGreaterThan(at[0] as number);
      expect(text.indexOf("192.0.2.1"), language).toBeLessThan(at[1] as number);
      expect(text.indexOf("192.0.2.2"), language).toBeGreaterThan(at[1] as number);
    }
    const declared = declaredByTypeScript(renderProgram(ts, "ts", SETTINGS)["index.ts"] as string);
    expect(declared).toEqual([
      {
        name: "a",
        templateId: "a",
        purge: true,
        records: [{ name: "www", type: "A", content: "192.0.2.1" }],
      },
      {
        name: "b-tpl",
        templateId: "b-tpl",
        purge: true,
        records: [{ name: "www", type: "A", content: "192.0.2.2" }],
      },
    ]);
    expect(renderProgram(ts, "yaml", SETTINGS)["Pulumi.yaml"]).toContain('\n  "b-tpl":\n');
  });
});

/** One TXT record of `content`, in a template of `templateId`. */
function txt(content: string, templateId = "t"): ImportedTemplate[] {
  return [
    {
      records: [{ line: 1, record: { name: "x", type: "TXT", content } }],
      skipped: [],
      changes: [],
      ttlsDropped: 0,
      dropped: [],
      notes: [],
      file: "t.zone",
      templateId,
      domain: "example.com.",
      resourceName: "t",
    },
  ];
}

/** Whether the TypeScript program breaks the record's content line after `content:`. */
function broken(content: string): boolean {
  const code = renderProgram(txt(content), "ts", SETTINGS)["index.ts"] as string;
  if (code.includes("      content:\n")) return true;
  expect(code).toContain(`      content: "${content}",\n`);
  return false;
}

describe("the TypeScript program's lines break where Biome breaks them (110 columns)", () => {
  it("a line of 110 columns stays whole; of 111 it breaks after the key, the value indented", () => {
    // `      content: "` and `",` take 18 columns.
    expect(broken("a".repeat(92))).toBe(false);
    expect(broken("a".repeat(93))).toBe(true);
    const code = renderProgram(txt("b".repeat(93)), "ts", SETTINGS)["index.ts"] as string;
    expect(code).toContain(`      content:\n        "${"b".repeat(93)}",\n`);
    expect(declaredByTypeScript(code)[0]?.records[0]?.content).toBe("b".repeat(93));
  });

  it("a long template id breaks the same way", () => {
    const id = "t".repeat(100);
    const code = renderProgram(txt("x", id), "ts", SETTINGS)["index.ts"] as string;
    expect(code).toContain(`  templateId:\n    "${id}",\n`);
    expect(renderProgram(txt("x", "t".repeat(93)), "ts", SETTINGS)["index.ts"]).toContain(
      `  templateId: "${"t".repeat(93)}",\n`,
    );
  });

  /** `char` counted as `width` columns: 110 columns in all fit, 111 do not. */
  function counts(char: string, width: number): void {
    const label = `U+${(char.codePointAt(0) as number).toString(16)}`;
    expect(broken(`${"a".repeat(92 - width)}${char}`), label).toBe(false);
    expect(broken(`${"a".repeat(93 - width)}${char}`), label).toBe(true);
  }

  it("East Asian wide characters and emoji are two columns, at each end of each wide block", () => {
    for (const cp of [
      0x1100, 0x115f, 0x2e80, 0x303e, 0x3041, 0xa4c6, 0xac00, 0xd7a3, 0xf900, 0xfe30, 0xfe4f, 0xff01, 0xff60,
      0xffe0, 0xffe6, 0x1f300, 0x1f64f, 0x1f900, 0x1f9ff, 0x20000, 0x2a6df,
    ])
      counts(String.fromCodePoint(cp), 2);
  });

  it("their neighbours outside the blocks, and U+303F, are one column", () => {
    for (const cp of [
      0xe9, 0x10ff, 0x1160, 0x303f, 0xa4d0, 0xabf9, 0xf8ff, 0xfb00, 0xff61, 0xffe8, 0x1f650, 0x1fa00, 0xf0000,
    ])
      counts(String.fromCodePoint(cp), 1);
  });

  it("combining and enclosing marks take no column", () => {
    counts("\u0301", 0);
    counts("\u20dd", 0);
    counts("\ufe2f", 0);
  });
});
