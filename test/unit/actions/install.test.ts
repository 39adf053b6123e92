/**
 * The actions install `domainapi-plan` pinned by version and integrity (actions/lib/install.ts):
 * the tarball is checked against the integrity the workflow gives before anything is installed, and
 * no install script runs. Tried with a local tarball of a stand-in package (the same checks apply
 * to a registry spec; nothing here reaches the registry): it has a `domainapi-plan` command and a
 * `postinstall` script that would leave a file behind.
 */
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..", "..", "..");
const INSTALL = path.join(repoRoot, "actions", "lib", "install.ts");

let work: string;
let tarball: string;
let integrity: string;
let scriptRan: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-install-"));
  const pkg = path.join(work, "pkg");
  scriptRan = path.join(work, "postinstall-ran");
  fs.mkdirSync(path.join(pkg, "bin"), { recursive: true });
  fs.writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({
      name: "pulumi-domainapi",
      version: "0.1.0",
      bin: { "domainapi-plan": "bin/plan.js" },
      scripts: { postinstall: `node -e "require('fs').writeFileSync(${JSON.stringify(scriptRan)}, 'x')"` },
    }),
  );
  fs.writeFileSync(path.join(pkg, "bin", "plan.js"), "#!/usr/bin/env node\nconsole.log('plan');\n");
  const packed = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
    cwd: pkg,
    encoding: "utf8",
  });
  expect(packed.status).toBe(0);
  tarball = path.join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename as string);
  integrity = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`;
}, 120_000);

function install(env: Record<string, string>) {
  const temp = fs.mkdtempSync(path.join(work, "runner-"));
  const output = path.join(temp, "output");
  fs.writeFileSync(output, "");
  const result = spawnSync("node", [INSTALL], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: temp,
      RUNNER_TEMP: temp,
      GITHUB_OUTPUT: output,
      npm_config_cache: path.join(temp, "npm-cache"),
      npm_config_offline: "true",
      DOMAINAPI_PACKAGE: tarball,
      ...env,
    },
  });
  return { ...result, output: fs.readFileSync(output, "utf8") };
}

describe("the pinned install of domainapi-plan", { timeout: 120_000 }, () => {
  it("installs the tarball whose integrity is pinned, running no install script", () => {
    const result = install({ DOMAINAPI_VERSION: "0.1.0", DOMAINAPI_INTEGRITY: integrity });
    expect(result.stderr).not.toMatch(/::error::/);
    expect(result.status).toBe(0);
    const bin = /^domainapi-plan=(.+)$/m.exec(result.output)?.[1] as string;
    expect(spawnSync(bin, [], { encoding: "utf8" }).stdout).toBe("plan\n");
    expect(fs.existsSync(scriptRan)).toBe(false);
  });

  it("refuses another integrity, a range, and a tarball of another version: no command given", () => {
    const other = `sha512-${crypto.createHash("sha512").update("other").digest("base64")}`;
    const changed = install({ DOMAINAPI_VERSION: "0.1.0", DOMAINAPI_INTEGRITY: other });
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain(
      `the tarball's integrity is ${integrity}, the workflow pins ${other}: not installed`,
    );
    expect(changed.output).toBe("");
    const range = install({ DOMAINAPI_VERSION: "^0.1.0", DOMAINAPI_INTEGRITY: integrity });
    expect(range.stderr).toMatch(/version: "\^0\.1\.0" is not an exact version/);
    const placeholder = install({
      DOMAINAPI_VERSION: "0.1.0",
      DOMAINAPI_INTEGRITY: "sha512-REPLACE-WITH-npm-view",
    });
    expect(placeholder.stderr).toMatch(
      /integrity: "sha512-REPLACE-WITH-npm-view" is not a SHA-512 integrity/,
    );
    const version = install({ DOMAINAPI_VERSION: "0.2.0", DOMAINAPI_INTEGRITY: integrity });
    expect(version.status).toBe(1);
    expect(version.stderr).toMatch(
      /the tarball holds pulumi-domainapi@0\.1\.0, not pulumi-domainapi@0\.2\.0/,
    );
    expect(fs.existsSync(scriptRan)).toBe(false);
  });
});
