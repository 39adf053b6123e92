/**
 * The import under the real engine, one program and one stack: a zone as Cloudflare exports it
 * (test/e2e/import-zone.ts) -> the built `domainapi-import` -> `pulumi up` of the TypeScript
 * program it wrote (Automation API, scripts/run-program.ts) -> the sandbox's template, which held
 * other records before, holds exactly the zone's importable records after one PUT -> the next
 * preview shows no change and the sandbox receives nothing. What every language's program declares
 * is run without the engine in test/unit/import-programs-run.test.ts.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkPackage, repoRoot, useSandbox, workRoot } from "./harness";
import { CLOUDFLARE_EXPORT, CLOUDFLARE_RECORDS, type ExpectedRecord } from "./import-zone";
import { removeRunDirs, runProgramDir } from "./program-runner";

const execFileAsync = promisify(execFile);
const API_KEY = "import-e2e-key-7c2d9e";
const BIN = path.join(repoRoot, "dist", "provider", "cli", "import.js");
const TEMPLATE = "web";

const sandbox = useSandbox({ apiKey: API_KEY });
let zoneDir: string;
const cleanups: (() => void)[] = [];

beforeAll(() => {
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  // The template exists at the registrar, holding what was there before the import.
  sandbox.seedTemplate(TEMPLATE, [
    { name: "old", type: "A", content: "192.0.2.200" },
    { name: "@", type: "TXT", content: "left by hand" },
  ]);
  zoneDir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-zone-"));
});

afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  fs.rmSync(zoneDir, { recursive: true, force: true });
});

function canonical(records: readonly ExpectedRecord[]): string[] {
  return records
    .map((r) =>
      JSON.stringify([r.name, r.type, r.content, r.priority ?? null, r.weight ?? null, r.port ?? null]),
    )
    .sort();
}

describe("domainapi-import -> pulumi up, under the engine", () => {
  it("a Cloudflare export: the template holds exactly its importable records, and the next preview sends nothing", async () => {
    const zoneFile = path.join(zoneDir, "example.com.txt");
    fs.writeFileSync(zoneFile, CLOUDFLARE_EXPORT);
    const dir = fs.mkdtempSync(path.join(workRoot, "import-ts-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const out = path.join(dir, "program");
    // The built command, as a user's shell runs it.
    const { stdout } = await execFileAsync(process.execPath, [
      BIN,
      zoneFile,
      "--template",
      TEMPLATE,
      "--out",
      out,
    ]);
    expect(stdout).toContain(
      `${TEMPLATE} (${zoneFile}, domain example.com.): ${CLOUDFLARE_RECORDS.length} records`,
    );
    linkPackage(out);
    sandbox.requests.length = 0;
    const up = await runProgramDir(out, { sandbox: { url: sandbox.url, apiKey: API_KEY } });
    cleanups.push(() => removeRunDirs(up));
    expect(canonical(sandbox.templateRecords(TEMPLATE) ?? [])).toEqual(canonical(CLOUDFLARE_RECORDS));
    // purge: true, so the first up is one PUT of exactly the imported records.
    expect(
      sandbox.requests.filter((r) => r.path.includes(`/templates/${TEMPLATE}/`)).map((r) => r.method),
    ).toEqual(["PUT"]);
    sandbox.requests.length = 0;
    const preview = await runProgramDir(out, {
      op: "preview",
      after: up,
      sandbox: { url: sandbox.url, apiKey: API_KEY },
    });
    expect(
      Object.keys(
        (preview.summary as { changeSummary?: Record<string, number> } | undefined)?.changeSummary ?? {},
      ),
    ).toEqual(["same"]);
    expect(sandbox.requests).toEqual([]);
  }, 600_000);
});
