/**
 * Where a run leaves its files on the machine (provider/host/machineFiles.ts): under
 * DOMAINAPI_STATE_DIR when set, else the user's cache directory (XDG_CACHE_HOME, else ~/.cache);
 * each template's file named readably after its account and template, and a key known only by a
 * fingerprint that does not hold it.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  accountTemplateFile,
  keyFingerprint,
  machineDir,
  STATE_DIR_ENV,
} from "../../../provider/host/machineFiles";

let saved: { state?: string; xdg?: string };
beforeEach(() => {
  saved = { state: process.env.DOMAINAPI_STATE_DIR, xdg: process.env.XDG_CACHE_HOME };
});
afterEach(() => {
  for (const [name, value] of [
    ["DOMAINAPI_STATE_DIR", saved.state],
    ["XDG_CACHE_HOME", saved.xdg],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the directory of a kind of file", () => {
  it("is named by DOMAINAPI_STATE_DIR", () => {
    expect(STATE_DIR_ENV).toBe("DOMAINAPI_STATE_DIR");
  });

  it("under DOMAINAPI_STATE_DIR when it is set", () => {
    process.env.DOMAINAPI_STATE_DIR = "/srv/state";
    process.env.XDG_CACHE_HOME = "/srv/cache";
    expect(machineDir("journal")).toBe(join("/srv/state", "journal"));
  });

  it("else under XDG_CACHE_HOME, in a directory of the provider's own", () => {
    delete process.env.DOMAINAPI_STATE_DIR;
    process.env.XDG_CACHE_HOME = "/srv/cache";
    expect(machineDir("claims")).toBe(join("/srv/cache", "pulumi-domainapi", "claims"));
  });

  it("a blank DOMAINAPI_STATE_DIR or XDG_CACHE_HOME counts as unset: ~/.cache", () => {
    process.env.DOMAINAPI_STATE_DIR = "  ";
    process.env.XDG_CACHE_HOME = " ";
    expect(machineDir("claims")).toBe(join(homedir(), ".cache", "pulumi-domainapi", "claims"));
    process.env.DOMAINAPI_STATE_DIR = "";
    process.env.XDG_CACHE_HOME = "";
    expect(machineDir("claims")).toBe(join(homedir(), ".cache", "pulumi-domainapi", "claims"));
    delete process.env.DOMAINAPI_STATE_DIR;
    delete process.env.XDG_CACHE_HOME;
    expect(machineDir("journal")).toBe(join(homedir(), ".cache", "pulumi-domainapi", "journal"));
  });
});

describe("the file of a template of an account", () => {
  it("is named after the address without its scheme and the template, then a digest of both", () => {
    expect(accountTemplateFile("https://api.example.com", "web")).toMatch(
      /^api\.example\.com-web-[0-9a-f]{16}\.json$/,
    );
    expect(accountTemplateFile("http://127.0.0.1:8080", "tpl-1")).toMatch(
      /^127\.0\.0\.1_8080-tpl-1-[0-9a-f]{16}\.json$/,
    );
  });

  it("keeps only letters, digits, dots, dashes and underscores, each other run one underscore", () => {
    expect(accountTemplateFile("https://api.example.com/v2/", "a b/c")).toMatch(
      /^api\.example\.com_v2_-a_b_c-[0-9a-f]{16}\.json$/,
    );
    expect(accountTemplateFile("https://api.example.com", "a / b")).toMatch(
      /^api\.example\.com-a_b-[0-9a-f]{16}\.json$/,
    );
  });

  it("keeps the readable part to 80 characters; the digest tells long names apart", () => {
    const long = "t".repeat(200);
    const name = accountTemplateFile("https://api.example.com", long);
    expect(name).toBe(`${`api.example.com-${long}`.slice(0, 80)}-${name.slice(-21, -5)}.json`);
    expect(accountTemplateFile("https://api.example.com", `${long}x`)).not.toBe(name);
  });

  it("differs for another account or another template, even when the readable parts agree", () => {
    const one = accountTemplateFile("https://api.example.com", "web");
    expect(accountTemplateFile("http://api.example.com", "web")).not.toBe(one);
    expect(accountTemplateFile("https://api.example.com", "web2")).not.toBe(one);
    expect(accountTemplateFile("https://api.example.com/", "web")).not.toBe(
      accountTemplateFile("https://api.example.com", "/web"),
    );
    expect(accountTemplateFile("https://api.example.com", "web")).toBe(one);
  });
});

describe("the fingerprint of a key", () => {
  it("is 12 hexadecimal digits, the same for the same key, another for another", () => {
    const key = "dk_live_0123456789abcdef";
    expect(keyFingerprint(key)).toMatch(/^[0-9a-f]{12}$/);
    expect(keyFingerprint(key)).toBe(keyFingerprint(key));
    expect(keyFingerprint(`${key}x`)).not.toBe(keyFingerprint(key));
  });

  it("is not the plain SHA-256 of the key (a fingerprint of this provider's own)", async () => {
    const { createHash } = await import("node:crypto");
    const key = "dk_live_0123456789abcdef";
    expect(keyFingerprint(key)).not.toBe(createHash("sha256").update(key).digest("hex").slice(0, 12));
  });
});
