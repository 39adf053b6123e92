/**
 * The operations table against the sandbox: a provider configured from its settings (an explicit
 * provider's inputs or the stack config) is what getContacts asks, its bad arguments come back as
 * failures naming them, and any other failure of the API is thrown as it is. Configuring warns of a
 * key written in plain text in the program's files (naming the explicit provider, or telling how to
 * set the stack config as a secret), and of the `verifyOnRefresh` setting, which is not read.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DomainApiError } from "../../provider/errors";
import { TOKENS } from "../../provider/manifest";
import { configureProvider, functionOperations } from "../../provider/operations";
import { API_KEY, useSandbox } from "../../sandbox/test/helpers";
import { useConsoleLines } from "./helpers";

const sandbox = useSandbox({ contacts: 7 });
const said = useConsoleLines();
let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * Runs in a program's directory holding `files` (the plugin runs in the program's directory; a
 * worker thread cannot change its directory, so the process is told it is there).
 */
function inProgram(files: Record<string, string>): void {
  const program = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-operations-"));
  dir = program;
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(program, name), text);
  vi.spyOn(process, "cwd").mockReturnValue(program);
}

describe("getContacts through the operations table", () => {
  it("asks the API the provider was configured with, and answers the contacts", async () => {
    configureProvider({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: 0 }, "provider");
    const result = await functionOperations(TOKENS.contacts).invoke({ perPage: 5, limit: 3 });
    expect(result.failures).toBeUndefined();
    expect(result.outputs?.contacts).toHaveLength(3);
    expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v2/contacts"]);
  });

  it("a bad argument is a failure naming it, and nothing is sent", async () => {
    configureProvider({ apiKey: API_KEY, baseUrl: sandbox.url, maxRetries: 0 }, "provider");
    const result = await functionOperations(TOKENS.contacts).invoke({ perPage: 500, limit: -1 });
    expect(result.outputs).toBeUndefined();
    expect(result.failures?.map((f) => f.property)).toEqual(["perPage", "limit"]);
    expect(result.failures?.every((f) => f.reason.length > 0)).toBe(true);
    expect(sandbox.requests).toEqual([]);
  });

  it("a refusal of the API is thrown as it is, not dressed as an argument's failure", async () => {
    configureProvider({ apiKey: "wrong-key-0000", baseUrl: sandbox.url, maxRetries: 0 }, "provider");
    const refused = functionOperations(TOKENS.contacts).invoke({ perPage: 5 });
    await expect(refused).rejects.toBeInstanceOf(DomainApiError);
    await expect(refused).rejects.toMatchObject({ status: 401 });
  });
});

describe("configureProvider's warnings", () => {
  const KEY = "sk_live_4f1c9e7a0b";
  const URN = "urn:pulumi:dev::shop::pulumi:providers:domainapi::live";

  it("names the explicit provider whose key is written in plain text in the program", () => {
    inProgram({
      "Pulumi.yaml": `name: shop\nruntime: yaml\nresources:\n  live:\n    properties:\n      apiKey: ${KEY}\n`,
    });
    configureProvider({ apiKey: KEY, baseUrl: sandbox.url }, "provider", URN);
    const warnings = said.filter((l) => l.includes("plain text"));
    expect(warnings).toEqual([
      expect.stringContaining(
        'the apiKey of provider "live" is written in plain text in Pulumi.yaml (line 6)',
      ),
    ]);
    expect(warnings.join("\n")).not.toContain("pulumi config set --secret domainapi:apiKey");
  });

  it("tells the default provider to set the stack config as a secret", () => {
    inProgram({
      "Pulumi.yaml": "name: shop\nruntime: yaml\n",
      "Pulumi.dev.yaml": `config:\n  domainapi:apiKey: ${KEY}\n`,
    });
    const urn = "urn:pulumi:dev::shop::pulumi:providers:domainapi::default";
    configureProvider({ apiKey: KEY, baseUrl: sandbox.url }, "stack", urn);
    const warnings = said.filter((l) => l.includes("plain text"));
    expect(warnings).toEqual([expect.stringContaining("Pulumi.dev.yaml (line 2)")]);
    expect(warnings[0]).toContain("`pulumi config set --secret domainapi:apiKey <key>`");
    expect(warnings[0]).not.toContain('provider "default"');
  });

  it("says that the verifyOnRefresh setting is not read, and how to verify instead", () => {
    configureProvider({ apiKey: API_KEY, baseUrl: sandbox.url, verifyOnRefresh: "true" }, "provider");
    expect(said.filter((l) => l.includes("verifyOnRefresh"))).toEqual([
      expect.stringContaining("domainapi:verifyOnRefresh is not read"),
    ]);
    said.length = 0;
    configureProvider({ apiKey: API_KEY, baseUrl: sandbox.url }, "provider");
    expect(said.filter((l) => l.includes("verifyOnRefresh"))).toEqual([]);
  });
});
