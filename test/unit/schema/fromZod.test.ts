/**
 * The conversion of zod schemas into the package schema's function specs: what the SDKs can carry
 * is said, what they cannot is refused naming the field, never written out as something else.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionSpecFromZod, objectSpecFromZod } from "../../../provider/schema/fromZod";
import type { ObjectSpec } from "../../../provider/schema/types";

const ITEM: ObjectSpec = {
  properties: { name: { type: "string" }, size: { type: "integer" } },
  required: ["name"],
};
const TYPES = { "test:index:Item": ITEM };

const inputs = (shape: z.ZodRawShape) =>
  objectSpecFromZod("fn inputs", z.strictObject(shape), "input", TYPES);
const property = (schema: z.ZodType) => inputs({ x: schema }).properties.x;

describe("objectSpecFromZod", () => {
  it("states a range the schema chose, and none for the safe-integer bounds every .int() carries", () => {
    expect(property(z.number().int().min(1).max(16).describe("Workers."))?.description).toBe(
      "Workers. From 1 to 16.",
    );
    expect(property(z.number().int().min(1).describe("Page."))?.description).toBe("Page. At least 1.");
    expect(property(z.number().max(9).describe("Small."))?.description).toBe("Small. At most 9.");
    expect(property(z.number().int().describe("Any."))).toEqual({ type: "integer", description: "Any." });
  });

  it("writes a union that takes text as a string, keeping its description", () => {
    const count = z.union([z.number().int(), z.string().regex(/^>?\d+$/)]).describe("A count or `>5`.");
    const when = z.union([z.date(), z.string()]).describe("A Date or a datetime.");
    const plain = z.union([z.number(), z.string()]).describe("Plain types, written as one node.");
    expect(inputs({ count: count.optional(), when: when.optional(), plain: plain.optional() })).toEqual({
      properties: {
        count: { type: "string", description: "A count or `>5`." },
        when: { type: "string", description: "A Date or a datetime." },
        plain: { type: "string", description: "Plain types, written as one node." },
      },
    });
  });

  it("refuses, naming the field, what an SDK cannot carry: a union without text, a Date, no description", () => {
    for (const options of [
      [z.number(), z.boolean()],
      [z.number().int(), z.array(z.string())],
    ] as const)
      expect(() => property(z.union(options).describe("Either."))).toThrow(
        "fn inputs.x: a union without a text form has no package schema form; give it one",
      );
    expect(() => property(z.date().describe("When."))).toThrow(/^fn inputs\.x: JSON Schema \{\} .*a Date/);
    expect(() => property(z.string())).toThrow(
      "fn inputs.x: no description; give the zod schema one with .describe()",
    );
  });

  it("makes an object a $ref to the package type that holds its fields, and refuses one no type holds", () => {
    const item = z.strictObject({ name: z.string() });
    expect(property(z.array(item).describe("Items."))).toEqual({
      type: "array",
      items: { $ref: "#/types/test:index:Item" },
      description: "Items.",
    });
    expect(() => property(z.strictObject({ colour: z.string() }).describe("Odd."))).toThrow(
      "fn inputs.x: an object of colour matches no type of the package; add one",
    );
  });

  it("lists what is required as a program gives it: a field with a default is optional", () => {
    const spec = inputs({
      needed: z.string().describe("Needed."),
      given: z.string().default("@").describe("Given."),
      left: z.string().optional().describe("Left."),
    });
    expect(spec.required).toEqual(["needed"]);
    expect(spec.properties.given?.description).toBe('Given. Default `"@"`.');
  });
});

describe("objectSpecFromZod, what the docs say beyond the type", () => {
  it("lists an enum's values, and each item's values of a list of them", () => {
    expect(property(z.enum(["none", "reject"]).describe("Policy."))).toEqual({
      type: "string",
      description: 'Policy. One of `"none"`, `"reject"`.',
    });
    expect(property(z.array(z.enum(["a", "mx"])).describe("Terms."))).toEqual({
      type: "array",
      items: { type: "string" },
      description: 'Terms. Each one of `"a"`, `"mx"`.',
    });
  });

  it("says a default once: not again when the description already names it", () => {
    expect(property(z.number().default(5).describe("Pages (default 5)."))?.description).toBe(
      "Pages (default 5).",
    );
    expect(property(z.boolean().default(false).describe("Strict."))).toEqual({
      type: "boolean",
      description: "Strict. Default `false`.",
    });
  });

  it("states only the bound chosen of an .int() with a maximum: the negative safe bound is no range", () => {
    expect(property(z.number().int().max(5).describe("Few."))?.description).toBe("Few. At most 5.");
    expect(property(z.number().min(-3).describe("Offset."))).toEqual({
      type: "number",
      description: "Offset. At least -3.",
    });
  });

  it("refuses what is not an object, and names the path into a list and the JSON Schema it cannot say", () => {
    expect(() => objectSpecFromZod("fn inputs", z.string(), "input", TYPES)).toThrow(
      "fn inputs: not an object schema",
    );
    // A map has no fields of its own to describe.
    expect(() => objectSpecFromZod("fn inputs", z.record(z.string(), z.string()), "input", TYPES)).toThrow(
      "fn inputs: not an object schema",
    );
    expect(() => property(z.array(z.date()).describe("Days."))).toThrow(
      /^fn inputs\.x\[\]: JSON Schema \{\} /,
    );
    expect(() => property(z.null().describe("Nothing."))).toThrow(
      'fn inputs.x: JSON Schema {"type":"null"} has no package schema form',
    );
    expect(() => property(z.null().describe("Nothing."))).not.toThrow(/a Date/);
  });
});

describe("functionSpecFromZod", () => {
  it("describes a function by its arguments as given and its result as returned", () => {
    const args = z.strictObject({
      name: z.string().default("@").describe("Host."),
      tags: z.array(z.string()).optional().describe("Tags."),
    });
    const result = z.strictObject({ name: z.string().default("@").describe("Host.") });
    expect(functionSpecFromZod("test:index:fn", "Makes one.", { args, result }, TYPES)).toEqual({
      description: "Makes one.",
      inputs: {
        properties: {
          name: { type: "string", description: 'Host. Default `"@"`.' },
          tags: { type: "array", items: { type: "string" }, description: "Tags." },
        },
      },
      outputs: {
        properties: { name: { type: "string", description: 'Host. Default `"@"`.' } },
        required: ["name"],
      },
    });
    expect(() => functionSpecFromZod("test:index:fn", "x", { args: z.string(), result }, TYPES)).toThrow(
      "test:index:fn inputs: not an object schema",
    );
    expect(() => functionSpecFromZod("test:index:fn", "x", { args, result: z.number() }, TYPES)).toThrow(
      "test:index:fn outputs: not an object schema",
    );
  });
});
