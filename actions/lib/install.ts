/**
 * Installs `domainapi-plan` pinned by version and integrity, into a directory of its own, and
 * prints its path as the step output `domainapi-plan`. Pinned so that what renders the plan and
 * checks it is not whatever a pull request's lock file names:
 *
 * 1. `npm pack pulumi-domainapi@<version>` fetches the published tarball (an exact version, never a range);
 * 2. its SHA-512 is computed here and compared with the integrity the workflow gives (the
 *    `integrity` of package-lock.json, or `npm view pulumi-domainapi@<version> dist.integrity`);
 *    a mismatch stops before anything is installed;
 * 3. that tarball, and only it, is installed with `--ignore-scripts`: no install script of it or of
 *    its dependencies (the Pulumi SDK among them: the planner reads the engine's types) runs.
 *
 * Environment: DOMAINAPI_VERSION, DOMAINAPI_INTEGRITY, RUNNER_TEMP; DOMAINAPI_PACKAGE replaces the
 * registry spec (a local tarball, for tests: the same checks apply).
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { env, optionalEnv, output, run, StepError, step } from "./run.ts";

const PACKAGE = "pulumi-domainapi";
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const SHA512 = /^sha512-[A-Za-z0-9+/]{86}==$/;

step(() => {
  const version = env("DOMAINAPI_VERSION").trim();
  const integrity = env("DOMAINAPI_INTEGRITY").trim();
  if (!EXACT_VERSION.test(version)) {
    throw new StepError(
      `version: ${JSON.stringify(version)} is not an exact version (like 0.1.0): a range could install another one`,
    );
  }
  if (!SHA512.test(integrity)) {
    throw new StepError(
      `integrity: ${JSON.stringify(integrity)} is not a SHA-512 integrity (sha512-...==, as package-lock.json or ` +
        `\`npm view ${PACKAGE}@${version} dist.integrity\` gives it)`,
    );
  }
  const root = fs.mkdtempSync(path.join(env("RUNNER_TEMP"), "domainapi-plan-"));
  const spec = optionalEnv("DOMAINAPI_PACKAGE") ?? `${PACKAGE}@${version}`;
  const packed = run("npm", ["pack", spec, "--pack-destination", root, "--ignore-scripts", "--json"], {
    cwd: root,
  });
  if (packed.status !== 0) throw new StepError(`npm pack ${spec} failed (exit ${packed.status})`);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  if (info === undefined) throw new StepError(`npm pack ${spec} printed no file`);
  const tarball = path.join(root, path.basename(info.filename));
  const actual = `sha512-${crypto.createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`;
  if (actual !== integrity) {
    throw new StepError(
      `${spec}: the tarball's integrity is ${actual}, the workflow pins ${integrity}: not installed ` +
        "(a changed tarball, or a pin of another version)",
    );
  }
  const prefix = path.join(root, "install");
  fs.mkdirSync(prefix);
  fs.writeFileSync(path.join(prefix, "package.json"), '{ "private": true }\n');
  const installed = run(
    "npm",
    ["install", "--no-save", "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund", tarball],
    { cwd: prefix },
  );
  if (installed.status !== 0)
    throw new StepError(`npm install of ${path.basename(tarball)} failed (exit ${installed.status})`);
  const manifest = JSON.parse(
    fs.readFileSync(path.join(prefix, "node_modules", PACKAGE, "package.json"), "utf8"),
  ) as {
    name?: string;
    version?: string;
  };
  if (manifest.name !== PACKAGE || manifest.version !== version) {
    throw new StepError(`the tarball holds ${manifest.name}@${manifest.version}, not ${PACKAGE}@${version}`);
  }
  const bin = path.join(prefix, "node_modules", ".bin", "domainapi-plan");
  if (!fs.existsSync(bin)) throw new StepError(`${PACKAGE}@${version} has no domainapi-plan command`);
  process.stdout.write(`domainapi-plan of ${PACKAGE}@${version} (${integrity}) in ${bin}\n`);
  output("domainapi-plan", bin);
  return 0;
});
