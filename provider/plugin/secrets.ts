/**
 * Secrets as the engine hands them to a provider plugin that accepts secrets: an object
 * `{ [SIG_KEY]: SECRET_SIG, value }` in place of the value. The core (planner, validation, client)
 * works on plain values, so the adapter unwraps them on the way in and marks the outputs that carry
 * a secret's text as secret on the way out: a record's content given as a secret stays one in the
 * state. Pure.
 */

/** The key the engine marks special values with (the Pulumi SDK's `specialSigKey`). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret (the Pulumi SDK's `specialSecretSig`). */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

/** Whether `value` is the engine's secret wrapper. */
export function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** `value` wrapped as a secret for the engine. */
export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** The plain values, and the text of every secret found (to find where it ends up). */
export interface Unwrapped<T> {
  value: T;
  secretTexts: string[];
}

/**
 * Removes every secret wrapper, however deep.
 *
 * @example
 * unwrapSecrets({ a: secret("k") }); // { value: { a: "k" }, secretTexts: ["k"] }
 */
export function unwrapSecrets<T>(value: T): Unwrapped<T> {
  const secretTexts: string[] = [];
  const walk = (v: unknown, inSecret: boolean): unknown => {
    if (isSecret(v)) return walk(v.value, true);
    if (Array.isArray(v)) return v.map((x) => walk(x, inSecret));
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, inSecret)]));
    }
    if (inSecret && v !== null && v !== undefined && String(v) !== "") secretTexts.push(String(v));
    return v;
  };
  return { value: walk(value, false) as T, secretTexts };
}

/**
 * Marks as secret every top-level property whose value shows any of `secretTexts` (a record's
 * content, or a summary quoting it). Coarse on purpose: a property is secret or not as a whole.
 *
 * @example
 * markSecrets({ records: { a: { content: "k" } }, ids: {} }, ["k"]);
 * // { records: secret({ a: { content: "k" } }), ids: {} }
 */
export function markSecrets(props: Props, secretTexts: readonly string[]): Props {
  if (secretTexts.length === 0) return props;
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) {
    const text = JSON.stringify(value) ?? "";
    const carries = secretTexts.some(
      (s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)),
    );
    out[key] = carries && !isSecret(value) ? secret(value) : value;
  }
  return out;
}
