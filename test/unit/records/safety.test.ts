import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InputIssue } from "../../../provider/dns/issues";
import {
  checkSafety,
  DEFAULT_SAFETY_THRESHOLD,
  type PlannedChanges,
  SAFETY_OVERRIDE_ENV,
  safetyOverridden,
  validateSafetyThreshold,
} from "../../../provider/records/safety";

/** An issue as one line, `property: reason`. */
function formatIssue(issue: InputIssue): string {
  return `${issue.property}: ${issue.reason}`;
}

/** No override in the environment, whatever the machine running the tests has set. */
const NO_ENV: NodeJS.ProcessEnv = {};

describe("validateSafetyThreshold", () => {
  it("defaults when absent or true, turns off with false", () => {
    expect(validateSafetyThreshold(undefined)).toEqual({ threshold: DEFAULT_SAFETY_THRESHOLD, issues: [] });
    expect(validateSafetyThreshold(true)).toEqual({ threshold: DEFAULT_SAFETY_THRESHOLD, issues: [] });
    expect(validateSafetyThreshold(false)).toEqual({ threshold: false, issues: [] });
    expect(DEFAULT_SAFETY_THRESHOLD).toEqual({ minExistingRecords: 10, maxChangePercent: 30 });
  });

  it("overrides single fields", () => {
    expect(validateSafetyThreshold({ maxChangePercent: 50 }).threshold).toEqual({
      minExistingRecords: 10,
      maxChangePercent: 50,
    });
    expect(validateSafetyThreshold({ minExistingRecords: 0, maxChangePercent: 12.5 }).threshold).toEqual({
      minExistingRecords: 0,
      maxChangePercent: 12.5,
    });
  });

  it("names the offending field", () => {
    expect(validateSafetyThreshold({ maxChangePercent: 150 }).issues).toEqual([
      {
        property: "safetyThreshold.maxChangePercent",
        reason:
          "must be a percentage from 0 to 100; got 150 (to turn the check off, set safetyThreshold: false)",
      },
    ]);
    expect(validateSafetyThreshold({ minExistingRecords: 2.5 }).issues.map(formatIssue)).toEqual([
      "safetyThreshold.minExistingRecords: must be a whole number of records, e.g. 10; got 2.5",
    ]);
    expect(validateSafetyThreshold({ maxChangePercent: "30" }).issues.map(formatIssue)).toEqual([
      'safetyThreshold.maxChangePercent: must be a percentage from 0 to 100, e.g. 30; got the string "30"',
    ]);
    expect(validateSafetyThreshold({ maxPercent: 5 }).issues.map((i) => i.property)).toEqual([
      "safetyThreshold.maxPercent",
    ]);
    expect(validateSafetyThreshold(30).issues.map(formatIssue)).toEqual([
      "safetyThreshold: expected { minExistingRecords?: number, maxChangePercent?: number } or false; got number 30",
    ]);
  });
});

describe("checkSafety", () => {
  /** A plan's summary over `existing` records, of which it updates and deletes some. */
  const plan = (existing: number, updates: number, deletes: number): PlannedChanges => ({
    summary: { unchanged: existing - updates - deletes, updates, deletes },
  });

  it("allows small templates anything", () => {
    expect(checkSafety(plan(9, 0, 9), DEFAULT_SAFETY_THRESHOLD, NO_ENV)).toBeUndefined();
  });

  it("allows exactly the maximum share, refuses more, and names the override for one run", () => {
    expect(checkSafety(plan(10, 1, 2), DEFAULT_SAFETY_THRESHOLD, NO_ENV)).toBeUndefined();
    expect(checkSafety(plan(10, 1, 3), DEFAULT_SAFETY_THRESHOLD, NO_ENV)).toBe(
      "refusing to update or delete 4 of 10 existing records (1 update, 3 deletes: 40%), more than the safety " +
        "threshold of 30% (checked when a template holds at least 10 records); if this is intended, set " +
        "safetyThreshold.maxChangePercent to at least 40, or safetyThreshold: false, or allow it for one run " +
        "with DOMAINAPI_SAFETY_THRESHOLD=off",
    );
  });

  it("rounds the share for people and the needed percentage up", () => {
    const message = checkSafety(plan(12, 0, 5), DEFAULT_SAFETY_THRESHOLD, NO_ENV);
    expect(message).toContain("5 of 12 existing records (0 updates, 5 deletes: 41.7%)");
    expect(message).toContain("set safetyThreshold.maxChangePercent to at least 42,");
    expect(
      checkSafety(plan(12, 0, 5), { minExistingRecords: 10, maxChangePercent: 42 }, NO_ENV),
    ).toBeUndefined();
  });

  it("counts no creates (it is given none) and can be turned off", () => {
    expect(checkSafety(plan(10, 0, 0), DEFAULT_SAFETY_THRESHOLD, NO_ENV)).toBeUndefined();
    expect(checkSafety(plan(10, 10, 0), false, NO_ENV)).toBeUndefined();
    expect(
      checkSafety(plan(0, 0, 0), { minExistingRecords: 0, maxChangePercent: 0 }, NO_ENV),
    ).toBeUndefined();
  });

  it("suggests only turning it off when no percentage would do", () => {
    expect(checkSafety(plan(10, 20, 0), DEFAULT_SAFETY_THRESHOLD, NO_ENV)).toMatch(
      /if this is intended, set safetyThreshold: false, or allow it for one run with DOMAINAPI_SAFETY_THRESHOLD=off$/,
    );
  });

  it("is turned off for one run by DOMAINAPI_SAFETY_THRESHOLD=off (or 0, false, no), in any case", () => {
    expect(SAFETY_OVERRIDE_ENV).toBe("DOMAINAPI_SAFETY_THRESHOLD");
    for (const value of ["off", "OFF", " off ", "0", "false", "no"]) {
      const env = { [SAFETY_OVERRIDE_ENV]: value };
      expect(safetyOverridden(env), value).toBe(true);
      expect(checkSafety(plan(10, 0, 10), DEFAULT_SAFETY_THRESHOLD, env), value).toBeUndefined();
    }
    for (const value of ["", "on", "1", "true", "yes", "offf"]) {
      const env = { [SAFETY_OVERRIDE_ENV]: value };
      expect(safetyOverridden(env), value).toBe(false);
      expect(checkSafety(plan(10, 0, 10), DEFAULT_SAFETY_THRESHOLD, env), value).toBeDefined();
    }
    expect(safetyOverridden(NO_ENV)).toBe(false);
  });

  it("refuses exactly when the template is large enough and the share too large", () => {
    fc.assert(
      fc.property(
        // A plan's counts are of the existing records, each in one of them: none is negative.
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 100 }),
        (unchanged, updates, deletes, minExistingRecords, maxChangePercent) => {
          const existing = unchanged + updates + deletes;
          const threshold = { minExistingRecords, maxChangePercent };
          const message = checkSafety(plan(existing, updates, deletes), threshold, NO_ENV);
          const refused =
            existing > 0 &&
            existing >= minExistingRecords &&
            (updates + deletes) / existing > maxChangePercent / 100;
          expect(message !== undefined).toBe(refused);
          if (message) {
            expect(message).toContain(`${updates + deletes} of ${existing} existing records`);
            expect(message).toContain("DOMAINAPI_SAFETY_THRESHOLD=off");
          }
        },
      ),
    );
  });
});
