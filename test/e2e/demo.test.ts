/**
 * `npm run demo` as a newcomer runs it (after the build): the quickstart goes up against a fresh
 * sandbox, the summary is printed; then the program is changed as a pull request would change it,
 * the keyed preview and the pull request's plan are printed, the update runs and the demo says which
 * record ids were kept and which are new; everything is cleaned up.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./harness";

const run = promisify(execFile);

/** The first capture group of `pattern` in `text`; fails the test when there is none. */
function captured(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  expect(match, `${pattern} in the demo's output`).not.toBeNull();
  return match?.[1] ?? "";
}

describe("npm run demo", () => {
  it("runs pulumi up of the quickstart, changes it (preview, plan, update, ids kept and new) and cleans up", async () => {
    const { stdout } = await run(process.execPath, [path.join(repoRoot, "scripts", "demo.ts")], {
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

    // The ids the first up gave the records the change touches.
    const firstUp = text.slice(0, text.indexOf("The change"));
    const aId = captured(firstUp, /^\s+@\s+A\s+192\.0\.2\.10\s+(rec-\d+)$/m);
    const aaaaId = captured(firstUp, /^\s+@\s+AAAA\s+2001:db8::10\s+(rec-\d+)$/m);

    // The keyed preview: one entry per changed record.
    const preview = text.slice(text.indexOf("pulumi preview"), text.indexOf("The plan for the pull request"));
    expect(preview).toMatch(/^\s+~ @\/A\s+: \{$/m);
    expect(preview).toMatch(/^\s+~ content: "192\.0\.2\.10" => "192\.0\.2\.11"$/m);
    expect(preview).toMatch(/^\s+\+ api\/A\s+: \{$/m);
    expect(preview).toMatch(/^\s+- @\/AAAA\s+: \{$/m);
    expect(preview).toMatch(/~ 1 to update/);

    // The plan the pull request gets, with the ids of the state.
    const plan = text.slice(
      text.indexOf("The plan for the pull request"),
      text.indexOf("pulumi up  (the change)"),
    );
    expect(plan).toContain(
      "**Template `web`** (resource `web`): 1 to create, 1 to update, 1 to delete, 2 unchanged (1 request)",
    );
    expect(plan).toMatch(
      new RegExp(`~ MODIFY @ A content 192\\.0\\.2\\.10 -> 192\\.0\\.2\\.11\\s+\\(id ${aId} kept\\)`),
    );
    expect(plan).toMatch(new RegExp(`- DELETE @ AAAA 2001:db8::10\\s+\\(id ${aaaaId} removed\\)`));
    expect(plan).toMatch(/\+ CREATE api A 192\.0\.2\.20\s+\(new id\)/);

    // The update did what the plan said: the changed record kept its id, the added one has a new one.
    const after = text.slice(text.indexOf("pulumi up  (the change)"));
    expect(after).toMatch(/pulumi up succeeded/);
    expect(after).toMatch(/Template web\s+1 to create, 1 to update, 1 to delete, 2 unchanged \(1 request\)/);
    expect(after).toMatch(/Record ids: 3 kept, 1 new/);
    expect(after).toMatch(new RegExp(`^\\s+kept\\s+${aId}\\s+@ A 192\\.0\\.2\\.11$`, "m"));
    expect(after).toMatch(new RegExp(`^\\s+gone\\s+${aaaaId}\\s+@ AAAA 2001:db8::10$`, "m"));
    const newId = captured(after, /^\s+new\s+(rec-\d+)\s+api A 192\.0\.2\.20$/m);
    expect(firstUp).not.toMatch(new RegExp(`${newId}$`, "m"));

    expect(text).toMatch(/Cleaned up: stack destroyed, sandbox stopped/);
  });
});
