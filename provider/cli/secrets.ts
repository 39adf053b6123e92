/**
 * Secret values in a preview. `pulumi preview --json` prints a secret as the string `[secret]`;
 * the Automation API's engine events carry it as Pulumi's secret object with a `ciphertext` (also
 * `[secret]` unless secrets are shown). Either way the value is not there, so a template whose
 * records hold one cannot be planned from the preview: the plan must say so, never plan it as if
 * the records were empty.
 *
 * Pure; knows neither HTTP nor the provider.
 */

/** What `pulumi preview --json` prints in place of a secret value. */
export const MASKED_SECRET = "[secret]";

/** The key that marks a secret in Pulumi's serialized property values (the SDK's `specialSigKey`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The value of {@link SIG_KEY} that says the object is a secret (the SDK's `specialSecretSig`). */
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/**
 * A serialized secret (`{ciphertext: ...}`, with or without the signature). Even one that carries
 * its plaintext is a wrapper the record decoder does not read, so it counts as not shown: failing
 * closed names the template instead of planning something else.
 */
function isSecretObject(object: Record<string, unknown>): boolean {
  return object[SIG_KEY] === SECRET_SIG || "ciphertext" in object;
}

/**
 * Whether `value` holds a secret whose value the preview does not show, anywhere inside it. A
 * string that is exactly `[secret]` counts: in a `--json` preview it cannot be told apart from a
 * record whose content is that text, and planning a secret as that text would show a wrong plan.
 *
 * @example
 * holdsHiddenSecret({ records: "[secret]" }); // true
 * holdsHiddenSecret({ records: { ciphertext: "[secret]" } }); // true
 * holdsHiddenSecret({ records: { "@/A": { content: "192.0.2.1" } } }); // false
 */
export function holdsHiddenSecret(value: unknown): boolean {
  if (value === MASKED_SECRET) return true;
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsHiddenSecret);
  const object = value as Record<string, unknown>;
  if (isSecretObject(object)) return true;
  for (const key in object) if (holdsHiddenSecret(object[key])) return true;
  return false;
}
