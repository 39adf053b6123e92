/**
 * What the provider offers, said once: its package name, the type tokens of its resources and
 * functions, and its settings (name, type, secret, environment variable, default, range,
 * description). The settings resolver (settings/config.ts), the plugin, the schema generator
 * (scripts/gen-schema.ts), the plan CLI and the benchmarks read these; nothing else spells a token
 * or a setting. The operations behind each token are bound in operations.ts, which imports the
 * providers: this module imports nothing, so that settings/config.ts (which every provider reaches) can
 * read it without a cycle.
 */

/** The Pulumi package name: the `domainapi:` of every config key and token. */
export const PACKAGE = "domainapi";

/** The type tokens of the resources and functions the plugin serves (and the schema declares). */
export const TOKENS = {
  records: "domainapi:index:DnsTemplateRecords",
  restore: "domainapi:index:DomainRestore",
  contacts: "domainapi:index:getContacts",
  spf: "domainapi:index:spf",
  dmarc: "domainapi:index:dmarc",
  caa: "domainapi:index:caa",
} as const;

/**
 * The type tokens the engine gives the same resources made by a Node program's dynamic provider
 * (`pulumi.dynamic.Resource` of module `domainapi`): what a preview's JSON names them by.
 */
export const DYNAMIC_TOKENS = {
  records: "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords",
  restore: "pulumi-nodejs:dynamic/domainapi:DomainRestore",
} as const;

/** A resource's type token. */
export type ResourceToken = typeof TOKENS.records | typeof TOKENS.restore;

/** One provider setting, as the stack config, the environment and an explicit provider give it. */
export interface SettingSpec {
  /** The schema type of the provider input (the stack config always arrives as text). */
  readonly type: "string" | "integer" | "boolean";
  /** Whether its value is a secret (the state keeps it encrypted; no message shows it). */
  readonly secret?: true;
  /** The environment variable read when neither the stack config nor the provider sets it. */
  readonly env: string;
  /** The value used when nothing sets it; absent for a required setting. */
  readonly default?: number | boolean;
  /** The integers it takes, for an integer setting. */
  readonly range?: { readonly min: number; readonly max: number };
  /** What it does, for the schema and so the SDKs' docs. */
  readonly description: string;
}

/**
 * The provider's settings, by the name they take after `domainapi:` in the stack config and as an
 * explicit provider's inputs.
 */
export const SETTINGS = {
  apiKey: {
    type: "string",
    secret: true,
    env: "DOMAINAPI_API_KEY",
    description: "The API key, sent as `Authorization: Bearer <key>`.",
  },
  baseUrl: {
    type: "string",
    env: "DOMAINAPI_BASE_URL",
    description:
      "The API's base address without `/v2`, e.g. `https://api.example.com`. A resource belongs to the API it was " +
      "made on: a new base address of an explicit provider replaces its resources.",
  },
  timeoutMs: {
    type: "integer",
    env: "DOMAINAPI_TIMEOUT_MS",
    default: 30_000,
    range: { min: 1, max: 600_000 },
    description: "Per-attempt timeout in milliseconds.",
  },
  maxRetries: {
    type: "integer",
    env: "DOMAINAPI_MAX_RETRIES",
    default: 4,
    range: { min: 0, max: 10 },
    description: "How many times a failed request may be resent when that is safe.",
  },
  verifyOnRefresh: {
    type: "boolean",
    env: "DOMAINAPI_VERIFY_ON_REFRESH",
    default: false,
    description:
      "Not read (a setting would also verify, a write request, during `pulumi preview --refresh`): run " +
      "`DOMAINAPI_VERIFY_ON_REFRESH=1 pulumi refresh` for one refresh that re-states every held record.",
  },
  dnsServers: {
    type: "string",
    env: "DOMAINAPI_DNS_SERVERS",
    description:
      "The authoritative DNS servers a refresh asks for the records a witness domain (`verifyDomain`) publishes, " +
      "as IP addresses with an optional port, separated by commas: `192.0.2.53, [2001:db8::53]:53`. Default: the " +
      "witness's own name servers (its NS), asked directly, never a recursive resolver.",
  },
} as const satisfies Record<string, SettingSpec>;

/** A setting's name. */
export type SettingName = keyof typeof SETTINGS;

/** The settings' names, in the manifest's order. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings whose values are secrets (the state keeps them encrypted, whatever the program gave). */
export const SECRET_SETTINGS = SETTING_NAMES.filter((name) => "secret" in SETTINGS[name]);

/** The settings the API client is built from (the rest change what the provider does). */
export type ClientSettingName = "apiKey" | "baseUrl" | "timeoutMs" | "maxRetries";

/**
 * The setting whose change moves a resource to another API: through the plugin a new value
 * replaces the provider's resources (DiffConfig), and the dynamic resources refuse a preview.
 */
export const ACCOUNT_SETTING = "baseUrl" satisfies SettingName;

/**
 * Where the published plugin binaries are, written into the schema and the SDKs so that
 * `pulumi plugin install resource domainapi <version>` and the SDKs find them. A fork changes the
 * owner with `DOMAINAPI_PLUGIN_DOWNLOAD_URL` when it generates the schema.
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-domainapi/pulumi-domainapi";
