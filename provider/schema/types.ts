/**
 * The shapes of a Pulumi package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/)
 * that the generator writes: a module of their own, so that the specs (spec.ts) and the conversion
 * from zod (fromZod.ts) both depend on them and neither on the other. Types only.
 */

/** A property of a Pulumi package schema. */
export interface PropertySpec {
  readonly type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  readonly $ref?: string;
  readonly items?: PropertySpec;
  readonly additionalProperties?: PropertySpec;
  readonly description?: string;
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
}

/** An object type of a Pulumi package schema. */
export interface ObjectSpec {
  readonly type?: "object";
  readonly description?: string;
  readonly properties: Readonly<Record<string, PropertySpec>>;
  readonly required?: readonly string[];
}

/** A resource of a Pulumi package schema. */
export interface ResourceSpec extends ObjectSpec {
  readonly inputProperties: Readonly<Record<string, PropertySpec>>;
  readonly requiredInputs?: readonly string[];
}

/** A function of a Pulumi package schema. */
export interface FunctionSpec {
  readonly description: string;
  readonly inputs: ObjectSpec;
  readonly outputs: ObjectSpec;
}
