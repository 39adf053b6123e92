/**
 * `domainapi-verify` as its binary runs it: the arguments after `node` and the script, the exit
 * status it sets (2 a wrong input or argument, 1 a failure it did not foresee, said); run as a
 * program of its own it is the command, imported by one (as the package's entry imports it) it
 * runs nothing.
 */
import { describe, expect, it } from "vitest";
import { runAsCommand } from "../../../provider/cli/verify";
import { runChildCommand } from "./childCommand";
import { fakeProcess as commandProcess } from "./commandProcess";

const SCRIPT = "/usr/lib/node_modules/pulumi-domainapi/dist/provider/cli/verify.js";
const STACK = JSON.stringify({ web: { templateId: "web", records: [] } });

/**
 * A process running `domainapi-verify args...` with `stdin` as its input; its stderr throws
 * `failFirst` on its first write (a pipe that refuses a write once: EAGAIN).
 */
const fakeProcess = (args: string[], options: { stdin?: string; failFirst?: unknown } = {}) =>
  commandProcess(SCRIPT, args, { stdin: options.stdin ?? STACK, failFirst: options.failFirst });

describe("the binary's process, in this one", () => {
  it("reads the arguments after node and the script, and sets the status the command returns", async () => {
    // The stack on stdin declares "web" only: the domain's template is refused by name, status 2.
    const proc = fakeProcess(["--domain", "shop.example=mail"]);
    await runAsCommand(proc);
    expect({ exitCode: proc.exitCode, out: proc.out, err: proc.err }).toEqual({
      exitCode: 2,
      out: "",
      err: 'domainapi-verify: --domain shop.example=mail: the stack declares no template "mail" (it declares "web")\n',
    });
  });

  it("a failure it did not foresee (stderr refusing a write) is said on stderr, exit status 1", async () => {
    for (const [thrown, shown] of [
      [new Error("write EAGAIN"), "write EAGAIN"],
      ["stderr is busy", "stderr is busy"],
    ] as const) {
      const proc = fakeProcess(["--bogus"], { failFirst: thrown });
      await runAsCommand(proc);
      expect({ exitCode: proc.exitCode, out: proc.out, err: proc.err }).toEqual({
        exitCode: 1,
        out: "",
        err: `domainapi-verify: ${shown}\n`,
      });
    }
  });
});

describe("domainapi-verify as a program of its own", () => {
  it("runs the command and sets its exit status: a domain of no declared template, status 2", async () => {
    expect(await runChildCommand("verify", ["--domain", "shop.example=mail"], { stdin: STACK })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'domainapi-verify: --domain shop.example=mail: the stack declares no template "mail" (it declares "web")\n',
    });
  }, 30_000);

  it("imported by a program, runs nothing: no output, exit status 0", async () => {
    expect(await runChildCommand("verify", [], { importOnly: true })).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  }, 30_000);
});
