/**
 * `domainapi-plan` as its binary runs it: the arguments after `node` and the script, the exit status
 * it sets (0 written, 2 refused or no value, 1 a failure it did not foresee, said); run as a program
 * of its own it is the command, imported by one it runs nothing; a preview named on the command line
 * is no call for the usage, stdin a terminal or not.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAsCommand } from "../../../provider/cli/plan";
import { runChildCommand } from "./childCommand";
import { fakeProcess as commandProcess } from "./commandProcess";

const UPDATE = path.join(__dirname, "..", "..", "fixtures", "preview", "update.json");
const HEAD = "0123456789abcdef0123456789abcdef01234567";
const DIGEST = "0123456789abcdef0123456789abcdef";
const SCRIPT = "/usr/lib/node_modules/pulumi-domainapi/dist/provider/cli/plan.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-process-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The plan comment the workflow posted for HEAD, as `gh api` lists it. */
function commentsJson(): string {
  const body = [
    "### DNS record plan",
    "**Template `web`** (resource `web`): 1 to create",
    `Plan digest \`${DIGEST}\``,
    "```text",
    `DOMAINAPI_EXPECT_PLAN='web=${DIGEST}'`,
    "```",
    `<!-- domainapi-plan commit=${HEAD} -->`,
    "<!-- Sticky Pull Request Commentdns-plan -->",
  ].join("\n");
  return JSON.stringify([{ user: { login: "github-actions[bot]" }, body }]);
}

/**
 * A process running `domainapi-plan args...`, stdin a terminal when `tty`; its stderr throws
 * `failFirst` on its first write (a pipe that refuses a write once: EAGAIN).
 */
const fakeProcess = (args: string[], options: { tty?: boolean; failFirst?: unknown } = {}) =>
  commandProcess(SCRIPT, args, options);

describe("the binary's process, in this one", () => {
  it("reads the arguments after node and the script; exit status 0 once the value is written", async () => {
    const file = path.join(tmp, "comments.json");
    fs.writeFileSync(file, commentsJson());
    const proc = fakeProcess(["--comments", file, "--commit", HEAD]);
    await runAsCommand(proc);
    expect({ exitCode: proc.exitCode, out: proc.out, err: proc.err }).toEqual({
      exitCode: 0,
      out: `web=${DIGEST}\n`,
      err: "",
    });
  });

  it("sets the status the command returns: 2 for an argument it refuses", async () => {
    const proc = fakeProcess(["--bogus"]);
    await runAsCommand(proc);
    expect(proc.exitCode).toBe(2);
    expect(proc.err).toMatch(/^domainapi-plan: Unknown option '--bogus'/);
  });

  it("a failure it did not foresee (stderr refusing a write) is said on stderr, exit status 1", async () => {
    // No preview and a terminal: the usage goes to stderr, whose first write fails.
    const proc = fakeProcess([], { tty: true, failFirst: new Error("write EAGAIN") });
    await runAsCommand(proc);
    expect({ exitCode: proc.exitCode, out: proc.out, err: proc.err }).toEqual({
      exitCode: 1,
      out: "",
      err: "domainapi-plan: write EAGAIN\n",
    });
    const other = fakeProcess([], { tty: true, failFirst: "stderr is busy" });
    await runAsCommand(other);
    expect({ exitCode: other.exitCode, err: other.err }).toEqual({
      exitCode: 1,
      err: "domainapi-plan: stderr is busy\n",
    });
  });

  it("a preview named on the command line at a terminal is no call for the usage: its arguments are checked", async () => {
    // Checked before the preview is read: an abbreviated commit is refused by name.
    const proc = fakeProcess(["--commit", "0123abc", UPDATE], { tty: true });
    await runAsCommand(proc);
    expect({ exitCode: proc.exitCode, out: proc.out, err: proc.err }).toEqual({
      exitCode: 2,
      out: "",
      err:
        'domainapi-plan: --commit: "0123abc" is not a full commit id (40 or 64 hexadecimal digits); ' +
        "give the whole SHA (in a pull request's workflow: github.event.pull_request.head.sha)\n",
    });
  });
});

describe("domainapi-plan as a program of its own", () => {
  it("runs the command and sets its exit status: no reviewed plan is said, status 2", async () => {
    const { code, stdout, stderr } = await runChildCommand("plan", ["--comments", "-", "--commit", HEAD], {
      stdin: "[]",
    });
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^domainapi-plan: no reviewed plan: no plan comment of the workflow/);
  }, 30_000);

  it("imported by a program, runs nothing: no output, exit status 0", async () => {
    expect(await runChildCommand("plan", [], { importOnly: true })).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  }, 30_000);
});
