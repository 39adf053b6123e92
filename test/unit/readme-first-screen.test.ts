/**
 * The README's first screen names what CI runs: its set-up and test commands are the ones `.ci/run`
 * runs, in that order. (test/e2e/readme.test.ts runs the set-up and the demo from a clean clone.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { firstScreenCommands } from "../e2e/readme-commands";

const repoRoot = path.resolve(__dirname, "..", "..");

describe("the README's first screen", () => {
  const commands = firstScreenCommands(repoRoot);

  it("is npm ci, npm run demo and npm test, nothing else to install", () => {
    expect(commands).toEqual(["npm ci", "npm run demo", "npm test"]);
  });

  it("its test command is what .ci/run runs after its npm ci, and the demo is a script of package.json", () => {
    const ci = fs
      .readFileSync(path.join(repoRoot, ".ci", "run"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^npm /.test(line));
    // `.ci/run` adds only flags that silence npm's reports to the README's set-up command.
    expect(ci).toEqual(["npm ci --no-audit --no-fund", "npm test"]);
    expect(ci[1]).toBe(commands[2]);
    expect(ci[0]?.startsWith(`${commands[0]} `)).toBe(true);
    const { scripts } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.demo).toMatch(/scripts\/demo\.ts$/);
    expect(scripts.test).toBe("bash scripts/test.sh");
  });
});
