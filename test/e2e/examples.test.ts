/**
 * Every example under examples/ (and the root Pulumi.yaml, which is the quickstart) runs against
 * the sandbox under the real engine, through the same runner as `npm run demo`, so none can rot:
 * each one's `up` must leave the sandbox holding what it declares, and its `destroy` must undo it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { promisify } from "node:util";
import { FORWARD_SERVER } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { linkPackage, repoRoot, useSandbox } from "./harness";
import { type RunResult, removeRunDirs, runProgramDir } from "./program-runner";
import { API_KEY, type DesiredRecord, sortRecords } from "./records-helpers";

const execFileAsync = promisify(execFile);
const examplesDir = path.join(repoRoot, "examples");
const EXAMPLES = ["quickstart", "templates-from-config", "contacts-lookup", "ci"];
const yaml = createRequire(path.join(repoRoot, "package.json"))("js-yaml") as { load(text: string): unknown };

function readYaml<T>(file: string): T {
  return yaml.load(fs.readFileSync(file, "utf8")) as T;
}

interface ExportedRecord extends DesiredRecord {
  recordId: string;
}

function withoutIds(records: ExportedRecord[]): DesiredRecord[] {
  return records.map(({ recordId: _id, ...r }) => r);
}

describe("examples", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const sandboxConfig = () => ({ url: sandbox.url, apiKey: API_KEY });
  const leftovers: RunResult[] = [];

  beforeAll(async () => {
    linkPackage(examplesDir);
  });
  beforeEach(() => sandbox.reset());
  afterAll(async () => {
    for (const run of leftovers) removeRunDirs(run);
  });

  it.each(EXAMPLES)("%s: has its Pulumi.yaml, package.json, README, and typechecks", async (name) => {
    const dir = path.join(examplesDir, name);
    const project = readYaml<{ name: string; runtime: { name: string; options?: { typescript?: boolean } } }>(
      path.join(dir, "Pulumi.yaml"),
    );
    expect(project.name).toBe(`domainapi-${name}`);
    expect(project.runtime.name).toBe("nodejs");
    expect(project.runtime.options?.typescript).toBe(true);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(pkg.main).toBe("index.ts");
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["@pulumi/pulumi", "pulumi-domainapi"]);
    expect(pkg.devDependencies["ts-node"]).toBeDefined();
    expect(pkg.devDependencies.typescript).toMatch(/<7$/);
    expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toMatch(/^# /);
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    await expect(
      execFileAsync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json")]).then(() => "ok"),
    ).resolves.toBe("ok");
  });

  it("the root Pulumi.yaml is the quickstart", () => {
    const root = readYaml<{ name: string; main: string }>(path.join(repoRoot, "Pulumi.yaml"));
    const quickstart = readYaml<{ name: string }>(path.join(examplesDir, "quickstart", "Pulumi.yaml"));
    expect(root.name).toBe(quickstart.name);
    expect(path.resolve(repoRoot, root.main)).toBe(path.join(examplesDir, "quickstart"));
  });

  it("quickstart (run from the root Pulumi.yaml): up fills both templates, restores, looks up; destroy empties", async () => {
    const up = await runProgramDir(repoRoot, { sandbox: sandboxConfig() });
    leftovers.push(up);
    expect(up.summary?.result).toBe("succeeded");
    const templates = up.outputs.templates as Record<string, ExportedRecord[]>;
    for (const id of ["web", "mail"]) {
      const held = sandbox.templateRecords(id) ?? [];
      expect(held).toHaveLength(4);
      expect(sortRecords(held)).toEqual(sortRecords(withoutIds(templates[id] ?? [])));
      expect((templates[id] ?? []).map((r) => r.recordId).sort()).toEqual(
        held.map((r) => r.record_id).sort(),
      );
    }
    expect(sandbox.domainStatus("shop.example")).toBe("active");
    expect(up.outputs.restoredDomain).toBe("shop.example");
    const activeNl = sandbox.state.contacts.filter(
      (c) => c.country === "NL" && (c.status ?? []).includes("ok"),
    );
    expect(up.outputs.contactsFound).toBe(activeNl.length);
    const top = [...activeNl]
      .sort((a, b) => Number(b.connections) - Number(a.connections) || a.handle.localeCompare(b.handle))
      .slice(0, 3)
      .map((c) => c.handle);
    expect((up.outputs.topContacts as Array<{ handle: string }>).map((c) => c.handle)).toEqual(top);

    const down = await runProgramDir(repoRoot, { op: "destroy", after: up });
    expect(down.destroySummary?.result).toBe("succeeded");
    expect(down.removed).toBe(true);
    expect(sandbox.templateRecords("web")).toEqual([]);
    expect(sandbox.templateRecords("mail")).toEqual([]);
    // A restore cannot be undone: destroy leaves the domain active.
    expect(sandbox.domainStatus("shop.example")).toBe("active");
  });

  it("templates-from-config: the templates in Pulumi.dev.yaml, and purge: false leaves others' records", async () => {
    const dir = path.join(examplesDir, "templates-from-config");
    const stackFile = readYaml<{
      config: Record<string, Record<string, { records: DesiredRecord[]; purge?: boolean }>>;
    }>(path.join(dir, "Pulumi.dev.yaml"));
    const declared = stackFile.config["domainapi-templates-from-config:templates"] ?? {};
    const shared = Object.entries(declared).find(([, t]) => t.purge === false)?.[0] ?? "";
    expect(shared).not.toBe("");
    const [foreignId] = sandbox.seedTemplate(shared, [
      { name: "legacy", type: "A", content: "198.51.100.7" },
    ]);

    const up = await runProgramDir(dir, { sandbox: sandboxConfig() });
    leftovers.push(up);
    for (const [id, template] of Object.entries(declared)) {
      // A URL forward brings an A and an AAAA record at its name (the spec): they are the forward's.
      const made = template.records
        .filter((r) => /^URL/i.test(r.type))
        .flatMap((r) => [
          { name: r.name, type: "A", content: FORWARD_SERVER.A },
          { name: r.name, type: "AAAA", content: FORWARD_SERVER.AAAA },
        ]);
      const held = (sandbox.templateRecords(id) ?? []).filter((r) => r.record_id !== foreignId);
      expect(sortRecords(held)).toEqual(sortRecords([...template.records, ...made]));
      expect((up.outputs.recordIds as Record<string, string[]>)[id]?.sort()).toEqual(
        held.map((r) => r.record_id).sort(),
      );
    }
    expect(sandbox.templateRecords(shared)?.map((r) => r.record_id)).toContain(foreignId);

    await runProgramDir(dir, { op: "destroy", after: up });
    for (const id of Object.keys(declared)) {
      const expected = id === shared ? [foreignId] : [];
      expect(sandbox.templateRecords(id)?.map((r) => r.record_id)).toEqual(expected);
    }
  });

  it("contacts-lookup: the looked-up handles become TXT records beside the template's other records", async () => {
    const dir = path.join(examplesDir, "contacts-lookup");
    const [foreignId] = sandbox.seedTemplate("tpl-2", [{ name: "@", type: "A", content: "192.0.2.80" }]);
    const up = await runProgramDir(dir, { sandbox: sandboxConfig() });
    leftovers.push(up);
    const expected = sandbox.state.contacts
      .filter((c) => c.country === "NL" && (c.status ?? []).includes("ok") && Number(c.connections) > 0)
      .sort((a, b) => Number(b.connections) - Number(a.connections) || a.handle.localeCompare(b.handle));
    const handles = expected.slice(0, 3).map((c) => c.handle);
    expect(up.outputs.handles).toEqual(handles);
    expect(up.outputs.matching).toBe(expected.length);
    const txt = (sandbox.templateRecords("tpl-2") ?? []).filter((r) => r.type === "TXT");
    expect(txt.map((r) => [r.name, r.content]).sort()).toEqual(
      handles.map((h) => ["_contacts", `handle=${h}`]).sort(),
    );
    expect([...(up.outputs.recordIds as string[])].sort()).toEqual(txt.map((r) => r.record_id).sort());

    await runProgramDir(dir, { op: "destroy", after: up });
    expect(sandbox.templateRecords("tpl-2")?.map((r) => r.record_id)).toEqual([foreignId]);
  });

  it("ci: the program runs configured from the environment alone, as the workflow runs it", async () => {
    const result = await runProgramDir(path.join(examplesDir, "ci"), {
      op: "up+destroy",
      env: { DOMAINAPI_BASE_URL: sandbox.url, DOMAINAPI_API_KEY: API_KEY },
    });
    leftovers.push(result);
    expect(result.summary?.resourceChanges?.create).toBe(2);
    expect((result.outputs.recordIds as string[]).length).toBe(3);
    const puts = sandbox.requests.filter((r) => r.method === "PUT");
    expect(puts.map((r) => r.path)).toEqual(["/v2/dns/templates/web/records"]);
    expect(sandbox.templateRecords("web")).toEqual([]);
  });

  it("ci: the workflows preview pull requests, render the plan apart, and deploy main, the key in the up job alone", () => {
    type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
    type Job = { if?: string; steps: Step[]; env?: Record<string, string>; environment?: string };
    type Workflow = {
      name: string;
      on: Record<string, unknown>;
      env?: Record<string, string>;
      jobs: Record<string, Job>;
    };
    const workflows = path.join(examplesDir, "ci", ".github", "workflows");
    const workflow = readYaml<Workflow>(path.join(workflows, "pulumi.yml"));
    expect(workflow.on.pull_request).toBeDefined();
    expect((workflow.on.push as { branches?: string[] }).branches).toEqual(["main"]);
    expect(workflow.env).toBeUndefined();
    const using = (job: Job | undefined, action: string) =>
      job?.steps.find((s) => s.uses?.startsWith(`pulumi-domainapi/pulumi-domainapi/actions/${action}@`));
    const jobs = Object.values(workflow.jobs);
    const preview = jobs.find((j) => using(j, "plan")?.with?.mode === "preview");
    const up = jobs.find((j) => using(j, "apply"));
    expect(preview?.if).toBe("github.event_name == 'pull_request'");
    expect(JSON.stringify(preview)).not.toContain("DOMAINAPI_API_KEY");
    expect(up?.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    expect(up?.environment).toBe("production");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(up?.env?.DOMAINAPI_API_KEY).toBe("${{ secrets.DOMAINAPI_API_KEY }}");
    const render = readYaml<Workflow>(path.join(workflows, "dns-plan.yml"));
    expect(render.on.workflow_run).toEqual({ workflows: [workflow.name], types: ["completed"] });
    expect(Object.values(render.jobs).map((j) => using(j, "plan")?.with?.mode)).toEqual(["comment"]);
    // No key is ever written into the workflow or a stack file: only the sandbox's throw-away key.
    const text = fs.readFileSync(path.join(examplesDir, "ci", ".github", "workflows", "pulumi.yml"), "utf8");
    const keyValues = [...text.matchAll(/DOMAINAPI_API_KEY:[ \t]*(.*)$/gm)].map((m) => m[1]?.trim());
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    const fromSecret = "${{ secrets.DOMAINAPI_API_KEY }}";
    expect(new Set(keyValues)).toEqual(new Set([fromSecret, "ci-sandbox-key"]));
  });
});
