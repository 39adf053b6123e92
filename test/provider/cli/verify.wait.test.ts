/**
 * `domainapi-verify --wait`, as a user runs it after `pulumi up`: against servers that publish a
 * change late, it asks again until the domain serves its template (exit 0); without it, the first
 * answer is the verdict (exit 1).
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVerifyCommand } from "../../../provider/cli/verify";

const KEY = "verify-wait-key";
const RECORDS = [{ name: "@", type: "A", content: "192.0.2.10" }];
const STACK = JSON.stringify({ web: { templateId: "web", records: RECORDS } });

/** Runs the command with the stack on stdin; what it printed and its exit status. */
async function verify(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const stdin = Object.assign(
    (async function* () {
      yield Buffer.from(STACK);
    })(),
    { isTTY: false },
  ) as unknown as NodeJS.ReadableStream & { isTTY?: boolean };
  const code = await runVerifyCommand(args, {
    stdin,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe("domainapi-verify --wait against a late publisher", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      apiKey: KEY,
      dnsPort: 0,
      dnsLate: 800,
      dnsDomains: { "shop.example": "web" },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("without --wait, the first answer is the verdict; with it, asks again until served", async () => {
    const response = await fetch(`${sandbox.url}/v2/dns/templates/web/records`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ records: RECORDS }),
    });
    expect(response.ok).toBe(true);
    const args = ["--domain", "shop.example=web", "--server", sandbox.dnsAddress!];
    const first = await verify(args);
    expect({ code: first.code, err: first.err }).toEqual({ code: 1, err: "" });
    expect(first.out).toMatch(/^shop\.example \(template web, server [^)]+\): NOT served as declared/);
    const waited = await verify([...args, "--wait", "10"]);
    expect({ code: waited.code, err: waited.err }).toEqual({ code: 0, err: "" });
    expect(waited.out).toMatch(
      /^shop\.example \(template web, server [^)]+\): served as declared: 1 record as declared\n$/,
    );
  });
});
