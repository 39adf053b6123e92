/**
 * Facts about the Pulumi engine that every dynamic provider here relies on: where the engine keeps
 * the serialized provider among a resource's properties, how it marks a value not known yet
 * (during `pulumi preview`), and how an input name the resource does not take is refused.
 */
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

/** The key under which the engine keeps the serialized provider; partial states must carry it. */
export const PROVIDER_KEY = "__provider";

/**
 * The engine's placeholder for a value not known until an earlier resource is created (the SDK's
 * own constant, so that it cannot drift from what the engine sends).
 */
export const UNKNOWN: string = pulumi.runtime.unknownValue;

/**
 * Whether `value`, or anything nested in it, is still unknown to the engine.
 *
 * @example
 * containsUnknown({ records: [{ content: UNKNOWN }] }); // true
 */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (typeof value !== "object" || value === null) return false;
  // A loop without a callback or a copy of the values: a template's inputs can hold 100,000 records.
  if (Array.isArray(value)) {
    for (const item of value) if (containsUnknown(item)) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) if (containsUnknown(object[key])) return true;
  return false;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  // Stryker disable next-line StringLiteral: at most one name, so no separator is ever written
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * One failure per input name that the resource does not take (the engine's {@link PROVIDER_KEY}
 * is always allowed). Names never depend on unknown values, so this holds even during preview.
 *
 * @param allowed the input names the resource takes, in the order the message lists them
 * @param typeName the resource type as the program names it
 * @example
 * unknownInputs({ domain: "shop.example", colour: "blue" }, ["domain", "triggers"], "DomainRestore");
 * // [{ property: "colour", reason: "unknown input; DomainRestore takes domain and triggers" }]
 */
export function unknownInputs(
  news: Props,
  allowed: readonly string[],
  typeName: string,
): pulumi.dynamic.CheckFailure[] {
  const reason = `unknown input; ${typeName} takes ${listed(allowed)}`;
  // A TTL is what people most often add: the API has none, so say so rather than only "unknown".
  const ttlReason = `${typeName} has no TTL: the API sets none (its records have no TTL field); remove it`;
  return Object.keys(news)
    .filter((key) => key !== PROVIDER_KEY && !allowed.includes(key))
    .map((property) => ({ property, reason: property.toLowerCase() === "ttl" ? ttlReason : reason }));
}

/**
 * The properties without the engine's serialized provider.
 *
 * @example
 * withoutProvider({ __provider: "...", domain: "shop.example" }); // { domain: "shop.example" }
 */
export function withoutProvider(props: Props): Props {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}
