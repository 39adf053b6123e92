/**
 * Every code block of the README and of docs/*.md says its language after the fence, and every
 * TypeScript block (`ts`, `typescript`) compiles as written: each block is its own module (it
 * imports what it uses), type-checked in strict mode against the package's types, resolved by the
 * package's name as a user's program resolves them. Blocks in other languages are skipped; the
 * test names which. The `pulumi new` template's program is type-checked the same way, and the
 * README's first program is that program.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..", "..");

/** Languages whose blocks are type-checked. */
const TYPESCRIPT = new Set(["ts", "typescript"]);
/** Languages whose blocks are skipped: shell commands, program output, other files and languages. */
const SKIPPED = new Set([
  "sh",
  "bash",
  "shell",
  "console",
  "text",
  "yaml",
  "json",
  "jsonc",
  "markdown",
  "diff",
  "python",
  "go",
  "csharp",
  "java",
  "toml",
  "ini",
  "powershell",
]);

interface Block {
  /** Where the block starts, `README.md:42`. */
  at: string;
  lang: string;
  code: string;
}

/** The fenced code blocks of a Markdown file; a longer fence may hold shorter ones (```` around ```). */
function codeBlocks(file: string): Block[] {
  const relative = path.relative(repoRoot, file);
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const blocks: Block[] = [];
  let open: { fence: string; lang: string; line: number; body: string[] } | undefined;
  for (const [index, line] of lines.entries()) {
    const fence = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (!open) {
      if (fence) open = { fence: fence[1] as string, lang: fence[2] ?? "", line: index + 1, body: [] };
    } else if (
      fence &&
      fence[2] === "" &&
      fence[1]?.[0] === open.fence[0] &&
      (fence[1]?.length ?? 0) >= open.fence.length
    ) {
      blocks.push({ at: `${relative}:${open.line}`, lang: open.lang, code: open.body.join("\n") });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  if (open) throw new Error(`${relative}:${open.line}: a code block is never closed`);
  return blocks;
}

const MARKDOWN = [
  path.join(repoRoot, "README.md"),
  ...fs
    .readdirSync(path.join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => path.join(repoRoot, "docs", f)),
];
const BLOCKS = MARKDOWN.flatMap(codeBlocks);
const TEMPLATE_PROGRAM = path.join(repoRoot, "templates", "domainapi-typescript", "index.ts");

/** Type-checks each source (a virtual file each) against the package; returns the errors by source. */
function typeCheck(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["node"],
    skipLibCheck: true,
    esModuleInterop: true,
    // The package's types by its name, from the sources its declarations are built from.
    paths: {
      "pulumi-domainapi": [path.join(repoRoot, "provider", "index.ts")],
      "domainapi-sandbox": [path.join(repoRoot, "sandbox", "src", "index.ts")],
    },
  };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
  host.readFile = (name) => sources.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = sources.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, onError, create)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram([...sources.keys()], options, host);
  const errors = new Map<string, string[]>();
  for (const name of sources.keys()) {
    const file = program.getSourceFile(name);
    const diagnostics = file
      ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
      : [];
    errors.set(
      name,
      diagnostics.map((d) => {
        const line =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  }
  return errors;
}

/** A block with a type error, checked beside the others: the check must find it. */
const BROKEN = path.join(repoRoot, "test", ".work", "doc-blocks", "broken.ts");

let result: { errors: Map<string, string[]>; origin: Map<string, string> } | undefined;

/** Every TypeScript block, the template's program and {@link BROKEN}, type-checked in one program. */
function checked(): { errors: Map<string, string[]>; origin: Map<string, string> } {
  if (result) return result;
  const sources = new Map<string, string>();
  const origin = new Map<string, string>();
  for (const [index, block] of BLOCKS.entries()) {
    if (!TYPESCRIPT.has(block.lang)) continue;
    // A file beside the package, so that `@pulumi/pulumi` resolves from its node_modules; `export {}`
    // makes a block without imports a module of its own too.
    const name = path.join(repoRoot, "test", ".work", "doc-blocks", `block-${index}.ts`);
    sources.set(name, `${block.code}\nexport {};\n`);
    origin.set(name, block.at);
  }
  sources.set(TEMPLATE_PROGRAM, fs.readFileSync(TEMPLATE_PROGRAM, "utf8"));
  origin.set(TEMPLATE_PROGRAM, path.relative(repoRoot, TEMPLATE_PROGRAM));
  sources.set(
    BROKEN,
    'import * as domainapi from "pulumi-domainapi";\nnew domainapi.DnsTemplateRecords("x", { templateId: 1, records: [] });\n',
  );
  result = { errors: typeCheck(sources), origin };
  return result;
}

/** A program's statements without its comments, for comparing two copies of one program. */
function withoutComments(code: string): string {
  return code
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*\*|\*|\*\/)/.test(line))
    .join("\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

describe("code blocks of the README and docs/", () => {
  it("each says its language after the fence, one the test compiles or knows to skip", () => {
    const unmarked = BLOCKS.filter((b) => !TYPESCRIPT.has(b.lang) && !SKIPPED.has(b.lang));
    expect(unmarked.map((b) => `${b.at}: "${b.lang}"`)).toEqual([]);
    expect(BLOCKS.filter((b) => TYPESCRIPT.has(b.lang)).length).toBeGreaterThan(5);
  });

  it(`every TypeScript block type-checks against the package's types (skipped: ${[
    ...new Set(BLOCKS.filter((b) => !TYPESCRIPT.has(b.lang)).map((b) => b.lang)),
  ]
    .sort()
    .join(", ")})`, () => {
    const { errors, origin } = checked();
    const failures = [...errors]
      .filter(([name]) => name !== BROKEN)
      .flatMap(([name, found]) => found.map((e) => `${origin.get(name)} (block) ${e}`));
    expect(failures).toEqual([]);
  }, 60_000);

  it("the README's first program is the program the `pulumi new` template makes", () => {
    const readme = BLOCKS.filter((b) => b.at.startsWith("README.md:") && TYPESCRIPT.has(b.lang));
    expect(withoutComments(readme[0]?.code ?? "")).toBe(
      withoutComments(fs.readFileSync(TEMPLATE_PROGRAM, "utf8")),
    );
  });

  it("the README stays under 2,500 words and names the set-up and test commands CI runs", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThan(2500);
    expect(readme).toContain("`npm ci`");
    expect(readme).toContain("`npm test`");
  });

  it("a type error in a block is found (the check is not vacuous)", () => {
    expect(checked().errors.get(BROKEN)?.join("\n")).toMatch(/line 2: .*number.*string/s);
  }, 60_000);
});
