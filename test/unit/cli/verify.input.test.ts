/**
 * `domainapi-verify` before and after it asks DNS (cli/verify.ts): each wrong argument or input
 * refused with exit status 2 and a message that names it, the templates read from either JSON a
 * stack gives, and the report as text and as Markdown, to the letter.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  declaredTemplates,
  runVerifyCommand,
  VERIFY_HEADING,
  VerifyInputError,
  type VerifyReport,
  verifyDomains,
  verifyMarkdown,
  verifyText,
} from "../../../provider/cli/verify";
import type { RecordSpec } from "../../../provider/dns/model";

const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

function exported(templateId: string, records: unknown, extra: Record<string, unknown> = {}) {
  return {
    version: 3,
    deployment: { resources: [{ type: TYPE, outputs: { templateId, records, ...extra } }] },
  };
}

function streams(stdin = "", isTTY = false) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdin: Object.assign(
        (async function* () {
          yield Buffer.from(stdin);
        })(),
        { isTTY },
      ) as unknown as NodeJS.ReadableStream & { isTTY?: boolean },
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
    },
  };
}

/** Runs the command; its exit status and what it wrote to stderr before the usage. */
async function refused(args: string[], stdin = "", isTTY = false): Promise<{ code: number; said: string }> {
  const { io, err, out } = streams(stdin, isTTY);
  const code = await runVerifyCommand(args, io);
  expect(out).toEqual([]);
  return { code, said: err.join("").split("\n\nUsage:")[0] ?? "" };
}

const dir = mkdtempSync(path.join(tmpdir(), "domainapi-verify-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stack = JSON.stringify(exported("web", [{ name: "@", type: "A", content: "192.0.2.1" }]));

describe("domainapi-verify's arguments", () => {
  it("prints its usage on --help and exits 0", async () => {
    const { io, out, err } = streams();
    expect(await runVerifyCommand(["--help"], io)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join("")).toMatch(/^Usage: domainapi-verify --domain <domain>=<templateId> /);
    expect(out.join("")).toContain(
      "--timeout how long one try of a query waits, in milliseconds (default 2000; 2 tries).",
    );
    expect(out.join("")).toMatch(/wrong\.\n$/);
  });

  it("refuses each wrong argument with exit 2, the reason and the usage", async () => {
    const cases: [string[], string][] = [
      [["--domain", "shop.example=web", "a.json", "b.json"], "one stack file at most, got 2"],
      [[], "--domain <domain>=<templateId> is required"],
      [["--domain", "=web"], '--domain: expected <domain>=<templateId>, e.g. shop.example=web; got "=web"'],
      [
        ["--domain", "shop.example="],
        '--domain: expected <domain>=<templateId>, e.g. shop.example=web; got "shop.example="',
      ],
      [
        ["--domain", "shop example=web"],
        '--domain: expected <domain>=<templateId>, e.g. shop.example=web; got "shop example=web"',
      ],
      [
        ["--domain", "shop.example=w b"],
        '--domain: expected <domain>=<templateId>, e.g. shop.example=web; got "shop.example=w b"',
      ],
      [
        ["--domain", "shop.example=web", "--wait", "soon"],
        '--wait: expected a whole number from 0 to 86400, got "soon"',
      ],
      [
        ["--domain", "shop.example=web", "--wait", "86401"],
        '--wait: expected a whole number from 0 to 86400, got "86401"',
      ],
      [
        ["--domain", "shop.example=web", "--wait=-1"],
        '--wait: expected a whole number from 0 to 86400, got "-1"',
      ],
      [
        ["--domain", "shop.example=web", "--wait", "1.5"],
        '--wait: expected a whole number from 0 to 86400, got "1.5"',
      ],
      [
        ["--domain", "shop.example=web", "--timeout", "0"],
        '--timeout: expected a whole number from 1 to 60000, got "0"',
      ],
      [
        ["--domain", "shop.example=web", "--timeout", "60001"],
        '--timeout: expected a whole number from 1 to 60000, got "60001"',
      ],
      [
        ["--domain", "shop.example=web", "--timeout", " 5"],
        '--timeout: expected a whole number from 1 to 60000, got " 5"',
      ],
      [["--domain", "shop.example=web", "--nope"], "Unknown option '--nope'"],
    ];
    for (const [args, message] of cases) {
      const { code, said } = await refused(args, stack);
      expect({ args, code, said: said.startsWith(`domainapi-verify: ${message}`) ? "" : said }).toEqual({
        args,
        code: 2,
        said: "",
      });
    }
  });

  it("takes the bounds of --wait and --timeout, and goes on to the input", async () => {
    // The template is unknown, so the run stops before asking DNS, with that refusal instead.
    for (const flags of [
      ["--wait", "0", "--timeout", "1"],
      ["--wait", "86400", "--timeout", "60000"],
    ]) {
      const { code, said } = await refused(["--domain", "shop.example=nope", ...flags], stack);
      expect(code).toBe(2);
      expect(said).toBe(
        'domainapi-verify: --domain shop.example=nope: the stack declares no template "nope" (it declares "web")\n',
      );
    }
  });

  it("asks for the stack's JSON when stdin is a terminal and no file is given", async () => {
    const { code, said } = await refused(["--domain", "shop.example=web"], "", true);
    expect({ code, said }).toEqual({
      code: 2,
      said: "domainapi-verify: give the stack's JSON as a file or on stdin",
    });
  });

  it("names the file it cannot read, or that is not JSON", async () => {
    const missing = path.join(dir, "missing.json");
    expect(await refused(["--domain", "shop.example=web", missing])).toEqual({
      code: 2,
      said: `domainapi-verify: cannot read ${missing}: no such file`,
    });
    const folder = await refused(["--domain", "shop.example=web", dir]);
    expect(folder.code).toBe(2);
    expect(folder.said).toMatch(
      new RegExp(
        `^domainapi-verify: cannot read ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: Error: EISDIR`,
      ),
    );
    const text = path.join(dir, "text.json");
    writeFileSync(text, "Current stack is dev");
    const notJson = await refused(["--domain", "shop.example=web", text]);
    expect(notJson.code).toBe(2);
    expect(notJson.said).toMatch(
      new RegExp(
        `^domainapi-verify: ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not JSON \\(.+\\): give the output of \`pulumi stack export\`$`,
      ),
    );
    // `-` is stdin, and named so.
    for (const args of [
      ["--domain", "shop.example=web", "-"],
      ["--domain", "shop.example=web"],
    ]) {
      const fromStdin = await refused(args, "nope");
      expect(fromStdin.said).toMatch(
        /^domainapi-verify: stdin is not JSON \(.+\): give the output of `pulumi stack export`$/,
      );
    }
  });

  it("reads the file given, and stdin for -", async () => {
    const file = path.join(dir, "stack.json");
    writeFileSync(file, stack);
    // An unknown template proves the file was read: its templates are listed.
    expect((await refused(["--domain", "shop.example=mail", file], "")).said).toBe(
      'domainapi-verify: --domain shop.example=mail: the stack declares no template "mail" (it declares "web")\n',
    );
    // A terminal on stdin does not matter when a file is given.
    expect((await refused(["--domain", "shop.example=mail", file], "", true)).said).toBe(
      'domainapi-verify: --domain shop.example=mail: the stack declares no template "mail" (it declares "web")\n',
    );
    expect((await refused(["--domain", "shop.example=mail", "-"], stack)).said).toBe(
      'domainapi-verify: --domain shop.example=mail: the stack declares no template "mail" (it declares "web")\n',
    );
  });

  it("refuses a server that is no address without asking anything", async () => {
    const { code, said } = await refused(
      ["--domain", "shop.example=web", "--server", "ns1.example.net"],
      stack,
    );
    expect(code).toBe(2);
    expect(said).toMatch(/^domainapi-verify: --server: .*is not an IP address/);
  });
});

describe("declaredTemplates", () => {
  it("reads the DnsTemplateRecords of a stack export, of either token, and skips the other resources", () => {
    const json = {
      deployment: {
        resources: [
          { type: "pulumi:providers:domainapi", outputs: { templateId: "x", records: [] } },
          { type: TYPE },
          "not a resource",
          {
            type: "domainapi:index:DnsTemplateRecords",
            outputs: {
              templateId: "web",
              purge: false,
              records: [
                { name: "WWW", type: "a", content: "192.0.2.1", recordId: "r-1", recordIds: ["r-1"] },
              ],
            },
          },
          { type: TYPE, outputs: { templateId: "mail", records: {} } },
        ],
      },
    };
    expect(declaredTemplates(json)).toEqual([
      { templateId: "web", purge: false, records: [{ name: "www", type: "A", content: "192.0.2.1" }] },
      { templateId: "mail", purge: true, records: [] },
    ]);
  });

  it("reads `pulumi stack output --json`: each output, or each item of a list output, that holds a template", () => {
    const json = {
      web: { templateId: "web", records: [] },
      list: [{ templateId: "a", records: [] }, 3, { templateId: "b", records: [] }],
      numbered: { templateId: 7, records: [] },
      recordless: { templateId: "c" },
      other: "text",
    };
    expect(declaredTemplates(json).map((t) => t.templateId)).toEqual(["web", "a", "b"]);
  });

  it("names the path of a record it cannot read", () => {
    expect(() =>
      declaredTemplates({
        list: [
          { templateId: "a", records: [] },
          { templateId: "b", records: [{ name: "@", type: "A" }] },
        ],
      }),
    ).toThrow(/^list\[1\]\.records\[0\]\.content: /);
    expect(() => declaredTemplates(exported("web", [{ name: "@", type: "NOPE", content: "x" }]))).toThrow(
      /^deployment\.resources\[0\]\.outputs\.records\[0\]\.type: /,
    );
    expect(() => declaredTemplates({ web: { templateId: "web", records: "some" } })).toThrow(
      /^web\.records: /,
    );
    expect(() => declaredTemplates({ web: { templateId: "web", records: ["www A 192.0.2.1"] } })).toThrow(
      /^web\.records\[0\]: expected a record object like \{ name: "www", type: "A", content: "192\.0\.2\.1" \}; got /,
    );
    // Every issue is said, separated.
    expect(() =>
      declaredTemplates({
        web: {
          templateId: "web",
          records: [
            { name: "@", type: "A" },
            { type: "A", content: "x" },
          ],
        },
      }),
    ).toThrow(/^web\.records\[0\]\.content: .*; web\.records\[1\]\.name: /);
  });

  it("refuses records kept secret, in either file's form", () => {
    const secret = (records: unknown) => () => declaredTemplates({ web: { templateId: "web", records } });
    const message =
      'web: the records of template "web" are secret in this file: export them with `pulumi stack export --show-secrets` (or `pulumi stack output --json --show-secrets`)';
    expect(secret("[secret]")).toThrow(message);
    expect(secret({ ciphertext: "v1:abc" })).toThrow(message);
    expect(
      secret({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: [] }),
    ).toThrow(message);
    expect(() => declaredTemplates(exported("web", "[secret]"))).toThrow(
      /^deployment\.resources\[0\]\.outputs: the records of template "web" are secret/,
    );
  });

  it("finds nothing in anything else, and says what to give", () => {
    const message =
      "found no DnsTemplateRecords in the input: give the JSON of `pulumi stack export`, or of " +
      "`pulumi stack output --json` with each resource exported (e.g. `export const web = records;`)";
    for (const json of [null, [], "text", {}, { deployment: {} }, { deployment: { resources: {} } }]) {
      expect(() => declaredTemplates(json)).toThrow(VerifyInputError);
      expect(() => declaredTemplates(json)).toThrow(message);
    }
  });
});

describe("verifyDomains before it asks DNS", () => {
  const declared = JSON.parse(stack);

  it("needs a domain, a well-formed one, and a template the stack declares", async () => {
    await expect(verifyDomains({ declared, domains: {} })).rejects.toThrow(
      "name the domains to verify: --domain shop.example=<templateId>",
    );
    await expect(verifyDomains({ declared, domains: { "-bad-.example": "web" } })).rejects.toThrow(
      /^--domain -bad-\.example: \S/,
    );
    const two = {
      deployment: {
        resources: [...declared.deployment.resources, ...exported("mail", []).deployment.resources],
      },
    };
    await expect(verifyDomains({ declared: two, domains: { "shop.example": "nope" } })).rejects.toThrow(
      '--domain shop.example=nope: the stack declares no template "nope" (it declares "web", "mail")',
    );
  });

  it("refuses a malformed server, naming the flag", async () => {
    await expect(
      verifyDomains({ declared, domains: { "shop.example": "web" }, servers: ["300.1.1.1"] }),
    ).rejects.toThrow(/^--server: /);
  });
});

describe("the report", () => {
  const a: RecordSpec = { name: "@", type: "A", content: "192.0.2.1" };
  const mx: RecordSpec = { name: "@", type: "MX", content: "mx.example.net", priority: 10 };
  const passed: VerifyReport = {
    passed: true,
    elapsedMs: 5,
    domains: [
      {
        domain: "shop.example",
        templateId: "web",
        server: "127.0.0.1:5353",
        passed: true,
        verdict: {
          domain: "shop.example",
          served: [a],
          missing: [],
          different: [],
          extra: [],
          unchecked: [],
        },
      },
    ],
  };
  const failed: VerifyReport = {
    passed: false,
    elapsedMs: 5,
    domains: [
      {
        domain: "shop.example",
        templateId: "web",
        server: "127.0.0.1:5353",
        passed: false,
        verdict: {
          domain: "shop.example",
          served: [a, a],
          missing: [mx],
          different: [{ declared: a, published: { ...a, content: "192.0.2.2" } }],
          extra: [{ ...a, content: "192.0.2.3" }],
          unchecked: [
            {
              record: { name: "go", type: "URLFWD" as const, content: "https://e.example/" },
              reason: "a forward",
            },
          ],
        },
      },
      { domain: "other.example", templateId: "web", passed: false, error: "no DNS server answered" },
    ],
  };

  it("as text: a line per domain, its findings indented, one record said in the singular", () => {
    expect(verifyText(passed)).toBe(
      "shop.example (template web, server 127.0.0.1:5353): served as declared: 1 record as declared\n",
    );
    expect(verifyText(failed)).toBe(
      [
        "shop.example (template web, server 127.0.0.1:5353): NOT served as declared: 2 records as declared",
        "  missing: @ MX 10 mx.example.net",
        "  different: @ A 192.0.2.1 is published as @ A 192.0.2.2",
        "  extra: @ A 192.0.2.3 (published at a declared name, not declared)",
        "  not checked: go URLFWD https://e.example/ (a forward)",
        "other.example (template web): not verified",
        "  no answer: no DNS server answered",
        "",
      ].join("\n"),
    );
  });

  it("as Markdown: the verdict first, every value in code, findings in a block", () => {
    expect(verifyMarkdown(passed)).toBe(
      `${VERIFY_HEADING}\n\nEvery domain serves its template as declared.\n\n` +
        "**`shop.example`** (template `web`, server `127.0.0.1:5353`): served as declared: 1 record as declared\n",
    );
    expect(verifyMarkdown(failed)).toBe(
      [
        "### DNS verification",
        "",
        "**Some domains do not serve their template as declared.**",
        "",
        "**`shop.example`** (template `web`, server `127.0.0.1:5353`): NOT served as declared: 2 records as declared",
        "",
        "```text",
        "missing: @ MX 10 mx.example.net",
        "different: @ A 192.0.2.1 is published as @ A 192.0.2.2",
        "extra: @ A 192.0.2.3 (published at a declared name, not declared)",
        "not checked: go URLFWD https://e.example/ (a forward)",
        "```",
        "",
        "**`other.example`** (template `web`): not verified",
        "",
        "```text",
        "no answer: no DNS server answered",
        "```",
        "",
      ].join("\n"),
    );
  });
});
