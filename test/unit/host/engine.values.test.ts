/**
 * Whether a value still holds the engine's placeholder for an unknown, at any depth: the JSON-like
 * values the engine hands a provider (nulls, lists, maps, text, numbers, booleans).
 */
import * as pulumi from "@pulumi/pulumi";
import fc from "fast-check";
import { expect, it } from "vitest";
import { containsUnknown } from "../../../provider/host/engine";

const UNKNOWN = pulumi.runtime.unknownValue;

/** `value` with the placeholder put in at the place `path` picks (a list's item or a map's field). */
function withUnknownAt(value: unknown, path: readonly number[]): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return [value, UNKNOWN];
  const [step = 0, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return [UNKNOWN];
    const at = step % value.length;
    return value.map((item, i) => (i === at ? withUnknownAt(item, rest) : item));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return { unknown: UNKNOWN };
  const key = keys[step % keys.length] as string;
  return { ...value, [key]: withUnknownAt((value as Record<string, unknown>)[key], rest) };
}

it("finds no unknown in a value without the placeholder, nulls at any depth included", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      fc.pre(!JSON.stringify(value).includes(UNKNOWN));
      expect(containsUnknown(value)).toBe(false);
    }),
  );
});

it("finds the placeholder wherever it is put, beside nulls or not", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), (value, path) => {
      expect(containsUnknown(withUnknownAt(value, path))).toBe(true);
    }),
  );
});
