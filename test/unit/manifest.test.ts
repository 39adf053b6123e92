/**
 * The names users and the engine see, said once in the manifest: the package, the type tokens (and
 * what the engine calls the same resources made by a Node program), the settings with their
 * variables, defaults and ranges, which setting is secret and which moves a resource to another API.
 */
import { describe, expect, it } from "vitest";
import {
  ACCOUNT_SETTING,
  DEFAULT_PLUGIN_DOWNLOAD_URL,
  DYNAMIC_TOKENS,
  PACKAGE,
  SECRET_SETTINGS,
  SETTING_NAMES,
  SETTINGS,
  TOKENS,
} from "../../provider/manifest";

describe("manifest", () => {
  it("the package and its tokens", () => {
    expect(PACKAGE).toBe("domainapi");
    expect(TOKENS).toEqual({
      records: "domainapi:index:DnsTemplateRecords",
      restore: "domainapi:index:DomainRestore",
      contacts: "domainapi:index:getContacts",
      spf: "domainapi:index:spf",
      dmarc: "domainapi:index:dmarc",
      caa: "domainapi:index:caa",
    });
    // A dynamic resource of module "domainapi" is typed pulumi-nodejs:dynamic/<module>:<name>.
    expect(DYNAMIC_TOKENS).toEqual({
      records: "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords",
      restore: "pulumi-nodejs:dynamic/domainapi:DomainRestore",
    });
  });

  it("the settings in order, each with its variable, default and range", () => {
    expect(SETTING_NAMES).toEqual([
      "apiKey",
      "baseUrl",
      "timeoutMs",
      "maxRetries",
      "verifyOnRefresh",
      "dnsServers",
    ]);
    const rows = SETTING_NAMES.map((name) => {
      const spec: { type: string; env: string; default?: unknown; range?: unknown } = SETTINGS[name];
      return [name, spec.type, spec.env, spec.default, spec.range];
    });
    expect(rows).toEqual([
      ["apiKey", "string", "DOMAINAPI_API_KEY", undefined, undefined],
      ["baseUrl", "string", "DOMAINAPI_BASE_URL", undefined, undefined],
      ["timeoutMs", "integer", "DOMAINAPI_TIMEOUT_MS", 30_000, { min: 1, max: 600_000 }],
      ["maxRetries", "integer", "DOMAINAPI_MAX_RETRIES", 4, { min: 0, max: 10 }],
      ["verifyOnRefresh", "boolean", "DOMAINAPI_VERIFY_ON_REFRESH", false, undefined],
      ["dnsServers", "string", "DOMAINAPI_DNS_SERVERS", undefined, undefined],
    ]);
  });

  it("only the key is secret; the base address is the account's", () => {
    expect(SECRET_SETTINGS).toEqual(["apiKey"]);
    expect(ACCOUNT_SETTING).toBe("baseUrl");
    expect(DEFAULT_PLUGIN_DOWNLOAD_URL).toBe("github://api.github.com/pulumi-domainapi/pulumi-domainapi");
  });
});
