/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` into a fresh program
 * directory outside the repository, then `pulumi up` and `destroy` of a program there against the
 * sandbox. Catches files missing from the tarball, broken `exports`, and a serialized provider that
 * only works inside this checkout. Also pins what the tarball holds.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../sandbox";
import { engineEnv, repoRoot, type StateResource, typeToken } from "./harness";
import { type RunResult, removeRunDirs, runProgramDir } from "./program-runner";
import { API_KEY } from "./records-helpers";

const execFileAsync = promisify(execFile);
const INSTALL_TIMEOUT_MS = 240_000;

interface PackResult {
  filename: string;
  files: Array<{ path: string }>;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await execFileAsync("npm", args, {
    cwd,
    env: { ...process.env, npm_config_update_notifier: "false" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: INSTALL_TIMEOUT_MS,
  });
  return stdout;
}

/** `npm pack --json` prints JSON after whatever lifecycle output; take the array. */
function packJson(stdout: string): PackResult {
  const [result] = JSON.parse(stdout.slice(stdout.indexOf("["))) as PackResult[];
  if (!result) throw new Error(`npm pack printed no result: ${stdout}`);
  return result;
}

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { DnsTemplateRecords, DomainRestore, getContactsOutput } from "pulumi-domainapi";
import type { DnsRecordArgs } from "pulumi-domainapi";

const records: DnsRecordArgs[] = [
  { name: "@", type: "A", content: "192.0.2.44" },
  { name: "@", type: "MX", content: "mx.example.net", priority: 10 },
  { name: "www", type: "CNAME", content: "{domainname}." },
];
const web = new DnsTemplateRecords("web", { templateId: new pulumi.Config().get("templateId") ?? "tpl-4", records });
const restored = new DomainRestore("restore", { domain: "old.example" });
const contacts = getContactsOutput({ country: "DE", perPage: 10 });

export const recordIds = web.recordIds;
export const restoredDomain = restored.domain;
export const contactsFound = contacts.total;
export const loadedFrom = import.meta.resolve("pulumi-domainapi");
`;

describe("the packed package", () => {
  let scratch: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-consumer-"));
    sandbox = await startSandbox({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await sandbox?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("holds only what a user needs: the built provider and sandbox, README, CHANGELOG", async () => {
    const { files } = packJson(await npm(["pack", "--dry-run", "--json"], repoRoot));
    const paths = files.map((f) => f.path).sort();
    const allowed =
      /^(dist\/(provider|sandbox)\/.+\.(js|d\.ts)|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/;
    expect(paths.filter((p) => !allowed.test(p))).toEqual([]);
    for (const needed of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/provider/impl.js",
      "dist/provider/testing.js",
      "dist/sandbox/index.js",
      "dist/sandbox/cli.js",
    ]) {
      expect(paths).toContain(needed);
    }
    // Every file the package's exports and bin point at is in the tarball.
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    const targets = [
      ...Object.values(pkg.exports as Record<string, string | Record<string, string>>).flatMap((e) =>
        typeof e === "string" ? [e] : Object.values(e),
      ),
      ...Object.values(pkg.bin as Record<string, string>),
    ].map((t) => t.replace(/^\.\//, ""));
    expect(targets.filter((t) => !paths.includes(t))).toEqual([]);
  });

  it(
    "installs from its tarball into a program outside the repo, and that program runs up and destroy",
    async () => {
      const { filename } = packJson(await npm(["pack", "--json", "--pack-destination", scratch], repoRoot));
      const tarball = path.join(scratch, filename);
      const program = path.join(scratch, "program");
      fs.mkdirSync(program);
      fs.writeFileSync(
        path.join(program, "package.json"),
        `${JSON.stringify({ name: "consumer-program", version: "0.0.0", private: true }, null, 2)}\n`,
      );
      fs.writeFileSync(
        path.join(program, "Pulumi.yaml"),
        "name: consumer-program\nruntime: nodejs\nmain: index.ts\n",
      );
      fs.writeFileSync(path.join(program, "index.ts"), PROGRAM);
      await npm(["install", tarball, "--no-audit", "--no-fund", "--prefer-offline"], program);
      const installed = path.join(program, "node_modules", "pulumi-domainapi");
      expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(fs.existsSync(path.join(program, "node_modules", "@pulumi", "pulumi", "package.json"))).toBe(
        true,
      );
      expect(fs.existsSync(path.join(program, "node_modules", ".bin", "domainapi-sandbox"))).toBe(true);

      let up: RunResult | undefined;
      try {
        up = await runProgramDir(program, { sandbox: { url: sandbox.url, apiKey: API_KEY } });
        expect(up.summary?.result).toBe("succeeded");
        expect(up.outputs.loadedFrom).toBe(
          pathToFileURL(path.join(installed, "dist", "provider", "index.js")).href,
        );
        const held = sandbox.templateRecords("tpl-4") ?? [];
        expect(held.map((r) => `${r.name} ${r.type} ${r.content}`).sort()).toEqual([
          "@ A 192.0.2.44",
          "@ MX mx.example.net",
          "www CNAME {domainname}.",
        ]);
        expect([...(up.outputs.recordIds as string[])].sort()).toEqual(held.map((r) => r.record_id).sort());
        expect(up.outputs.restoredDomain).toBe("old.example");
        expect(sandbox.domainStatus("old.example")).toBe("active");
        expect(up.outputs.contactsFound).toBe(
          sandbox.state.contacts.filter((c) => c.country === "DE").length,
        );

        // The stored provider loads the package by name: no absolute path, no key.
        const { stdout } = await execFileAsync("pulumi", ["stack", "export", "--cwd", up.workDir], {
          env: {
            ...process.env,
            ...engineEnv(up.backendDir),
            PULUMI_CONFIG_PASSPHRASE: up.passphrase,
          },
          maxBuffer: 64 * 1024 * 1024,
        });
        const resources = (JSON.parse(stdout).deployment.resources ?? []) as StateResource[];
        const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
        expect(dynamic.map((r) => r.type).sort()).toEqual([
          typeToken("DnsTemplateRecords"),
          typeToken("DomainRestore"),
        ]);
        for (const resource of dynamic) {
          const provider = String(resource.inputs?.__provider ?? "");
          expect(provider).toContain('require("pulumi-domainapi/impl")');
          for (const place of [scratch, repoRoot, os.tmpdir(), os.homedir()])
            expect(provider).not.toContain(place);
          expect(provider).not.toMatch(/["'`]\/(?:[\w.-]+\/)+/);
        }
        expect(stdout).not.toContain(API_KEY);

        const down = await runProgramDir(program, { op: "destroy", after: up });
        expect(down.destroySummary?.result).toBe("succeeded");
        expect(sandbox.templateRecords("tpl-4")).toEqual([]);
      } finally {
        removeRunDirs(up);
      }
    },
    INSTALL_TIMEOUT_MS + 180_000,
  );
});
