/**
 * Every program of every language, run, declares the records a zone must give: for the 40-record
 * zone (test/e2e/import-zone.ts) and every export of the corpus in test/fixtures/zones
 * (`<host>.zone` with `<host>.expected.json`, written from each host's documentation). TypeScript
 * runs under Node with this package (its resources under `pulumi.runtime.setMocks`), YAML is read
 * by yaml.v3 and Pulumi YAML's interpolation rule, Go is built against stub SDKs, Python runs with
 * stub modules (./import-languages.ts). The SDK's closure serializer is stubbed: it needs trace
 * events, which the mutation runner's workers do not offer, and the declared inputs are the point.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as closure from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as domainapi from "../../provider";
import { importProgram, type ProgramLanguage, type ZoneSource } from "../../provider/import";
import { type ExpectedRecord, ZONE_40, ZONE_40_RECORDS } from "../e2e/import-zone";
import {
  type DeclaredRecord,
  type DeclaredTemplate,
  declaredByGo,
  declaredByPython,
  declaredByYaml,
  MAIN_FILE,
} from "./import-languages";

const CORPUS = path.join(__dirname, "..", "fixtures", "zones");

interface Case {
  label: string;
  source: ZoneSource;
  origin?: string;
  records: ExpectedRecord[];
}

/** The corpus as it is when the test runs: every `<host>.zone` that has its `<host>.expected.json`. */
function corpus(): Case[] {
  const cases: Case[] = [
    {
      label: "the 40-record zone",
      source: { text: ZONE_40, file: "example.com.zone", templateId: "web" },
      records: ZONE_40_RECORDS,
    },
  ];
  if (!fs.existsSync(CORPUS)) return cases;
  for (const file of fs.readdirSync(CORPUS).sort()) {
    if (!file.endsWith(".zone")) continue;
    const host = file.slice(0, -".zone".length);
    const expectedFile = path.join(CORPUS, `${host}.expected.json`);
    if (!fs.existsSync(expectedFile)) throw new Error(`${file} has no ${host}.expected.json beside it`);
    const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8")) as {
      origin?: string;
      originRequired?: boolean;
      templateId?: string;
      records: ExpectedRecord[];
    };
    cases.push({
      label: host,
      source: {
        text: fs.readFileSync(path.join(CORPUS, file)),
        file,
        templateId: expected.templateId ?? host,
      },
      // As a user runs it: --origin only where the file cannot name its domain itself.
      origin: expected.originRequired ? expected.origin : undefined,
      records: expected.records,
    });
  }
  return cases;
}

function canonical(records: readonly (ExpectedRecord | DeclaredRecord)[]): ExpectedRecord[] {
  return records.map((r) => {
    const out: ExpectedRecord = { name: r.name, type: r.type, content: r.content };
    for (const key of ["priority", "weight", "port"] as const) if (r[key] !== undefined) out[key] = r[key];
    return out;
  });
}

const cases = corpus();
const programs = (lang: ProgramLanguage): string[] =>
  cases.map(
    (c) =>
      importProgram([c.source], lang, { origin: c.origin }, { packageVersion: "0.1.0" }).files[
        MAIN_FILE[lang]
      ] ?? "",
  );

/** What the package registered under mocks, by resource name. */
const registered = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  vi.spyOn(closure, "serializeFunction").mockResolvedValue({
    text: "exports.handler = {}",
    exportName: "handler",
    containsSecrets: false,
  });
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.set(args.name, args.inputs);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "import-programs",
    "test",
  );
});

function expectDeclared(declared: DeclaredTemplate[][], lang: string): void {
  for (const [i, c] of cases.entries()) {
    expect(declared[i]?.length, `${lang}: ${c.label}`).toBe(1);
    expect(declared[i]?.[0]?.templateId, `${lang}: ${c.label}`).toBe(c.source.templateId);
    expect(declared[i]?.[0]?.purge, `${lang}: ${c.label}`).toBe(true);
    expect(canonical(declared[i]?.[0]?.records ?? []), `${lang}: ${c.label}`).toEqual(canonical(c.records));
  }
}

describe(`every program of every language declares the zone's records (${cases.length} zones)`, () => {
  it("TypeScript, run by Node with this package", async () => {
    for (const [i, code] of programs("ts").entries()) {
      const c = cases[i] as Case;
      registered.clear();
      const body = code.replace('import * as domainapi from "pulumi-domainapi";\n', "");
      new Function("domainapi", `"use strict";\n${body}`)(domainapi);
      // The mocked engine has the inputs once the registration's promises settle.
      for (let n = 0; registered.size === 0 && n < 2000; n++) await new Promise((r) => setTimeout(r, 25));
      const inputs = [...registered.values()];
      expect(inputs, c.label).toHaveLength(1);
      expect(inputs[0]?.templateId, c.label).toBe(c.source.templateId);
      expect(canonical((inputs[0]?.records ?? []) as DeclaredRecord[]), c.label).toEqual(
        canonical(c.records),
      );
    }
  }, 60_000);

  it("YAML, read by yaml.v3 and Pulumi YAML's interpolation rule", async () => {
    expectDeclared(await declaredByYaml(programs("yaml")), "yaml");
  }, 60_000);

  it("Go, built and run", async () => {
    expectDeclared(await declaredByGo(programs("go")), "go");
  }, 120_000);

  it("Python, run by python3", async () => {
    expectDeclared(await declaredByPython(programs("python")), "python");
  }, 60_000);
});
