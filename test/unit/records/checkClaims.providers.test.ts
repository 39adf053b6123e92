/**
 * The claims of other providers' processes on the machine (records/checkClaims.ts): a resource
 * without purge shares its template with any number of others without purge, and is refused by the
 * one other that has purge, wherever that one's claim is among them.
 */
import { type ChildProcess, fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MachineClaim } from "../../../provider/host/claims";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";
import { configureFrom } from "../../../provider/host/session";
import { TOKENS } from "../../../provider/manifest";
import { RESOURCES } from "../../../provider/operations";

const records = RESOURCES[TOKENS.records];
const urn = (name: string) => `urn:pulumi:dev::proj::${TOKENS.records}::${name}`;
const account = "http://127.0.0.1:9";

describe("the claims of another provider's process", () => {
  const root = path.resolve(__dirname, "..", "..", "..");
  let work: string;
  let saved: string | undefined;
  let child: ChildProcess | undefined;

  beforeAll(() => {
    configureFrom({ apiKey: "claims-providers-key", baseUrl: account }, "provider");
    work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-claims-providers-"));
    saved = process.env[STATE_DIR_ENV];
    process.env[STATE_DIR_ENV] = path.join(work, "state");
  });
  afterAll(() => {
    child?.kill("SIGKILL");
    if (saved === undefined) delete process.env[STATE_DIR_ENV];
    else process.env[STATE_DIR_ENV] = saved;
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Another provider's live plugin process, which has claimed each of `claims` on the machine. */
  async function otherProvider(claims: MachineClaim[]): Promise<void> {
    fs.writeFileSync(
      path.join(work, "child.ts"),
      `import { claimOnMachine } from ${JSON.stringify(path.join(root, "provider", "host", "claims"))};
process.on("message", (claims) => { for (const claim of claims as never[]) claimOnMachine(claim); process.send?.("claimed"); });`,
    );
    const script = path.join(work, "child.cjs");
    buildSync({
      entryPoints: [path.join(work, "child.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile: script,
      external: ["@pulumi/pulumi"],
      logLevel: "silent",
    });
    child = fork(script, [], { env: { ...process.env }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
    const started = child;
    await new Promise<void>((resolve, reject) => {
      started.once("message", () => resolve());
      started.once("error", reject);
      started.send(claims);
    });
  }

  it("refuses a resource without purge for the one that has purge, among others without", async () => {
    const claim = (name: string, purge: boolean): MachineClaim => ({
      urn: urn(name),
      account,
      templateId: "claims-many",
      purge,
      provider: "other",
    });
    await otherProvider([
      claim("shares-1", false),
      claim("shares-2", false),
      claim("owner", true),
      claim("shares-3", false),
      claim("shares-4", false),
    ]);
    const mine = await records.check(
      {},
      { templateId: "claims-many", purge: false, records: [] },
      urn("mine"),
    );
    expect(mine.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(/^DnsTemplateRecords "owner" \(provider other\)/),
      },
    ]);
    expect(mine.failures?.[0]?.reason).toContain('"owner" has purge: true');
  });
});
