/**
 * What an imported program declares, read by each language itself, never by parsing the program
 * text here: TypeScript evaluated by Node, YAML loaded by gopkg.in/yaml.v3 (what Pulumi YAML reads
 * with) and then read with Pulumi YAML's interpolation rule, Go built by `go build` against stub
 * SDKs of the real names and types (test/fixtures/import-programs), Python run by `python3` with stub
 * `pulumi` and `pulumi_domainapi` modules. Each runner takes many programs at once (one build,
 * one process), so that a property test can try hundreds of values in a second or two.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const FIXTURES = path.join(__dirname, "..", "fixtures", "import-programs");

/** A record as a program declares it. */
export interface DeclaredRecord {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** One DnsTemplateRecords resource as a program declares it. */
export interface DeclaredTemplate {
  /** The Pulumi resource name. */
  name: string;
  templateId: string;
  purge: boolean;
  records: DeclaredRecord[];
}

/** The language files' names: the file of each program that holds the resources. */
export const MAIN_FILE = {
  ts: "index.ts",
  yaml: "Pulumi.yaml",
  python: "__main__.py",
  go: "main.go",
} as const;

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function declaredRecord(r: Record<string, unknown>): DeclaredRecord {
  const out: DeclaredRecord = {
    name: r.name as string,
    type: r.type as string,
    content: r.content as string,
  };
  for (const key of ["priority", "weight", "port"] as const) {
    if (r[key] !== undefined && r[key] !== null) out[key] = r[key] as number;
  }
  return out;
}

/**
 * The resources a TypeScript program declares, evaluated by Node with `domainapi` standing for
 * the package (default: a stand-in that keeps what is declared). The program's one import line
 * is the only thing taken out; the rest runs as written.
 */
export function declaredByTypeScript(code: string, domainapi?: object): DeclaredTemplate[] {
  const importLine = 'import * as domainapi from "pulumi-domainapi";\n';
  if (!code.startsWith(importLine)) throw new Error(`the program does not start with ${importLine}`);
  const declared: DeclaredTemplate[] = [];
  const stand = {
    DnsTemplateRecords: class {
      constructor(name: string, args: Omit<DeclaredTemplate, "name">) {
        declared.push({ name, ...args, records: args.records.map((r) => declaredRecord({ ...r })) });
      }
    },
  };
  new Function("domainapi", `"use strict";\n${code.slice(importLine.length)}`)(domainapi ?? stand);
  return declared;
}

/** Pulumi YAML's reading of a string (pulumi-yaml, ast/interpolation.go): `$$` is `$`; `${` starts an interpolation. */
export function pulumiYamlText(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    if (value.startsWith("$$", i)) {
      out += "$";
      i++;
    } else if (value.startsWith("${", i)) {
      throw new Error(`Pulumi YAML would interpolate ${JSON.stringify(value.slice(i))}`);
    } else out += value[i];
  }
  return out;
}

function interpolated(value: unknown): unknown {
  if (typeof value === "string") return pulumiYamlText(value);
  if (Array.isArray(value)) return value.map(interpolated);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v)]));
  }
  return value;
}

/** Builds a Go program once per source (cached by its hash in the temporary directory); returns the binary. */
async function goBinary(name: string, sourceDir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(sourceDir).sort())
    hash.update(fs.readFileSync(path.join(sourceDir, file)));
  const bin = path.join(os.tmpdir(), `domainapi-import-${name}-${hash.digest("hex").slice(0, 16)}`);
  if (!fs.existsSync(bin)) {
    const temp = `${bin}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    await run("go", ["build", "-o", temp, "."], {
      cwd: sourceDir,
      env: { ...process.env, GOFLAGS: "-mod=mod" },
    });
    fs.renameSync(temp, bin);
  }
  return bin;
}

/** The resources of each YAML program: yaml.v3's values, then Pulumi YAML's reading of every string. */
export async function declaredByYaml(programs: readonly string[]): Promise<DeclaredTemplate[][]> {
  if (programs.length === 0) return [];
  const bin = await goBinary("yamljson", path.join(FIXTURES, "yamljson"));
  const dir = tempDir("domainapi-import-yaml-");
  try {
    const files = programs.map((text, i) => {
      const file = path.join(dir, `${i}.yaml`);
      fs.writeFileSync(file, text);
      return file;
    });
    const { stdout } = await run(bin, files, { maxBuffer: 256 << 20 });
    return stdout
      .trimEnd()
      .split("\n")
      .map((line) => {
        const doc = JSON.parse(line) as {
          resources: Record<string, { type: string; properties: Record<string, unknown> }>;
        };
        return Object.entries(doc.resources).map(([name, resource]) => {
          if (resource.type !== "domainapi:index:DnsTemplateRecords")
            throw new Error(`type ${resource.type}`);
          const p = interpolated(resource.properties) as Omit<DeclaredTemplate, "name">;
          return {
            name: pulumiYamlText(name),
            templateId: p.templateId,
            purge: p.purge,
            records: p.records.map((r) => declaredRecord({ ...r })),
          };
        });
      });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The resources of each Go program: all built by one `go build` against the stub SDKs (each
 * program in a package of its own, its `declare` called by a driver), run once.
 */
export async function declaredByGo(programs: readonly string[]): Promise<DeclaredTemplate[][]> {
  if (programs.length === 0) return [];
  const dir = tempDir("domainapi-import-go-");
  try {
    const stubs = path.join(FIXTURES, "stubs");
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      "module importtest\n\ngo 1.22\n\nrequire (\n" +
        "\tgithub.com/pulumi-domainapi/sdk/go/domainapi v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.0.0\n)\n\n" +
        `replace github.com/pulumi-domainapi/sdk/go/domainapi => ${path.join(stubs, "domainapi")}\n\n` +
        `replace github.com/pulumi/pulumi/sdk/v3 => ${path.join(stubs, "pulumi")}\n`,
    );
    let driver =
      'package main\n\nimport (\n\t"encoding/json"\n\t"os"\n\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n';
    const calls: string[] = [];
    for (const [i, code] of programs.entries()) {
      const pkg = path.join(dir, `p${i}`);
      fs.mkdirSync(pkg);
      // The program as written, in a package of its own: `func main` is an ordinary function there.
      if (!code.includes("\npackage main\n")) throw new Error("the program is not package main");
      fs.writeFileSync(path.join(pkg, "main.go"), code.replace("\npackage main\n", `\npackage p${i}\n`));
      fs.writeFileSync(
        path.join(pkg, "export.go"),
        `package p${i}\n\n// Declare is the program's declare.\nvar Declare = declare\n`,
      );
      driver += `\tp${i} "importtest/p${i}"\n`;
      calls.push(
        `\t{\n\t\tctx := &pulumi.Context{}\n\t\tif err := p${i}.Declare(ctx); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tout = append(out, ctx.Declared)\n\t}\n`,
      );
    }
    driver += `)\n\nfunc main() {\n\tout := [][]map[string]any{}\n${calls.join("")}\tif err := json.NewEncoder(os.Stdout).Encode(out); err != nil {\n\t\tpanic(err)\n\t}\n}\n`;
    fs.writeFileSync(path.join(dir, "main.go"), driver);
    await run("go", ["build", "-o", "program", "."], {
      cwd: dir,
      env: { ...process.env, GOFLAGS: "-mod=mod" },
    });
    const { stdout } = await run(path.join(dir, "program"), [], { maxBuffer: 256 << 20 });
    return (JSON.parse(stdout) as Record<string, unknown>[][]).map((templates) =>
      templates.map((t) => ({
        ...(t as unknown as DeclaredTemplate),
        records: (t.records as Record<string, unknown>[]).map(declaredRecord),
      })),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The stand-ins of the Python SDK: the real names and keyword-only signatures; declarations are kept. */
const PYTHON_STUB = `DECLARED = []


class DnsRecordArgs:
    def __init__(self, *, content, name, type, port=None, priority=None, weight=None):
        self.value = {"name": name, "type": type, "content": content}
        for key, number in (("priority", priority), ("weight", weight), ("port", port)):
            if number is not None:
                self.value[key] = number


class DnsTemplateRecords:
    def __init__(self, resource_name, opts=None, lifted_checks=None, purge=None, records=None,
                 safety_threshold=None, template_id=None):
        DECLARED.append({"name": resource_name, "templateId": template_id, "purge": purge,
                         "records": [r.value for r in records]})
`;

const PYTHON_DRIVER = `import json, sys
import pulumi_domainapi
out = []
for path in sys.argv[1:]:
    pulumi_domainapi.DECLARED.clear()
    with open(path, "rb") as f:
        exec(compile(f.read(), path, "exec"), {"__name__": "__main__"})
    out.append(list(pulumi_domainapi.DECLARED))
sys.stdout.write(json.dumps(out))
`;

/** The resources of each Python program, all run by one `python3` with the stub modules. */
export async function declaredByPython(programs: readonly string[]): Promise<DeclaredTemplate[][]> {
  if (programs.length === 0) return [];
  const dir = tempDir("domainapi-import-py-");
  try {
    fs.mkdirSync(path.join(dir, "pulumi_domainapi"));
    fs.mkdirSync(path.join(dir, "pulumi"));
    fs.writeFileSync(path.join(dir, "pulumi", "__init__.py"), "");
    fs.writeFileSync(path.join(dir, "pulumi_domainapi", "__init__.py"), PYTHON_STUB);
    const files = programs.map((code, i) => {
      const file = path.join(dir, `program${i}.py`);
      fs.writeFileSync(file, code);
      return file;
    });
    const { stdout } = await run("python3", ["-c", PYTHON_DRIVER, ...files], {
      env: { ...process.env, PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: "1" },
      maxBuffer: 256 << 20,
    });
    return (JSON.parse(stdout) as DeclaredTemplate[][]).map((ts) =>
      ts.map((t) => ({ ...t, records: t.records.map((r) => declaredRecord({ ...r })) })),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
