/**
 * `domainapi-plan`'s arguments and inputs, run in this process: what it prints, where, and its exit
 * status (0 written; 2 no value, a wrong input or wrong arguments, with the message and the usage).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { type PlanCommandIo, runPlanCommand } from "../../../provider/cli/plan";

const fixtures = path.join(__dirname, "..", "..", "fixtures", "preview");
const UPDATE = path.join(fixtures, "update.json");
const FAILED = path.join(fixtures, "failed.json");
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const DIGEST = "0123456789abcdef0123456789abcdef";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-args-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the command; `stdin` is its input, or a terminal when `tty`. */
async function run(args: string[], stdin = "", tty = false) {
  const input = Object.assign(new PassThrough(), { isTTY: tty });
  input.end(stdin);
  let stdout = "";
  let stderr = "";
  const io: PlanCommandIo = {
    stdin: input,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  return { code: await runPlanCommand(args, io), stdout, stderr };
}

/** The plan comment the workflow posted for HEAD, as `gh api` lists it. */
function comments(author = "github-actions[bot]", marker = "<!-- Sticky Pull Request Commentdns-plan -->") {
  const body = [
    "### DNS record plan",
    "**Template `web`** (resource `web`): 1 to create",
    `Plan digest \`${DIGEST}\``,
    "```text",
    `DOMAINAPI_EXPECT_PLAN='web=${DIGEST}'`,
    "```",
    `<!-- domainapi-plan commit=${HEAD} -->`,
    "<!-- domainapi-plan run=42 -->",
    marker,
  ].join("\n");
  return JSON.stringify([{ user: { login: author }, body }]);
}

describe("--help and the usage", () => {
  it("--help and -h print the usage on stdout, naming the defaults of --author and --marker", async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = await run([flag]);
      expect(code).toBe(0);
      expect(stderr).toBe("");
      expect(stdout).toMatch(/^Usage: domainapi-plan \[--commit <sha>\] \[preview\.json\]\n/);
      expect(stdout).toContain("by --author (default github-actions[bot])");
      expect(stdout).toContain(
        "--marker (default <!-- Sticky Pull Request Commentdns-plan -->, the sticky comment",
      );
      expect(stdout).toContain(
        'expect=$(domainapi-plan --expect preview.json) && DOMAINAPI_EXPECT_PLAN="$expect" pulumi up',
      );
      expect(stdout.endsWith("anything else.\n")).toBe(true);
    }
  });

  it("no preview file and a terminal for stdin: the usage on stderr, status 2", async () => {
    const { code, stdout, stderr } = await run([], "", true);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^Usage: domainapi-plan /);
    // With --comments, stdin is never the preview: the usage is not the answer.
    const comments = await run(["--comments", "-", "--commit", HEAD], "[]", true);
    expect(comments.stderr).toMatch(/^domainapi-plan: no reviewed plan: no plan comment of the workflow/);
  });
});

describe("wrong arguments: status 2, the reason, then the usage", () => {
  const cases: [string[], string][] = [
    [["--bogus"], "Unknown option '--bogus'"],
    [["a.json", "b.json"], "one preview file at most, got 2"],
    [["--comments", "c.json"], "--comments needs --commit <sha>: the merged head commit"],
    [
      ["--comments", "c.json", "--commit", HEAD, "p.json"],
      "--comments reads the comments file, not a preview",
    ],
    [
      ["--author", "x", "p.json"],
      "--author, --marker and --record choose and check the comment that --comments reads; give --comments too",
    ],
    [
      ["--marker", "x", "p.json"],
      "--author, --marker and --record choose and check the comment that --comments reads; give --comments too",
    ],
    [
      ["--record", "d", "p.json"],
      "--author, --marker and --record choose and check the comment that --comments reads; give --comments too",
    ],
    [
      ["--expect", "--commit", HEAD, "p.json"],
      "--commit is shown in the Markdown; --expect prints only the value",
    ],
  ];
  for (const [args, message] of cases) {
    it(args.join(" "), async () => {
      const { code, stdout, stderr } = await run(args);
      expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
      expect(stderr.startsWith(`domainapi-plan: ${message}`)).toBe(true);
      expect(stderr).toMatch(/\n\nUsage: domainapi-plan [\s\S]*anything else\.\n$/);
    });
  }
});

describe("the preview", () => {
  it("from a file, from stdin, or from stdin named -: the same Markdown", async () => {
    const text = fs.readFileSync(UPDATE, "utf8");
    const fromFile = await run([UPDATE]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/^### DNS record plan\n/);
    expect(fromFile.stdout).not.toContain("Planned from commit");
    expect(fromFile.stdout).not.toContain("<!-- domainapi-plan commit=");
    expect(await run([], text)).toEqual(fromFile);
    expect(await run(["-"], text)).toEqual(fromFile);
  }, 60_000); // the first preview loads the Pulumi SDK, seconds on a loaded machine

  it("--expect: the value alone; of a failed preview, status 2 saying why", async () => {
    const value = await run(["--expect", UPDATE]);
    expect(value.code).toBe(0);
    expect(value.stdout).toMatch(/^(\S+=[0-9a-f]{32} ?)+\n$/);
    expect(await run(["--expect", FAILED])).toEqual({
      code: 2,
      stdout: "",
      stderr: "domainapi-plan: no plan to expect: the preview failed\n",
    });
  });

  it("a file that is not there, or not a file: status 2 naming it", async () => {
    const missing = path.join(tmp, "missing.json");
    expect(await run([missing])).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-plan: cannot read ${missing}: no such file\n`,
    });
    const { code, stderr } = await run([tmp]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`^domainapi-plan: cannot read ${tmp.replaceAll(".", "\\.")}: Error: EISDIR`),
    );
  });

  it("text that is not a preview: status 2", async () => {
    const { code, stdout, stderr } = await run([], "not json");
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^domainapi-plan: .+\n$/);
  });
});

describe("--comments", () => {
  it("--author and --marker choose the comment", async () => {
    const file = path.join(tmp, "app.json");
    fs.writeFileSync(file, comments("dns-plans[bot]", "<!-- mine -->"));
    expect((await run(["--comments", file, "--commit", HEAD])).code).toBe(2);
    expect(
      await run([
        "--comments",
        file,
        "--commit",
        HEAD,
        "--author",
        "dns-plans[bot]",
        "--marker",
        "<!-- mine -->",
      ]),
    ).toEqual({
      code: 0,
      stdout: `web=${DIGEST}\n`,
      stderr: "",
    });
  });

  it("--record: the comment checked against the record, which an empty directory does not hold", async () => {
    const file = path.join(tmp, "comments.json");
    fs.writeFileSync(file, comments());
    const record = fs.mkdtempSync(path.join(tmp, "record-"));
    expect(await run(["--comments", file, "--commit", HEAD, "--record", record])).toEqual({
      code: 2,
      stdout: "",
      stderr: "domainapi-plan: no reviewed plan: the record holds no pull request (pull.json)\n",
    });
    // Without --record the same comment gives its value.
    expect((await run(["--comments", file, "--commit", HEAD])).stdout).toBe(`web=${DIGEST}\n`);
  });

  it("a comments file that is not there: status 2 naming it", async () => {
    const missing = path.join(tmp, "none.json");
    expect(await run(["--comments", missing, "--commit", HEAD])).toEqual({
      code: 2,
      stdout: "",
      stderr: `domainapi-plan: cannot read ${missing}: no such file\n`,
    });
  });
});

describe("a failure that is not the input's", () => {
  it("output that cannot be written: status 1 with what failed, an Error or anything thrown", async () => {
    for (const [thrown, shown] of [
      [new Error("write EPIPE"), "write EPIPE"],
      ["closed", "closed"],
    ] as const) {
      let stderr = "";
      const input = new PassThrough();
      input.end(comments());
      const code = await runPlanCommand(["--comments", "-", "--commit", HEAD], {
        stdin: Object.assign(input, { isTTY: false }),
        stdout: {
          write: () => {
            throw thrown;
          },
        },
        stderr: { write: (t: string) => (stderr += t) },
      });
      expect(code).toBe(1);
      expect(stderr).toBe(`domainapi-plan: ${shown}\n`);
    }
  });
});
