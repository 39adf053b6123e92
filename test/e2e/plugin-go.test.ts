/**
 * The provider plugin under the real engine from a Go program: a Go Automation API inline program
 * (test/e2e/go-program) on the Go SDK generated from the plugin's schema (sdk/go, by
 * scripts/gen-sdk.sh with Pulumi's code generators), the same story as the YAML program in one
 * stack: two explicit providers on two sandboxes with different keys, a record changed with the
 * other ids kept, a record removed behind Pulumi's back re-added, a domain restored, contacts
 * looked up into an output, everything destroyed, the keys never in the state unencrypted nor in
 * an output. Also: the committed SDKs are what the generator makes of the schema now, and the
 * Python SDK compiles.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { linkPackage, repoRoot } from "./harness";
import { requireBuiltPlugin } from "./plugin-helpers";
import { describeGoTwoAccounts } from "./plugin-stories";

const execFileAsync = promisify(execFile);

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
  }
  return out;
}

describe("the generated SDKs", () => {
  it("are what the generator makes of schema.json now, and the Python SDK compiles", async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-sdk-"));
    try {
      await execFileAsync("bash", [path.join(repoRoot, "scripts", "gen-sdk.sh")], {
        env: { ...process.env, DOMAINAPI_SDK_OUT: fresh },
        maxBuffer: 16 << 20,
      });
      for (const language of ["go", "python"]) {
        expect(
          filesUnder(path.join(fresh, language)),
          `sdk/${language} is stale: run bash scripts/gen-sdk.sh`,
        ).toEqual(filesUnder(path.join(repoRoot, "sdk", language)));
      }
      const python = Object.keys(filesUnder(path.join(fresh, "python"))).filter((f) => f.endsWith(".py"));
      expect(python.length).toBeGreaterThan(5);
      await execFileAsync("python3", ["-m", "py_compile", ...python], { cwd: path.join(fresh, "python") });
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describeGoTwoAccounts("the provider plugin from a Go inline program", {
  async prepare(workDir) {
    requireBuiltPlugin();
    linkPackage(workDir);
    return { PLUGIN_DIR: path.join(workDir, "node_modules", "pulumi-domainapi") };
  },
});
