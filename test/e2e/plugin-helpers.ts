/**
 * Helpers of the provider plugin's end-to-end tests: a plain `pulumi` CLI run in a project
 * directory (no Automation API: the program's language host is a real one), with the plugin found
 * through `plugins.providers` in the project's Pulumi.yaml.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { engineEnv, linkPackage, repoRoot, workRoot } from "./harness";

const execFileAsync = promisify(execFile);

/** The plugin's entry point; the tests run the built package, as users do. */
export const pluginMain = path.join(repoRoot, "dist", "provider", "plugin", "main.js");

/** Fails with the fix when the package has not been built. */
export function requireBuiltPlugin(): void {
  if (!fs.existsSync(pluginMain)) throw new Error(`${pluginMain} is missing: run \`npm run build\` first`);
}

/** The bin directory of the YAML language host (built once and cached by scripts/ensure-pulumi-yaml.sh). */
export async function yamlLanguageHost(): Promise<string> {
  const { stdout } = await execFileAsync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi-yaml.sh")], {
    maxBuffer: 16 << 20,
  });
  return stdout.trim();
}

/**
 * A Pulumi YAML program named `name` that runs the provider plugin from the package installed in
 * (or linked into) the project's `node_modules`, as the README tells a YAML user to: the head every
 * plugin test shares (`plugins.providers`), then `body` (config, resources, outputs).
 */
export function yamlProgram(name: string, body: string): string {
  return `name: ${name}
runtime: yaml
plugins:
  providers:
    - name: domainapi
      path: ./node_modules/pulumi-domainapi
${body}`;
}

/**
 * A {@link yamlProgram} with one explicit provider, `account`, made from the stack config's
 * `baseUrl` and secret `apiKey`: `config` adds config entries after those two, `rest` follows the
 * provider (the resources that name `provider: ${account}`, then variables and outputs).
 */
export function accountProgram(name: string, parts: { config?: string; rest: string }): string {
  return yamlProgram(
    name,
    `config:
  baseUrl:
    type: string
  apiKey:
    type: string
    secret: true
${parts.config ?? ""}resources:
  account:
    type: pulumi:providers:domainapi
    properties:
      apiKey: \${apiKey}
      baseUrl: \${baseUrl}
${parts.rest}`,
  );
}

/** A project directory with the package linked in `node_modules/pulumi-domainapi`. */
export interface Project {
  dir: string;
  env: Record<string, string>;
  /** Runs `pulumi <args>` there; rejects with its output on failure. */
  pulumi(
    args: string[],
    input?: string,
    extraEnv?: Record<string, string>,
  ): Promise<{ stdout: string; stderr: string }>;
  /**
   * Sets the stack's config in one `pulumi config set-all` (a CLI start per value costs as much as
   * a small engine step): `plain` values as text, `secret` ones encrypted.
   */
  setConfig(values: { plain?: Record<string, string>; secret?: Record<string, string> }): Promise<void>;
  cleanup(): void;
}

/** How {@link createProject} sets a project up. */
export interface ProjectOptions {
  /** Link the package into the project's node_modules (default true); false: nothing installed there. */
  link?: boolean;
  /** Variables that replace the inherited ones (PATH without Node, a PULUMI_HOME of its own). */
  env?: Record<string, string>;
  /**
   * An existing directory to write the files into (a program with its own install) instead of a
   * fresh one; clean-up then leaves it, removing only the state backend.
   */
  dir?: string;
}

/**
 * Copies `files` (name -> text) into a fresh project directory and links the package there.
 *
 * @param extraPath directories to put first on PATH (a language host)
 */
export function createProject(
  files: Record<string, string>,
  extraPath: string[] = [],
  options: ProjectOptions = {},
): Project {
  const dir = options.dir ?? fs.mkdtempSync(path.join(workRoot, "plugin-"));
  const backend = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plugin-state-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  if (options.link !== false) linkPackage(dir);
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...engineEnv(backend),
    PATH: [...extraPath, process.env.PATH ?? ""].join(path.delimiter),
    ...options.env,
  };
  // Settings for the default provider must not leak in from the developer's shell.
  for (const key of Object.keys(env)) if (key.startsWith("DOMAINAPI_")) delete env[key];
  const project: Project = {
    dir,
    env,
    async pulumi(args, input, extraEnv = {}) {
      const child = execFileAsync("pulumi", [...args, "--non-interactive"], {
        cwd: dir,
        env: { ...env, ...extraEnv },
        maxBuffer: 64 << 20,
      });
      if (input !== undefined) {
        child.child.stdin?.end(input);
      }
      try {
        const { stdout, stderr } = await child;
        return { stdout, stderr };
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`pulumi ${args.join(" ")} failed:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
      }
    },
    async setConfig({ plain = {}, secret = {} }) {
      const pairs = (flag: string, values: Record<string, string>) =>
        Object.entries(values).flatMap(([key, value]) => [flag, `${key}=${value}`]);
      await project.pulumi([
        "config",
        "set-all",
        ...pairs("--plaintext", plain),
        ...pairs("--secret", secret),
      ]);
    },
    cleanup() {
      if (options.dir === undefined) fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(backend, { recursive: true, force: true });
    },
  };
  return project;
}
