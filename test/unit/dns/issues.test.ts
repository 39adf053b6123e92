/**
 * The one translation of a schema's refusals into what a user reads: the property path of the
 * offending value under the input's own path, one issue per unknown key, and "not set" spelled
 * any of the ways a program spells it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issuesOf, withoutUnset } from "../../../provider/dns/issues";

function issues(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a refusal");
  return issuesOf(parsed.error, "records[3]", (key) => `no field ${key}`);
}

describe("issuesOf", () => {
  it("one issue per unknown key, with the caller's reason, beside the other issues with the schema's message", () => {
    const schema = z.strictObject({ name: z.string({ error: "name must be text" }) });
    expect(issues(schema, { name: 1, ttl: 300, "odd key": 1 })).toEqual([
      { property: "records[3].name", reason: "name must be text" },
      { property: "records[3].ttl", reason: "no field ttl" },
      { property: 'records[3]["odd key"]', reason: "no field odd key" },
    ]);
  });

  it("a path below the input, each part as a member when it reads as one, else in brackets", () => {
    const schema = z.object({
      a: z.object({ "b-c": z.object({ $d: z.object({ _e9: z.array(z.number({ error: "a number" })) }) }) }),
    });
    expect(issues(schema, { a: { "b-c": { $d: { _e9: [1, "x"] } } } })).toEqual([
      { property: 'records[3].a["b-c"].$d._e9["1"]', reason: "a number" },
    ]);
  });

  it("an issue of the value itself is at the input's path", () => {
    expect(issues(z.string({ error: "text please" }), 5)).toEqual([
      { property: "records[3]", reason: "text please" },
    ]);
  });
});

describe("withoutUnset", () => {
  it("drops keys that are undefined or null, keeps every other value", () => {
    expect(withoutUnset({ a: undefined, b: null, c: 0, d: "", e: false, f: [] })).toEqual({
      c: 0,
      d: "",
      e: false,
      f: [],
    });
  });
});
