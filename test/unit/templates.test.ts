/**
 * The `pulumi new` templates (templates/domainapi-<language>): each asks for the same three
 * settings, declares the same four records and names the plugin it needs; the Python program runs
 * on the generated sdk/python (the real SDK, with stand-ins for the `pulumi` package,
 * test/fixtures/pulumi-python-stub); docs/_index.md shows each template's program as it is. The Go
 * template is built and run under the engine in test/e2e/plugin-binary.test.ts, the YAML one run
 * there with a plain `pulumi up`.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_PLUGIN_DOWNLOAD_URL, SETTINGS } from "../../provider/manifest";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "..", "..");
const templates = path.join(repoRoot, "templates");
const LANGUAGES = ["typescript", "yaml", "go", "python"] as const;
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};

/** The records every template declares (the TypeScript template's, the README's first program). */
const RECORDS = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
  { name: "@", type: "TXT", content: "v=spf1 mx -all" },
];

const read = (language: string, file: string) =>
  fs.readFileSync(path.join(templates, `domainapi-${language}`, file), "utf8");

/** `${name}`: what `pulumi new` and Pulumi YAML replace. */
const interpolation = (name: string) => `\${${name}}`;

interface TemplateConfig {
  description?: string;
  default?: string;
  secret?: boolean;
}

describe("the pulumi new templates", () => {
  it.each(LANGUAGES)(
    "%s asks for domainapi:baseUrl (the sandbox), domainapi:apiKey (secret) and templateId (web)",
    (language) => {
      const project = parse(read(language, "Pulumi.yaml")) as {
        name: string;
        runtime: string | { name: string };
        template: { config: Record<string, TemplateConfig> };
      };
      expect(project.name).toBe(interpolation("PROJECT"));
      const runtime = typeof project.runtime === "string" ? project.runtime : project.runtime.name;
      expect(runtime).toBe({ typescript: "nodejs", yaml: "yaml", go: "go", python: "python" }[language]);
      const config = project.template.config;
      expect(Object.keys(config).sort()).toEqual(["domainapi:apiKey", "domainapi:baseUrl", "templateId"]);
      expect(config["domainapi:baseUrl"]).toMatchObject({ default: "http://127.0.0.1:8080" });
      expect(config["domainapi:apiKey"]).toMatchObject({ secret: true });
      expect(config["domainapi:apiKey"]?.default).toBeUndefined();
      expect(config.templateId).toMatchObject({ default: "web" });
      for (const entry of Object.values(config)) expect(entry.description).toMatch(/\w{4}/);
    },
  );

  it("the TypeScript template declares the records (the README's first program is that program)", () => {
    const program = read("typescript", "index.ts");
    for (const r of RECORDS) {
      const priority = r.priority === undefined ? "" : `, priority: ${r.priority}`;
      expect(program).toContain(
        `{ name: "${r.name}", type: "${r.type}", content: "${r.content}"${priority} }`,
      );
    }
  });

  it("the YAML template declares the same records, its templateId from the config, on the plugin of this version and release address", () => {
    const project = parse(read("yaml", "Pulumi.yaml")) as {
      config: Record<string, { type: string; default?: string }>;
      resources: Record<
        string,
        { type: string; properties: Record<string, unknown>; options: Record<string, string> }
      >;
      plugins?: unknown;
    };
    expect(project.config.templateId).toEqual({ type: "string", default: "web" });
    expect(Object.keys(project.resources)).toEqual(["records"]);
    const records = project.resources.records;
    expect(records?.type).toBe("domainapi:index:DnsTemplateRecords");
    expect(records?.properties).toEqual({ templateId: interpolation("templateId"), records: RECORDS });
    // The binary plugin, pinned, and where it comes from; no path into a node_modules.
    expect(records?.options).toEqual({ version, pluginDownloadURL: DEFAULT_PLUGIN_DOWNLOAD_URL });
    expect(project.plugins).toBeUndefined();
  });

  it("the Go template is a module on the Go SDK and the Pulumi SDK the SDK is generated for", () => {
    const goMod = read("go", "go.mod");
    expect(goMod).toMatch(/^module \$\{PROJECT\}$/m);
    expect(goMod).toMatch(
      new RegExp(
        `^\\s+github\\.com/pulumi-domainapi/sdk/go/domainapi v${version.replaceAll(".", "\\.")}$`,
        "m",
      ),
    );
    const sdkMod = fs.readFileSync(path.join(repoRoot, "sdk", "go", "domainapi", "go.mod"), "utf8");
    const pulumiSdk = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v[\d.]+)/.exec(sdkMod)?.[1];
    expect(pulumiSdk).toBeDefined();
    expect(goMod).toContain(`github.com/pulumi/pulumi/sdk/v3 ${pulumiSdk}`);
    expect(goMod).toContain(
      "go mod edit -replace github.com/pulumi-domainapi/sdk/go/domainapi=<clone>/sdk/go/domainapi",
    );
  });

  it("the Python template compiles, and run on sdk/python declares the same records with the configured templateId", async () => {
    const program = path.join(templates, "domainapi-python", "__main__.py");
    const env = {
      ...process.env,
      PYTHONPATH: [
        path.join(repoRoot, "test", "fixtures", "pulumi-python-stub"),
        path.join(repoRoot, "sdk", "python"),
      ].join(path.delimiter),
      PYTHONDONTWRITEBYTECODE: "1",
    };
    const compiled = path.join(repoRoot, "test", ".work", "templates-py_compile.pyc");
    fs.mkdirSync(path.dirname(compiled), { recursive: true });
    await run("python3", [
      "-c",
      `import py_compile; py_compile.compile(${JSON.stringify(program)}, cfile=${JSON.stringify(compiled)}, doraise=True)`,
    ]);
    const runner = path.join(repoRoot, "test", "fixtures", "pulumi-python-stub", "run_program.py");
    const declared = async (config: Record<string, string>) =>
      JSON.parse((await run("python3", [runner, program, JSON.stringify(config)], { env })).stdout) as [
        string,
        string,
        Record<string, unknown>,
      ][];
    expect(await declared({ templateId: "tpl-7" })).toEqual([
      ["domainapi:index:DnsTemplateRecords", "records", { template_id: "tpl-7", records: RECORDS }],
      ["export", "templateRecords", { output: "records" }],
      ["export", "recordIds", { output: "ids" }],
      ["export", "lastPlan", { output: "last_plan" }],
    ]);
    expect((await declared({}))[0]?.[2]).toMatchObject({ template_id: "web" });
    // The SDK names the plugin the program needs: this version, from the release address.
    const plugin = JSON.parse(
      fs.readFileSync(path.join(repoRoot, "sdk", "python", "pulumi_domainapi", "pulumi-plugin.json"), "utf8"),
    ) as { name: string; version: string; server: string };
    expect(plugin).toEqual({
      resource: true,
      name: "domainapi",
      version,
      server: DEFAULT_PLUGIN_DOWNLOAD_URL,
    });
    expect(read("python", "requirements.txt")).toMatch(
      new RegExp(`^pulumi_domainapi==${version.replaceAll(".", "\\.")}$`, "m"),
    );
  }, 30_000);

  it("a wrong keyword in a Python program fails on the stand-ins as on the real SDK (the run is not vacuous)", async () => {
    const dir = fs.mkdtempSync(path.join(repoRoot, "test", ".work", "templates-py-"));
    try {
      const broken = path.join(dir, "__main__.py");
      fs.writeFileSync(broken, read("python", "__main__.py").replace("template_id=", "templateId="));
      const runner = path.join(repoRoot, "test", "fixtures", "pulumi-python-stub", "run_program.py");
      const failed = await run("python3", [runner, broken, "{}"], {
        env: {
          ...process.env,
          PYTHONPATH: [
            path.join(repoRoot, "test", "fixtures", "pulumi-python-stub"),
            path.join(repoRoot, "sdk", "python"),
          ].join(path.delimiter),
          PYTHONDONTWRITEBYTECODE: "1",
        },
      }).then(
        () => "",
        (err: unknown) => String((err as { stderr?: string }).stderr ?? err),
      );
      expect(failed).toMatch(/TypeError: .*templateId/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

/** The fenced blocks of a Markdown file in `lang`, in order. */
function blocks(file: string, lang: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1] ?? "");
}

describe("docs/_index.md", () => {
  it("shows, for each language, the program its template makes", () => {
    expect(blocks("docs/_index.md", "ts")).toEqual([read("typescript", "index.ts")]);
    expect(blocks("docs/_index.md", "go")).toEqual([read("go", "main.go")]);
    expect(blocks("docs/_index.md", "python")).toEqual([read("python", "__main__.py")]);
    const [yamlBlock] = blocks("docs/_index.md", "yaml");
    const shown = parse(yamlBlock ?? "") as Record<string, unknown>;
    const template = parse(read("yaml", "Pulumi.yaml")) as Record<string, unknown>;
    expect(shown.runtime).toBe("yaml");
    for (const key of ["config", "resources", "outputs"]) expect(shown[key], key).toEqual(template[key]);
  });

  it("docs/installation-configuration.md names every setting with its stack config key and environment variable", () => {
    const page = fs.readFileSync(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
    for (const [name, spec] of Object.entries(SETTINGS)) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toBeDefined();
      expect(row).toContain(`| \`domainapi:${name}\` | \`${spec.env}\` |`);
      if ("default" in spec) expect(row).toContain(`\`${spec.default}\``);
      if ("range" in spec) expect(row).toContain(`${spec.range.min} to ${spec.range.max}`);
      if ("secret" in spec) expect(row).toContain("secret");
    }
  });
});
