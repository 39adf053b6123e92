/**
 * The provider's settings: where the API is, the key, and how patient to be.
 *
 * Each setting comes from the stack config (`domainapi:<name>`) or, when that is unset, from an
 * environment variable; the stack config wins, so a stack can override a developer's shell. The
 * dynamic provider and the program read the stack config differently (a provider request's config
 * map versus `new pulumi.Config("domainapi")`), so the stack-config getter is passed in and this
 * module stays free of Pulumi.
 */
import { ConfigError } from "../errors";
import { quote } from "../errors/redact";
import { type ClientSettingName, SETTINGS } from "../manifest";
import { apiKeyHeaderProblem } from "./headerSafe";

/** The two ways to supply the key, named in every message about a missing or refused key. */
export const API_KEY_HINT =
  "set it with `pulumi config set --secret domainapi:apiKey <key>` or the DOMAINAPI_API_KEY environment variable";

/** The validated settings the client needs. */
export interface ClientConfig {
  /** The bearer credential. Never log it, never put it in a message. */
  apiKey: string;
  /** Absolute http(s) URL without a trailing slash and without `/v2` (every path starts with it). */
  baseUrl: string;
  /** How long to wait for the response headers, and between body chunks, per attempt. Default 30000. */
  timeoutMs: number;
  /** How many times a failed request may be resent (when that is safe). Default 4. */
  maxRetries: number;
  /**
   * Where the key came from and the one way to change it there, as a refused key's message says
   * it (e.g. "it comes from the stack config: change it with `pulumi config set --secret …`");
   * absent for a config made by hand, whose refusal names both ways.
   */
  keyAdvice?: string;
}

/** The names of the client's settings, as they appear after `domainapi:` in the stack config. */
export type ConfigKey = ClientSettingName;

/**
 * Reads one setting as its source gives it (stack config or a provider's input); undefined when unset.
 *
 * @example
 * // in the dynamic provider:
 * const lookup: ConfigLookup = (k) => req.config.get(`domainapi:${k}`);
 * // in the program:
 * const lookup: ConfigLookup = (k) => new pulumi.Config("domainapi").get(k);
 */
export type ConfigLookup = (key: ConfigKey) => string | undefined;

/**
 * Where a lookup's settings come from, so that advice names the place to fix: the stack config
 * (`pulumi config set domainapi:<name>`, a default provider) or an explicit provider's inputs.
 */
export type SettingsSource = "stack" | "provider";

/** Where one value came from: the lookup's source, or the environment variable behind it. */
type Origin = SettingsSource | "env";

/**
 * Reads and validates the settings. The lookup (stack config or a provider's inputs) wins over the
 * environment. Every problem's advice names where the value came from and how to fix it there.
 *
 * @param lookup the stack-config (or provider-input) getter; omit it to read only the environment
 * @param env the environment; defaults to `process.env`
 * @param source what `lookup` reads, for the advice
 * @throws ConfigError listing every problem, each with the fix; never the key's value
 *
 * @example
 * const config = resolveConfig((k) => new pulumi.Config("domainapi").get(k));
 * // { apiKey: "…", baseUrl: "https://api.example.com", timeoutMs: 30000, maxRetries: 4 }
 */
export function resolveConfig(
  lookup?: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
  source: SettingsSource = "stack",
): ClientConfig {
  const read = (key: ConfigKey): { raw: string | undefined; fix: string; name: string } => {
    const fromLookup = lookup?.(key);
    const envName = SETTINGS[key].env;
    const fromEnv = env[envName];
    const origin: Origin =
      fromLookup !== undefined && fromLookup !== ""
        ? source
        : fromEnv !== undefined && fromEnv !== ""
          ? "env"
          : source;
    const raw = origin === "env" ? fromEnv : fromLookup === "" ? undefined : fromLookup;
    return {
      raw,
      fix: howToSet(key, origin, source, raw !== undefined && raw.trim() !== ""),
      name: origin === "provider" ? `the provider's ${key}` : origin === "env" ? envName : `domainapi:${key}`,
    };
  };

  const keyRead = read("apiKey");
  const apiKey = keyRead.raw?.trim() ?? "";
  const problems: string[] = [];

  if (apiKey === "") {
    problems.push(missingKey(source));
  } else {
    const unsendable = apiKeyHeaderProblem(apiKey, keyRead.name);
    if (unsendable !== undefined) problems.push(`${unsendable}: ${keyRead.fix}.`);
  }

  // Every value a message quotes is redacted with the key before it is cut (see quote()).
  const secret = apiKey === "" ? undefined : apiKey;
  const baseUrl = normalizeBaseUrl(read("baseUrl"), problems, secret);
  const timeoutMs = readInteger("timeoutMs", read("timeoutMs"), problems, secret);
  const maxRetries = readInteger("maxRetries", read("maxRetries"), problems, secret);

  if (problems.length > 0) throw new ConfigError(problems, secret);
  return { apiKey, baseUrl, timeoutMs, maxRetries, keyAdvice: keyRead.fix };
}

/**
 * The problem {@link resolveConfig} reports for a key that is not set, word for word: a preview
 * can go on without a key (previews of pull requests from forks run without secrets), so callers
 * that only check tell it apart from the problems that fail a preview.
 */
function missingKey(source: SettingsSource): string {
  return source === "provider"
    ? "the provider's apiKey is not set: set the provider's `apiKey` input (as a secret) or the DOMAINAPI_API_KEY environment variable."
    : `domainapi:apiKey is not set: ${API_KEY_HINT}.`;
}

const EXAMPLES: Readonly<Record<ConfigKey, string>> = {
  apiKey: "<key>",
  baseUrl: "https://api.example.com",
  timeoutMs: String(SETTINGS.timeoutMs.default),
  maxRetries: String(SETTINGS.maxRetries.default),
};

/**
 * Where a setting's value came from and the one way to change it there: a stack setting wins over
 * the environment and a provider's input over both, so advice to set a variable under a value set
 * elsewhere would change nothing. A value set nowhere gets both ways.
 */
function howToSet(key: ConfigKey, origin: Origin, source: SettingsSource, set: boolean): string {
  const example = EXAMPLES[key];
  const envName = SETTINGS[key].env;
  const stack = `\`pulumi config set${key === "apiKey" ? " --secret" : ""} domainapi:${key} ${example}\``;
  const input = `the provider's \`${key}\` input (e.g. ${key}: ${example})`;
  if (!set)
    return source === "provider"
      ? `set ${input} in the program, or the ${envName} environment variable`
      : `set it with ${stack} or the ${envName} environment variable`;
  if (origin === "env")
    return `it comes from the ${envName} environment variable (${source === "provider" ? "the provider's input" : `domainapi:${key}`} is not set): change it there`;
  if (origin === "provider")
    return `it comes from the explicit provider's \`${key}\` input: change that input in the program (e.g. ${key}: ${example})`;
  return `it comes from the stack config domainapi:${key}: change it with ${stack}`;
}

function normalizeBaseUrl(
  { raw, fix, name }: { raw: string | undefined; fix: string; name: string },
  problems: string[],
  secret: string | undefined,
): string {
  if (raw === undefined || raw.trim() === "") {
    problems.push(`${name} is not set: ${fix}.`);
    return "";
  }
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push(`${name} ${quote(text, secret)} is not an absolute URL: ${fix}.`);
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    problems.push(
      `${name} ${quote(text, secret)} must use http or https, not ${url.protocol.slice(0, -1)}: ${fix}.`,
    );
    return "";
  }
  if (url.username !== "" || url.password !== "") {
    // Never echo the URL: its userinfo may be a credential.
    problems.push(`${name} must not contain a user name or password (the key goes in apiKey): ${fix}.`);
    return "";
  }
  if (url.search !== "" || url.hash !== "") {
    problems.push(`${name} ${quote(text, secret)} must not contain a query or a fragment: ${fix}.`);
    return "";
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/v2$/i.test(path)) {
    problems.push(
      `${name} ${quote(text, secret)} ends with /v2; drop the /v2, since every request path starts with it ` +
        `(e.g. ${url.origin}${path.slice(0, -3)}): ${fix}.`,
    );
    return "";
  }
  return `${url.origin}${path}`;
}

/**
 * The base address as the client uses it (trailing slashes dropped), or undefined when it is not
 * a well-formed http(s) address: what two settings are compared by to tell whether they reach the
 * same API.
 *
 * @example
 * canonicalBaseUrl("https://api.example.com/"); // "https://api.example.com"
 */
export function canonicalBaseUrl(raw: string | undefined): string | undefined {
  const problems: string[] = [];
  const url = normalizeBaseUrl({ raw, fix: "", name: "" }, problems, undefined);
  return problems.length > 0 ? undefined : url;
}

function readInteger(
  key: "timeoutMs" | "maxRetries",
  { raw, fix, name }: { raw: string | undefined; fix: string; name: string },
  problems: string[],
  secret: string | undefined,
): number {
  const { default: fallback, range } = SETTINGS[key];
  if (raw === undefined) return fallback;
  const text = raw.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    problems.push(
      `${name} ${quote(text, secret)} must be an integer from ${range.min} to ${range.max}: ${fix}.`,
    );
    return fallback;
  }
  return value;
}

/** What {@link checkConfig} found. */
export interface SettingsCheck {
  /** Settings `up` would refuse, with `up`'s own message (every problem listed). */
  error?: ConfigError;
  /** Only the key is missing: fine for a preview, an error at `up` (said in the text). */
  warning?: string;
}

/**
 * Checks the settings the way the first request at `up` will, without sending any: a malformed
 * setting is an error with `up`'s exact message; a missing key alone is a warning, since previews
 * of pull requests from forks run without secrets.
 *
 * @example
 * const { error, warning } = checkConfig((k) => config.get(`domainapi:${k}`));
 * if (error) throw error;
 */
export function checkConfig(
  lookup?: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
  source: SettingsSource = "stack",
): SettingsCheck {
  try {
    resolveConfig(lookup, env, source);
    return {};
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const missing = missingKey(source);
    if (err.problems.length === 1 && err.problems[0] === missing) {
      return {
        warning: `${missing.slice(0, -1)}. A preview goes on without it and sends no request; \`pulumi up\` fails until it is set.`,
      };
    }
    return { error: err };
  }
}
