/**
 * One template, one owner, as the plugin's Check claims it (provider/records/checkClaims.ts): what
 * claims a template and what does not, and how the refusal names the resources of a URN.
 */
import { type ChildProcess, fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MachineClaim } from "../../../provider/host/claims";
import { UNKNOWN } from "../../../provider/host/engine";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";
import { configureFrom } from "../../../provider/host/session";
import { TOKENS } from "../../../provider/manifest";
import { RESOURCES } from "../../../provider/operations";

// The records' check as the plugin's gRPC Check calls it: with the resource's URN. The claims are
// the process's, so each case uses templates of its own.
const records = RESOURCES[TOKENS.records];
const check = (urn: string, news: Record<string, unknown>) => records.check({}, news, urn);
const urn = (name: string, parents = "") => `urn:pulumi:dev::proj::${parents}${TOKENS.records}::${name}`;
const www = { name: "www", type: "A", content: "192.0.2.1" };

beforeAll(() => configureFrom({ apiKey: "claims-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

describe("the plugin's Check claims a template per resource", () => {
  it("names a resource under a parent by its own name, not its parent's type", async () => {
    const parent = "my:component:Site$";
    expect(
      (await check(urn("site-a", parent), { templateId: "claims-parent", records: [] })).failures ?? [],
    ).toEqual([]);
    const second = await check(urn("site-b", parent), { templateId: "claims-parent", records: [] });
    expect(second.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(
          /^DnsTemplateRecords "site-a" and "site-b" both manage template "claims-parent", and both have purge: true/,
        ),
      },
    ]);
  });

  it("a check that fails claims nothing: the next resource on its template is not refused for it", async () => {
    const bad = await check(urn("broken"), {
      templateId: "claims-failed",
      records: [{ name: "www", type: "A", content: "not-an-address" }],
    });
    expect(bad.failures?.map((f) => f.reason)).toEqual([expect.stringMatching(/^records\[0\]\.content: /)]);
    const good = await check(urn("fixed"), { templateId: "claims-failed", records: [www] });
    expect(good.failures ?? []).toEqual([]);
  });

  it("a resource whose values a preview does not know yet claims nothing", async () => {
    const pending = await check(urn("pending"), {
      templateId: "claims-unknown",
      records: [{ name: "www", type: "A", content: UNKNOWN }],
    });
    expect(pending.failures ?? []).toEqual([]);
    const other = await check(urn("known"), { templateId: "claims-unknown", records: [www] });
    expect(other.failures ?? []).toEqual([]);
  });

  it("refuses a record both purge: false resources declare, whichever declares it second", async () => {
    const first = await check(urn("left"), { templateId: "claims-shared", purge: false, records: [www] });
    expect(first.failures ?? []).toEqual([]);
    const second = await check(urn("right"), {
      templateId: "claims-shared",
      purge: false,
      records: [{ ...www, name: "WWW" }],
    });
    expect(second.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(
          /^DnsTemplateRecords "left" and "right" share template "claims-shared" \(purge: false\) and both declare the record www A 192\.0\.2\.1/,
        ),
      },
    ]);
    // Other records on the shared template are each resource's own.
    const third = await check(urn("third"), {
      templateId: "claims-shared",
      purge: false,
      records: [{ name: "mail", type: "A", content: "192.0.2.2" }],
    });
    expect(third.failures ?? []).toEqual([]);
  });
});

describe("across the providers of one deployment (their plugin processes share the machine)", () => {
  const root = path.resolve(__dirname, "..", "..", "..");
  let work: string;
  let saved: string | undefined;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-check-claims-"));
    saved = process.env[STATE_DIR_ENV];
    process.env[STATE_DIR_ENV] = path.join(work, "state");
  });
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
    if (saved === undefined) delete process.env[STATE_DIR_ENV];
    else process.env[STATE_DIR_ENV] = saved;
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Another provider's plugin process, alive, that has claimed `claim` through the machine. */
  async function otherProvider(claim: MachineClaim): Promise<void> {
    const script = path.join(work, "child.cjs");
    if (!fs.existsSync(script)) {
      fs.writeFileSync(
        path.join(work, "child.ts"),
        `import { claimOnMachine } from ${JSON.stringify(path.join(root, "provider", "host", "claims"))};
process.on("message", (claim) => { claimOnMachine(claim as never); process.send?.("claimed"); });`,
      );
      buildSync({
        entryPoints: [path.join(work, "child.ts")],
        bundle: true,
        platform: "node",
        format: "cjs",
        outfile: script,
        external: ["@pulumi/pulumi"],
        logLevel: "silent",
      });
    }
    const child = fork(script, [], {
      env: { ...process.env },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("error", reject);
      child.send(claim);
    });
  }

  it("a template another provider's live process claimed for this stack is refused, naming both", async () => {
    await otherProvider({
      urn: urn("theirs"),
      account: "http://127.0.0.1:9",
      templateId: "claims-across",
      purge: true,
      provider: "other",
    });
    const mine = await check(urn("mine"), { templateId: "claims-across", records: [www] });
    expect(mine.failures).toEqual([{ property: "templateId", reason: expect.stringMatching(/"theirs"/) }]);
    expect(mine.failures?.[0]?.reason).toMatch(/"mine"/);
    // Another template of the same account stays free.
    const free = await check(urn("elsewhere"), { templateId: "claims-across-free", records: [www] });
    expect(free.failures ?? []).toEqual([]);
  });
});
