/**
 * The docs stay true to the commands: every `--flag` that README.md, a page of docs/, the
 * sandbox's README or the CI example's names for one of the package's commands (`domainapi-plan`,
 * `domainapi-sandbox`, every bin of package.json and of the sandbox's) is one its `--help` lists. A flag is the command's when it
 * follows the command's name on a command line (a code block's line or a code span), or when a
 * code span of flags follows a mention of the command in the same paragraph (a list of flags).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCommand } from "../../provider/cli/import";
import { runPlanCommand } from "../../provider/cli/plan";
import { runVerifyCommand } from "../../provider/cli/verify";
import { parseCommandLine, USAGE as SANDBOX_USAGE } from "../../sandbox/src/cli";

const ROOT = join(__dirname, "..", "..");

const binsOf = (file: string) =>
  Object.keys((JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { bin?: object }).bin ?? {});
const BINS = [...binsOf("package.json"), ...binsOf("sandbox/package.json")];

/** What each command's `--help` prints; undefined for a command that has none. */
async function helpOf(bin: string): Promise<string | undefined> {
  switch (bin) {
    case "domainapi-plan": {
      let out = "";
      const io = {
        stdin: process.stdin,
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: () => true },
      };
      expect(await runPlanCommand(["--help"], io)).toBe(0);
      return out;
    }
    case "domainapi-import": {
      let out = "";
      const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } };
      expect(await runImportCommand(["--help"], io)).toBe(0);
      return out;
    }
    case "domainapi-verify": {
      let out = "";
      const io = {
        stdin: process.stdin,
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: () => true },
      };
      expect(await runVerifyCommand(["--help"], io)).toBe(0);
      return out;
    }
    case "domainapi-sandbox":
      expect(parseCommandLine(["--help"], {})).toEqual({ help: true });
      return SANDBOX_USAGE;
    default:
      // The provider plugin is started by the engine, with the engine's arguments: it has no flags.
      return undefined;
  }
}

/**
 * The flags `--help` lists: every `--name` in it (a `--[no-]x` form lists both), and `--help`
 * itself, which printed it.
 */
function listedFlags(help: string): Set<string> {
  return new Set(["--help", ...[...help.matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0])]);
}

interface Named {
  bin: string;
  flag: string;
  where: string;
}

const FLAG = /^--[a-z][a-z0-9-]*/;
/** Tokens that end one command on a line: what follows is another command's. */
const ENDS_COMMAND = /^(\||\|\||&&|;|&|>|>>|<|2>)$|[)`]$|;$/;

/** The flags a command line names for each of our commands; `current` is the command already in force. */
function flagsOnLine(line: string, current: string | undefined, where: string, out: Named[]): void {
  let bin = current;
  for (const token of line.split(/\s+/).filter(Boolean)) {
    const name = token.replace(/^["'$(]+/, "").replace(/["')]+$/, "");
    if (BINS.includes(name)) {
      bin = name;
      continue;
    }
    const flag = FLAG.exec(name)?.[0];
    if (flag !== undefined && bin !== undefined) out.push({ bin, flag, where });
    if (ENDS_COMMAND.test(token) || /^(pulumi|npm|node|git|cat|curl|docker|go|python3?)$/.test(name))
      bin = undefined;
  }
}

/** Every flag a Markdown text names for one of our commands. */
function namedFlags(markdown: string, file: string): Named[] {
  const out: Named[] = [];
  const lines = markdown.split("\n");
  let fence: string | undefined;
  let paragraph: string[] = [];
  let start = 0;
  const flush = () => {
    const text = paragraph.join(" ");
    let mentioned: string | undefined;
    // Code spans and the text between them, in order; a bin named in either is the last mentioned.
    for (const [i, piece] of text.split(/(`+)([^`]*?)\1/).entries()) {
      if (i % 3 === 1) continue;
      const where = `${file}:${start + 1}`;
      if (i % 3 === 2) {
        const startsWithFlag = FLAG.test(piece.trim());
        flagsOnLine(piece, startsWithFlag ? mentioned : undefined, where, out);
      }
      for (const bin of BINS) if (new RegExp(`(^|[^\\w-])${bin}($|[^\\w-])`).test(piece)) mentioned = bin;
    }
    paragraph = [];
  };
  lines.forEach((line, n) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      else flagsOnLine(line, undefined, `${file}:${n + 1}`, out);
      return;
    }
    if (marker !== undefined) {
      flush();
      fence = marker;
      return;
    }
    if (line.trim() === "") flush();
    else {
      if (paragraph.length === 0) start = n;
      paragraph.push(line);
    }
  });
  flush();
  return out;
}

const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const NAMED = DOCS.flatMap((file) => namedFlags(readFileSync(join(ROOT, file), "utf8"), file));

describe("every flag the docs name for a command is one its --help lists", () => {
  it("the docs name flags of both commands (the reader of the docs finds them)", () => {
    const bins = new Set(NAMED.map((n) => n.bin));
    expect(bins).toContain("domainapi-plan");
    expect(bins).toContain("domainapi-sandbox");
  });

  it.each(BINS)("%s", async (bin) => {
    const help = await helpOf(bin);
    const named = NAMED.filter((n) => n.bin === bin);
    const listed = help === undefined ? new Set<string>() : listedFlags(help);
    const unknown = named.filter((n) => !listed.has(n.flag)).map((n) => `${n.flag} (${n.where})`);
    expect(unknown, `flags the docs name for ${bin} that its --help does not list`).toEqual([]);
  });

  it("the reader of flags attributes them as a person would", () => {
    const found = namedFlags(
      [
        "Run `npx domainapi-sandbox --port 0 --api-key k` and `pulumi up --yes`.",
        "",
        "Each a `domainapi-sandbox` flag (`--numeric-ids`, `--per-page-cap 20`).",
        "",
        "```sh",
        'DOMAINAPI_EXPECT_PLAN="$(npx domainapi-plan --expect preview.json)" pulumi up --refresh',
        "```",
      ].join("\n"),
      "x.md",
    );
    expect(found.map((n) => `${n.bin} ${n.flag}`)).toEqual([
      "domainapi-sandbox --port",
      "domainapi-sandbox --api-key",
      "domainapi-sandbox --numeric-ids",
      "domainapi-sandbox --per-page-cap",
      "domainapi-plan --expect",
    ]);
  });
});
