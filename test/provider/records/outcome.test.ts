/**
 * What the engine is told of a create or update (records/outcome.ts), against the sandbox: the
 * outputs of a run that finished; a create that did nothing fails with the API's own error; a run
 * stopped part-way becomes a PartialFailure carrying the state reached, whose message says whether
 * a record may exist twice and what the next `pulumi up` does about it, by `purge`.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DomainApiError } from "../../../provider/errors";
import { PartialFailure } from "../../../provider/host/partialFailure";
import { client } from "../../../provider/host/session";
import { NO_SECRETS } from "../../../provider/records/masking";
import { carryOut } from "../../../provider/records/outcome";
import { type Declaration, planResource } from "../../../provider/records/plan";
import * as records from "../../../provider/records/provider";
import { decodeInputs, decodeOutputs } from "../../../provider/records/state";
import { PROVIDER, useConfiguredSandbox } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);

beforeEach(() => sandbox.reset());

const web = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
];

async function wanted(templateId: string, purge: boolean, extra: Props[] = []): Promise<Declaration> {
  const checked = await records.check(
    {},
    { __provider: PROVIDER, templateId, records: [...web, ...extra], purge },
  );
  expect(checked.failures ?? []).toEqual([]);
  return decodeInputs(checked.inputs as Props);
}

async function created(templateId: string, purge: boolean) {
  const declaration = await wanted(templateId, purge);
  const holding = { settings: declaration.settings, held: [], untracked: [] };
  const plan = planResource(undefined, declaration);
  const task = {
    id: templateId,
    plan,
    holding,
    wanted: declaration,
    inputs: {},
    isCreate: true,
    reviewed: undefined,
    secrets: NO_SECRETS,
  };
  return carryOut(client(), task);
}

async function partialFailureOf(run: () => Promise<unknown>): Promise<PartialFailure> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialFailure);
  return err as PartialFailure;
}

describe("carryOut", () => {
  it("a finished run: the outputs hold each record with its id and say what was done", async () => {
    const outputs = await created("tpl-1", true);
    const ids = Object.values(outputs.ids).sort();
    expect(ids).toEqual((sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort());
    expect(outputs.lastPlan).toMatch(/^2 to create/);
    expect(outputs.untrackedAdds).toBeUndefined();
  });

  it("a create that did nothing fails with the API's error, not a partial state", async () => {
    sandbox.addFault({ method: "PUT", respond: { status: 500 } });
    const err = await created("tpl-1", true).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainApiError);
    expect(err).not.toBeInstanceOf(PartialFailure);
  });

  for (const purge of [true, false]) {
    it(`an add whose answer was lost, purge ${purge}: the state reached, and what the next up does`, async () => {
      const olds = await created("tpl-1", purge);
      const holding = decodeOutputs({ ...olds, __provider: PROVIDER });
      const declaration = await wanted("tpl-1", purge, [{ name: "b", type: "A", content: "192.0.2.9" }]);
      const plan = planResource(holding, declaration);
      const inputs = { templateId: "tpl-1", __provider: PROVIDER };
      // Without purge the first PATCH only verifies the held records (safe to repeat); the add rides
      // the second.
      sandbox.addFault({ method: "PATCH", drop: "after", nth: purge ? 1 : 2 });
      const failure = await partialFailureOf(() =>
        carryOut(client(), {
          id: "tpl-1",
          plan,
          holding,
          wanted: declaration,
          inputs,
          isCreate: false,
          reviewed: undefined,
          secrets: NO_SECRETS,
        }),
      );
      expect(failure.message).toMatch(/\[DOMAINAPI_NETWORK, outcome: unknown\]/);
      expect(failure.message).toMatch(/may or may not exist in template "tpl-1" now/);
      expect(failure.message).toMatch(
        purge ? /rewritten with one PUT/ : /not added again automatically .* remove a duplicate by hand/,
      );
      const reached = failure.properties as Props;
      expect(reached.__provider).toBe(PROVIDER);
      expect(reached.untrackedAdds).toBe(true);
      expect(reached.ids).toEqual(olds.ids);
      expect(String(reached.lastPlan)).toMatch(/^failed: 1 to create/);
    });
  }
});
