/**
 * The planner as the unit tests call it: every plan comes from `planResource` (or `planVerify`),
 * the entry points the provider and `domainapi-plan` use; these helpers only build their arguments
 * and narrow the requests of PATCH plans for the assertions.
 */
import type { HeldRecord, KeyedRecord, PlannedPatch } from "../../../provider/records/corrections";
import { pairRecords } from "../../../provider/records/pairing";
import { type Plan, planResource, planVerify, type Settings } from "../../../provider/records/plan";

/** A plan whose requests are all PATCHes, with the records it leaves as they are. */
export type PatchPlan = Omit<Plan, "requests"> & {
  requests: PlannedPatch[];
  unchanged: Array<{ from: HeldRecord; to: KeyedRecord }>;
};

function settingsOf(purge: boolean): Settings {
  return { templateId: "tpl-test", purge, safetyThreshold: false };
}

function patches(plan: Plan): PlannedPatch[] {
  return plan.requests.map((r) => {
    if (r.method !== "PATCH") throw new Error(`expected a PATCH plan, got a ${r.method}`);
    return r;
  });
}

/** The plan of an update from `held` to `declared` (no add of unknown outcome held). */
export function planUpdate(
  held: readonly HeldRecord[],
  declared: readonly KeyedRecord[],
  options: { purge: boolean },
): PatchPlan {
  const settings = settingsOf(options.purge);
  const plan = planResource(
    { settings, held: [...held], untracked: [] },
    { settings, declared: [...declared] },
  );
  return { ...plan, requests: patches(plan), unchanged: pairRecords(held, declared).unchanged };
}

/** The plan of a delete of a resource holding `held`. */
export function planDelete(
  held: readonly HeldRecord[],
  options: { purge: boolean } = { purge: true },
): PatchPlan {
  const plan = planResource(
    { settings: settingsOf(options.purge), held: [...held], untracked: [] },
    undefined,
  );
  return { ...plan, requests: patches(plan), unchanged: [] };
}

/** The verification of every record of `held`. */
export function verifyPlan(held: readonly HeldRecord[]): PatchPlan {
  const plan = planVerify({ settings: settingsOf(true), held: [...held], untracked: [] });
  return { ...plan, requests: patches(plan), unchanged: held.map((r) => ({ from: r, to: r })) };
}
