/**
 * Through the plugin, a key in plain text is found where Pulumi keeps it: the project file of a
 * YAML program (a literal `apiKey`, or a config default) and the stack file as `pulumi config set`
 * writes it without `--secret`; never in an encrypted value (`secure: v1:…`). The files here are
 * in the formats the Pulumi CLI writes (Pulumi.<stack>.yaml: a `config:` map of `ns:key: value`, a
 * secret as `{ secure: … }`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { plainKeyPlaces, plainKeyWarning } from "../../provider/host/keyInState";

const KEY = "sk_live_4f1c9e7a0b";
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-keyfiles-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const YAML_PROGRAM = `name: shop
runtime: yaml
resources:
  live:
    type: pulumi:providers:domainapi
    properties:
      apiKey: ${KEY}
      baseUrl: https://api.example.com
`;

describe("a key in plain text in the program's files", () => {
  it("is found written into a YAML program, by file and line", () => {
    expect(plainKeyPlaces(KEY, project({ "Pulumi.yaml": YAML_PROGRAM }), "dev")).toEqual([
      { file: "Pulumi.yaml", line: 7 },
    ]);
  });

  it("is found in the stack file as `pulumi config set` without --secret writes it, quoted or not", () => {
    const stackFile = `config:\n  domainapi:apiKey: ${KEY}\n  domainapi:baseUrl: https://api.example.com\n`;
    expect(
      plainKeyPlaces(
        KEY,
        project({ "Pulumi.yaml": "name: shop\nruntime: go\n", "Pulumi.dev.yaml": stackFile }),
        "dev",
      ),
    ).toEqual([{ file: "Pulumi.dev.yaml", line: 2 }]);
    const quoted = `config:\n  shop:liveApiKey: "${KEY}"\n`;
    expect(
      plainKeyPlaces(KEY, project({ "Pulumi.yaml": "name: shop\n", "Pulumi.prod.yaml": quoted }), "prod"),
    ).toEqual([{ file: "Pulumi.prod.yaml", line: 2 }]);
  });

  it("is looked for in the project's stackConfigDir", () => {
    const files = {
      "Pulumi.yaml": "name: shop\nruntime: yaml\nstackConfigDir: config\n",
      "config/Pulumi.dev.yaml": `config:\n  domainapi:apiKey: ${KEY}\n`,
    };
    expect(plainKeyPlaces(KEY, project(files), "dev")).toEqual([{ file: "config/Pulumi.dev.yaml", line: 2 }]);
  });

  it("is not found when set as a secret, in another stack's file, or inside a longer value", () => {
    const secret = "config:\n  domainapi:apiKey:\n    secure: v1:7b2Lk3Cq0Zk=:v1:Q2f8a9ZyTqk1rX0a\n";
    const files = {
      "Pulumi.yaml": `name: shop\nruntime: yaml\ndescription: not ${KEY}x nor x${KEY}\n`,
      "Pulumi.dev.yaml": secret,
      "Pulumi.prod.yaml": `config:\n  domainapi:apiKey: ${KEY}\n`,
    };
    expect(plainKeyPlaces(KEY, project(files), "dev")).toEqual([]);
  });

  it("is not looked for when the key is too short to tell from a word, or there are no files", () => {
    expect(plainKeyPlaces("abc", project({ "Pulumi.yaml": "name: abc\n" }), "dev")).toEqual([]);
    expect(plainKeyPlaces(KEY, project({}), "dev")).toEqual([]);
  });

  it("is told with the one fix for that provider, never quoting the key", () => {
    const places = [{ file: "Pulumi.dev.yaml", line: 2 }];
    const forDefault = plainKeyWarning(places, undefined) ?? "";
    expect(forDefault).toBe(
      "domainapi:apiKey is set in plain text in Pulumi.dev.yaml (line 2): it is stored unencrypted there. Set it again as a secret: `pulumi config set --secret domainapi:apiKey <key>` (or use the DOMAINAPI_API_KEY environment variable).",
    );
    const forExplicit =
      plainKeyWarning(
        [
          { file: "Pulumi.yaml", line: 7 },
          { file: "Pulumi.yaml", line: 9 },
        ],
        "live",
      ) ?? "";
    expect(forExplicit).toMatch(
      /^the apiKey of provider "live" is written in plain text in Pulumi\.yaml \(lines 7, 9\): .*`pulumi config set --secret <name> <key>`.*`apiKey: \$\{<name>\}`/,
    );
    expect(plainKeyWarning([], "live")).toBeUndefined();
  });
});
