/**
 * A template with a secret record, changed, under the real engine: `pulumi preview --json` shows
 * its records only as `[secret]` (with `--show-secrets` too) and the Automation API's events as
 * ciphertext. The plan of `domainapi-plan` and of `planComment` names the template as not planned
 * (never "No DNS record changes", never a throw) and `--expect` exits 2 naming it. The way that
 * works (docs/previews.md, "Secret records"): the content made plain with `pulumi.unsecret` (DNS
 * publishes it anyway); once one `up` has stored it so, its changes are planned and `up` given the
 * plan's value applies them.
 */

import { execFile } from "node:child_process";
import * as path from "node:path";
import type * as Pulumi from "@pulumi/pulumi";
import type { EngineEvent, PreviewOptions } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import type { DnsRecordArgs } from "../../provider";
import { domainapi, repoRoot, requireFromWork, type TestStack, useSandbox, useStack } from "./harness";
import { API_KEY, recordsStack } from "./records-helpers";

const pulumi = requireFromWork<typeof Pulumi>("@pulumi/pulumi");

/** The DKIM key is the secret (until `unsecret`); the other records are plain. */
const desired = {
  dkim: "v=DKIM1; k=rsa; p=MIIBIjANBgkq-one",
  api: "192.0.2.20",
  withNew: false,
  unsecret: false,
};

function program() {
  return async () => {
    const { DnsTemplateRecords } = domainapi();
    const records = (dkim: string): Pulumi.Input<DnsRecordArgs>[] => [
      { name: "@", type: "A", content: "192.0.2.10" },
      { name: "api", type: "A", content: desired.api },
      {
        name: "dkim._domainkey",
        type: "TXT",
        content: desired.unsecret ? pulumi.unsecret(pulumi.secret(dkim)) : pulumi.secret(dkim),
      },
    ];
    new DnsTemplateRecords("web", { templateId: "web", records: records(desired.dkim) });
    if (desired.withNew)
      new DnsTemplateRecords("mail", { templateId: "mail", records: records("v=DKIM1; p=new") });
    return {};
  };
}

/** The built `domainapi-plan` command, run as a user runs it, on `input` (stdin), with `args`. */
function domainapiPlan(
  args: string[],
  input: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(repoRoot, "dist", "provider", "cli", "plan.js"), ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : undefined) : 0;
        if (code === undefined) reject(err);
        else resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/**
 * `pulumi preview --json` (with `flags`) through the Automation API, which has no `--json` option:
 * the flag is added to the CLI call it makes. Returns the printed JSON and the engine events.
 */
async function previewJson(s: TestStack, flags: string[] = []) {
  // The Automation API's own CLI call, private in its types.
  const cli = s.stack as unknown as {
    runPulumiCmd: (args: string[], ...rest: unknown[]) => Promise<unknown>;
  };
  const run = cli.runPulumiCmd.bind(s.stack);
  cli.runPulumiCmd = (args, ...rest) =>
    run(args[0] === "preview" ? [...args, "--json", ...flags] : args, ...rest);
  const events: EngineEvent[] = [];
  const printed: string[] = [];
  try {
    const options: PreviewOptions = { onEvent: (e) => events.push(e), onOutput: (t) => printed.push(t) };
    await s.stack.preview(options);
  } finally {
    cli.runPulumiCmd = run;
  }
  return { json: printed.join(""), events };
}

describe("a template with a secret record, changed", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });

  const s = useStack(() => recordsStack(sandbox, program()));
  beforeAll(async () => {
    await s.up();
    desired.dkim = "v=DKIM1; k=rsa; p=MIIBIjANBgkq-two";
    desired.api = "192.0.2.21";
    desired.withNew = true;
  });

  it("is named as not planned by domainapi-plan and planComment; --expect exits 2 naming it", async () => {
    const { json, events } = await previewJson(s);
    // The engine shows the records only as secret: the premise of the case.
    expect(json).toContain('"records": "[secret]"');
    expect(JSON.stringify(events)).toContain('"ciphertext":"[secret]"');
    const plan = await domainapiPlan([], json);
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain("No DNS record changes");
    expect(plan.stdout).toMatch(/\*\*Template `web`\*\* \(resource `web`\): \*\*not planned\*\*/);
    expect(plan.stdout).toMatch(/\*\*Template `mail`\*\* \(resource `mail`, new\): \*\*not planned\*\*/);
    expect(plan.stdout).not.toMatch(/^DOMAINAPI_EXPECT_PLAN=/m);
    const expectation = await domainapiPlan(["--expect"], json);
    expect(expectation.code).toBe(2);
    expect(expectation.stdout).toBe("");
    expect(expectation.stderr).toMatch(/template "mail" \(resource "mail"\): its records are secret/);
    expect(expectation.stderr).toMatch(/template "web" \(resource "web"\): its records are secret/);
    // The Automation API's events: the same plan, no throw.
    const { planComment, planExpectation } = domainapi();
    expect(planComment(events)).toBe(plan.stdout);
    expect(planExpectation(events)).toBeUndefined();
  });

  it("--show-secrets does not show them: pulumi preview --json masks secrets whatever the flag", async () => {
    const { json } = await previewJson(s, ["--show-secrets"]);
    expect(json).toContain('"records": "[secret]"');
    expect((await domainapiPlan(["--expect"], json)).code).toBe(2);
  });

  it("made plain with pulumi.unsecret: planned once the state holds them plain, and up applies the reviewed plan", async () => {
    desired.unsecret = true;
    const first = await previewJson(s);
    // The new template is planned from its plain inputs; the old one's state still holds its records as secret.
    const named = await domainapiPlan(["--expect"], first.json);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/template "web" \(resource "web"\): its records are secret/);
    expect(named.stderr).not.toMatch(/"mail"/);
    // That one change is applied without a reviewed plan (read from `pulumi preview`'s own lines).
    await s.up();
    desired.api = "192.0.2.22";
    desired.dkim = "v=DKIM1; k=rsa; p=MIIBIjANBgkq-three";
    const { json } = await previewJson(s);
    const plan = await domainapiPlan([], json);
    expect(plan.stdout).toContain("~ MODIFY api A content 192.0.2.21 -> 192.0.2.22");
    // A long correction line goes on over lines of its own (`~ ↳ `): joined again here.
    expect(plan.stdout.replaceAll(/\n[+~-] ↳ /g, "")).toContain(
      "p=MIIBIjANBgkq-two -> v=DKIM1; k=rsa; p=MIIBIjANBgkq-three",
    );
    const expectation = await domainapiPlan(["--expect"], json);
    expect(expectation).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^mail=[0-9a-f]{32} web=[0-9a-f]{32}\n$/),
      stderr: "",
    });
    const env = s.stack.workspace.envVars;
    env.DOMAINAPI_EXPECT_PLAN = expectation.stdout.trim();
    try {
      await s.up();
    } finally {
      delete env.DOMAINAPI_EXPECT_PLAN;
    }
    const held = sandbox.templateRecords("web") ?? [];
    expect(held.find((r) => r.type === "TXT")?.content).toBe(desired.dkim);
    expect(held.find((r) => r.name === "api")?.content).toBe("192.0.2.22");
    expect(sandbox.templateRecords("mail")?.find((r) => r.name === "api")?.content).toBe("192.0.2.22");
  });
});
