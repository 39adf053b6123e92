/**
 * The README's first screen on a fresh clone: `git clone` of this checkout's HEAD into a temporary
 * directory, then the README's own commands (test/e2e/readme-commands.ts) run there in order, up to
 * its test command (which is this suite; test/unit/readme-first-screen.test.ts holds it to what CI
 * runs). Nothing of this checkout is used but its committed files: no node_modules, no dist, no
 * tools of ours on PATH. `npm ci` fills node_modules from npm's cache; the Pulumi CLI comes from
 * PATH or its own cache, as for a user who has run the demo once.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "./harness";
import { firstScreenCommands } from "./readme-commands";

const run = promisify(execFile);

describe("the README's first screen, from a clean clone", () => {
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-clone-"));
  afterAll(() => fs.rmSync(clone, { recursive: true, force: true }));

  it("npm ci and npm run demo pass as the README says", async () => {
    const commands = firstScreenCommands(repoRoot);
    const testCommand = commands.indexOf("npm test");
    expect(testCommand).toBeGreaterThan(0);
    const { stdout: head } = await run("git", ["rev-parse", "HEAD"], { cwd: repoRoot });
    await run("git", ["clone", "--quiet", "--no-checkout", repoRoot, clone]);
    await run("git", ["checkout", "--quiet", head.trim()], { cwd: clone });
    expect(fs.existsSync(path.join(clone, "node_modules"))).toBe(false);

    // A newcomer's shell: no tools of this checkout on PATH, no settings of the npm that runs us.
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value === undefined || /^(npm_|VITEST|DOMAINAPI_)/i.test(key)) continue;
      env[key] = value;
    }
    env.PATH = (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !dir.startsWith(repoRoot))
      .join(path.delimiter);
    // npm's cache answers (the registry only for what it lacks); no audit or funding requests.
    Object.assign(env, {
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
    });

    const outputs: string[] = [];
    for (const command of commands.slice(0, testCommand)) {
      const started = Date.now();
      try {
        const { stdout } = await run("sh", ["-c", command], {
          cwd: clone,
          env,
          maxBuffer: 64 << 20,
          timeout: 400_000,
        });
        outputs.push(stripVTControlCharacters(stdout));
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(
          `\`${command}\` failed in a clean clone:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`,
        );
      }
      console.log(`readme: \`${command}\` took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const demo = outputs.at(-1) ?? "";
    expect(demo).toMatch(/pulumi up succeeded/);
    expect(demo).toMatch(/Template web\s+4 to create/);
    expect(demo).toMatch(/Record ids: 3 kept, 1 new/);
    expect(demo).toMatch(/Cleaned up: stack destroyed, sandbox stopped/);
  }, 900_000);
});
