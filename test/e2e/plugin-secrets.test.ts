/**
 * Record values given as secrets, through the provider plugin under the real engine (a YAML
 * program run by the real YAML language host): what `pulumi up`, `preview` and `destroy` print
 * never holds them, in the form the program wrote them or in the form the provider writes them (a
 * host name lower-cased), while the template holds the real values; the state keeps each secret
 * record secret on its own (not the whole record map) and names which fields are secret by key.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountProgram,
  createProject,
  type Project,
  requireBuiltPlugin,
  yamlLanguageHost,
} from "./plugin-helpers";

const KEY = "plugin-secrets-key-7c1e";
const MAIL_HOST = "MX1.Hidden-Relay.Example";
const FIRST = "site-verification=Pk4Wz8Rt2Nq6";
const SECOND = "site-verification=Jd9Lm3Xc5Bv1";

const PROGRAM = accountProgram("domainapi-plugin-secrets", {
  config: `  mailHost:
    type: string
    secret: true
  token:
    type: string
    secret: true
`,
  rest: `  web:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: web
      purge: false
      records:
        - { name: www, type: A, content: 192.0.2.1 }
        - { name: "@", type: MX, content: "\${mailHost}", priority: 10 }
        - { name: _verify, type: TXT, content: "\${token}" }
    options:
      provider: \${account}
`,
});

/** Whether `text` shows any of the secrets, in any letter case. */
function showsSecret(text: string): string | undefined {
  const lower = text.toLowerCase();
  return [MAIL_HOST, FIRST, SECOND].find((s) => lower.includes(s.toLowerCase()));
}

describe("through the plugin, record values given as secrets", () => {
  let sandbox: Sandbox;
  let project: Project;
  const printed: string[] = [];
  const run = async (args: string[]) => {
    const { stdout, stderr } = await project.pulumi(args);
    printed.push(stdout, stderr);
    return stdout;
  };

  beforeAll(async () => {
    requireBuiltPlugin();
    sandbox = await startSandbox({ apiKey: KEY });
    project = createProject({ "Pulumi.yaml": PROGRAM }, [await yamlLanguageHost()]);
    await project.pulumi(["stack", "init", "dev"]);
    await project.setConfig({
      plain: { baseUrl: sandbox.url },
      secret: { apiKey: KEY, mailHost: MAIL_HOST, token: FIRST },
    });
  }, 600_000);
  afterAll(async () => {
    project?.cleanup();
    await sandbox?.close();
  });

  it("are said as [secret] through up, preview and destroy, and sent as they are", async () => {
    const created = await run(["up", "--yes"]);
    expect(created).toContain("+ CREATE _verify TXT [secret]");
    expect(created).toContain("+ CREATE @ MX 10 [secret]");
    expect(created).toContain("+ CREATE www A 192.0.2.1");
    const contents = () => (sandbox.templateRecords("web") ?? []).map((r) => r.content).sort();
    expect(contents()).toEqual(["192.0.2.1", FIRST, "mx1.hidden-relay.example"].sort());

    // The state: each secret record secret on its own, the fields named by key, nothing plain.
    const state = await run(["stack", "export"]);
    expect(showsSecret(state)).toBeUndefined();
    const web = (
      JSON.parse(state) as {
        deployment: { resources: { urn: string; inputs?: Record<string, unknown> }[] };
      }
    ).deployment.resources.find((r) => r.urn.endsWith("::web"));
    expect(web?.inputs?.secretRecords).toEqual(["@/MX:content", "_verify/TXT:content"]);
    const records = web?.inputs?.records as Record<string, unknown>;
    expect(records["www/A"]).toEqual({ name: "www", type: "A", content: "192.0.2.1" });
    expect(JSON.stringify(records["_verify/TXT"])).toContain("ciphertext");

    // Nothing changed: nothing to do (secretness is no change).
    await run(["preview", "--expect-no-changes"]);

    await run(["config", "set", "--secret", "token", SECOND]);
    // The detailed diff shows the changed record, its secret content as [secret].
    const preview = await run(["preview", "--diff"]);
    expect(preview).toMatch(/_verify\/TXT: \{\s+[~+-] content: \[secret\]/);
    const updated = await run(["up", "--yes"]);
    expect(updated).toContain("template web: ~ MODIFY _verify TXT content [secret] -> [secret]");
    expect(contents()).toEqual(["192.0.2.1", SECOND, "mx1.hidden-relay.example"].sort());

    await run(["destroy", "--yes"]);
    expect(sandbox.templateRecords("web")).toEqual([]);
    for (const text of printed) expect(showsSecret(text), text).toBeUndefined();
  });
});
