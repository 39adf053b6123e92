/**
 * The serialized provider names no path: a stack created from one checkout is updated and
 * destroyed from another checkout in another directory, after the first one is gone.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, linkPackage, repoRoot, useSandbox, workRoot } from "./harness";
import { API_KEY, type DesiredRecord, expectConverged, mutating } from "./records-helpers";

type Package = typeof import("../../provider");

/** A second "checkout": the built package in another directory, sharing only the dependencies. */
function copyCheckout(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(dir, "package.json"));
  fs.cpSync(path.join(repoRoot, "dist"), path.join(dir, "dist"), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
}

/** A program directory whose `pulumi-domainapi` is `checkout` and whose `@pulumi` is the repo's. */
function programDir(dir: string, checkout: string): void {
  linkPackage(dir, checkout);
  fs.symlinkSync(
    path.join(repoRoot, "node_modules", "@pulumi"),
    path.join(dir, "node_modules", "@pulumi"),
    "dir",
  );
}

function programFrom(dir: string, records: () => DesiredRecord[]) {
  return async () => {
    const pkg = createRequire(path.join(dir, "index.js"))("pulumi-domainapi") as Package;
    const r = new pkg.DnsTemplateRecords("records", { templateId: "tpl-5", records: records() as never });
    return { recordIds: r.recordIds };
  };
}

describe("a stack moves between checkouts", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-move-"));
  const backendDir = path.join(scratch, "state");
  const firstDir = fs.mkdtempSync(path.join(workRoot, "first-"));
  const secondCheckout = path.join(scratch, "checkout-b");
  const secondDir = path.join(scratch, "program-b");
  const config = {
    "domainapi:baseUrl": "",
    "domainapi:apiKey": { value: API_KEY, secret: true as const },
  };
  let desired: DesiredRecord[] = [
    { name: "@", type: "A", content: "192.0.2.10" },
    { name: "www", type: "CNAME", content: "{domainname}." },
  ];

  beforeAll(async () => {
    config["domainapi:baseUrl"] = sandbox.url;
    fs.mkdirSync(backendDir);
    copyCheckout(secondCheckout);
    programDir(secondDir, secondCheckout);
  });
  afterAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(firstDir, { recursive: true, force: true });
  });

  it("is created from the first, then updated and destroyed from the second after the first is gone", async () => {
    const first = await createTestStack({
      program: programFrom(firstDir, () => desired),
      workDir: firstDir,
      backendDir,
      config,
    });
    await first.up();
    const [held] = await first.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords");
    const provider = String(held?.inputs?.__provider);
    expect(provider).not.toContain(repoRoot);
    expect(provider).not.toContain(firstDir);
    // The stack's settings (config, encryption salt) travel with the project, as in a real move.
    fs.copyFileSync(path.join(firstDir, "Pulumi.test.yaml"), path.join(secondDir, "Pulumi.test.yaml"));
    fs.rmSync(firstDir, { recursive: true, force: true });

    desired = [...desired, { name: "api", type: "A", content: "192.0.2.20" }];
    const second = await createTestStack({
      program: programFrom(secondDir, () => desired),
      workDir: secondDir,
      backendDir,
      config,
    });
    sandbox.clearRequests();
    await second.up();
    expect(mutating(sandbox).map((r) => r.method)).toEqual(["PATCH"]);
    await expectConverged(second, sandbox, "tpl-5", desired);
    await second.destroy();
    expect(sandbox.templateRecords("tpl-5")).toEqual([]);
    await second.cleanup();
  });
});
