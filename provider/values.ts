/**
 * Two small facts about values the engine and programs hand us, shared by every module that
 * validates them: what counts as a plain object, and how a wrong value is named in a message.
 *
 * This module knows neither HTTP nor Pulumi.
 */

/**
 * Whether `value` is an object that is neither `null` nor an array (a JSON object, a record).
 *
 * @example
 * isPlainObject({ a: 1 }); // true
 * isPlainObject([1]); // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A wrong value as a reason names it: `null`, `a list`, `the string "x"`, `an object`, `number 5`.
 *
 * @example
 * `expected a list of records; got ${describeValue({})}`; // "... got an object"
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
