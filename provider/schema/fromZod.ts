/**
 * Pulumi schema specs made from zod schemas, so that a function whose arguments and result are
 * zod schemas (the record builders, getContacts) is described once: zod 4's `z.toJSONSchema` gives
 * the JSON Schema, and this maps it onto the PropertySpec shape of the package schema. What the
 * package schema cannot say inline (an enum, a default, a range, an object, a union) is said the
 * way its SDKs can carry: an enum, a default and a range in the description, an object as a `$ref`
 * to one of the package's types, a union that takes text as text (every SDK can write it; the
 * function's own schema checks the text).
 * Pure.
 */
import { z } from "zod";
import type { FunctionSpec, ObjectSpec, PropertySpec } from "./types";

/** The part of a JSON Schema (draft 2020-12, as `z.toJSONSchema` writes it) that is mapped. */
interface JsonSchemaNode {
  /** One type, or several where zod writes a union of plain types (`["number", "string"]`). */
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchemaNode[];
  minimum?: number;
  maximum?: number;
}

/** The package types an inline object may stand for: an object maps to the one that holds its fields. */
export type ObjectTypes = Readonly<Record<string, ObjectSpec>>;

const PRIMITIVES = new Set(["string", "integer", "number", "boolean"]);

/** The description a property's SDK docs carry: the zod description, its values and its default. */
function describe(where: string, node: JsonSchemaNode): string {
  if (!node.description)
    throw new Error(`${where}: no description; give the zod schema one with .describe()`);
  const parts = [node.description];
  if (node.default !== undefined && !/\bdefault\b/i.test(node.description))
    parts.push(`Default \`${JSON.stringify(node.default)}\`.`);
  const listed = (values: unknown[]) => values.map((v) => `\`${JSON.stringify(v)}\``).join(", ");
  if (node.enum) parts.push(`One of ${listed(node.enum)}.`);
  if (node.items?.enum) parts.push(`Each one of ${listed(node.items.enum)}.`);
  const range = rangeOf(node);
  if (range) parts.push(range);
  return parts.join(" ");
}

/**
 * A number's range as the docs say it (`From 1 to 100.`, `At least 1.`), or nothing: zod writes
 * the safe-integer bounds of every `.int()`, which are no range a user chose.
 */
function rangeOf(node: JsonSchemaNode): string | undefined {
  const chosen = (bound: number | undefined) =>
    bound !== undefined && Math.abs(bound) !== Number.MAX_SAFE_INTEGER ? bound : undefined;
  const min = chosen(node.minimum);
  const max = chosen(node.maximum);
  if (min !== undefined && max !== undefined) return `From ${min} to ${max}.`;
  if (min !== undefined) return `At least ${min}.`;
  if (max !== undefined) return `At most ${max}.`;
  return undefined;
}

/** The package type whose properties hold every field of an inline object, by its `$ref`. */
function objectRef(where: string, node: JsonSchemaNode, types: ObjectTypes): string {
  const fields = Object.keys(node.properties ?? {});
  const found = Object.entries(types).find(([, spec]) => fields.every((f) => f in spec.properties));
  if (found === undefined)
    throw new Error(`${where}: an object of ${fields.join(", ")} matches no type of the package; add one`);
  return `#/types/${found[0]}`;
}

/** One property's spec, without its description (the caller adds it where the schema has one). */
function valueSpec(where: string, node: JsonSchemaNode, types: ObjectTypes): PropertySpec {
  const union = node.anyOf ?? (Array.isArray(node.type) ? node.type.map((type) => ({ type })) : undefined);
  if (union !== undefined) {
    if (!union.some((option) => option.type === "string"))
      throw new Error(`${where}: a union without a text form has no package schema form; give it one`);
    return { type: "string" };
  }
  if (node.type === "object") return { $ref: objectRef(where, node, types) };
  if (node.type === "array") {
    if (node.items === undefined) throw new Error(`${where}: an array without items`);
    return { type: "array", items: valueSpec(`${where}[]`, node.items, types) };
  }
  if (typeof node.type === "string" && PRIMITIVES.has(node.type))
    return { type: node.type as PropertySpec["type"] };
  const { description: _, ...shape } = node;
  const unsaid = Object.keys(shape).length === 0;
  throw new Error(
    `${where}: JSON Schema ${JSON.stringify(shape)} has no package schema form` +
      (unsaid ? " (zod cannot say a Date or a transform's output in JSON Schema; offer text beside it)" : ""),
  );
}

/**
 * The object spec of a zod object schema: as a program gives it (`io: "input"`, so a field with a
 * default is optional) or as it is returned (`io: "output"`).
 */
export function objectSpecFromZod(
  where: string,
  schema: z.ZodType,
  io: "input" | "output",
  types: ObjectTypes,
): ObjectSpec {
  // What JSON Schema cannot say (a Date) becomes `{}`, which valueSpec refuses unless a union
  // offers text beside it.
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchemaNode;
  if (json.type !== "object" || json.properties === undefined)
    throw new Error(`${where}: not an object schema`);
  const properties = Object.fromEntries(
    Object.entries(json.properties).map(([name, node]) => [
      name,
      { ...valueSpec(`${where}.${name}`, node, types), description: describe(`${where}.${name}`, node) },
    ]),
  );
  return { properties, ...(json.required?.length ? { required: json.required } : {}) };
}

/** A function's spec from the zod schemas of its arguments and its result. */
export function functionSpecFromZod(
  token: string,
  description: string,
  schemas: { readonly args: z.ZodType; readonly result: z.ZodType },
  types: ObjectTypes,
): FunctionSpec {
  return {
    description,
    inputs: objectSpecFromZod(`${token} inputs`, schemas.args, "input", types),
    outputs: objectSpecFromZod(`${token} outputs`, schemas.result, "output", types),
  };
}
