/**
 * A record whose content the program made with `pulumi.secret`, under the real engine, through the
 * dynamic resource: what `pulumi up` and `pulumi preview` print and the engine's events (the
 * provider's announcements among them) never hold the secret, every change is still said with
 * `[secret]` in its place, the template holds the real content, the state names the secret record
 * by its key only, and an unchanged program shows no diff.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { domainapi, requireFromWork, typeToken, useSandbox, useStack } from "./harness";
import { API_KEY, recordsStack } from "./records-helpers";

const pulumi = requireFromWork<typeof Pulumi>("@pulumi/pulumi");

const FIRST = "site-verification=Zq7RkP2mXw9Lc4Vt";
const SECOND = "site-verification=Hn3BdY8sJf6Ga1Qe";

const desired = { token: FIRST, api: "192.0.2.20" };

function program() {
  return async () => {
    const { DnsTemplateRecords } = domainapi();
    new DnsTemplateRecords("web", {
      templateId: "web",
      purge: false,
      records: [
        { name: "@", type: "A", content: "192.0.2.10" },
        { name: "api", type: "A", content: desired.api },
        { name: "_verify", type: "TXT", content: pulumi.secret(desired.token) },
      ],
    });
    return {};
  };
}

/**
 * The Pulumi Node SDK's own debug line of every resource registration, which quotes the engine's
 * answer with every secret in it as plain text (`@pulumi/pulumi` runtime/resource.js:
 * `log.debug(\`RegisterResource RPC finished: ${label}; err: ${rpcErr}, resp: ${innerResponse}\`)`).
 * It is the program's, not the provider's: any Node program with a secret output sends it, at
 * debug severity, which `pulumi up` prints only with `--debug` or `-v`.
 */
function isSdkRegistrationDebug(e: EngineEvent): boolean {
  const d = e.diagnosticEvent;
  // The event types leave out the debug severity that the engine sends.
  return String(d?.severity) === "debug" && /^(Register|Read)Resource RPC finished: /.test(d?.message ?? "");
}

/**
 * What one operation showed a user: the printed output and every engine event (the SDK's own
 * registration debug lines left out, above).
 */
function shown(result: { stdout: string; stderr: string }, events: EngineEvent[]): string {
  const ours = events.filter((e) => !isSdkRegistrationDebug(e));
  return [result.stdout, result.stderr, JSON.stringify(ours)].join("\n");
}

/** The provider's own messages among the events (diagnostics), one string per message. */
function diagnostics(events: EngineEvent[]): string[] {
  return events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent.message] : []));
}

describe("a record the program made secret (dynamic resource)", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const s = useStack(() => recordsStack(sandbox, program()));

  const created: EngineEvent[] = [];
  let createdResult: { stdout: string; stderr: string };
  beforeAll(async () => {
    createdResult = await s.up({ onEvent: (e) => created.push(e) });
  });

  it("is created with its real content, said as [secret], and named in the state by its key only", async () => {
    expect(sandbox.templateRecords("web")?.find((r) => r.name === "_verify")?.content).toBe(FIRST);
    expect(shown(createdResult, created)).not.toContain(FIRST);
    expect(diagnostics(created).join("\n")).toContain("+ CREATE _verify TXT [secret]");
    expect(diagnostics(created).join("\n")).toContain("+ CREATE api A 192.0.2.20");
    const [web] = await s.resources(typeToken("DnsTemplateRecords"));
    expect(web?.inputs?.secretRecords).toEqual(["_verify/TXT:content"]);
    expect(web?.outputs?.secretRecords).toEqual(["_verify/TXT:content"]);
    expect(await s.exportText()).not.toContain(FIRST);
  });

  it("an unchanged program shows no change", async () => {
    const preview = await s.preview({ diff: true });
    expect(preview.changeSummary).not.toHaveProperty("update");
    expect(preview.changeSummary.same).toBeGreaterThan(0);
  });

  it("a change of it is previewed and applied as [secret], never with either value", async () => {
    desired.token = SECOND;
    desired.api = "192.0.2.21";
    const previewed: EngineEvent[] = [];
    const preview = await s.preview({ diff: true, onEvent: (e) => previewed.push(e) });
    expect(preview.changeSummary.update).toBe(1);
    const said = diagnostics(previewed).join("\n");
    expect(said).toContain("~ MODIFY _verify TXT content [secret] -> [secret]");
    expect(said).toContain("~ MODIFY api A content 192.0.2.20 -> 192.0.2.21");
    const updated: EngineEvent[] = [];
    const up = await s.up({ onEvent: (e) => updated.push(e) });
    expect(diagnostics(updated).join("\n")).toContain(
      "template web: ~ MODIFY _verify TXT content [secret] -> [secret]",
    );
    for (const text of [shown(preview, previewed), shown(up, updated)]) {
      expect(text).not.toContain(FIRST);
      expect(text).not.toContain(SECOND);
    }
    expect(sandbox.templateRecords("web")?.find((r) => r.name === "_verify")?.content).toBe(SECOND);
  });

  it("is never said with its value when the stack is destroyed", async () => {
    const events: EngineEvent[] = [];
    const result = await s.destroy({ onEvent: (e) => events.push(e) });
    expect(shown(result, events)).not.toContain(SECOND);
    // The removal's line is the provider's last message before the engine stops it: the delete
    // answers only once it is delivered (provider/log.ts, `delivered`), and it is masked.
    const removal = diagnostics(events).filter((m) => m.includes("- DELETE _verify"));
    expect(removal).toHaveLength(1);
    expect(removal[0]).toContain("- DELETE _verify TXT [secret]");
    expect(sandbox.templateRecords("web")).toEqual([]);
  });
});
