/** How a wrong value is named in a refusal, and what counts as an object, as every input check uses them. */
import { describe, expect, it } from "vitest";
import { describeValue, isPlainObject } from "../../provider/values";

describe("describeValue", () => {
  it.each([
    [null, "null"],
    [[1, 2], "a list"],
    ["x", 'the string "x"'],
    ['a "q"\n', 'the string "a \\"q\\"\\n"'],
    [{ a: 1 }, "an object"],
    [5, "number 5"],
    [Number.NaN, "number NaN"],
    [false, "boolean false"],
    [undefined, "undefined undefined"],
  ])("%j: %s", (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe("isPlainObject", () => {
  it("an object that is neither null nor a list", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const value of [null, undefined, [], [1], "x", 1, true]) expect(isPlainObject(value)).toBe(false);
  });
});
