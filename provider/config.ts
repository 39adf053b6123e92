/**
 * The provider's settings: where the API is, the key, and how patient to be.
 *
 * Each setting comes from the stack config (`domainapi:<name>`) or, when that is unset, from an
 * environment variable; the stack config wins, so a stack can override a developer's shell. The
 * dynamic provider and the program read the stack config differently (a provider request's config
 * map versus `new pulumi.Config("domainapi")`), so the stack-config getter is passed in and this
 * module stays free of Pulumi.
 */
import { ConfigError } from "./client/errors";
import { apiKeyHeaderProblem } from "./client/headerSafe";
import { quote } from "./client/redact";

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
}

/**
 * The problem {@link resolveConfig} reports for a key that is not set, word for word: a preview
 * can go on without a key (previews of pull requests from forks run without secrets), so callers
 * that only check tell it apart from the problems that fail a preview.
 */
const MISSING_API_KEY = `domainapi:apiKey is not set: ${API_KEY_HINT}.`;

/** The names of the settings, as they appear after `domainapi:` in the stack config. */
export type ConfigKey = "apiKey" | "baseUrl" | "timeoutMs" | "maxRetries";

/**
 * Reads one setting from the stack config; undefined when unset.
 *
 * @example
 * // in the dynamic provider:
 * const lookup: ConfigLookup = (k) => req.config.get(`domainapi:${k}`);
 * // in the program:
 * const lookup: ConfigLookup = (k) => new pulumi.Config("domainapi").get(k);
 */
export type ConfigLookup = (key: ConfigKey) => string | undefined;

/** The environment variable that backs each setting. */
const ENV_VARS: Readonly<Record<ConfigKey, string>> = {
  apiKey: "DOMAINAPI_API_KEY",
  baseUrl: "DOMAINAPI_BASE_URL",
  timeoutMs: "DOMAINAPI_TIMEOUT_MS",
  maxRetries: "DOMAINAPI_MAX_RETRIES",
};

/** Default per-attempt timeout. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Default number of resends. */
const DEFAULT_MAX_RETRIES = 4;

const TIMEOUT_RANGE = { min: 1, max: 600_000 } as const;
const RETRIES_RANGE = { min: 0, max: 10 } as const;

/**
 * Reads and validates the settings. Stack config wins over the environment.
 *
 * @param lookup the stack-config getter; omit it to read only the environment
 * @param env the environment; defaults to `process.env`
 * @throws ConfigError listing every problem, each with both ways to fix it; never the key's value
 *
 * @example
 * const config = resolveConfig((k) => new pulumi.Config("domainapi").get(k));
 * // { apiKey: "…", baseUrl: "https://api.example.com", timeoutMs: 30000, maxRetries: 4 }
 */
export function resolveConfig(lookup?: ConfigLookup, env: NodeJS.ProcessEnv = process.env): ClientConfig {
  const read = (key: ConfigKey): string | undefined => {
    const fromStack = lookup?.(key);
    if (fromStack !== undefined && fromStack !== "") return fromStack;
    const fromEnv = env[ENV_VARS[key]];
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
  };

  const rawKey = read("apiKey");
  const apiKey = rawKey?.trim() ?? "";
  const problems: string[] = [];

  if (apiKey === "") {
    problems.push(MISSING_API_KEY);
  } else {
    const unsendable = apiKeyHeaderProblem(apiKey);
    if (unsendable !== undefined) problems.push(`${unsendable}: ${API_KEY_HINT}.`);
  }

  // Every value a message quotes is redacted with the key before it is cut (see quote()).
  const secret = apiKey === "" ? undefined : apiKey;
  const baseUrl = normalizeBaseUrl(read("baseUrl"), problems, secret);
  const timeoutMs = readInteger(
    "timeoutMs",
    read("timeoutMs"),
    DEFAULT_TIMEOUT_MS,
    TIMEOUT_RANGE,
    problems,
    secret,
  );
  const maxRetries = readInteger(
    "maxRetries",
    read("maxRetries"),
    DEFAULT_MAX_RETRIES,
    RETRIES_RANGE,
    problems,
    secret,
  );

  if (problems.length > 0) throw new ConfigError(problems, secret);
  return { apiKey, baseUrl, timeoutMs, maxRetries };
}

function howToSet(key: ConfigKey, example: string): string {
  return `set it with \`pulumi config set domainapi:${key} ${example}\` or the ${ENV_VARS[key]} environment variable`;
}

function normalizeBaseUrl(raw: string | undefined, problems: string[], secret: string | undefined): string {
  const fix = howToSet("baseUrl", "https://api.example.com");
  if (raw === undefined || raw.trim() === "") {
    problems.push(`domainapi:baseUrl is not set: ${fix}.`);
    return "";
  }
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push(`domainapi:baseUrl ${quote(text, secret)} is not an absolute URL: ${fix}.`);
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    problems.push(
      `domainapi:baseUrl ${quote(text, secret)} must use http or https, not ${url.protocol}: ${fix}.`,
    );
    return "";
  }
  if (url.username !== "" || url.password !== "") {
    // Never echo the URL: its userinfo may be a credential.
    problems.push(
      `domainapi:baseUrl must not contain a user name or password (the key goes in domainapi:apiKey): ${fix}.`,
    );
    return "";
  }
  if (url.search !== "" || url.hash !== "") {
    problems.push(`domainapi:baseUrl ${quote(text, secret)} must not contain a query or a fragment: ${fix}.`);
    return "";
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/v2$/i.test(path)) {
    problems.push(
      `domainapi:baseUrl ${quote(text, secret)} ends with /v2; drop the /v2, since every request path starts with it ` +
        `(e.g. ${url.origin}${path.slice(0, -3)}): ${fix}.`,
    );
    return "";
  }
  return `${url.origin}${path}`;
}

function readInteger(
  key: ConfigKey,
  raw: string | undefined,
  fallback: number,
  range: { min: number; max: number },
  problems: string[],
  secret: string | undefined,
): number {
  if (raw === undefined) return fallback;
  const text = raw.trim();
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    problems.push(
      `domainapi:${key} ${quote(text, secret)} must be an integer from ${range.min} to ${range.max}: ` +
        `${howToSet(key, String(fallback))}.`,
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
export function checkConfig(lookup?: ConfigLookup, env: NodeJS.ProcessEnv = process.env): SettingsCheck {
  try {
    resolveConfig(lookup, env);
    return {};
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    if (err.problems.length === 1 && err.problems[0] === MISSING_API_KEY) {
      return {
        warning:
          `${MISSING_API_KEY.slice(0, -1)}. A preview goes on without it and sends no request; ` +
          "`pulumi up` fails until it is set.",
      };
    }
    return { error: err };
  }
}
