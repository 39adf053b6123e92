/**
 * The warning for an API key set in plain text: `pulumi config set domainapi:apiKey <key>` without
 * `--secret` stores the key unencrypted in the stack's config file and, because the engine records
 * the stack config as the inputs of the dynamic provider that our resources use, unencrypted in
 * the state too. In a Node program the program can tell: it is given the list of secret config
 * keys, while the provider's `configure()` receives every value already decrypted, secret or not.
 * Through the plugin, the project and stack files in the program's directory tell
 * ({@link plainKeyPlaces}).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as log from "../log";

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
 * typings, so it is called only if present. It may throw (a config store not set up): the caller
 * then warns of nothing, as when it cannot tell.
 */
function isSecretConfig(key: string): boolean | undefined {
  return (pulumi.runtime as { isConfigSecret?: (k: string) => boolean }).isConfigSecret?.(key);
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

/** Where a key stands in plain text: a file of the program's directory and the line (from 1). */
export interface PlainKeyPlace {
  file: string;
  line: number;
}

/** Text that may stand beside a value in YAML (`key: value`, `"value"`, `[value,`), never inside a key. */
const EDGE = String.raw`[\s"':,\[\]{}]`;

/**
 * The lines of the program's project and stack files (`Pulumi.yaml`, `Pulumi.<stack>.yaml`, in
 * `stackConfigDir` when the project sets one) that hold `apiKey` as a value in plain text: a key
 * written into a YAML program, or set with `pulumi config set` without `--secret` (an encrypted
 * value, `secure: v1:…`, never holds it). The plugin cannot learn this from the engine: it hands a
 * provider its key as a secret either way (Pulumi YAML and the SDKs mark the schema's secret
 * inputs), so the files the engine read are what can tell. A key shorter than 8 characters is
 * not looked for: it could be any word.
 *
 * @example
 * plainKeyPlaces("sk_live_4f1c9e", "/work/proj", "dev"); // [{ file: "Pulumi.dev.yaml", line: 3 }]
 */
export function plainKeyPlaces(apiKey: string, dir: string, stack: string): PlainKeyPlace[] {
  if (apiKey.length < 8) return [];
  const escaped = apiKey.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const standing = new RegExp(`(?:^|${EDGE})${escaped}(?:$|${EDGE})`);
  const read = (file: string): string => fs.readFileSync(path.join(dir, file), "utf8");
  const project = ["Pulumi.yaml", "Pulumi.yml"].find((f) => fs.existsSync(path.join(dir, f)));
  // Stryker disable next-line StringLiteral: without a project file no text names a stackConfigDir
  const projectText = project === undefined ? "" : read(project);
  // Stryker disable next-line StringLiteral: path.join reads "" and "." alike, as the program's directory
  const configDir = /^stackConfigDir:\s*["']?([^"'\n#]+?)["']?\s*(?:#.*)?$/m.exec(projectText)?.[1] ?? ".";
  const stackFile = [`Pulumi.${stack}.yaml`, `Pulumi.${stack}.yml`]
    .map((f) => path.join(configDir, f))
    .find((f) => fs.existsSync(path.join(dir, f)));
  const places: PlainKeyPlace[] = [];
  for (const file of [project, stackFile]) {
    if (file === undefined) continue;
    read(file)
      .split(/\r?\n/)
      .forEach((line, i) => {
        if (standing.test(line)) places.push({ file, line: i + 1 });
      });
  }
  return places;
}

/** `Pulumi.yaml (line 12)`, `Pulumi.yaml (lines 3 and 12)`. */
function placesText(places: readonly PlainKeyPlace[]): string {
  const byFile = Map.groupBy(places, (p) => p.file);
  return [...byFile]
    .map(([file, at]) => {
      const lines = at.map((p) => p.line);
      return `${file} (line${lines.length > 1 ? "s" : ""} ${lines.join(", ")})`;
    })
    .join(" and ");
}

/**
 * The warning for a provider whose key stands in plain text in the program's files, or undefined.
 * Says where, and the one way to put it right for that provider: the stack config as a secret for
 * the default provider, a secret config value used as the input for an explicit one.
 *
 * @param provider the explicit provider's name; undefined for the default provider
 * @example
 * plainKeyWarning(places, "live"); // 'the apiKey of provider "live" is written in plain text in Pulumi.yaml (line 12): …'
 */
export function plainKeyWarning(
  places: readonly PlainKeyPlace[],
  provider: string | undefined,
): string | undefined {
  if (places.length === 0) return undefined;
  const where = placesText(places);
  if (provider === undefined)
    return (
      `${KEY} is set in plain text in ${where}: it is stored unencrypted there. Set it again as a secret: ` +
      "`pulumi config set --secret domainapi:apiKey <key>` (or use the DOMAINAPI_API_KEY environment variable)."
    );
  return (
    `the apiKey of provider "${provider}" is written in plain text in ${where}: whoever reads that file reads the key. ` +
    "Keep it in a secret config value (`pulumi config set --secret <name> <key>`) and give the provider that value " +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML's interpolation, shown as text
    "(in YAML: `apiKey: ${<name>}`)."
  );
}

/**
 * Providers of this process already warned about.
 *
 * Bound: the providers this process is configured as, one for a plugin process.
 */
const warnedProviders = new Set<string>();

/**
 * Warns once per provider when its key stands in plain text in the program's files
 * ({@link plainKeyPlaces}; the plugin runs in the program's directory). Never fails.
 *
 * @param providerUrn the provider's URN, whose stack names the stack file
 * @param explicit whether it is an explicit provider (else the default one, from the stack config)
 */
export function warnIfKeyInPlainFiles(
  apiKey: string | undefined,
  providerUrn: string | undefined,
  explicit: boolean,
  dir: string = process.cwd(),
): void {
  try {
    if (apiKey === undefined || providerUrn === undefined || warnedProviders.has(providerUrn)) return;
    // `urn:pulumi:<stack>::<project>::<type>::<name>`: the stack ends the part before the first `::`.
    const head = providerUrn.replace(/::.*/s, "");
    const stack = head.slice(head.lastIndexOf(":") + 1);
    const name = providerUrn.slice(providerUrn.lastIndexOf("::") + 2);
    const warning = plainKeyWarning(plainKeyPlaces(apiKey, dir, stack), explicit ? name : undefined);
    if (warning === undefined) return;
    warnedProviders.add(providerUrn);
    log.warn(warning);
  } catch {
    // A warning must never fail the provider.
  }
}
