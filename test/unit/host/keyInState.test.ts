/**
 * The warnings for an API key kept in plain text (provider/host/keyInState.ts): in a program, from
 * the stack config and the secret keys the engine hands it (`PULUMI_CONFIG_SECRET_KEYS`, which
 * `pulumi.runtime.setAllConfig` fills as the engine would); in the plugin, from the program's
 * project and stack files as the Pulumi CLI writes them. Each is told once, never fails its caller,
 * and never quotes the key. Only the engine's log is stood in for: there is no engine here.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import {
  plainKeyPlaces,
  warnIfApiKeyInPlainText,
  warnIfKeyInPlainFiles,
} from "../../../provider/host/keyInState";

const KEY = "sk_live_4f1c9e7a0b";
/** A stack file as `pulumi config set domainapi:apiKey <key>` (no --secret) writes it. */
const stackFile = `config:\n  domainapi:apiKey: ${KEY}\n`;
let warn: MockInstance<typeof pulumi.log.warn>;
const dirs: string[] = [];

beforeEach(() => {
  warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
  pulumi.runtime.setAllConfig({});
});
afterEach(() => {
  vi.restoreAllMocks();
  pulumi.runtime.setAllConfig({});
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-keystate-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** The program runs as stack `stack` of project `name`, as the engine starts it. */
function runAs(name: string, stack: string): void {
  pulumi.runtime.resetOptions(name, stack, -1, "", "", false, "");
}

function warnings(): string[] {
  return warn.mock.calls.map((call) => String(call[0]));
}

describe("a program's stack config holding domainapi:apiKey", () => {
  it("an Automation API process of many stacks forgets them past 256: the first is told again", () => {
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
    // First in the file, so no stack was told yet. 256 stacks are remembered; a 257th makes room
    // by forgetting them.
    for (let i = 0; i < 256; i++) {
      runAs("fleet", `s${i}`);
      warnIfApiKeyInPlainText();
    }
    runAs("fleet", "s0");
    warnIfApiKeyInPlainText();
    expect(warnings()).toHaveLength(256);
    runAs("fleet", "s256");
    warnIfApiKeyInPlainText();
    runAs("fleet", "s0");
    warnIfApiKeyInPlainText();
    runAs("fleet", "s256");
    warnIfApiKeyInPlainText();
    expect(warnings()).toHaveLength(258);
    expect(warnings()[257]).toContain("Pulumi.s0.yaml");
  });
  it("set without --secret: warns once per stack, naming the stack file and the fix", () => {
    runAs("shop", "plain-dev");
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
    warnIfApiKeyInPlainText();
    warnIfApiKeyInPlainText();
    expect(warnings()).toEqual([
      "domainapi:apiKey is set in plain text: it is stored unencrypted in Pulumi.plain-dev.yaml and in the " +
        "stack's state. Set it again as a secret: `pulumi config set --secret domainapi:apiKey <key>` " +
        "(or use the DOMAINAPI_API_KEY environment variable), then run `pulumi up` to re-write the state.",
    ]);
    expect(warnings().join("\n")).not.toContain(KEY);
  });

  it("is told again for another stack, or the same stack name of another project", () => {
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
    runAs("shop", "plain-a");
    warnIfApiKeyInPlainText();
    runAs("shop", "plain-b");
    warnIfApiKeyInPlainText();
    runAs("blog", "plain-a");
    warnIfApiKeyInPlainText();
    expect(warnings()).toHaveLength(3);
    expect(warnings()[0]).toContain("Pulumi.plain-a.yaml");
    expect(warnings()[1]).toContain("Pulumi.plain-b.yaml");
    expect(warnings()[2]).toContain("Pulumi.plain-a.yaml");
  });

  it("set with --secret, or not set at all: no warning", () => {
    runAs("shop", "secret-dev");
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY }, ["domainapi:apiKey"]);
    warnIfApiKeyInPlainText();
    pulumi.runtime.setAllConfig({ "domainapi:baseUrl": "https://api.example.com" });
    warnIfApiKeyInPlainText();
    expect(warnings()).toEqual([]);
    // The stack was not marked as told: once the key is plain, it is warned about.
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
    warnIfApiKeyInPlainText();
    expect(warnings()).toHaveLength(1);
  });

  it("another key of the stack being secret does not make this one secret", () => {
    runAs("shop", "other-secret");
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY, "shop:dbPassword": "pw" }, ["shop:dbPassword"]);
    warnIfApiKeyInPlainText();
    expect(warnings()).toHaveLength(1);
  });

  it("an SDK that cannot tell secret keys (no isConfigSecret): no warning rather than a wrong one", () => {
    runAs("shop", "old-sdk");
    pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
    const runtime = pulumi.runtime as { isConfigSecret?: unknown };
    const saved = runtime.isConfigSecret;
    try {
      runtime.isConfigSecret = undefined;
      warnIfApiKeyInPlainText();
      runtime.isConfigSecret = () => {
        throw new Error("config store not initialised");
      };
      warnIfApiKeyInPlainText();
    } finally {
      runtime.isConfigSecret = saved;
    }
    expect(warnings()).toEqual([]);
  });

  it("never fails the program: neither a config that cannot be read nor a log that rejects", async () => {
    runAs("shop", "broken");
    vi.spyOn(pulumi.runtime, "getConfig").mockImplementation(() => {
      throw new Error("PULUMI_CONFIG is not JSON");
    });
    expect(() => warnIfApiKeyInPlainText()).not.toThrow();
    vi.mocked(pulumi.runtime.getConfig).mockRestore();

    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      warn.mockRejectedValue(new Error("engine gone"));
      pulumi.runtime.setAllConfig({ "domainapi:apiKey": KEY });
      expect(() => warnIfApiKeyInPlainText()).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(unhandled).toEqual([]);
  });
});

describe("a key in plain text in the program's files, seen by the plugin", () => {
  const DEFAULT_URN = "urn:pulumi:dev::shop::pulumi:providers:domainapi::default_0_1_0";

  it("the default provider: warns once, naming the stack file of the URN's stack and line", () => {
    const dir = project({ "Pulumi.yaml": "name: shop\nruntime: yaml\n", "Pulumi.dev.yaml": stackFile });
    warnIfKeyInPlainFiles(KEY, DEFAULT_URN, false, dir);
    warnIfKeyInPlainFiles(KEY, DEFAULT_URN, false, dir);
    expect(warnings()).toEqual([
      "domainapi:apiKey is set in plain text in Pulumi.dev.yaml (line 2): it is stored unencrypted there. " +
        "Set it again as a secret: `pulumi config set --secret domainapi:apiKey <key>` (or use the " +
        "DOMAINAPI_API_KEY environment variable).",
    ]);
  });

  it("an explicit provider is named by its URN's last part", () => {
    const dir = project({
      "Pulumi.yaml": `name: shop\nruntime: yaml\nresources:\n  live:\n    type: pulumi:providers:domainapi\n    properties:\n      apiKey: ${KEY}\n`,
    });
    warnIfKeyInPlainFiles(KEY, "urn:pulumi:prod::shop::pulumi:providers:domainapi::live", true, dir);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(
      /^the apiKey of provider "live" is written in plain text in Pulumi\.yaml \(line 7\): whoever reads that file reads the key\./,
    );
    expect(warnings()[0]).not.toContain(KEY);
  });

  it("reads the stack file of the URN's stack, not another's", () => {
    const dir = project({ "Pulumi.yaml": "name: shop\n", "Pulumi.staging.yaml": stackFile });
    warnIfKeyInPlainFiles(KEY, "urn:pulumi:dev::shop::pulumi:providers:domainapi::default_0_2_0", false, dir);
    expect(warnings()).toEqual([]);
    warnIfKeyInPlainFiles(
      KEY,
      "urn:pulumi:staging::shop::pulumi:providers:domainapi::default_0_2_0",
      false,
      dir,
    );
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain("Pulumi.staging.yaml (line 2)");
  });

  it("a provider not warned (its key was not in the files) is looked at again later", () => {
    const urn = "urn:pulumi:later::shop::pulumi:providers:domainapi::default_1_0_0";
    const dir = project({ "Pulumi.yaml": "name: shop\n" });
    warnIfKeyInPlainFiles(KEY, urn, false, dir);
    fs.writeFileSync(path.join(dir, "Pulumi.later.yaml"), stackFile);
    warnIfKeyInPlainFiles(KEY, urn, false, dir);
    expect(warnings()).toHaveLength(1);
  });

  it("without a key or a URN, looks at nothing; a file it cannot read never fails the provider", () => {
    const dir = project({ "Pulumi.yaml": "name: shop\n", "Pulumi.dev.yaml": stackFile });
    warnIfKeyInPlainFiles(undefined, "urn:pulumi:dev::shop::pulumi:providers:domainapi::nokey", true, dir);
    warnIfKeyInPlainFiles(KEY, undefined, false, dir);
    expect(warnings()).toEqual([]);
    // A directory where the stack file should be cannot be read.
    const odd = project({ "Pulumi.yaml": "name: shop\n", "Pulumi.odd.yaml/x": "" });
    expect(() =>
      warnIfKeyInPlainFiles(KEY, "urn:pulumi:odd::shop::pulumi:providers:domainapi::default", false, odd),
    ).not.toThrow();
    expect(warnings()).toEqual([]);
  });
});

describe("where plainKeyPlaces looks", () => {
  it("reads Pulumi.yml and Pulumi.<stack>.yml when the .yaml files are absent", () => {
    const dir = project({
      "Pulumi.yml": `name: shop\nruntime: yaml\nconfig:\n  domainapi:apiKey:\n    default: ${KEY}\n`,
      "Pulumi.dev.yml": stackFile,
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: "Pulumi.yml", line: 5 },
      { file: "Pulumi.dev.yml", line: 2 },
    ]);
  });

  it("reads a quoted stackConfigDir with a comment after it", () => {
    const dir = project({
      "Pulumi.yaml": 'name: shop\nstackConfigDir: "stacks" # one file per stack\n',
      "stacks/Pulumi.dev.yaml": stackFile,
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: path.join("stacks", "Pulumi.dev.yaml"), line: 2 },
    ]);
  });

  it("counts lines of files with Windows line ends, and finds a key in a flow sequence or braces", () => {
    const dir = project({
      "Pulumi.yaml": "name: shop\r\nruntime: yaml\r\n",
      "Pulumi.dev.yaml": `config:\r\n  shop:keys: [${KEY}, other]\r\n  shop:map: {a: ${KEY}}\r\n`,
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: "Pulumi.dev.yaml", line: 2 },
      { file: "Pulumi.dev.yaml", line: 3 },
    ]);
  });

  it("a key of 8 characters is looked for; its regular-expression characters are taken literally", () => {
    const dir = project({ "Pulumi.yaml": "name: shop\n", "Pulumi.dev.yaml": "config:\n  a:k: k.y+1234\n" });
    expect(plainKeyPlaces("k.y+1234", dir, "dev")).toEqual([{ file: "Pulumi.dev.yaml", line: 2 }]);
    expect(plainKeyPlaces("kxyy1234", dir, "dev")).toEqual([]);
    expect(plainKeyPlaces("k.y+123", dir, "dev")).toEqual([]);
  });

  it("a value at the very start or end of a line counts", () => {
    const dir = project({ "Pulumi.yaml": `name: shop\n${KEY}\n  - ${KEY}` });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: "Pulumi.yaml", line: 2 },
      { file: "Pulumi.yaml", line: 3 },
    ]);
  });

  it("reads an unquoted stackConfigDir followed by spaces and a comment", () => {
    const dir = project({
      "Pulumi.yaml": "name: shop\nstackConfigDir: stacks   # one file per stack\n",
      "stacks/Pulumi.dev.yaml": stackFile,
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: path.join("stacks", "Pulumi.dev.yaml"), line: 2 },
    ]);
  });
});

describe("the warning for keys in several files", () => {
  it("names each file with its lines, joined with and", () => {
    const dir = project({
      "Pulumi.yaml": `name: shop\nconfig:\n  domainapi:apiKey:\n    default: ${KEY}\n`,
      "Pulumi.multi.yaml": `config:\n  domainapi:apiKey: ${KEY}\n  shop:copy: "${KEY}"\n`,
    });
    warnIfKeyInPlainFiles(
      KEY,
      "urn:pulumi:multi::shop::pulumi:providers:domainapi::default_2_0_0",
      false,
      dir,
    );
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(
      /^domainapi:apiKey is set in plain text in Pulumi\.yaml \(line 4\) and Pulumi\.multi\.yaml \(lines 2, 3\): it is stored unencrypted there\./,
    );
  });
});

describe("stackConfigDir, as YAML writes it", () => {
  it("is the project's own key, at the start of a line, not a key of that name inside another", () => {
    const dir = project({
      "Pulumi.yaml": "name: shop\nconfig:\n  shop:stackConfigDir: elsewhere\n",
      "Pulumi.dev.yaml": stackFile,
      "elsewhere/Pulumi.dev.yaml": "config: {}\n",
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([{ file: "Pulumi.dev.yaml", line: 2 }]);
  });

  it("may stand after more than one space", () => {
    const dir = project({
      "Pulumi.yaml": "name: shop\nstackConfigDir:   stacks\n",
      "stacks/Pulumi.dev.yaml": stackFile,
    });
    expect(plainKeyPlaces(KEY, dir, "dev")).toEqual([
      { file: path.join("stacks", "Pulumi.dev.yaml"), line: 2 },
    ]);
  });
});
