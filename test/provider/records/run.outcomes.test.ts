/**
 * What the run loop (records/run.ts) does with each kind of answer, through the provider's methods
 * against the sandbox: a line per correction only once it is carried out (with every id a URL
 * forward's add was answered with), an answer that applied but cannot be attributed or a refusal
 * for another reason than a vanished record stops the run, and a recovery keeps tracking the adds
 * of unknown outcome it set aside. Counted as the sandbox saw the requests.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { useConfiguredSandbox, useConsoleLines } from "../helpers";
import { checked, deployed as deployedTemplate, type Props, txt } from "./deployed";

const sandbox = useConfiguredSandbox(records);
const said = useConsoleLines();

beforeEach(() => sandbox.reset());

/** A template created, with its requests and lines forgotten: each test counts its own. */
async function deployed(templateId: string, declared: Props[], purge: boolean) {
  const made = await deployedTemplate(templateId, declared, purge);
  sandbox.clearRequests();
  said.length = 0;
  return made;
}

function changing(): string[] {
  return sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method);
}

function idOf(templateId: string, name: string): string {
  const found = (sandbox.templateRecords(templateId) ?? []).find((r) => r.name === name);
  if (found === undefined) throw new Error(`no record ${name} in ${templateId}`);
  return found.record_id;
}

async function failureOf(action: Promise<unknown>): Promise<Error & { properties?: Props }> {
  const err = await action.then(
    () => undefined,
    (e: unknown) => e as Error & { properties?: Props },
  );
  if (err === undefined) throw new Error("expected the operation to fail");
  return err;
}

describe("the line of an add", () => {
  it("names every id the answer to a URL forward's add named: its own and those of the records made for it", async () => {
    const forward = { name: "go", type: "URLFWD", content: "https://www.example.net/" };
    const inputs = await checked({
      templateId: "web",
      records: [forward],
      purge: false,
      safetyThreshold: false,
    });
    await records.create(inputs);
    // The sandbox, as the spec says, makes an A and an AAAA record at the forward's name.
    const ids = (sandbox.templateRecords("web") ?? []).filter((r) => r.name === "go").map((r) => r.record_id);
    expect(ids).toHaveLength(3);
    const line = said.find((l) => l.includes("+ CREATE go URLFWD"));
    expect(line).toContain(`(id ${[...ids].sort().join(", ")})`);
  });
});

describe("a PATCH refused because a record it names vanished", () => {
  it("says none of its corrections: only those carried out afterwards, each once", async () => {
    const { id, inputs, outs } = await deployed("tpl-1", txt(3), false);
    const goneId = idOf("tpl-1", "h1");
    const keptId = idOf("tpl-1", "h0");
    sandbox.deleteRecord("tpl-1", goneId);
    const news = await checked(
      {
        templateId: "tpl-1",
        purge: false,
        safetyThreshold: false,
        records: txt(3).map((r, i) => (i === 0 ? { ...r, content: "changed" } : r)),
      },
      inputs,
    );
    await records.update(id, outs, news);
    const lines = said.join("\n").split("\n");
    expect(lines.filter((l) => l.includes("~ MODIFY h0 TXT"))).toEqual([
      `info: [runtime] template tpl-1: ~ MODIFY h0 TXT content value 0 -> changed (id ${keptId} kept)`,
    ]);
    expect(lines.filter((l) => l.includes("+ CREATE h1 TXT"))).toHaveLength(1);
  });

  it("with purge is recovered by one PUT, and names no vanished record it did not look for", async () => {
    const { id, inputs, outs } = await deployed("tpl-2", txt(3), true);
    sandbox.deleteRecord("tpl-2", idOf("tpl-2", "h1"));
    const news = await checked(
      {
        templateId: "tpl-2",
        purge: true,
        safetyThreshold: false,
        records: txt(3).map((r, i) => (i === 0 ? { ...r, content: "changed" } : r)),
      },
      inputs,
    );
    await records.update(id, outs, news);
    expect(changing()).toEqual(["PATCH", "PUT"]);
    const warnings = said.filter((l) => l.includes("removed outside Pulumi"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the template is rewritten with one PUT \(purge: true\)/);
    expect(said.join("\n")).not.toContain("records removed outside Pulumi or by an interrupted run:");
  });

  it("is recovered without forgetting an add of unknown outcome that is still declared", async () => {
    const { id, inputs, outs } = await deployed("tpl-3", txt(3), false);
    // The state says an add of h3 may have applied: it is set aside, never re-sent.
    const lost = { ...outs, untrackedAdds: true, untrackedRecords: ["h3 TXT value 3"] };
    sandbox.deleteRecord("tpl-3", idOf("tpl-3", "h1"));
    const news = await checked(
      {
        templateId: "tpl-3",
        purge: false,
        safetyThreshold: false,
        records: txt(4).map((r, i) => (i === 0 ? { ...r, content: "changed" } : r)),
      },
      inputs,
    );
    const result = await records.update(id, lost, news);
    expect((sandbox.templateRecords("tpl-3") ?? []).map((r) => r.name).sort()).toEqual(["h0", "h1", "h2"]);
    expect((result.outs as unknown as Props).untrackedRecords).toEqual(["h3 TXT value 3"]);
  });
});

describe("an update whose requests are accepted", () => {
  it("keeps tracking an add of unknown outcome that is still declared, and never sends it", async () => {
    const { id, inputs, outs } = await deployed("tpl-4", txt(2), false);
    const lost = { ...outs, untrackedAdds: true, untrackedRecords: ["h2 TXT value 2"] };
    const news = await checked(
      {
        templateId: "tpl-4",
        purge: false,
        safetyThreshold: false,
        records: txt(3).map((r, i) => (i === 0 ? { ...r, content: "changed" } : r)),
      },
      inputs,
    );
    const result = await records.update(id, lost, news);
    expect(changing()).toEqual(["PATCH"]);
    expect((sandbox.templateRecords("tpl-4") ?? []).map((r) => r.name).sort()).toEqual(["h0", "h1"]);
    expect((result.outs as unknown as Props).untrackedRecords).toEqual(["h2 TXT value 2"]);
  });
});

describe("an answer that stops the run", () => {
  it("a PUT that applied but whose ids cannot be attributed fails the create, its records of unknown outcome", async () => {
    const inputs = await checked({
      templateId: "tpl-4",
      records: txt(2),
      purge: true,
      safetyThreshold: false,
    });
    sandbox.addFault({
      method: "PUT",
      respondAfterApply: { status: 200, body: '{"record_id":["same","same"]}' },
    });
    const err = await failureOf(records.create(inputs));
    expect(err.message).toMatch(
      /the PUT of 2 record\(s\) was answered with 2 record id\(s\) \(\["same","same"\]\)/,
    );
    expect(err.properties?.untrackedRecords).toEqual(["h0 TXT value 0", "h1 TXT value 1"]);
  });

  it("a PATCH refused for another reason than a vanished record fails the update: nothing is searched", async () => {
    const { id, inputs, outs } = await deployed("tpl-5", txt(3), false);
    const news = await checked(
      {
        templateId: "tpl-5",
        purge: false,
        safetyThreshold: false,
        records: txt(3).map((r, i) => (i === 0 ? { ...r, content: "changed" } : r)),
      },
      inputs,
    );
    sandbox.addFault({ method: "PATCH", respond: { status: 422 } });
    const err = await failureOf(records.update(id, outs, news));
    expect(err.message).toMatch(/422/);
    expect(changing()).toEqual(["PATCH"]);
    expect(said.join("\n")).not.toMatch(/MODIFY|removed outside Pulumi/);
  });
});
