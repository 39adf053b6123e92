/**
 * The release binary under the real engine, as a team without Node has it: the linux-amd64
 * tarball of `npm run dist` installed with `pulumi plugin install resource domainapi <version>
 * --file <tarball>` into a fresh PULUMI_HOME, no Node on PATH, nothing installed in the program's
 * directory. The same stories as the npm-launched plugin (plugin-stories.ts): the YAML program
 * with two explicit providers, and the Go program; and `pulumi package get-schema domainapi`
 * prints the schema with its version and where the release is downloaded from.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledPlugin, installPluginBinary } from "../../scripts/lib/plugin-install.ts";
import { repoRoot } from "./harness";
import { createProject } from "./plugin-helpers";
import { describeGoTwoAccounts, describeYamlTwoAccounts } from "./plugin-stories";

const execFileAsync = promisify(execFile);

/** Every installation in this file, removed at the end. */
const installed: InstalledPlugin[] = [];
afterAll(() => {
  for (const plugin of installed) plugin.cleanup();
});

async function install(tools: string[] = []): Promise<InstalledPlugin> {
  const plugin = await installPluginBinary(repoRoot, tools);
  installed.push(plugin);
  return plugin;
}

describe("the installed plugin binary", () => {
  let plugin: InstalledPlugin;
  beforeAll(async () => {
    plugin = await install();
  }, 120_000);

  it("is where `pulumi plugin install` puts it, and its schema carries its version and download URL", async () => {
    const { stdout: list } = await execFileAsync("pulumi", ["plugin", "ls", "--json"], {
      env: { ...process.env, ...plugin.env },
    });
    expect(JSON.parse(list)).toContainEqual(
      expect.objectContaining({ name: "domainapi", kind: "resource", version: plugin.version }),
    );
    const { stdout } = await execFileAsync("pulumi", ["package", "get-schema", "domainapi"], {
      env: { ...process.env, ...plugin.env },
      maxBuffer: 16 << 20,
    });
    const schema = JSON.parse(stdout) as { name: string; version?: string; pluginDownloadURL?: string };
    expect(schema.name).toBe("domainapi");
    expect(schema.version).toBe(plugin.version);
    expect(schema.pluginDownloadURL).toMatch(/^(https?|github|gitlab):\/\/\S+$/);
  });
});

describeYamlTwoAccounts("the plugin binary from a YAML program, no Node anywhere", {
  async project(program, yamlBin) {
    const plugin = await install([path.join(yamlBin, "pulumi-language-yaml")]);
    // The program as a user of the binary writes it: no `plugins.providers` entry, no node_modules.
    const withoutPluginPath = program.replace(/^plugins:\n(?:[ #].*\n)+/m, "");
    expect(withoutPluginPath).not.toContain("node_modules");
    const project = createProject({ "Pulumi.yaml": withoutPluginPath }, [], { link: false, env: plugin.env });
    expect(fs.readdirSync(project.dir)).toEqual(["Pulumi.yaml"]);
    return project;
  },
});

describeGoTwoAccounts("the plugin binary from a Go program, no Node anywhere", {
  async prepare(workDir) {
    const plugin = await install();
    expect(fs.readdirSync(workDir)).toEqual([]);
    return { ...plugin.env, PLUGIN_DIR: "" };
  },
});
