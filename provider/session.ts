/**
 * Per-process provider session: the settings handed to `configure()` and the API client built
 * from them. The shims are deserialized in the engine's plugin process, which calls `configure()`
 * once per provider; every resource operation in that process then shares one client (and so one
 * pool of keep-alive connections).
 *
 * The API key travels only through here: stack config (decrypted by the engine), an explicit
 * provider's inputs (through {@link configureWith}), or the environment. It is never captured by a
 * closure, so it never reaches the state through the provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type DomainApiClient, getClient } from "./client/api";
import { type ConfigKey, type ConfigLookup, checkConfig, resolveConfig, type SettingsCheck } from "./config";
import * as log from "./log";

let lookup: ConfigLookup | undefined;
let verifyOnRefresh: string | undefined;
let warnedOfMissingKey = false;

/** Records the stack config of a `configure()` call; settings are resolved at first use. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  const config = req.config;
  lookup = (key) => config.get(`domainapi:${key}`);
  verifyOnRefresh = config.get("domainapi:verifyOnRefresh");
  warnedOfMissingKey = false;
}

/**
 * The settings of an explicit provider instance, as its inputs give them (numbers and booleans
 * as the engine passes them, or as strings). What is left unset falls back to the environment.
 */
export interface ProviderSettings {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs?: number | string | undefined;
  maxRetries?: number | string | undefined;
  verifyOnRefresh?: boolean | string | undefined;
}

/**
 * Records the settings of an explicit provider instance (the provider plugin's `Configure`), in
 * place of the stack config. Validated at first use, as {@link configure}'s.
 *
 * @example
 * configureWith({ apiKey: inputs.apiKey, baseUrl: "https://api.example.com", maxRetries: 2 });
 */
export function configureWith(settings: ProviderSettings): void {
  const text = (value: string | number | boolean | undefined) =>
    value === undefined ? undefined : String(value);
  const values: Record<ConfigKey, string | undefined> = {
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    timeoutMs: text(settings.timeoutMs),
    maxRetries: text(settings.maxRetries),
  };
  lookup = (key) => values[key];
  verifyOnRefresh = text(settings.verifyOnRefresh);
  warnedOfMissingKey = false;
}

/**
 * The `domainapi:verifyOnRefresh` value configured (stack config or explicit provider input);
 * undefined when unset. The records provider reads it (with its environment fallback).
 */
export function verifyOnRefreshSetting(): string | undefined {
  return verifyOnRefresh;
}

/**
 * The client for the configured API. Resolving here rather than in `configure()` keeps `check()`
 * and `diff()` (which make no request) working in a preview without credentials.
 *
 * @throws ConfigError when a setting is missing or malformed
 */
export function client(): DomainApiClient {
  return getClient(resolveConfig(lookup));
}

/**
 * The configured settings checked as the first request at `up` will check them, without sending
 * any; see {@link checkConfig}.
 */
export function settingsCheck(): SettingsCheck {
  return checkConfig(lookup);
}

/**
 * For a provider's `check()`: throws the `ConfigError` that `up` would throw for a malformed
 * setting, so a preview fails where `up` would, before any request; warns (once per
 * configuration) when only the key is missing.
 *
 * @throws ConfigError for a malformed setting, with `up`'s exact message
 * @example
 * export async function check(olds, news) { checkSettings(); ... }
 */
export function checkSettings(): void {
  const { error, warning } = settingsCheck();
  if (error !== undefined) throw error;
  if (warning !== undefined && !warnedOfMissingKey) {
    warnedOfMissingKey = true;
    log.warn(warning);
  }
}
