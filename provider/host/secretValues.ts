/**
 * Secrets as the engine hands them to a plugin that accepts secrets: `{ [specialSigKey]:
 * specialSecretSig, value }` in place of the value. The core works on plain values, so the plugin
 * unwraps them on the way in (`plain`) and marks what shows a secret's text as secret on the way
 * out (records/secretMarks.ts for a resource's records, `markSecretSettings` for a provider's).
 */
import { runtime } from "@pulumi/pulumi";
import { SECRET_SETTINGS } from "../manifest";

const { specialSigKey: SIG_KEY, specialSecretSig: SECRET_SIG } = runtime;

/** The engine's property bag. */
export type Props = Record<string, unknown>;

/** Whether `value` is the engine's secret wrapper. */
export function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** `value` wrapped as a secret for the engine. */
export const secret = (value: unknown): Props => ({ [SIG_KEY]: SECRET_SIG, value });

/**
 * The values without any secret wrapper, however deep, and the text of every secret found.
 *
 * @example
 * plain({ a: secret("k") }); // { value: { a: "k" }, secretTexts: ["k"] }
 */
export function plain(props: Props): { value: Props; secretTexts: string[] } {
  const secretTexts: string[] = [];
  const walk = (v: unknown, inSecret: boolean): unknown => {
    if (isSecret(v)) return walk(v.value, true);
    if (Array.isArray(v)) return v.map((x) => walk(x, inSecret));
    if (typeof v === "object" && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, inSecret)]));
    if (inSecret && v !== null && v !== undefined && String(v) !== "") secretTexts.push(String(v));
    return v;
  };
  return { value: walk(props, false) as Props, secretTexts };
}

/** A provider's inputs with every secret setting (the key) marked secret, given as plain text or not. */
export function markSecretSettings(inputs: Props): Props {
  const out: Props = { ...inputs };
  for (const name of SECRET_SETTINGS)
    if (out[name] !== undefined && !isSecret(out[name])) out[name] = secret(out[name]);
  return out;
}
