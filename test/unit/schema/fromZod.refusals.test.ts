/**
 * What the conversion of zod schemas refuses, and the words of each refusal: a schema whose SDK
 * form would misdescribe it (an object only partly held by a package type, a tuple) is refused
 * naming the field, never written out as something else.
 */
import { expect, it } from "vitest";
import { z } from "zod";
import { type ObjectTypes, objectSpecFromZod } from "../../../provider/schema/fromZod";

/** One package type, `Item`, of two fields. */
const types = (): ObjectTypes => ({
  "test:index:Item": { properties: { name: { type: "string" }, size: { type: "integer" } } },
});

/** The error `objectSpecFromZod` throws for an input object of the one field `x`, or undefined. */
function refusal(schema: z.ZodType): string | undefined {
  try {
    objectSpecFromZod("fn inputs", z.strictObject({ x: schema }), "input", types());
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

it("refuses an object that a package type holds only part of, listing every field", () => {
  // `name` is Item's, `colour` is no type's: a $ref to Item would drop `colour` from every SDK.
  const partly = z.strictObject({ name: z.string(), colour: z.string() }).describe("Odd.");
  expect(refusal(partly)).toBe(
    "fn inputs.x: an object of name, colour matches no type of the package; add one",
  );
  // Every field held (a part of Item's) is Item.
  expect(
    objectSpecFromZod(
      "fn",
      z.strictObject({ x: z.strictObject({ size: z.number().int() }).describe("S.") }),
      "input",
      types(),
    ).properties.x,
  ).toEqual({
    $ref: "#/types/test:index:Item",
    description: "S.",
  });
});

it("refuses a tuple, with or without a rest, as a tuple: no list type of an SDK says one", () => {
  const message = "fn inputs.x: a tuple has no package schema form; give it a list of one type or an object";
  expect(refusal(z.tuple([z.string(), z.number()]).describe("Pair."))).toBe(message);
  // With a rest, zod writes the rest's type as `items`: taken alone it would read as a list of numbers.
  expect(refusal(z.tuple([z.string()], z.number()).describe("Head and numbers."))).toBe(message);
});

it("says a Date's advice only for a schema JSON Schema cannot say, nothing after any other refusal", () => {
  expect(refusal(z.null().describe("Nothing."))).toBe(
    'fn inputs.x: JSON Schema {"type":"null"} has no package schema form',
  );
  expect(refusal(z.date().describe("When."))).toBe(
    "fn inputs.x: JSON Schema {} has no package schema form (zod cannot say a Date or a transform's output in JSON Schema; offer text beside it)",
  );
});

it("refuses a schema that is no object though its JSON Schema lists properties", () => {
  // `.meta()` adds keys to the JSON Schema as written; the type stays a string's.
  const text = z.string().meta({ properties: { a: { type: "string", description: "A." } } });
  expect(() => objectSpecFromZod("fn inputs", text, "input", types())).toThrow(
    /^fn inputs: not an object schema$/,
  );
});
