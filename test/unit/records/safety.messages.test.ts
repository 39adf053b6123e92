/**
 * What a program reads when its `safetyThreshold` is wrong or its update too large (records/safety.ts):
 * each wrong field named with the form expected and what it got, the defaults kept for what it
 * leaves unset, and the share at the edge of what a percentage can still allow.
 */
import { describe, expect, it } from "vitest";
import {
  checkSafety,
  DEFAULT_SAFETY_THRESHOLD,
  validateSafetyThreshold,
} from "../../../provider/records/safety";

const lines = (raw: unknown) =>
  validateSafetyThreshold(raw).issues.map((issue) => `${issue.property}: ${issue.reason}`);

describe("a wrong safetyThreshold", () => {
  it("names each wrong field, what it must be and what it got", () => {
    expect(lines({ minExistingRecords: -1, maxChangePercent: -5 })).toEqual([
      "safetyThreshold.minExistingRecords: must be 0 or more; got -1",
      "safetyThreshold.maxChangePercent: must be a percentage from 0 to 100; got -5",
    ]);
    expect(lines({ minExistingRecords: "10" })).toEqual([
      'safetyThreshold.minExistingRecords: must be a whole number of records, e.g. 10; got the string "10"',
    ]);
    expect(lines({ maxPercent: 5 })).toEqual([
      'safetyThreshold.maxPercent: unknown field "maxPercent"; a safety threshold has only minExistingRecords and maxChangePercent: remove it',
    ]);
    expect(lines([30])).toEqual([
      "safetyThreshold: expected { minExistingRecords?: number, maxChangePercent?: number } or false; got a list",
    ]);
  });

  it("keeps the default while it is wrong, and for what it leaves unset or null", () => {
    expect(validateSafetyThreshold({ maxChangePercent: 150 }).threshold).toEqual(DEFAULT_SAFETY_THRESHOLD);
    expect(validateSafetyThreshold("30").threshold).toEqual(DEFAULT_SAFETY_THRESHOLD);
    expect(validateSafetyThreshold(null)).toEqual({ threshold: DEFAULT_SAFETY_THRESHOLD, issues: [] });
    expect(validateSafetyThreshold({ minExistingRecords: null, maxChangePercent: undefined })).toEqual({
      threshold: DEFAULT_SAFETY_THRESHOLD,
      issues: [],
    });
    // The default itself is never handed out to be changed.
    const { threshold } = validateSafetyThreshold(undefined);
    expect(threshold).not.toBe(DEFAULT_SAFETY_THRESHOLD);
  });
});

describe("a refusal at the edges", () => {
  const plan = (existing: number, updates: number, deletes: number) => ({
    summary: { unchanged: existing - updates - deletes, updates, deletes },
  });

  it("asks for 100% when every existing record changes, one of each said in the singular", () => {
    expect(checkSafety(plan(10, 1, 9), DEFAULT_SAFETY_THRESHOLD, {})).toBe(
      "refusing to update or delete 10 of 10 existing records (1 update, 9 deletes: 100%), more than the safety " +
        "threshold of 30% (checked when a template holds at least 10 records); if this is intended, set " +
        "safetyThreshold.maxChangePercent to at least 100, or safetyThreshold: false, or allow it for one run " +
        "with DOMAINAPI_SAFETY_THRESHOLD=off",
    );
    expect(checkSafety(plan(10, 9, 1), DEFAULT_SAFETY_THRESHOLD, {})).toContain(
      "(9 updates, 1 delete: 100%)",
    );
  });

  it("reads the override from the process's environment when given none", () => {
    const saved = process.env.DOMAINAPI_SAFETY_THRESHOLD;
    try {
      process.env.DOMAINAPI_SAFETY_THRESHOLD = "off";
      expect(checkSafety(plan(10, 0, 10), DEFAULT_SAFETY_THRESHOLD)).toBeUndefined();
      delete process.env.DOMAINAPI_SAFETY_THRESHOLD;
      expect(checkSafety(plan(10, 0, 10), DEFAULT_SAFETY_THRESHOLD)).toMatch(/^refusing/);
    } finally {
      if (saved === undefined) delete process.env.DOMAINAPI_SAFETY_THRESHOLD;
      else process.env.DOMAINAPI_SAFETY_THRESHOLD = saved;
    }
  });
});
