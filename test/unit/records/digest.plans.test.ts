/**
 * The reviewed-plan guard against the plans themselves (docs/design.md, "The reviewed-plan guard"):
 * two plans that send different requests never share a digest, so a reviewed digest lets through
 * exactly the plan reviewed; a verification is never a reviewed plan, while a plan that sends
 * requests without listing a change (a removal of adds of unknown outcome) is held to its digest
 * like any other; and each refusal says which plans were reviewed, where and how, and what was not sent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import {
  parseExpectation,
  planDigest,
  refusalOf,
  type TemplateApplied,
} from "../../../provider/records/digest";
import { type Plan, planResource, planVerify, type Settings } from "../../../provider/records/plan";
import { decodeInputs } from "../../../provider/records/state";
import { held, recordsArb } from "./arbitraries";

const applied: TemplateApplied = {
  account: "https://api.example.com",
  purge: false,
  safetyThreshold: { minExistingRecords: 10, maxChangePercent: 30 },
};

/** The plan of a first `up` that declares `records` in template "web". */
function planOf(records: readonly RecordSpec[], purge = false): Plan {
  return planResource(undefined, decodeInputs({ templateId: "web", records: [...records], purge }));
}

/** The expectation of `DOMAINAPI_EXPECT_PLAN=<value>`, bound to where the plan applies. */
function expecting(value: string, where: TemplateApplied = applied) {
  const parsed = parseExpectation(value);
  if (parsed === undefined) throw new Error("unset");
  return { ...parsed, applied: where };
}

describe("two plans that send different requests", () => {
  it("never share a digest, so the digest of one refuses the other (property)", () => {
    fc.assert(
      fc.property(recordsArb, recordsArb, fc.boolean(), (a, b, purge) => {
        const [pa, pb] = [planOf(a, purge), planOf(b, purge)];
        const sentA = JSON.stringify(pa.requests.map((r) => [r.method, r.body]));
        const sentB = JSON.stringify(pb.requests.map((r) => [r.method, r.body]));
        const [da, db] = [planDigest(pa, applied), planDigest(pb, applied)];
        if (sentA === sentB) expect(da).toBe(db);
        else {
          expect(da).not.toBe(db);
          if (pb.requests.length > 0) expect(refusalOf(pb, expecting(`web=${da}`))).toMatch(/^refusing/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("differ by one record's content, the same count of requests and records", () => {
    const one = planOf([{ name: "www", type: "A", content: "192.0.2.1" }]);
    const other = planOf([{ name: "www", type: "A", content: "192.0.2.66" }]);
    expect(other.text).toBe(one.text);
    expect(planDigest(other, applied)).not.toBe(planDigest(one, applied));
    expect(refusalOf(other, expecting(`web=${planDigest(one, applied)}`))).toMatch(
      /^refusing to change template "web": its plan is not the reviewed one/,
    );
    expect(refusalOf(one, expecting(`web=${planDigest(one, applied)}`))).toBeUndefined();
  });
});

describe("a verification and the plans that list no change", () => {
  const settings: Settings = { templateId: "web", purge: true, safetyThreshold: false };
  const records = () => held([{ name: "www", type: "A", content: "192.0.2.1" }]);

  it("refuses a verification even when its own digest was given: no review shows one", () => {
    const verify = planVerify({ settings, held: records(), untracked: [] });
    expect(verify.requests).toHaveLength(1);
    const digest = planDigest(verify, applied);
    expect(refusalOf(verify, expecting(`web=${digest}`))).toBe(
      'refusing to verify template "web" under DOMAINAPI_EXPECT_PLAN: a verification re-states every held record ' +
        "(a record edited outside Pulumi under the same id is set back), and no reviewed plan shows it. Nothing was sent. " +
        "Run the verifying `pulumi refresh` on its own, without DOMAINAPI_EXPECT_PLAN.",
    );
    // Unset, nothing is guarded: the verification runs.
    expect(refusalOf(verify, undefined)).toBeUndefined();
  });

  it("holds a removal that only clears adds of unknown outcome to its digest, as any plan", () => {
    // Purge, nothing held, an add of unknown outcome: the removal is one PUT of no record, no change listed.
    const removal = planResource({ settings, held: [], untracked: ["www A 192.0.2.9"] }, undefined);
    expect(removal.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(removal.corrections).toEqual([]);
    const where = { ...applied, purge: true };
    expect(refusalOf(removal, expecting(`web=${planDigest(removal, where)}`, where))).toBeUndefined();
    expect(refusalOf(removal, expecting("none", where))).toMatch(
      /^refusing to change template "web": its plan is not the reviewed one/,
    );
  });

  it("holds a create that rewrites the template with no record to its digest, as any plan", () => {
    const empty = planOf([], true);
    expect(empty.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(empty.corrections).toEqual([]);
    const where = { ...applied, purge: true };
    expect(refusalOf(empty, expecting(`web=${planDigest(empty, where)}`, where))).toBeUndefined();
    expect(refusalOf(empty, expecting("none", where))).toMatch(/its plan is not the reviewed one/);
  });
});

describe("what a refusal says", () => {
  // Made in each test, not when the file is collected: its code is then covered test by test.
  const planned = () => {
    const plan = planOf([{ name: "www", type: "A", content: "192.0.2.1" }]);
    return { plan, digest: planDigest(plan, applied) };
  };

  it("of a template no plan was reviewed for: that none was, and that nothing was sent", () => {
    const { plan, digest } = planned();
    expect(refusalOf(plan, expecting("mail=0123456789abcdef0123456789abcdef"))).toBe(
      `refusing to change template "web": its plan is not the reviewed one (DOMAINAPI_EXPECT_PLAN): it is now ${digest} ` +
        `(${plan.text}), no plan of this template was reviewed. Nothing was sent for this template. ` +
        "Preview again, review the new plan, and run `pulumi up` with its digest.",
    );
  });

  it("of another plan: the reviewed digests, where and how the digest was taken", () => {
    const { plan, digest } = planned();
    const reviewed = "0123456789abcdef0123456789abcdef";
    expect(refusalOf(plan, expecting(`web=${reviewed} web=fedcba9876543210fedcba9876543210`))).toBe(
      `refusing to change template "web": its plan is not the reviewed one (DOMAINAPI_EXPECT_PLAN): it is now ${digest} ` +
        `(${plan.text}), the reviewed plan was ${reviewed} or fedcba9876543210fedcba9876543210 (a digest covers the ` +
        "plan's requests and account https://api.example.com, purge false, safety threshold 30% of at least 10: " +
        "a plan reviewed for another account or with other settings is another plan). Nothing was sent for this template. " +
        "Preview again, review the new plan, and run `pulumi up` with its digest.",
    );
  });

  it("names the threshold off and an account not known", () => {
    const { plan } = planned();
    const where: TemplateApplied = { account: undefined, purge: true, safetyThreshold: false };
    expect(refusalOf(plan, expecting("web=0123456789abcdef0123456789abcdef", where))).toContain(
      "(a digest covers the plan's requests and account (not known), purge true, safety threshold off: ",
    );
  });

  it("of a recovery: the reviewed requests were sent, the recovery was not", () => {
    const { plan, digest } = planned();
    expect(refusalOf(plan, expecting("none"), true)).toBe(
      `refusing to change template "web": its plan is not the reviewed one (DOMAINAPI_EXPECT_PLAN): it is now ${digest} ` +
        `(${plan.text}), no plan of this template was reviewed. The reviewed requests found records removed outside ` +
        "Pulumi; the recovery, a plan nobody reviewed, was not sent. " +
        "Preview again, review the new plan, and run `pulumi up` with its digest.",
    );
  });

  it("of a blank value: why it is likely blank, and the two ways on", () => {
    const { plan, digest } = planned();
    expect(refusalOf(plan, { kind: "blank", applied })).toBe(
      `refusing to change template "web": DOMAINAPI_EXPECT_PLAN is set but empty, so no plan is a reviewed one ` +
        `(its plan now is ${digest}: ${plan.text}). An empty value is what a failed \`domainapi-plan --expect\` leaves ` +
        "in `$(...)` (the preview failed, a plan is known only during `pulumi up`, or a template's records are secret in the preview). " +
        "Nothing was sent for this template. Set it to the reviewed value, or unset it to apply without a reviewed plan.",
    );
  });

  it("refuses an expectation bound without purge or without the threshold, as a programming error", () => {
    const { plan, digest } = planned();
    const reviewed = parseExpectation(`web=${digest}`)!;
    for (const bound of [
      { account: applied.account, safetyThreshold: applied.safetyThreshold },
      { account: applied.account, purge: false },
    ]) {
      expect(() => refusalOf(plan, { ...reviewed, applied: bound })).toThrow(
        new TypeError("refusalOf: bind the expectation to where the plan applies (appliedAt)"),
      );
    }
  });
});
