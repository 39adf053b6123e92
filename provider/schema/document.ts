/**
 * schema.json, made from the manifest (package name, tokens, settings) and spec.ts (types,
 * resources, functions), with the two build settings: the version (the package's) and where the
 * plugin binaries are published (`pluginDownloadURL`). `npm run schema` writes it; a test checks
 * that the committed file is what this makes now. Pure.
 */
import { DEFAULT_PLUGIN_DOWNLOAD_URL, PACKAGE, SETTING_NAMES, SETTINGS, type SettingSpec } from "../manifest";
import { FUNCTION_SPECS, LANGUAGE, PACKAGE_INFO, PROVIDER_DESCRIPTION, RESOURCE_SPECS, TYPES } from "./spec";
import type { PropertySpec } from "./types";

/** The environment variable that sets `pluginDownloadURL` when the schema is generated. */
export const PLUGIN_DOWNLOAD_URL_ENV = "DOMAINAPI_PLUGIN_DOWNLOAD_URL";

/** The build settings written into the schema. */
export interface SchemaBuild {
  /** The package's version: the plugin's and the SDKs'. */
  version: string;
  /** Where `pulumi plugin install` and the SDKs fetch the plugin (a fork sets its own). */
  pluginDownloadURL: string;
}

/**
 * The build settings of this build: `version` given, the download address from
 * `DOMAINAPI_PLUGIN_DOWNLOAD_URL` or the repository's default.
 */
export function schemaBuild(version: string, env: NodeJS.ProcessEnv = process.env): SchemaBuild {
  const url = env[PLUGIN_DOWNLOAD_URL_ENV]?.trim();
  return { version, pluginDownloadURL: url ? url : DEFAULT_PLUGIN_DOWNLOAD_URL };
}

function settingProperty(spec: SettingSpec): PropertySpec {
  const range = spec.range ? ` From ${spec.range.min} to ${spec.range.max}.` : "";
  const fallback = spec.default === undefined ? "" : ` Default ${spec.default}.`;
  return {
    type: spec.type,
    ...(spec.secret ? { secret: true } : {}),
    description: `${spec.description}${range}${fallback} Falls back to the ${spec.env} environment variable.`,
  };
}

/**
 * The package schema the plugin serves and the SDKs are generated from.
 *
 * @example
 * const schema = schemaDocument(schemaBuild("0.1.0"));
 */
export function schemaDocument(build: SchemaBuild): Record<string, unknown> {
  const settings = Object.fromEntries(SETTING_NAMES.map((name) => [name, settingProperty(SETTINGS[name])]));
  return {
    name: PACKAGE,
    version: build.version,
    ...PACKAGE_INFO,
    pluginDownloadURL: build.pluginDownloadURL,
    config: { variables: settings },
    provider: { description: PROVIDER_DESCRIPTION, inputProperties: settings },
    types: TYPES,
    resources: RESOURCE_SPECS,
    functions: FUNCTION_SPECS,
    language: LANGUAGE,
  };
}
