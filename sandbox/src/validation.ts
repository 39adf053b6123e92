/**
 * Strict validation of what clients send to the sandbox's /v2 routes, and the zod schemas that are
 * the single source of the sandbox's record types. The sandbox is stricter than a client needs to
 * be: it exists to catch a client's mistakes, so every unknown field, `null`, wrong type, or number
 * on a record type that does not take it is a 400 whose message names the field by its path, e.g.
 * `add[1].priority: required for MX records`.
 *
 * The sandbox implements the spec on its own terms (it is its own package: nothing of the provider).
 */
import { isIPv4, isIPv6 } from "node:net";
import { type ZodError, z } from "zod";
import { invalidRequest } from "./errors";

/** Every record type the spec lists. */
export const RECORD_TYPES = [
  "A",
  "CNAME",
  "TXT",
  "MX",
  "SRV",
  "AAAA",
  "NS",
  "CAA",
  "TLSA",
  "URLFWD",
  "URLFWD301",
  "URLCLO",
] as const;

/** A DNS template record type, e.g. `"MX"`. */
export type RecordType = (typeof RECORD_TYPES)[number];

/** The numeric fields of a record and the record types that require them (all others reject them). */
const NUMBER_FIELDS = {
  priority: ["MX", "SRV"],
  weight: ["SRV"],
  port: ["SRV"],
} as const satisfies Record<string, readonly RecordType[]>;

type NumberField = keyof typeof NUMBER_FIELDS;

const uint16Message = "must be an integer from 0 to 65535";

/** An integer 0-65535; `null` gets its own message because it is the commonest client mistake. */
const uint16 = z
  .number({
    error: (issue) =>
      issue.input === null ? "must not be null; leave the field out instead" : uint16Message,
  })
  .int({ error: uint16Message })
  .min(0, { error: uint16Message })
  .max(65535, { error: uint16Message });

const nonEmptyString = z
  .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
  .min(1, { error: "must not be empty" });

/**
 * `type` is documented as an array but sent as a single value: a string is the norm and a
 * one-element array is tolerated (and normalised to its string).
 */
const recordTypeSchema = z.preprocess(
  (value) => (Array.isArray(value) && value.length === 1 ? value[0] : value),
  z.enum(RECORD_TYPES, {
    error: (issue) => (issue.input === undefined ? "required" : `must be one of ${RECORD_TYPES.join(", ")}`),
  }),
);

/** A problem found in a record's fields, relative to the record (e.g. `["priority"]`). */
interface RecordIssue {
  path: string[];
  message: string;
}

/**
 * The rules that depend on a record's type: which numbers it must and must not carry, and the
 * content of A and AAAA records. Used for add/PUT items and for update items (whose type is the
 * type of the record they change).
 */
export function typeRuleIssues(
  type: RecordType,
  fields: { content: string; priority?: number; weight?: number; port?: number },
): RecordIssue[] {
  const issues: RecordIssue[] = [];
  for (const field of Object.keys(NUMBER_FIELDS) as NumberField[]) {
    const allowedFor: readonly RecordType[] = NUMBER_FIELDS[field];
    const present = fields[field] !== undefined;
    if (allowedFor.includes(type) && !present) {
      issues.push({ path: [field], message: `required for ${type} records` });
    } else if (!allowedFor.includes(type) && present) {
      issues.push({
        path: [field],
        message: `not allowed for ${type} records (only for ${allowedFor.join(" and ")})`,
      });
    }
  }
  if (type === "A" && !isIPv4(fields.content)) {
    issues.push({
      path: ["content"],
      message: `must be an IPv4 address for A records, got "${fields.content}"`,
    });
  }
  if (type === "AAAA" && !isIPv6(fields.content)) {
    issues.push({
      path: ["content"],
      message: `must be an IPv6 address for AAAA records, got "${fields.content}"`,
    });
  }
  return issues;
}

/** A record as a client submits it in a PUT body or a PATCH `add` item. */
export const RecordInputSchema = z
  .strictObject({
    name: nonEmptyString,
    type: recordTypeSchema,
    content: nonEmptyString,
    priority: uint16.optional(),
    weight: uint16.optional(),
    port: uint16.optional(),
  })
  .superRefine((record, ctx) => {
    for (const issue of typeRuleIssues(record.type, record)) {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  });
/** A record as a client submits it (type normalised to a string). */
export type RecordInput = z.output<typeof RecordInputSchema>;

/**
 * A PATCH `update` item. Its type-dependent rules are checked against the record it changes, once
 * that record is found (see templates.ts). `type` is not a field of update.
 */
export const UpdateItemSchema = z.strictObject({
  record_id: nonEmptyString,
  type: z
    .never({
      error: "type is not a field of update; to change a record's type, del the record and add a new one",
    })
    .optional(),
  name: nonEmptyString,
  content: nonEmptyString,
  priority: uint16.optional(),
  weight: uint16.optional(),
  port: uint16.optional(),
});
/** A PATCH `update` item. */
export type UpdateItem = z.output<typeof UpdateItemSchema>;

/** A PATCH `del` item. */
export const DelItemSchema = z.strictObject({ record_id: nonEmptyString });
/** A PATCH `del` item. */
export type DelItem = z.output<typeof DelItemSchema>;

const arrayOf = <T extends z.ZodType>(item: T) =>
  z.array(item, {
    error: (issue) =>
      issue.input === null ? "must not be null; leave the field out instead" : "must be an array",
  });

const patchArrays = {
  add: arrayOf(RecordInputSchema).optional(),
  update: arrayOf(UpdateItemSchema).optional(),
  del: arrayOf(DelItemSchema).optional(),
};

/**
 * Body of `PATCH /v2/dns/templates/{template_id}/records`. The arrays are read at the top level
 * (as the spec's sample sends them); the `records` wrapper the spec's field table mentions is
 * accepted too, but not both at once.
 */
export const PatchBodySchema = z
  .strictObject(
    {
      ...patchArrays,
      records: z
        .strictObject(patchArrays, { error: "must be an object with add, update and/or del" })
        .optional(),
    },
    { error: "must be a JSON object with add, update and/or del" },
  )
  .superRefine((body, ctx) => {
    const topLevel = body.add !== undefined || body.update !== undefined || body.del !== undefined;
    if (topLevel && body.records !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["records"],
        message: "send add, update and del either at the top level or inside records, not both",
      });
      return;
    }
    const arrays = body.records ?? body;
    const count = (arrays.add?.length ?? 0) + (arrays.update?.length ?? 0) + (arrays.del?.length ?? 0);
    if (count === 0) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "nothing to do: send at least one item in add, update or del",
      });
    }
  })
  .transform((body) => {
    const arrays = body.records ?? body;
    return { add: arrays.add ?? [], update: arrays.update ?? [], del: arrays.del ?? [] };
  });
/** A validated PATCH body, with the arrays unwrapped and defaulted to empty. */
export type PatchBody = z.output<typeof PatchBodySchema>;

/** Body of `PUT /v2/dns/templates/{template_id}/records`. `records: []` empties the template. */
export const PutBodySchema = z.strictObject(
  { records: arrayOf(RecordInputSchema) },
  { error: "must be a JSON object with records: an array of records" },
);
/** A validated PUT body. */
export type PutBody = z.output<typeof PutBodySchema>;

/**
 * Formats a property path the way the sandbox's messages name fields. Without a prefix the path
 * is relative to the request body (and the empty path is `body`); with one, it is prepended.
 *
 * @example
 * formatPath(["add", 1, "priority"]); // "add[1].priority"
 * formatPath([]); // "body"
 * formatPath([0, "handle"], "contacts"); // "contacts[0].handle"
 */
export function formatPath(path: ReadonlyArray<PropertyKey>, prefix?: string): string {
  let out = prefix ?? "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "body" : out;
}

/** Turns zod issues into one message, each issue as `path: reason`, joined by `; `. */
export function formatIssues(error: ZodError, prefix?: string): string {
  const parts: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        parts.push(`${formatPath([...issue.path, key], prefix)}: unknown field`);
      }
    } else {
      parts.push(`${formatPath(issue.path, prefix)}: ${issue.message}`);
    }
  }
  return parts.join("; ");
}

/**
 * Parses `value` with `schema` or throws a 400 `invalid_request` naming every wrong field.
 *
 * @example
 * const body = parseOrThrow(PutBodySchema, json); // throws "records[0].type: must be one of ..."
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, prefix?: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidRequest(formatIssues(result.error, prefix));
  return result.data;
}
