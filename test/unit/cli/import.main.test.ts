/**
 * `node provider/cli/import.ts ...` as a shell runs it: the module run as the program is the
 * command (its entry runs it, with its exit status); imported by another program, it runs nothing.
 */
import { describe, expect, it } from "vitest";
import { runChildCommand } from "./childCommand";

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
