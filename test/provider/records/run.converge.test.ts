/**
 * The run loop (records/run.ts) against the sandbox, called as the provider calls it: what it says
 * while it carries a plan out (each correction with its id, a PUT's records, a record no longer
 * tracked, what vanished), the journal it writes before each request, and what it returns when a
 * run stops part-way (never thrown: the caller keeps the state reached).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { client } from "../../../provider/host/session";
import type { RunJournal } from "../../../provider/records/interrupted";
import { secretsOfRecords } from "../../../provider/records/masking";
import {
  type Declaration,
  type HeldRecord,
  type Holding,
  type KeyedRecord,
  planRefresh,
  planResource,
  type Settings,
} from "../../../provider/records/plan";
import * as records from "../../../provider/records/provider";
import { converge } from "../../../provider/records/run";
import { useConfiguredSandbox, useConsoleLines } from "../helpers";

const sandbox = useConfiguredSandbox(records);
const said = useConsoleLines();

beforeEach(() => sandbox.reset());

const settings = (purge: boolean, templateId = "web"): Settings => ({
  templateId,
  purge,
  safetyThreshold: false,
});
const rec = (name: string, content: string): KeyedRecord => ({ name, type: "A", content, key: `${name}/A` });
const apex = rec("@", "192.0.2.1");
const www = rec("www", "192.0.2.2");
const api = rec("api", "192.0.2.3");

/** The template seeded with `records`, held by the resource under the ids the sandbox gave them. */
function seeded(purge: boolean, rs: KeyedRecord[], untracked: string[] = []): Holding {
  const ids = sandbox.seedTemplate(
    "web",
    rs.map(({ key: _, ...r }) => r),
  );
  const held = rs.map((r, i): HeldRecord => ({ ...r, recordId: ids[i]! }));
  return { settings: settings(purge), held, untracked };
}

const declare = (purge: boolean, declared: KeyedRecord[]): Declaration => ({
  settings: settings(purge),
  declared,
});

/** What the provider said, without the runtime's prefix. */
const lines = () => said.flatMap((l) => l.split("\n")).map((l) => l.replace(/^\w+: \[runtime\] /, ""));

describe("what a run says", () => {
  it("each correction once carried out, with its id: created, kept, removed; a verification says nothing", async () => {
    const holding = seeded(false, [apex, www, api]);
    const [apexId, wwwId, apiId] = holding.held.map((r) => r.recordId);
    const mail: KeyedRecord = { name: "mail", type: "TXT", content: "v=spf1 -all", key: "mail/TXT" };
    const wanted = declare(false, [apex, { ...www, content: "192.0.2.9" }, mail]);
    const run = await converge(client(), holding, planResource(holding, wanted), { declaration: wanted });
    expect(run.failure).toBeUndefined();
    const made = run.held.find((r) => r.name === "mail")!.recordId;
    expect(lines()).toEqual([
      `template web: - DELETE api A 192.0.2.3 (id ${apiId} removed)`,
      `template web: ~ MODIFY www A content 192.0.2.2 -> 192.0.2.9 (id ${wwwId} kept)`,
      `template web: + CREATE mail TXT v=spf1 -all (id ${made})`,
    ]);
    expect(lines().join("\n")).not.toContain(apexId);
  });

  it("a verification that finds every record says nothing at all", async () => {
    const holding = seeded(false, [apex, www]);
    const run = await converge(client(), holding, planRefresh(holding, true));
    expect(run.failure).toBeUndefined();
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH"]);
    expect(said).toEqual([]);
  });

  it("a PUT: how many records it wrote, then each with its new id", async () => {
    const wanted = declare(true, [apex, www]);
    sandbox.seedTemplate("web", []);
    const holding: Holding = { settings: settings(true), held: [], untracked: [] };
    const run = await converge(client(), holding, planResource(undefined, wanted), { declaration: wanted });
    const id = (name: string) => run.held.find((r) => r.name === name)!.recordId;
    expect(lines()).toEqual([
      "template web: wrote 2 record(s) with one PUT (every record id is new)",
      `template web: + CREATE @ A 192.0.2.1 (id ${id("@")})`,
      `template web: + CREATE www A 192.0.2.2 (id ${id("www")})`,
    ]);
  });

  it("an add of unknown outcome no longer declared: a last warning, masked, before anything is sent", async () => {
    const holding = seeded(false, [apex], ["hidden A 192.0.2.77"]);
    const wanted = declare(false, [apex]);
    const plan = planResource(holding, wanted);
    expect(plan.forgotten).toEqual(["hidden A 192.0.2.77"]);
    await converge(client(), holding, plan, {
      declaration: wanted,
      secrets: secretsOfRecords([{ name: "hidden", type: "A" }]),
    });
    expect(lines()).toEqual([
      "template web: no longer declared, so no longer tracked: [secret] A 192.0.2.77. Its add's outcome was never " +
        "known: if the record exists in the template, remove it by hand.",
    ]);
  });

  it("records that vanished, masked, with the command that rewrites the template; then the recovery", async () => {
    const holding = seeded(false, [apex, www]);
    const [, wwwId] = holding.held.map((r) => r.recordId);
    sandbox.deleteRecord("web", wwwId!);
    const wanted = declare(false, [{ ...apex, content: "192.0.2.8" }, www]);
    const run = await converge(client(), holding, planResource(holding, wanted), {
      declaration: wanted,
      secrets: secretsOfRecords([{ name: "www", type: "A" }]),
    });
    expect(run.failure).toBeUndefined();
    expect(run.vanished).toEqual([`[secret] A 192.0.2.2 (${wwwId})`]);
    expect(run.recoveries).toHaveLength(1);
    const said = lines().join("\n");
    expect(said).toContain(
      `template web: records removed outside Pulumi or by an interrupted run: [secret] A 192.0.2.2 (${wwwId}). ` +
        "A run interrupted after an add may also have left a copy that no request can find: with purge: true, " +
        "`DOMAINAPI_REWRITE=web pulumi up` rewrites the template exactly with one PUT.",
    );
    expect(said).toContain(
      `template web: recovering from records removed outside Pulumi or by an interrupted run: ${run.recoveries[0]!.text}`,
    );
    expect(
      sandbox
        .templateRecords("web")
        ?.map((r) => `${r.name} ${r.content}`)
        .sort(),
    ).toEqual(["@ 192.0.2.8", "www 192.0.2.2"]);
  });

  it("with purge, a record to keep vanished: says the template is rewritten with one PUT", async () => {
    const holding = seeded(true, [apex, www]);
    sandbox.deleteRecord("web", holding.held[1]!.recordId);
    const wanted = declare(true, [{ ...apex, content: "192.0.2.8" }, www]);
    const run = await converge(client(), holding, planResource(holding, wanted), { declaration: wanted });
    expect(run.failure).toBeUndefined();
    expect(lines().join("\n")).toContain(
      "template web: a record this resource keeps was removed outside Pulumi or by an interrupted run; the template " +
        `is rewritten with one PUT (purge: true): ${run.recoveries[0]!.text}`,
    );
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH", "PUT"]);
  });
});

describe("what a run returns", () => {
  it("a removal whose template is gone is done: nothing held, and it says so", async () => {
    // With purge, after an add of unknown outcome, a removal is one PUT of no records.
    const holding: Holding = {
      settings: settings(true, "gone"),
      held: [{ ...apex, recordId: "rec-1" }],
      untracked: ["x A 192.0.2.5"],
    };
    const done = await converge(client(), holding, planResource(holding, undefined));
    expect(done.failure).toBeUndefined();
    expect(done.held).toEqual([]);
    expect(lines()).toContain("template gone no longer exists; nothing left to remove");
  });

  it("an update whose template is gone stops with the API's error, keeping what it held", async () => {
    const holding: Holding = { settings: settings(false, "gone"), held: [], untracked: [] };
    const wanted = { settings: settings(false, "gone"), declared: [apex] };
    const run = await converge(client(), holding, planResource(holding, wanted), { declaration: wanted });
    expect((run.failure as Error).message).toMatch(/^DNS template "gone" was not found/);
    expect(run.held).toEqual([]);
  });

  it("a plan that recovers from a refusal without the declaration to recover towards is a programming error", async () => {
    const holding = seeded(false, [apex, www]);
    sandbox.deleteRecord("web", holding.held[0]!.recordId);
    const wanted = declare(false, [apex, { ...www, content: "192.0.2.9" }]);
    const run = await converge(client(), holding, planResource(holding, wanted));
    expect(run.failure).toEqual(
      new TypeError("converge: a plan that recovers from a refusal needs the declaration"),
    );
  });

  it("writes the journal before each request with what it holds, and clears it once the run is over", async () => {
    const holding = seeded(false, [apex]);
    const wanted = declare(false, [apex, www, api]);
    const plan = planResource(holding, wanted);
    const events: string[] = [];
    const journal: RunJournal = {
      sending: (tracked, request, text) =>
        events.push(`${request.method} after ${tracked.held.map((r) => r.name).join(",")}: ${text}`),
      clear: () => events.push("clear"),
    };
    const failed = await converge(client(), holding, plan, { declaration: wanted, journal });
    expect(failed.failure).toBeUndefined();
    expect(events).toEqual([
      `PATCH after @: ${plan.text}`,
      `PATCH after @: ${plan.text}`,
      `PATCH after @,api: ${plan.text}`,
      "clear",
    ]);
  });

  it("clears the journal too when the run stops part-way", async () => {
    const holding: Holding = { settings: settings(false, "gone"), held: [], untracked: [] };
    const wanted = { settings: settings(false, "gone"), declared: [apex] };
    const events: string[] = [];
    const journal: RunJournal = { sending: () => events.push("sending"), clear: () => events.push("clear") };
    const run = await converge(client(), holding, planResource(holding, wanted), {
      declaration: wanted,
      journal,
    });
    expect(run.failure).toBeDefined();
    expect(events).toEqual(["sending", "clear"]);
  });
});
