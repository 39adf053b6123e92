/**
 * Per-process provider session: the settings handed to `configure()` and the API client built
 * from them. The dynamic shims are deserialized in the engine's plugin process, which calls
 * `configure()` once per provider; the provider plugin runs one process per provider instance and
 * configures it from the instance's inputs. Every resource operation in that process then shares
 * one client (and so one pool of keep-alive connections).
 *
 * The API key travels only through here: stack config (decrypted by the engine), an explicit
 * provider's inputs, or the environment. It is never captured by a closure, so it never reaches the
 * state through the provider.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { type DomainApiClient, getClient } from "../client/api";
import { ConfigError } from "../errors";
import * as log from "../log";
import { ACCOUNT_SETTING, PACKAGE, SETTING_NAMES, SETTINGS, type SettingName } from "../manifest";
import {
  type ConfigLookup,
  canonicalBaseUrl,
  checkConfig,
  resolveConfig,
  type SettingsCheck,
  type SettingsSource,
} from "../settings/config";
import { type DnsServer, parseDnsServers } from "../settings/dnsServers";
import { UNKNOWN } from "./engine";
import { keyFingerprint } from "./machineFiles";

type Props = Record<string, unknown>;

let lookup: ConfigLookup | undefined;
let source: SettingsSource = "stack";
let verifyOnRefresh: string | undefined;
let dnsServers: string | undefined;
let warnedOfMissingKey = false;
let provider = "the default provider";

/** Records the stack config of a dynamic provider's `configure()` call; settings are resolved at first use. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  const config = req.config;
  configureFrom((name) => config.get(`${PACKAGE}:${name}`), "stack");
}

/**
 * The settings as text, by name, from a provider's inputs (plain values: the engine hands a default
 * provider the stack config as strings and an explicit one the program's numbers and booleans).
 *
 * @example
 * settingsText({ timeoutMs: 5000, colour: "x" }); // { timeoutMs: "5000" }
 */
export function settingsText(inputs: Props): Partial<Record<SettingName, string>> {
  const out: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const v = inputs[name];
    if (v !== undefined && v !== null && v !== "") out[name] = String(v);
  }
  return out;
}

/**
 * Configures the session from a provider's settings: a getter by name (the stack config) or the
 * inputs of a provider instance (the plugin's Configure). What is unset falls back to the
 * environment at first use; `from` says where the values came from, for the advice of a bad one.
 *
 * @example
 * configureFrom({ apiKey: "k", baseUrl: "https://api.example.com", maxRetries: 2 }, "provider");
 */
export function configureFrom(
  settings: Props | ((name: SettingName) => string | undefined),
  from: SettingsSource,
  providerUrn?: string,
): void {
  provider = providerOf(providerUrn, from);
  const text = typeof settings === "function" ? undefined : settingsText(settings);
  const get =
    text === undefined
      ? (settings as (name: SettingName) => string | undefined)
      : (name: SettingName) => text[name];
  lookup = (key) => get(key);
  source = from;
  verifyOnRefresh = get("verifyOnRefresh");
  dnsServers = get("dnsServers");
  warnedOfMissingKey = false;
}

/** The provider as messages name it: `"live"` for an explicit one, `the default provider`. */
function providerOf(urn: string | undefined, from: SettingsSource): string {
  const name = urn?.includes("::") ? urn.slice(urn.lastIndexOf("::") + 2) : "";
  return from === "provider" && name !== "" ? `"${name}"` : "the default provider";
}

/** The configured provider as messages name it (`"live"`, or `the default provider`). */
export function configuredProvider(): string {
  return provider;
}

/**
 * Where a plugin's provider instance takes its settings from, by its URN (or name): the engine's
 * default provider (`…::pulumi:providers:domainapi::default_1_2_3`) is configured from the stack
 * config, any other from its inputs in the program.
 *
 * @example
 * settingsSourceOf("urn:pulumi:dev::p::pulumi:providers:domainapi::default_0_1_0"); // "stack"
 * settingsSourceOf("urn:pulumi:dev::p::pulumi:providers:domainapi::live"); // "provider"
 */
export function settingsSourceOf(providerUrn: string | undefined): SettingsSource {
  const text = providerUrn ?? "";
  const name = text.includes("::") ? text.slice(text.lastIndexOf("::") + 2) : text;
  return name === "" || /^default(_|$)/.test(name) ? "stack" : "provider";
}

/**
 * The plugin's CheckConfig: every malformed setting of a provider's inputs fails with the message
 * `up` would give, named by its input; a missing key or base address is left to `up` (the
 * environment may supply it, and a preview runs without it). A setting not known yet (a preview)
 * is checked once known.
 */
export function providerInputFailures(
  inputs: Props,
  from: SettingsSource,
): { property: string; reason: string }[] {
  const known = Object.fromEntries(Object.entries(settingsText(inputs)).filter(([, v]) => v !== UNKNOWN));
  const probe: Props = { apiKey: "probe", baseUrl: "http://probe.invalid", ...known };
  try {
    resolveConfig((k) => probe[k] as string | undefined, {}, from);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems.map((reason) => ({
      property:
        SETTING_NAMES.find(
          (name) => reason.includes(`${PACKAGE}:${name} `) || reason.includes(`provider's ${name} `),
          // Stryker disable next-line StringLiteral: every problem of resolveConfig names its setting
        ) ?? "",
      reason,
    }));
  }
}

/**
 * The plugin's DiffConfig: a change of the base address replaces the provider's resources (they
 * belong to the API they were made on: the engine creates them on the new one and deletes them
 * from the old one with the old settings); any other change (a rotated key) updates it in place.
 * Addresses are compared as the client uses them (`https://a/` is `https://a`); one not known yet
 * counts as a change.
 */
export function diffProviderInputs(olds: Props, news: Props): { changes: boolean; replaces: string[] } {
  const [a, b] = [settingsText(olds), settingsText(news)];
  const url = (v: string | undefined) => (v === UNKNOWN ? UNKNOWN : (canonicalBaseUrl(v) ?? v));
  const moved = url(a[ACCOUNT_SETTING]) !== url(b[ACCOUNT_SETTING]);
  return { changes: moved || !isDeepStrictEqual(a, b), replaces: moved ? [ACCOUNT_SETTING] : [] };
}

/**
 * The `domainapi:verifyOnRefresh` value configured (stack config or explicit provider input);
 * undefined when unset. The records provider reads it (with its environment fallback).
 */
export function verifyOnRefreshSetting(): string | undefined {
  return verifyOnRefresh;
}

/**
 * The `dnsServers` setting (stack config or provider input, else `DOMAINAPI_DNS_SERVERS`): the
 * servers a refresh by DNS asks; undefined when unset (the witness's own name servers are asked).
 *
 * @throws ConfigError naming the setting and each malformed server
 */
export function dnsServersSetting(): DnsServer[] | undefined {
  const text = dnsServers || process.env[SETTINGS.dnsServers.env];
  if (text === undefined || text.trim() === "") return undefined;
  const { servers, problems } = parseDnsServers(text);
  if (problems.length > 0) {
    const fix = `set domainapi:dnsServers (or ${SETTINGS.dnsServers.env}) to IP addresses with optional ports, e.g. 192.0.2.53, 127.0.0.1:5353`;
    throw new ConfigError(problems.map((p) => `dnsServers: ${p}: ${fix}.`));
  }
  return servers;
}

/**
 * The client for the configured API. Resolving here rather than in `configure()` keeps `check()`
 * and `diff()` (which make no request) working in a preview without credentials.
 *
 * @throws ConfigError when a setting is missing or malformed
 */
export function client(): DomainApiClient {
  return getClient(resolveConfig(lookup, process.env, source));
}

/**
 * The account the configured settings reach, as the intent journal names it: the base address and
 * a fingerprint of the key, never the key.
 *
 * @throws ConfigError when a setting is missing or malformed
 */
export function journalAccount(): { baseUrl: string; keyFingerprint: string } {
  const { baseUrl, apiKey } = resolveConfig(lookup, process.env, source);
  return { baseUrl, keyFingerprint: keyFingerprint(apiKey) };
}

/**
 * The base address the configured settings reach, or undefined when it is not set or malformed:
 * what the dynamic resources compare with the one they were made on.
 */
export function configuredBaseUrl(): string | undefined {
  return canonicalBaseUrl(lookup?.("baseUrl") || process.env[SETTINGS.baseUrl.env]);
}

/**
 * The configured settings checked as the first request at `up` will check them, without sending
 * any; see {@link checkConfig}.
 */
export function settingsCheck(): SettingsCheck {
  return checkConfig(lookup, process.env, source);
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
