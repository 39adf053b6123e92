/**
 * `node provider/cli/import.ts ...` run as a user runs it answers exactly as the command does in
 * this process: the program is the command, its output and exit status unchanged. This file imports
 * the module itself so that a run of the tests related to it (mutation testing's) includes it;
 * imported by another program, the module runs nothing.
 */
import { describe, expect, it } from "vitest";
import { type ImportCommandIo, runImportCommand } from "../../../provider/cli/import";
import { runChildCommand } from "./childCommand";

/** What the command writes and returns here, for `args`. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: ImportCommandIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const code = await runImportCommand(args, io);
  return { code, stdout, stderr };
}

describe("domainapi-import as a program: the same answer as the command", () => {
  it("--help: the usage on stdout, exit status 0", async () => {
    const here = await inProcess(["--help"]);
    expect(here.code).toBe(0);
    expect(here.stdout).toMatch(/^Usage: domainapi-import /);
    expect(await runChildCommand("import", ["--help"])).toEqual(here);
  }, 30_000);

  it("an unknown option: refused with the usage on stderr, exit status 2", async () => {
    const here = await inProcess(["--no-such-option", "a.zone"]);
    expect(here.code).toBe(2);
    expect(here.stderr).toMatch(/^domainapi-import: .*--no-such-option/);
    expect(await runChildCommand("import", ["--no-such-option", "a.zone"])).toEqual(here);
  }, 30_000);
});

describe("domainapi-import as a program of its own", () => {
  it("runs the command: no zone file is refused with the usage, exit status 2", async () => {
    const { code, stdout, stderr } = await runChildCommand("import", []);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(/^domainapi-import: expected at least one zone file\n\nUsage: domainapi-import /);
  }, 30_000);

  it("imported by a program, runs nothing: no output, exit status 0", async () => {
    expect(await runChildCommand("import", [], { importOnly: true })).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  }, 30_000);
});
