/**
 * DomainRestore under the reviewed-plan guard, at the entry both hosts dispatch through (the
 * operations table, by the resource's URN, as the plugin and the dynamic shims call it) against a
 * real sandbox: with `DOMAINAPI_EXPECT_PLAN` set, a restore the reviewed
 * plan does not name is refused and no request reaches the API; one that `domainapi-plan` listed
 * and gave a value for, from a preview as `pulumi preview --json` prints it, is sent; a value
 * reviewed for another account is refused.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type * as pulumi from "@pulumi/pulumi";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPlanCommand } from "../../provider/cli/plan";
import { TOKENS } from "../../provider/manifest";
import { resourceOperations } from "../../provider/operations";
import * as restore from "../../provider/restore/provider";
import { configureFor, PROVIDER } from "./helpers";

const API_KEY = "restore-guard-key-77c1";

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY });
  configureFor(restore, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 });
  dir = await mkdtemp(join(tmpdir(), "restore-guard-"));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  sandbox.reset();
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});
afterEach(() => {
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});

/** The real `pulumi preview --json` of a program that restores shop.example beside its templates. */
const FIXTURE = readFileSync(join(__dirname, "../fixtures/preview/update.json"), "utf8");

/** That preview as it reads when made against `baseUrl` (the stack config it prints says so). */
function previewOn(baseUrl: string): string {
  const doc = JSON.parse(FIXTURE);
  doc.config["domainapi:baseUrl"] = baseUrl;
  return JSON.stringify(doc, null, 2);
}

/** Runs domainapi-plan on a preview file: its exit status and what it wrote. */
async function plan(args: string[], preview: string) {
  const file = join(dir, `preview-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, preview);
  let stdout = "";
  let stderr = "";
  const code = await runPlanCommand([...args, file], {
    stdin: new PassThrough(),
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** The DomainRestore operations, found by URN as the plugin finds them. */
const ops = resourceOperations(`urn:pulumi:dev::dns::${TOKENS.restore}::restore`);

/** What the engine calls: check, then create with the checked inputs. */
async function restoreThroughOperations(domain: string): Promise<pulumi.dynamic.CreateResult> {
  const checked = await ops.check({}, { __provider: PROVIDER, domain });
  expect(checked.failures ?? []).toEqual([]);
  return ops.create({ ...checked.inputs, __provider: PROVIDER });
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err as Error,
  );

describe("a restore the reviewed plan does not name is refused, with nothing sent", () => {
  for (const [what, value] of [
    ["none (nothing may change)", "none"],
    ["blank (a failed $(domainapi-plan --expect))", ""],
    [
      "a plan that names only templates",
      "web=0123456789abcdef0123456789abcdef mail=fedcba9876543210fedcba9876543210",
    ],
    [
      "the value pasted whole with another domain's restore",
      "DOMAINAPI_EXPECT_PLAN='restore/old.example=0123456789abcdef0123456789abcdef'",
    ],
  ] as const) {
    it(`${what}`, async () => {
      process.env.DOMAINAPI_EXPECT_PLAN = value;
      const err = await refusal(restoreThroughOperations("shop.example"));
      expect(err?.message).toMatch(
        /^refusing to restore domain "shop\.example" from quarantine: .*A restore cannot be undone; nothing was sent\. To have it reviewed, preview the program, let domainapi-plan list the restore in the pull-request plan, and run `pulumi up` with the DOMAINAPI_EXPECT_PLAN value of that plan \(it holds restore\/shop\.example=[0-9a-f]{32}\)\.$/,
      );
      expect(sandbox.requests).toEqual([]);
      expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
    });
  }

  it("the second ask of an unconfirmed restore (an update) is refused too", async () => {
    process.env.DOMAINAPI_EXPECT_PLAN = "none";
    const olds = { domain: "shop.example", unconfirmed: true, __provider: PROVIDER };
    const err = await refusal(
      ops.update("shop.example", olds, { domain: "shop.example", __provider: PROVIDER }),
    );
    expect(err?.message).toMatch(/^refusing to restore domain "shop\.example" from quarantine/);
    expect(sandbox.requests).toEqual([]);
  });

  it("unset, there is no guard: the restore is sent", async () => {
    await restoreThroughOperations("shop.example");
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v2/domains/shop.example/restore",
    ]);
  });
});

describe("domainapi-plan lists the restore, and its value lets exactly that restore through", () => {
  it("the PR plan shows the restore with its account and digest", async () => {
    const { code, stdout } = await plan([], previewOn(sandbox.url));
    expect(code).toBe(0);
    const section = stdout.slice(stdout.indexOf("**Domain restore"));
    expect(section).toMatch(
      /^\*\*Domain restore `shop\.example`\*\* \(resource `restore`, new\): restored from quarantine \(1 request: POST \/v2\/domains\/\{domain\}\/restore; a restore cannot be undone\)\n\nSent to account `http:\/\/127\.0\.0\.1:\d+`\.\n\nPlan digest `[0-9a-f]{32}`/,
    );
  });

  it("the reviewed value restores the domain once; the same value made for another account is refused", async () => {
    const reviewed = await plan(["--expect"], previewOn(sandbox.url));
    expect(reviewed.code).toBe(0);
    expect(reviewed.stdout).toMatch(/(^| )restore\/shop\.example=[0-9a-f]{32}( |\n)/);

    // Reviewed against another account (the preview's stack config named it): refused here.
    const elsewhere = await plan(["--expect"], previewOn("https://api.other.example"));
    process.env.DOMAINAPI_EXPECT_PLAN = elsewhere.stdout.trim();
    const err = await refusal(restoreThroughOperations("shop.example"));
    expect(err?.message).toMatch(
      /the reviewed restore was [0-9a-f]{32}, and this one is [0-9a-f]{32} \(a digest covers the account: this one is for http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(sandbox.requests).toEqual([]);

    process.env.DOMAINAPI_EXPECT_PLAN = reviewed.stdout.trim();
    const created = await restoreThroughOperations("shop.example");
    expect(created.id).toBe("shop.example");
    expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /v2/domains/shop.example/restore 204",
    ]);
    expect(sandbox.domainStatus("shop.example")).toBe("active");

    // The value names shop.example's restore, not any other domain's.
    sandbox.clearRequests();
    const other = await refusal(restoreThroughOperations("old.example"));
    expect(other?.message).toMatch(/^refusing to restore domain "old\.example"/);
    expect(sandbox.requests).toEqual([]);
  });

  it("a preview that does not say the account gives no value, naming the restore and the fix", async () => {
    const doc = JSON.parse(FIXTURE);
    delete doc.config["domainapi:baseUrl"];
    const saved = process.env.DOMAINAPI_BASE_URL;
    delete process.env.DOMAINAPI_BASE_URL;
    try {
      const { code, stderr } = await plan(["--expect"], JSON.stringify(doc));
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /template "restore\/shop\.example" \(resource "restore"\): the preview does not say which account .*DOMAINAPI_BASE_URL/,
      );
    } finally {
      if (saved !== undefined) process.env.DOMAINAPI_BASE_URL = saved;
    }
  });

  it("a restore whose domain the preview shows only as secret is listed as not planned, and gives no value", async () => {
    const doc = JSON.parse(previewOn(sandbox.url));
    const step = doc.steps.find((s: { urn: string }) => s.urn.endsWith("::restore"));
    step.newState.inputs.domain = "[secret]";
    const shown = await plan([], JSON.stringify(doc));
    expect(shown.stdout).toContain(
      "**Domain restore `(secret)`** (resource `restore`, new): **not planned**: the preview does not show its domain",
    );
    const value = await plan(["--expect"], JSON.stringify(doc));
    expect(value.code).toBe(2);
    expect(value.stderr).toMatch(
      /template "restore\/\(secret\)" \(resource "restore"\): its domain is not shown in the preview/,
    );
  });
});
