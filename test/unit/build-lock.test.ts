/**
 * The first-run builds of the shared cache (the Pulumi CLI, the YAML language host, actionlint,
 * the SDK generator) started twice at once on an empty cache: as two e2e files or two CI jobs do
 * on a fresh machine. A stand-in `go` takes the build's place (it writes the binary after a pause
 * and logs each build), so the test shows the lock, not Go.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = path.resolve(__dirname, "../..");

interface Script {
  file: string;
  args: string[];
  /** What the script prints on stdout when it succeeds, relative to the cache. */
  prints: (cache: string) => string;
}

const SCRIPTS: Script[] = [
  {
    file: "scripts/ensure-pulumi.sh",
    args: [],
    prints: (cache) => path.join(cache, `pulumi-${pulumiVersion()}`, "bin"),
  },
  {
    file: "scripts/ensure-pulumi-yaml.sh",
    args: [],
    prints: (cache) => path.join(cache, "pulumi-yaml-1.38.1", "bin"),
  },
  {
    file: "scripts/ensure-actionlint.sh",
    args: [],
    prints: (cache) => path.join(cache, "actionlint-1.7.12", "actionlint"),
  },
  { file: "scripts/gen-sdk.sh", args: ["go"], prints: () => "v3.259.0" },
];

function pulumiVersion(): string {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(repo, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "build-lock-"));
  fs.mkdirSync(path.join(work, "bin"));
  fs.copyFileSync(path.join(repo, "test/fixtures/fake-go.sh"), path.join(work, "bin", "go"));
  fs.chmodSync(path.join(work, "bin", "go"), 0o755);
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

function runScript(script: Script, cache: string) {
  return run("bash", [path.join(repo, script.file), ...script.args], {
    cwd: repo,
    env: {
      PATH: [path.join(work, "bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      HOME: work,
      TMPDIR: work,
      PULUMI_DOMAINAPI_CACHE: cache,
      PULUMI_DOMAINAPI_FORCE_BUILD: "1",
      DOMAINAPI_SDK_OUT: path.join(work, "sdk-out"),
      FAKE_GO_LOG: path.join(work, "builds.log"),
    },
  });
}

describe("first-run builds into the shared cache", () => {
  for (const script of SCRIPTS) {
    it(`${path.basename(script.file)}: two runs at once on an empty cache both succeed, and one builds`, async () => {
      const cache = path.join(work, "cache");
      const [a, b] = await Promise.allSettled([runScript(script, cache), runScript(script, cache)]);
      for (const r of [a, b]) {
        if (r.status === "rejected") throw r.reason;
        expect(r.value.stdout.trim()).toBe(script.prints(cache));
      }
      const builds = fs.readFileSync(path.join(work, "builds.log"), "utf8").trim().split("\n");
      expect(builds).toHaveLength(1);
      // Nothing half-made is left beside the result, and the lock is gone.
      const left = fs.readdirSync(cache, { recursive: true }).map(String);
      expect(left.filter((f) => f.includes(".tmp") || f.includes(".stale"))).toEqual([]);
      expect(fs.readdirSync(path.join(cache, "locks"))).toEqual([]);
    }, 60_000);
  }

  it("a lock left by a run that died is taken over, not waited on", async () => {
    const cache = path.join(work, "cache");
    const script = SCRIPTS[2] as Script;
    // A pid that is certainly not running: a child that has already exited.
    const dead = await run("sh", ["-c", "echo $$"]);
    fs.mkdirSync(path.join(cache, "locks", "actionlint-1.7.12"), { recursive: true });
    fs.writeFileSync(path.join(cache, "locks", "actionlint-1.7.12", "pid"), dead.stdout.trim());
    const started = Date.now();
    const r = await runScript(script, cache);
    expect(r.stdout.trim()).toBe(script.prints(cache));
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
