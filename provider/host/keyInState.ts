/**
 * The warning for an API key set in plain text: `pulumi config set domainapi:apiKey <key>` without
 * `--secret` stores the key unencrypted in the stack's config file and, because the engine records
 * the stack config as the inputs of the dynamic provider that our resources use, unencrypted in
 * the state too. Only the program can tell: it is given the list of secret config keys, while the
 * provider's `configure()` receives every value already decrypted, secret or not.
 */
import * as pulumi from "@pulumi/pulumi";

const KEY = "domainapi:apiKey";

/**
 * Stacks already warned in this process (an Automation API process may run several).
 *
 * Bound: forgotten at MAX_WARNED stacks; a stack warned again after that is told twice, no worse.
 */
const warned = new Set<string>();
const MAX_WARNED = 256;

/**
 * Whether the SDK says `key` holds a secret; undefined when this SDK cannot tell. The SDK's
 * `runtime.isConfigSecret` reads the secret keys the engine hands the program (the
 * `PULUMI_CONFIG_SECRET_KEYS` list, or an Automation API run's own); it is not in the SDK's
 * typings, so it is looked up and called only if present.
 */
function isSecretConfig(key: string): boolean | undefined {
  const isConfigSecret = (pulumi.runtime as { isConfigSecret?: unknown }).isConfigSecret;
  if (typeof isConfigSecret !== "function") return undefined;
  try {
    return (isConfigSecret as (k: string) => boolean)(key) === true;
  } catch {
    return undefined;
  }
}

/**
 * Warns, once per stack and process, when `domainapi:apiKey` is set in the stack config without
 * `--secret`. Call it where a program uses the package (a resource's constructor, getContacts);
 * it sends nothing and never fails.
 *
 * @example
 * constructor(name, args, opts) { warnIfApiKeyInPlainText(); super(...); }
 */
export function warnIfApiKeyInPlainText(): void {
  try {
    if (pulumi.runtime.getConfig(KEY) === undefined) return;
    if (isSecretConfig(KEY) !== false) return;
    const stack = `${pulumi.getProject()}/${pulumi.getStack()}`;
    if (warned.has(stack)) return;
    if (warned.size >= MAX_WARNED) warned.clear();
    warned.add(stack);
    void pulumi.log
      .warn(
        `${KEY} is set in plain text: it is stored unencrypted in Pulumi.${pulumi.getStack()}.yaml and in the ` +
          "stack's state. Set it again as a secret: `pulumi config set --secret domainapi:apiKey <key>` " +
          "(or use the DOMAINAPI_API_KEY environment variable), then run `pulumi up` to re-write the state.",
      )
      .catch(() => undefined);
  } catch {
    // A warning must never fail the program.
  }
}
