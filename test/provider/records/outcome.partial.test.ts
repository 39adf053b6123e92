/**
 * What the engine is told of a create or update that did part of its work, or finished with adds
 * of unknown outcome (records/outcome.ts), against the sandbox: a PartialFailure whenever anything
 * was done or may have been, its message with the error's facts, the outputs saying each recovery
 * the run needed, and every value the program marked secret masked.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DomainApiError } from "../../../provider/errors";
import { PartialFailure } from "../../../provider/host/partialFailure";
import { client } from "../../../provider/host/session";
import { NO_SECRETS, type Secrets, secretsOfRecords } from "../../../provider/records/masking";
import { carryOut, type Task } from "../../../provider/records/outcome";
import { type Declaration, type Holding, planResource } from "../../../provider/records/plan";
import * as records from "../../../provider/records/provider";
import { decodeInputs, decodeOutputs } from "../../../provider/records/state";
import { PROVIDER, useConfiguredSandbox, useConsoleLines } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);
const said = useConsoleLines();

beforeEach(() => sandbox.reset());

const A = { name: "@", type: "A", content: "192.0.2.10" };
const WWW = { name: "www", type: "A", content: "192.0.2.11" };
const API = { name: "api", type: "A", content: "192.0.2.12" };

async function wanted(templateId: string, purge: boolean, declared: Props[]): Promise<Declaration> {
  const checked = await records.check({}, { __provider: PROVIDER, templateId, records: declared, purge });
  expect(checked.failures ?? []).toEqual([]);
  return decodeInputs(checked.inputs as Props);
}

function task(holding: Holding | undefined, declaration: Declaration, secrets: Secrets = NO_SECRETS): Task {
  return {
    id: declaration.settings.templateId,
    plan: planResource(holding, declaration),
    holding: holding ?? { settings: declaration.settings, held: [], untracked: [] },
    wanted: declaration,
    inputs: { templateId: declaration.settings.templateId },
    isCreate: holding === undefined,
    reviewed: undefined,
    secrets,
  };
}

async function failureOf(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe("a create stopped part-way", () => {
  it("that added a record before an error: a PartialFailure holding it, with the API's facts", async () => {
    sandbox.seedTemplate("tpl-1", []);
    const declaration = await wanted("tpl-1", false, [A, WWW]);
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 400, body: '{"message":"no"}' } });
    const err = await failureOf(carryOut(client(), task(undefined, declaration)));
    expect(err).toBeInstanceOf(PartialFailure);
    const failure = err as PartialFailure;
    expect(failure.message).toMatch(
      /returned 400 Bad Request.* \[DOMAINAPI_HTTP, HTTP 400, outcome: not-applied\]$/,
    );
    expect(failure.message).not.toMatch(/may or may not exist/);
    const reached = failure.properties as Props;
    expect(Object.keys(reached.ids as Props)).toHaveLength(1);
    expect(String(reached.lastPlan)).toBe(
      "failed: 2 to create, 0 to update, 0 to delete, 0 unchanged (2 requests)",
    );
  });

  it("whose only add may have applied: a PartialFailure that tracks it, never a plain failure", async () => {
    sandbox.seedTemplate("tpl-1", []);
    const declaration = await wanted("tpl-1", false, [A]);
    sandbox.addFault({ method: "PATCH", drop: "after" });
    const err = await failureOf(carryOut(client(), task(undefined, declaration)));
    expect(err).toBeInstanceOf(PartialFailure);
    const reached = (err as PartialFailure).properties as Props;
    expect(reached.untrackedAdds).toBe(true);
    expect(reached.untrackedRecords).toEqual(["@ A 192.0.2.10"]);
    expect((err as PartialFailure).message).toMatch(
      /The record being added may or may not exist in template "tpl-1" now\. It is not added again automatically/,
    );
  });

  it("that did nothing: the API's error itself", async () => {
    sandbox.seedTemplate("tpl-1", []);
    const declaration = await wanted("tpl-1", false, [A]);
    sandbox.addFault({ method: "PATCH", respond: { status: 400 } });
    const err = await failureOf(carryOut(client(), task(undefined, declaration)));
    expect(err).toBeInstanceOf(DomainApiError);
    expect(err).not.toBeInstanceOf(PartialFailure);
  });
});

describe("an update stopped part-way", () => {
  async function deployed(templateId: string, purge: boolean, declared: Props[]): Promise<Holding> {
    const declaration = await wanted(templateId, purge, declared);
    const outs = await carryOut(client(), task(undefined, declaration));
    sandbox.clearRequests();
    said.length = 0;
    return decodeOutputs({ ...outs, __provider: PROVIDER });
  }

  it("a request safe to repeat whose answer was lost: the facts, and no word of a record twice", async () => {
    const holding = await deployed("tpl-1", false, [A, WWW]);
    const declaration = await wanted("tpl-1", false, [A, { ...WWW, content: "192.0.2.99" }]);
    sandbox.addFault({ method: "PATCH", drop: "after" });
    const err = await failureOf(carryOut(client(), { ...task(holding, declaration), isCreate: false }));
    expect(err).toBeInstanceOf(PartialFailure);
    const message = (err as PartialFailure).message;
    expect(message).toMatch(/\[DOMAINAPI_NETWORK, outcome: unknown\]$/);
    expect(message).not.toMatch(/may or may not exist/);
  });

  it("an answer that cannot be attributed: its own message, without the API's facts", async () => {
    const holding = await deployed("tpl-1", true, [A]);
    const declaration = await wanted("tpl-1", true, [A, WWW]);
    // The add applied, and the answer names an id the template already uses for another record.
    const [used] = (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id);
    sandbox.addFault({
      method: "PATCH",
      respondAfterApply: { status: 200, body: JSON.stringify({ record_id: [used] }) },
    });
    const err = await failureOf(carryOut(client(), { ...task(holding, declaration), isCreate: false }));
    expect(err).toBeInstanceOf(PartialFailure);
    const message = (err as PartialFailure).message;
    expect(message).toMatch(
      /^the service's answer cannot be attributed to the request: .*applied all the same$/,
    );
    expect(message).not.toMatch(/\[DOMAINAPI_/);
  });

  it("masks what the program marked secret in the message, the API's own words included", async () => {
    const secret = { name: "hidden", type: "TXT", content: "token-value-123" };
    const holding = await deployed("tpl-1", false, [A]);
    const declaration = await wanted("tpl-1", false, [A, secret]);
    const secrets = secretsOfRecords([secret]);
    const body = JSON.stringify({ message: "record hidden TXT token-value-123 is refused" });
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 400, body } });
    const err = await failureOf(
      carryOut(client(), { ...task(holding, declaration, secrets), isCreate: false }),
    );
    expect(err).toBeInstanceOf(PartialFailure);
    const message = (err as PartialFailure).message;
    expect(message).toContain("record [secret] TXT [secret] is refused");
    expect(message).not.toMatch(/hidden|token-value-123/);
  });
});

describe("a run that finished", () => {
  it("says what each recovery did after the plan", async () => {
    const declaration = await wanted("tpl-1", false, [A, WWW]);
    sandbox.seedTemplate("tpl-1", []);
    const created = await carryOut(client(), task(undefined, declaration));
    const holding = decodeOutputs({ ...created, __provider: PROVIDER });
    const gone = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.name === "www");
    sandbox.deleteRecord("tpl-1", gone!.record_id);
    const changed = await wanted("tpl-1", false, [{ ...A, content: "192.0.2.50" }, WWW]);
    const outs = await carryOut(client(), { ...task(holding, changed), isCreate: false });
    expect(outs.lastPlan).toBe(
      "0 to create, 1 to update, 0 to delete, 1 unchanged (1 request); then 1 to create, 0 to update, 0 to delete, 1 unchanged (1 request)",
    );
    // Nothing of unknown outcome: no word of it.
    expect(said.join("\n")).not.toMatch(/of unknown outcome/);
  });

  it("with adds of unknown outcome still declared (purge: false): a warning naming them, masked, and the outputs track them", async () => {
    const secret = { name: "hidden", type: "A", content: "192.0.2.77" };
    const declaration = await wanted("tpl-1", false, [A, secret, API]);
    const holding: Holding = {
      settings: declaration.settings,
      held: [],
      untracked: ["hidden A 192.0.2.77", "api A 192.0.2.12"],
    };
    sandbox.seedTemplate("tpl-1", []);
    const outs = await carryOut(client(), {
      ...task(holding, declaration, secretsOfRecords([{ name: "hidden", type: "A" }])),
      isCreate: false,
    });
    expect(outs.untrackedRecords).toEqual(["hidden A 192.0.2.77", "api A 192.0.2.12"]);
    expect(said.join("\n")).toContain(
      "template tpl-1: 2 add(s) of unknown outcome may have created records this resource does not track: " +
        "[secret] A 192.0.2.77; api A 192.0.2.12. With purge: false they are never added again automatically; check the template for duplicates.",
    );
  });

  it("keeps the marks of the secret records it holds with the outputs", async () => {
    const secret = { name: "hidden", type: "TXT", content: "token-value-123" };
    const declaration = await wanted("tpl-1", true, [A, secret]);
    const outs = await carryOut(client(), task(undefined, declaration, secretsOfRecords([secret])));
    expect((outs as Props).secretRecords).toEqual(expect.arrayContaining(["hidden/TXT:name"]));
  });
});
