/**
 * schema.json is generated (`npm run schema`) from the manifest and provider/schema/: the committed
 * file is what the generator makes now, every token of the manifest has its schema and its
 * operations, and the build settings (version, pluginDownloadURL) are written in.
 */
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { DEFAULT_PLUGIN_DOWNLOAD_URL, SETTING_NAMES, TOKENS } from "../../provider/manifest";
import { FUNCTIONS, RESOURCES } from "../../provider/operations";
import committed from "../../provider/plugin/schema.json";
import { PLUGIN_DOWNLOAD_URL_ENV, schemaBuild, schemaDocument } from "../../provider/schema/document";
import { FUNCTION_SPECS, RESOURCE_SPECS } from "../../provider/schema/spec";

const sorted = (xs: Iterable<string>) => [...xs].sort();

describe("schema.json", () => {
  it("is what `npm run schema` makes of the manifest now", () => {
    const env = { [PLUGIN_DOWNLOAD_URL_ENV]: process.env[PLUGIN_DOWNLOAD_URL_ENV] };
    expect(committed, "provider/plugin/schema.json is stale: run npm run schema").toEqual(
      schemaDocument(schemaBuild(packageJson.version, env)),
    );
  });

  it("declares every token the plugin serves, with its operations, and nothing else", () => {
    const tokens = Object.values(TOKENS);
    expect(sorted([...Object.keys(RESOURCE_SPECS), ...Object.keys(FUNCTION_SPECS)])).toEqual(sorted(tokens));
    expect(sorted(Object.keys(RESOURCES))).toEqual(sorted(Object.keys(RESOURCE_SPECS)));
    expect(sorted(Object.keys(FUNCTIONS))).toEqual(sorted(Object.keys(FUNCTION_SPECS)));
  });

  it("takes the provider's settings from the manifest: the key secret, each with its variable", () => {
    const doc = schemaDocument(schemaBuild("1.2.3", {})) as {
      provider: { inputProperties: Record<string, { secret?: boolean; description: string }> };
      config: { variables: Record<string, unknown> };
    };
    expect(Object.keys(doc.provider.inputProperties)).toEqual(SETTING_NAMES);
    expect(doc.config.variables).toEqual(doc.provider.inputProperties);
    expect(doc.provider.inputProperties.apiKey?.secret).toBe(true);
    expect(doc.provider.inputProperties.timeoutMs?.description).toContain("DOMAINAPI_TIMEOUT_MS");
  });

  it("carries the version and the download address of the build", () => {
    expect(schemaDocument(schemaBuild("1.2.3", {}))).toMatchObject({
      version: "1.2.3",
      pluginDownloadURL: DEFAULT_PLUGIN_DOWNLOAD_URL,
    });
    const fork = schemaBuild("1.2.3", {
      [PLUGIN_DOWNLOAD_URL_ENV]: "github://api.github.com/someone/pulumi-domainapi",
    });
    expect(schemaDocument(fork).pluginDownloadURL).toBe("github://api.github.com/someone/pulumi-domainapi");
  });
});
