/**
 * What a failed input check reports: the property path of the offending value and a reason that
 * says what is wrong and how to fix it; and the one translation of zod's issues into that form.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import type { z } from "zod";

export { describeValue } from "../values";

/**
 * One thing wrong with the inputs: `property` is the path of the offending value (`records[2].priority`,
 * `templateId`), `reason` says what is wrong and how to fix it.
 *
 * @example
 * const issue: InputIssue = {
 *   property: "records[2].priority",
 *   reason: "MX records need a priority from 0 to 65535; add priority: 10",
 * };
 */
export interface InputIssue {
  property: string;
  reason: string;
}

/** Pulumi and JSON programs spell "not set" as an absent key, `undefined` or `null`: all the same here. */
export function withoutUnset<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null),
  ) as Partial<T>;
}

/** `.name` for a key that reads as one, else `["odd key"]`, so that every path stays a path. */
function member(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * Zod's issues as {@link InputIssue}s under the path `at`: an unrecognized key gives one issue per
 * key, with the reason `unknownKey` gives; every other issue keeps zod's message.
 */
export function issuesOf(error: z.ZodError, at: string, unknownKey: (key: string) => string): InputIssue[] {
  return error.issues.flatMap((issue): InputIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ property: `${at}${member(key)}`, reason: unknownKey(key) }));
    }
    const suffix = issue.path.map((part) => member(String(part))).join("");
    return [{ property: `${at}${suffix}`, reason: issue.message }];
  });
}
