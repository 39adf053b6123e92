/**
 * scripts/run-program.ts used as a module (as scripts/demo.ts does): Node evaluates a program's
 * module once per process, so a second up or preview of the same program in one process would
 * register no resources and plan to delete them all. The runner refuses it instead.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { repoRoot, useSandbox } from "./harness";
import { RUNNER } from "./program-runner";
import { API_KEY } from "./records-helpers";

const execFileAsync = promisify(execFile);

const sandbox = useSandbox({ apiKey: API_KEY });

it("refuses to run the same program twice in one process, after a first run that worked", async () => {
  const dir = path.join(repoRoot, "examples", "quickstart");
  const script = `
    const { runProgram } = await import(${JSON.stringify(RUNNER)});
    const args = { dir: ${JSON.stringify(dir)}, op: "preview", baseUrl: ${JSON.stringify(sandbox.url)},
      apiKey: ${JSON.stringify(API_KEY)}, onOutput: () => {} };
    const first = await runProgram(args);
    console.log("first:", JSON.stringify(first.summary.changeSummary));
    try {
      await runProgram(args);
      console.log("second: ran");
    } catch (err) {
      console.log("second:", err.message);
    }`;
  const { stdout } = await execFileAsync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const first = /^first: (.*)$/m.exec(stdout)?.[1];
  expect(JSON.parse(first ?? "{}")).toMatchObject({ create: expect.any(Number) });
  expect(stdout).toMatch(
    /^second: runProgram: .*quickstart.index\.ts already ran in this process, and Node will not run it again; run each up or preview in a process of its own/m,
  );
  // A preview changes nothing at the API.
  expect(sandbox.requests.filter((r) => r.method !== "GET")).toEqual([]);
});
