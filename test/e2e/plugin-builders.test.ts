/**
 * The record builders as the plugin's functions under the real engine: a Pulumi YAML program, run
 * with a plain `pulumi up` through the real YAML language host, builds its SPF, DMARC and CAA
 * records with `fn::invoke` and hands them to a DnsTemplateRecords; the records reach the sandbox
 * as built, the next preview shows no change, and a bad argument fails the preview naming it
 * before anything is sent.
 */
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProject,
  type Project,
  requireBuiltPlugin,
  yamlLanguageHost,
  yamlProgram,
} from "./plugin-helpers";

const API_KEY = "builders-key-5e8a1c";

const PROGRAM = yamlProgram(
  "domainapi-builders",
  `config:
  spfAll:
    type: string
    default: softfail
variables:
  spf:
    fn::invoke:
      function: domainapi:index:spf
      arguments:
        mx: true
        include: [_spf.mailhost.example]
        all: \${spfAll}
  dmarc:
    fn::invoke:
      function: domainapi:index:dmarc
      arguments:
        policy: quarantine
        percent: 50
        rua: [mailto:dmarc@shop.example]
  caa:
    fn::invoke:
      function: domainapi:index:caa
      arguments:
        tag: issue
        value: letsencrypt.org
resources:
  mail:
    type: domainapi:index:DnsTemplateRecords
    properties:
      templateId: mail
      records:
        - name: "@"
          type: MX
          content: mx.{domainname}
          priority: 10
        - \${spf.record}
        - \${dmarc.record}
        - \${caa.record}
outputs:
  spfLookups: \${spf.lookups}
  spfLookupTerms: \${spf.lookupTerms}
`,
);

describe("the record builders through the plugin, from a YAML program", () => {
  let sandbox: Sandbox;
  let project: Project;

  beforeAll(async () => {
    requireBuiltPlugin();
    const yamlBin = await yamlLanguageHost();
    sandbox = await startSandbox({ apiKey: API_KEY });
    project = createProject({ "Pulumi.yaml": PROGRAM }, [yamlBin]);
    await project.pulumi(["stack", "init", "dev"]);
    await project.setConfig({
      plain: { "domainapi:baseUrl": sandbox.url },
      secret: { "domainapi:apiKey": API_KEY },
    });
  }, 600_000);

  afterAll(async () => {
    project?.cleanup();
    await sandbox?.close();
  });

  const held = () =>
    (sandbox.templateRecords("mail") ?? [])
      .map((r) => `${r.name} ${r.type} ${r.priority ?? "-"} ${r.content}`)
      .sort();

  it("fn::invoke builds SPF, DMARC and CAA; up creates them; the next preview changes nothing; a bad argument fails naming it", async () => {
    await project.pulumi(["up", "--yes"]);
    expect(held()).toEqual(
      [
        '@ CAA - 0 issue "letsencrypt.org"',
        "@ MX 10 mx.{domainname}",
        "@ TXT - v=spf1 mx include:_spf.mailhost.example ~all",
        "_dmarc TXT - v=DMARC1; p=quarantine; pct=50; rua=mailto:dmarc@shop.example",
      ].sort(),
    );
    const { stdout: outputs } = await project.pulumi(["stack", "output", "--json"]);
    expect(JSON.parse(outputs)).toEqual({
      spfLookups: 2,
      spfLookupTerms: ["mx", "include:_spf.mailhost.example"],
    });

    // The functions answer the same records again: nothing to change, nothing written.
    sandbox.clearRequests();
    const { stdout: preview } = await project.pulumi(["preview", "--expect-no-changes"]);
    expect(preview).toMatch(/2 unchanged/);
    expect(sandbox.requests.filter((r) => r.method !== "GET")).toEqual([]);

    // A bad argument: the preview fails with the argument and the fix, and sends nothing.
    await project.pulumi(["config", "set", "spfAll", "pass"]);
    const failed = await project.pulumi(["preview"]).then(
      () => "the preview passed",
      (err: Error) => err.message,
    );
    expect(failed).toContain("domainapi:index:spf");
    expect(failed).toMatch(/all.*"pass" \(\+all\) would let anyone send/);
    expect(sandbox.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(held()).toHaveLength(4);
  }, 600_000);
});
