/**
 * The package as a user gets it, installed the three ways the README names into fresh program
 * directories outside the repository, then create, a change and destroy of each program against the
 * sandbox under the real engine:
 *
 * - from the registry: `npm publish` uploads exactly the tarball `npm pack` makes (checked without
 *   publishing), so the tarball installs below stand for `npm install pulumi-domainapi`;
 * - from a tarball: one `npm pack`, then `npm install <tarball> @pulumi/pulumi`;
 * - from a git URL: `npm install git+file://<clone>#<commit>` of a temporary clone of this
 *   repository at HEAD; npm installs the clone's devDependencies and runs its `prepare` (the build),
 *   as it does for every git dependency.
 *
 * Three programs:
 *
 * - TypeScript with the newest `@pulumi/pulumi` the registry serves (what the README's install line
 *   gives a new program), from the tarball;
 * - TypeScript with the oldest `@pulumi/pulumi` the package supports (the floor of its peer range),
 *   also type-checked against that SDK's types, from the tarball;
 * - JavaScript in ESM (`"type": "module"`), named imports from the package, from the git URL.
 *
 * On each end of the SDK range (the two TypeScript programs' installs), the npm path of the provider
 * plugin too: a YAML program (`plugins.providers` naming the installed package) run by a plain
 * `pulumi up` through the real YAML language host: an explicit provider, a template created, contacts
 * looked up, everything destroyed. The plugin serves its gRPC service with the generated stubs of
 * whichever SDK is installed, so it must behave the same on both; and the plugin resolves the
 * program's one copy of the SDK, of grpc-js and of google-protobuf (two copies of the protobuf
 * runtime would mix message classes). It runs in the programs' own installs: one install per SDK.
 *
 * And a program made as the README's first screen makes it: `pulumi new` from the template
 * (templates/domainapi-typescript), the package installed, `up` and `destroy` against the sandbox.
 *
 * Each asserts a single copy of the SDK in the program: two copies mean two runtimes, and resources
 * registered through the package's copy would not belong to the program's stack. Also catches files
 * missing from the tarball, broken `exports`, and a serialized provider that only works inside this
 * checkout, and pins what the tarball holds. The sandbox is its own package (`domainapi-sandbox`):
 * the provider's tarball holds none of it, and the one program that adds the sandbox's own tarball
 * gets its command and its API from there.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, type PackResult, packCheckout, packJson } from "../../scripts/lib/pack.ts";
import { engineEnv, repoRoot, type StateResource, typeToken, useSandbox } from "./harness";
import { accountProgram, createProject, yamlLanguageHost } from "./plugin-helpers";
import { type RunResult, removeRunDirs, runProgramDir } from "./program-runner";
import { API_KEY } from "./records-helpers";

const execFileAsync = promisify(execFile);
const INSTALL_TIMEOUT_MS = 240_000;

async function git(args: string[], cwd: string): Promise<string> {
  const { stdout } = await execFileAsync("git", args, { cwd, timeout: INSTALL_TIMEOUT_MS });
  return stdout.trim();
}

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  peerDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};

/** The oldest supported SDK: the floor of the package's `@pulumi/pulumi` range (`^3.139.0`). */
const OLDEST_SDK = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies?.["@pulumi/pulumi"] ?? "")?.[1];

/** A program of the test: where it lives and what it manages. */
interface Consumer {
  /** What the program is, for test names. */
  label: string;
  /** Installs the oldest supported SDK rather than the newest, and type-checks the program with it. */
  oldest: boolean;
  esm: boolean;
  /** Where npm installs the package from. */
  source: "tarball" | "git";
  templateId: string;
  domain: string;
  /** Also installs the sandbox's tarball, as a user who tests against it does. */
  withSandbox: boolean;
  /** Also runs the provider plugin's YAML program in the install (the npm path on the SDK range). */
  pluginOnSdk: boolean;
}

/** The `pulumi new` template of a program, and the template id its program manages by default. */
const TEMPLATE_DIR = path.join(repoRoot, "templates", "domainapi-typescript");
const TEMPLATE_PROGRAM_TEMPLATE_ID = "web";

const CONSUMERS: Consumer[] = [
  {
    label: "TypeScript, newest @pulumi/pulumi",
    oldest: false,
    esm: false,
    source: "tarball",
    templateId: "tpl-new",
    domain: "new.example",
    withSandbox: true,
    pluginOnSdk: true,
  },
  {
    label: `TypeScript, oldest supported @pulumi/pulumi (${OLDEST_SDK})`,
    oldest: true,
    esm: false,
    source: "tarball",
    templateId: "tpl-old",
    domain: "old.example",
    withSandbox: false,
    pluginOnSdk: true,
  },
  {
    label: 'JavaScript in ESM ("type": "module"), newest @pulumi/pulumi, installed from a git URL',
    oldest: false,
    esm: true,
    source: "git",
    templateId: "tpl-esm",
    domain: "esm.example",
    withSandbox: false,
    pluginOnSdk: false,
  },
];

/**
 * The program's source. Run with CONSUMER_STEP=change, it changes one record and adds one: the
 * engine must plan an update of that resource alone.
 */
function programSource(c: Consumer): string {
  // The same program in both languages; TypeScript adds the package's types.
  const typed = (name: string) => (c.esm ? name : `${name}: DnsRecordArgs[]`);
  return `import * as pulumi from "@pulumi/pulumi";
import { DnsTemplateRecords, DomainRestore, getContactsOutput } from "pulumi-domainapi";
${c.esm ? "" : 'import type { DnsRecordArgs } from "pulumi-domainapi";\n'}
const change = process.env.CONSUMER_STEP === "change";
const ${typed("added")} = change ? [{ name: "@", type: "TXT", content: "v=spf1 mx -all" }] : [];
const ${typed("records")} = [
  { name: "@", type: "A", content: change ? "192.0.2.45" : "192.0.2.44" },
  { name: "@", type: "MX", content: "mx.example.net", priority: 10 },
  { name: "www", type: "CNAME", content: "{domainname}." },
  ...added,
];
const web = new DnsTemplateRecords("web", { templateId: new pulumi.Config().get("templateId") ?? "${c.templateId}", records });
const restored = new DomainRestore("restore", { domain: "${c.domain}" });
const contacts = getContactsOutput({ country: "DE", perPage: 10 });

export const recordIds = web.recordIds;
export const restoredDomain = restored.domain;
export const contactsFound = contacts.total;
export const loadedFrom = import.meta.resolve("pulumi-domainapi");
`;
}

/** Writes the program's files into `dir`. */
function writeProgram(dir: string, c: Consumer): void {
  fs.mkdirSync(dir);
  const entry = c.esm ? "index.js" : "index.ts";
  const manifest = {
    name: "consumer-program",
    version: "0.0.0",
    private: true,
    ...(c.esm && { type: "module" }),
  };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: consumer-program\nruntime: nodejs\nmain: ${entry}\n`,
  );
  fs.writeFileSync(path.join(dir, entry), programSource(c));
}

/** Every place `@pulumi/pulumi` is installed in the program (a deduped use is no extra copy). */
async function sdkCopies(program: string): Promise<string[]> {
  const out = await npm(["ls", "@pulumi/pulumi", "--all", "--parseable"], program);
  return [...new Set(out.split("\n").filter((line) => line.trim() !== ""))];
}

/** The newest `@pulumi/pulumi` the registry serves. */
async function newestSdk(cwd: string): Promise<string> {
  return (await npm(["view", "@pulumi/pulumi", "version"], cwd)).trim();
}

/** The real path `require(name)` loads from `dir`. */
function resolvedFrom(dir: string, name: string): string {
  return fs.realpathSync(require.resolve(name, { paths: [dir] }));
}

const PLUGIN_KEY = "sdk-range-key-7a3e";

/** The YAML program of the plugin's npm path: an explicit provider, a template, a contacts lookup. */
const PLUGIN_PROGRAM = accountProgram("domainapi-sdk-range", {
  rest: `  web:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: web
      records:
        - { name: www, type: A, content: 192.0.2.7 }
    options:
      provider: \${account}
variables:
  contacts:
    fn::invoke:
      function: domainapi:index:getContacts
      arguments:
        limit: 2
      options:
        provider: \${account}
outputs:
  contactsTotal: \${contacts.total}
`,
});

/**
 * The npm path of the provider plugin on the SDK installed in `program` (see the module comment):
 * the plugin loads the program's one SDK, grpc-js and google-protobuf, and a YAML program run by a
 * plain `pulumi up` through it creates, looks up and destroys, on a sandbox of its own. Replaces
 * the program's Pulumi.yaml: run it after the program's own runs.
 */
async function expectPluginOnSdk(program: string): Promise<void> {
  const plugin = path.join(program, "node_modules", "pulumi-domainapi");
  for (const name of ["@pulumi/pulumi", "@grpc/grpc-js", "google-protobuf/google/protobuf/struct_pb"])
    expect(resolvedFrom(plugin, name), name).toBe(
      resolvedFrom(path.join(program, "node_modules", "@pulumi", "pulumi"), name),
    );

  const yamlBin = await yamlLanguageHost();
  const own = await startSandbox({ apiKey: PLUGIN_KEY, contacts: 5 });
  // The program's own install: nothing linked over it, and the directory stays after clean-up.
  const project = createProject({ "Pulumi.yaml": PLUGIN_PROGRAM }, [yamlBin], { dir: program, link: false });
  const pulumi = async (...args: string[]) => (await project.pulumi(args)).stdout;
  try {
    await pulumi("stack", "init", "dev");
    await project.setConfig({ plain: { baseUrl: own.url }, secret: { apiKey: PLUGIN_KEY } });
    await pulumi("up", "--yes");
    expect(own.templateRecords("web")?.map((r) => r.content)).toEqual(["192.0.2.7"]);
    const outputs = JSON.parse(await pulumi("stack", "output", "--json")) as { contactsTotal?: number };
    expect(outputs.contactsTotal).toBe(5);
    await pulumi("destroy", "--yes");
    expect(own.templateRecords("web")).toEqual([]);
  } finally {
    project.cleanup();
    await own.close();
  }
}

/** `a >= b` for x.y.z versions. */
function versionAtLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) {
    const d = (x?.[i] ?? 0) - (y?.[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

function recordLines(sandbox: Sandbox, templateId: string): string[] {
  return (sandbox.templateRecords(templateId) ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
}

describe("the packed package", () => {
  let scratch: string;
  const sandbox = useSandbox({
    apiKey: API_KEY,
    seed: {
      templates: Object.fromEntries([
        ...CONSUMERS.map((c) => [c.templateId, []]),
        [TEMPLATE_PROGRAM_TEMPLATE_ID, []],
      ]),
      domains: Object.fromEntries(CONSUMERS.map((c) => [c.domain, "quarantined" as const])),
    },
  });
  let tarball: Promise<string>;
  let gitUrl: Promise<string>;
  let sandboxTarball: Promise<string>;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-consumer-"));
    // One tarball for every program; started here, awaited by the tests that need it. The suite
    // has built dist/ already; `--ignore-scripts` keeps `prepare` from rebuilding it under the
    // feet of tests running beside this one.
    tarball = packCheckout(scratch).then((packed) => packed.tarball);
    tarball.catch(() => undefined);
    // A clone of HEAD (what a push publishes: uncommitted changes are not in it), named by commit.
    const clone = path.join(scratch, "clone");
    gitUrl = (async () => {
      const commit = await git(["rev-parse", "HEAD"], repoRoot);
      // Shallow: the whole history (each committed mutation report) took minutes to pack on a loaded runner.
      await git(
        ["clone", "--quiet", "--no-checkout", "--depth", "1", pathToFileURL(repoRoot).href, clone],
        scratch,
      );
      await git(["checkout", "--quiet", commit], clone);
      return `git+${pathToFileURL(clone).href}#${commit}`;
    })();
    gitUrl.catch(() => undefined);
    // After the provider's: packing may build, and two builds must not overlap.
    sandboxTarball = tarball
      .catch(() => undefined)
      .then(() => packCheckout(scratch, { workspace: "domainapi-sandbox", ignoreScripts: false }))
      .then((packed) => packed.tarball);
    sandboxTarball.catch(() => undefined);
  });
  afterAll(async () => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("holds only what a user needs: the built provider, README, the docs it links, CHANGELOG; no sandbox", async () => {
    const { files } = packJson(await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], repoRoot));
    const paths = files.map((f) => f.path).sort();
    // The provider plugin's launcher and schema ride along: every language's programs use them.
    const allowed =
      /^(dist\/provider\/.+\.(js|d\.ts)|dist\/provider\/plugin\/schema\.json|pulumi-resource-domainapi|docs\/[\w-]+\.md|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/;
    // The sandbox (server, admin API, faults, personalities) is its own package.
    expect(paths.filter((p) => /^dist\/.*(sandbox|admin|fault|personalit)/i.test(p))).toEqual([]);
    expect(paths.filter((p) => !allowed.test(p))).toEqual([]);
    // Only production code: no test fixture, engine floor or benchmark rides along.
    expect(paths.filter((p) => /testing|floor|bench|fixture|\.test\./.test(p))).toEqual([]);
    for (const needed of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "docs/behaviour.md",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/provider/dynamic/impl.js",
      "dist/provider/cli/plan.js",
    ]) {
      expect(paths).toContain(needed);
    }
    // Every file the package's exports and bin point at is in the tarball.
    const targets = [
      ...Object.values(pkg.exports).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e))),
      ...Object.values(pkg.bin),
    ].map((t) => t.replace(/^\.\//, ""));
    expect(targets.filter((t) => !paths.includes(t))).toEqual([]);
    // No shipped file points at a source map (or a declaration map) that is not shipped.
    const dangling = paths.flatMap((p) => {
      if (!/\.(js|d\.ts)$/.test(p)) return [];
      const text = fs.readFileSync(path.join(repoRoot, p), "utf8");
      const map = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
      if (map === undefined || map.startsWith("data:")) return [];
      const target = path.posix.join(path.posix.dirname(p), map);
      return paths.includes(target) ? [] : [`${p} -> ${target}`];
    });
    expect(dangling).toEqual([]);
  });

  it("publishes to the registry exactly the tarball that the programs below install", async () => {
    const packed = packJson(await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], repoRoot));
    const published = Object.values(
      JSON.parse(
        (await npm(["publish", "--dry-run", "--json", "--ignore-scripts"], repoRoot)).replace(/^[^{]*/, ""),
      ) as Record<string, PackResult>,
    )[0];
    expect(published?.files.map((f) => f.path).sort()).toEqual(packed.files.map((f) => f.path).sort());
    expect(published?.integrity).toBe(packed.integrity);
  });

  it(
    "`pulumi new` from the template, the package installed, then up and destroy against the sandbox",
    async () => {
      const program = path.join(scratch, "from-template");
      // `--generate-only`: no stack, no config saved, no `npm install` (offline here, and the
      // package is installed from the tarball below, as it is not on the registry yet).
      const made = await execFileAsync(
        "pulumi",
        ["new", TEMPLATE_DIR, "--generate-only", "--yes", "--name", "my-dns", "--dir", program],
        { env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" }, timeout: 60_000 },
      ).then(
        () => "",
        (err: { stderr?: string }) => err.stderr ?? String(err),
      );
      // Having written the project, `pulumi new` asks the Node.js language host for the language's
      // own templating; where that host is not installed (as on the machine of these tests, whose
      // programs run as Automation API inline programs), that last step alone fails.
      if (made !== "") expect(made).toMatch(/no language plugin 'pulumi-language-nodejs' found/);

      const project = fs.readFileSync(path.join(program, "Pulumi.yaml"), "utf8");
      expect(project).toMatch(/^name: my-dns$/m);
      expect(project).toMatch(/^runtime:\n {2}name: nodejs$/m);
      expect(project).not.toMatch(/^template:/m);
      const manifest = JSON.parse(fs.readFileSync(path.join(program, "package.json"), "utf8")) as {
        name: string;
        dependencies: Record<string, string>;
      };
      expect(manifest.name).toBe("my-dns");
      // The template asks for this version of the package and the SDK range the package takes.
      expect(manifest.dependencies).toEqual({
        "@pulumi/pulumi": pkg.peerDependencies?.["@pulumi/pulumi"],
        "pulumi-domainapi": `^${pkg.version}`,
      });
      // The config `pulumi new` prompts for: the provider's two settings and the program's one.
      const template = fs.readFileSync(path.join(TEMPLATE_DIR, "Pulumi.yaml"), "utf8");
      const configKeys = [...template.matchAll(/^ {4}(\S+):$/gm)].map((m) => m[1]);
      expect(configKeys).toEqual(["domainapi:baseUrl", "domainapi:apiKey", "templateId"]);
      expect(template).toMatch(/domainapi:apiKey:\n(?: {6}.*\n)* {6}secret: true/);
      expect(fs.readFileSync(path.join(program, "index.ts"), "utf8")).toContain('config.get("templateId")');

      await npm(
        ["install", await tarball, "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"],
        program,
      );
      let run: RunResult | undefined;
      try {
        run = await runProgramDir(program, {
          op: "up+destroy",
          sandbox: { url: sandbox.url, apiKey: API_KEY },
        });
        expect(run.summary?.result).toBe("succeeded");
        expect(run.destroySummary?.result).toBe("succeeded");
        const declared = (
          run.outputs.templateRecords as Array<{ name: string; type: string; recordId: string }>
        )
          .map((r) => `${r.name} ${r.type}`)
          .sort();
        expect(declared).toEqual(["@ A", "@ MX", "@ TXT", "www CNAME"]);
        const puts = sandbox.requests.filter(
          (r) => r.method === "PUT" && r.path === `/v2/dns/templates/${TEMPLATE_PROGRAM_TEMPLATE_ID}/records`,
        );
        expect(puts).toHaveLength(1);
        expect(sandbox.templateRecords(TEMPLATE_PROGRAM_TEMPLATE_ID)).toEqual([]);
      } finally {
        removeRunDirs(run);
      }
    },
    INSTALL_TIMEOUT_MS + 240_000,
  );

  it("the sandbox's own tarball holds its command, its built code and its README, nothing else", async () => {
    const { files } = packJson(
      await npm(["pack", "--dry-run", "--json", "--workspace", "domainapi-sandbox"], repoRoot),
    );
    const paths = files.map((f) => f.path).sort();
    expect(
      paths.filter(
        (p) =>
          !/^(dist\/.+\.(js|d\.ts)|bin\/domainapi-sandbox\.js|README\.md|LICENSE|package\.json)$/.test(p),
      ),
    ).toEqual([]);
    for (const needed of [
      "bin/domainapi-sandbox.js",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli.js",
      "README.md",
      "LICENSE",
    ]) {
      expect(paths).toContain(needed);
    }
  });

  it("asks for @pulumi/pulumi as a peer range, so that a program keeps one SDK", () => {
    expect(pkg.dependencies?.["@pulumi/pulumi"]).toBeUndefined();
    expect(OLDEST_SDK).toMatch(/^3\.\d+\.\d+$/);
  });

  it("refuses to install next to an SDK older than its range: npm fails (ERESOLVE) instead of nesting a second copy", async () => {
    const program = path.join(scratch, "too-old");
    fs.mkdirSync(program);
    fs.writeFileSync(
      path.join(program, "package.json"),
      '{ "name": "too-old", "version": "0.0.0", "private": true }\n',
    );
    const install = npm(
      [
        "install",
        await tarball,
        `@pulumi/pulumi@<${OLDEST_SDK}`,
        "--dry-run",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
      ],
      program,
    );
    await expect(install).rejects.toThrow(/ERESOLVE[\s\S]*peer @pulumi\/pulumi@"\^/);
  });

  // The programs are independent (own directory, template and domain; each engine run is a child
  // process), so they run at once: most of their time is npm and the engine waiting.
  describe.concurrent("installed from its tarball or a git URL into a program outside the repo", () => {
    for (const consumer of CONSUMERS) {
      it(
        `${consumer.label}: one SDK copy; create, change and destroy run`,
        async () => {
          const program = path.join(scratch, consumer.templateId);
          writeProgram(program, consumer);
          // The plugin's check on the SDK range names the newest version, as the registry serves it
          // now (an install by name alone may take an older one from npm's cache).
          const newest = consumer.pluginOnSdk && !consumer.oldest ? await newestSdk(scratch) : undefined;
          await npm(
            [
              "install",
              consumer.source === "git" ? await gitUrl : await tarball,
              ...(consumer.withSandbox ? [await sandboxTarball] : []),
              consumer.oldest
                ? `@pulumi/pulumi@${OLDEST_SDK}`
                : newest !== undefined
                  ? `@pulumi/pulumi@${newest}`
                  : "@pulumi/pulumi",
              "--no-audit",
              "--no-fund",
              "--prefer-offline",
            ],
            program,
          );
          const installed = path.join(program, "node_modules", "pulumi-domainapi");
          expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
          // Built by the clone's `prepare`, or taken from the tarball: the entry points are there.
          expect(fs.existsSync(path.join(installed, "dist", "provider", "index.js"))).toBe(true);
          expect(fs.existsSync(path.join(installed, "dist", "provider", "dynamic", "impl.js"))).toBe(true);
          // The sandbox comes only with its own package: its command, its README, its API by name.
          const sandboxBin = path.join(program, "node_modules", ".bin", "domainapi-sandbox");
          expect(fs.existsSync(sandboxBin)).toBe(consumer.withSandbox);
          expect(fs.existsSync(path.join(program, "node_modules", "domainapi-sandbox"))).toBe(
            consumer.withSandbox,
          );
          if (consumer.withSandbox) {
            const help = await execFileAsync(sandboxBin, ["--help"], { cwd: program });
            expect(help.stdout).toContain("Usage: domainapi-sandbox --api-key KEY");
            expect(fs.existsSync(path.join(program, "node_modules", "domainapi-sandbox", "README.md"))).toBe(
              true,
            );
            const api = await execFileAsync(
              process.execPath,
              ["-e", 'process.stdout.write(typeof require("domainapi-sandbox").startSandbox)'],
              { cwd: program },
            );
            expect(api.stdout).toBe("function");
          }

          // One SDK: the program's own, which the package uses too.
          const sdkDir = path.join(program, "node_modules", "@pulumi", "pulumi");
          expect(await sdkCopies(program)).toEqual([sdkDir]);
          const sdkVersion = (
            JSON.parse(fs.readFileSync(path.join(sdkDir, "package.json"), "utf8")) as { version: string }
          ).version;
          if (consumer.oldest) expect(sdkVersion).toBe(OLDEST_SDK);
          else expect(versionAtLeast(sdkVersion, OLDEST_SDK ?? "")).toBe(true);
          if (newest !== undefined) expect(sdkVersion).toBe(newest);

          if (consumer.oldest) {
            // The package's declarations type-check against the oldest SDK's (no skipLibCheck).
            fs.writeFileSync(
              path.join(program, "tsconfig.json"),
              JSON.stringify({
                compilerOptions: {
                  strict: true,
                  noEmit: true,
                  target: "es2022",
                  module: "esnext",
                  moduleResolution: "bundler",
                  skipLibCheck: false,
                  types: ["node"],
                },
                files: ["index.ts"],
              }),
            );
            await execFileAsync(process.execPath, [
              path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
              "-p",
              program,
            ]);
          }

          let up: RunResult | undefined;
          try {
            up = await runProgramDir(program, { sandbox: { url: sandbox.url, apiKey: API_KEY } });
            expect(up.summary?.result).toBe("succeeded");
            expect(up.outputs.loadedFrom).toBe(
              pathToFileURL(path.join(installed, "dist", "provider", "index.js")).href,
            );
            expect(recordLines(sandbox, consumer.templateId)).toEqual([
              "@ A 192.0.2.44",
              "@ MX mx.example.net",
              "www CNAME {domainname}.",
            ]);
            const created = sandbox.templateRecords(consumer.templateId) ?? [];
            expect([...(up.outputs.recordIds as string[])].sort()).toEqual(
              created.map((r) => r.record_id).sort(),
            );
            expect(up.outputs.restoredDomain).toBe(consumer.domain);
            expect(sandbox.domainStatus(consumer.domain)).toBe("active");
            expect(up.outputs.contactsFound).toBe(
              sandbox.state.contacts.filter((c) => c.country === "DE").length,
            );
            await expectPortableState(up);

            // A change: one record changed, one added; the other resources stay as they are.
            const changed = await runProgramDir(program, { after: up, env: { CONSUMER_STEP: "change" } });
            expect(changed.summary?.result).toBe("succeeded");
            expect(changed.summary?.resourceChanges).toEqual({ same: 2, update: 1 });
            expect(recordLines(sandbox, consumer.templateId)).toEqual([
              "@ A 192.0.2.45",
              "@ MX mx.example.net",
              "@ TXT v=spf1 mx -all",
              "www CNAME {domainname}.",
            ]);
            const unchangedIds = created.filter((r) => r.type !== "A").map((r) => r.record_id);
            expect(changed.outputs.recordIds).toEqual(expect.arrayContaining(unchangedIds));

            const down = await runProgramDir(program, { op: "destroy", after: up });
            expect(down.destroySummary?.result).toBe("succeeded");
            expect(sandbox.templateRecords(consumer.templateId)).toEqual([]);
          } finally {
            removeRunDirs(up);
          }
          if (consumer.pluginOnSdk) await expectPluginOnSdk(program);
        },
        INSTALL_TIMEOUT_MS + 240_000,
      );
    }
  });

  /**
   * The stored provider loads the package by name: no absolute path, no key. Installed in a
   * program's `node_modules`, each provider is the exports of a module of its own, stored as a
   * `require` of it by its exported name: a few hundred bytes, not its functions' text.
   */
  async function expectPortableState(up: RunResult): Promise<void> {
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
      expect(provider).toMatch(/require\("pulumi-domainapi\/dynamic\/(records|restore)"\)/);
      expect(provider.length).toBeLessThan(512);
      expect(resource.outputs?.__provider).toBe(provider);
      for (const place of [scratch, repoRoot, os.tmpdir(), os.homedir()])
        expect(provider).not.toContain(place);
      expect(provider).not.toMatch(/["'`]\/(?:[\w.-]+\/)+/);
    }
    expect(stdout).not.toContain(API_KEY);
  }
});
