/**
 * `npm run demo` as a newcomer runs it (after the build): the quickstart goes up against a fresh
 * sandbox, the summary is printed, and everything is cleaned up.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./harness";

const run = promisify(execFile);

describe("npm run demo", () => {
  it("runs pulumi up of the quickstart, prints the summary and cleans up", async () => {
    const { stdout } = await run(process.execPath, [path.join(repoRoot, "scripts", "demo.mjs")], {
      cwd: repoRoot,
      env: process.env,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 240_000,
    });
    const text = stripVTControlCharacters(stdout);
    expect(text).toMatch(/pulumi up succeeded/);
    expect(text).toMatch(/Template web\s+4 to create/);
    expect(text).toMatch(/www\s+CNAME\s+\{domainname\}\.\s+rec-\d+/);
    expect(text).toMatch(/Restored\s+shop\.example is out of quarantine/);
    expect(text).toMatch(/Contacts\s+\d+ active in NL/);
    expect(text).toMatch(/Cleaned up: stack destroyed, sandbox stopped/);
  });
});
