/**
 * Where the schema tells `pulumi plugin install` and the SDKs to fetch the plugin: the
 * DOMAINAPI_PLUGIN_DOWNLOAD_URL a fork sets when it generates the schema (docs/development.md),
 * trimmed, a blank one being unset.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../../../provider/manifest";
import { schemaBuild } from "../../../provider/schema/document";

describe("schemaBuild", () => {
  it("takes the download address from DOMAINAPI_PLUGIN_DOWNLOAD_URL, trimmed", () => {
    expect(
      schemaBuild("1.0.0", { DOMAINAPI_PLUGIN_DOWNLOAD_URL: " github://api.github.com/fork/x \n" }),
    ).toEqual({
      version: "1.0.0",
      pluginDownloadURL: "github://api.github.com/fork/x",
    });
  });

  it("a blank or missing variable leaves the repository's own address", () => {
    for (const env of [{}, { DOMAINAPI_PLUGIN_DOWNLOAD_URL: "  " }, { DOMAINAPI_PLUGIN_DOWNLOAD_URL: "" }]) {
      expect(schemaBuild("1.0.0", env).pluginDownloadURL).toBe(DEFAULT_PLUGIN_DOWNLOAD_URL);
    }
  });
});
