/**
 * The import of the 40-record zone (test/e2e/import-zone.ts): the records it gives (written out by
 * hand), every skip and change in import-report.md with its line and reason, the four programs
 * declaring the same records, and the TypeScript program's inputs passing the provider's own
 * check() with no failure.
 */
import { describe, expect, it } from "vitest";
import { importProgram, importZones, type ProgramLanguage } from "../../provider/import";
import * as provider from "../../provider/records/provider";
import { ZONE_40, ZONE_40_RECORDS, ZONE_40_SKIPPED } from "../e2e/import-zone";

const source = { text: ZONE_40, file: "example.com.zone", templateId: "web" };

describe("importing the 40-record zone", () => {
  // Imported in each test, never while tests are collected: a mutation run attributes code run
  // outside a test to every test.
  const imported = () => importZones([source])[0];

  it("gives exactly the zone's records, as written out by hand", () => {
    expect(imported()?.records.map((r) => r.record)).toEqual(ZONE_40_RECORDS);
  });

  it("skips each record the API cannot hold or check() refuses, with its line and reason", () => {
    const web = imported();
    expect(web?.skipped.map((s) => s.line)).toEqual(ZONE_40_SKIPPED.map((s) => s.line));
    for (const [i, expected] of ZONE_40_SKIPPED.entries())
      expect(web?.skipped[i]?.reason).toMatch(expected.reason);
  });

  it("lists every change with its line in import-report.md, and sums it up", () => {
    const report = importProgram([source], "ts").files["import-report.md"] ?? "";
    expect(report).toContain(
      "Domain `example.com.`: 40 records imported, 8 skipped, 21 changes, 4 TTLs dropped.",
    );
    for (const line of [
      "- line 11: `content normalized: 2001:DB8:0:0:0:0:0:10 -> 2001:db8::10`",
      "- line 14: `owner lower-cased`",
      "- line 15: `www made absolute: www.example.com.`",
      "- line 19: `mail.example.com. written mail.{domainname}.`",
      "- line 22: `the domain written {domainname} (1x)`",
      "- line 25: `3 TXT strings joined into one value, no space added: a DKIM record (RFC 6376 3.6.2.2: its strings are read joined)`",
      "- line 28: `escapes decoded`",
      "- line 34: `hex de-spaced (2 pieces joined)`",
    ]) {
      expect(report).toContain(line);
    }
    expect(report).toContain(
      '- line 54: `blog.example.com. CNAME elsewhere.example.net.`: check() refuses it: name: "blog" holds both a CNAME (line 15) and a CNAME (line 54)',
    );
    expect(report).toContain(
      "- line 43: `www.example.com. PTR host.example.net.`: the API has no PTR records",
    );
  });

  it("writes the domain as {domainname} in whole labels only", () => {
    const zone =
      '$ORIGIN example.com.\n@ TXT "example.com notexample.com example.com.au mail.EXAMPLE.com. x.example.community"\n' +
      "a CNAME notexample.com.\nb CNAME example.com.au.\n";
    const [t] = importZones([{ text: zone, file: "z", templateId: "t" }]);
    expect(t?.records.map((r) => r.record.content)).toEqual([
      "{domainname} notexample.com example.com.au mail.{domainname}. x.example.community",
      "notexample.com.",
      "example.com.au.",
    ]);
  });

  it("shows zone values in the report as code that nothing inside can end", () => {
    const zone = '$ORIGIN example.com.\nx PTR a``b.example.net.\ny TXT "ok"\n@ CNAME y\n';
    const report = importProgram([{ text: zone, file: "evil`[x](http://e)<b>.zone", templateId: "t" }], "ts")
      .files["import-report.md"];
    expect(report).toContain(
      "- line 2: ```x.example.com. PTR a``b.example.net.```: the API has no PTR records",
    );
    expect(report).toContain("from ``evil`[x](http://e)<b>.zone``");
    expect(report).toMatch(
      /- line 4: `example\.com\. CNAME y`: check\(\) refuses it: name: a CNAME cannot be at the apex/,
    );
  });

  it("keeps the domain and the apex NS set when asked", () => {
    const [kept] = importZones([source], { keepDomain: true, keepApexNs: true });
    expect(kept?.records.find((r) => r.line === 19)?.record.content).toBe("mail.example.com.");
    expect(kept?.records.find((r) => r.line === 22)?.record.content).toBe(
      "v=spf1 include:_spf.example.com ~all",
    );
    expect(
      kept?.records.filter((r) => r.record.type === "NS" && r.record.name === "@").map((r) => r.line),
    ).toEqual([8, 9]);
  });

  it("writes each record under the line it came from, in all four languages", () => {
    // What each program declares is run and compared in import-programs-run.test.ts.
    const [zone] = importZones([source]);
    const lines = zone?.records.map((r) => r.line) ?? [];
    for (const lang of ["ts", "yaml", "python", "go"] as ProgramLanguage[]) {
      const { files } = importProgram([source], lang);
      const main = { ts: "index.ts", yaml: "Pulumi.yaml", python: "__main__.py", go: "main.go" }[lang];
      const written = [...(files[main] ?? "").matchAll(/^\s*(?:\/\/|#) line (\d+)$/gm)].map((m) =>
        Number(m[1]),
      );
      expect(written, lang).toEqual(lines);
      expect(files["import-report.md"], lang).toBeDefined();
      expect(files["Pulumi.yaml"], lang).toMatch(/^name: dns-templates\n/);
    }
    // Pulumi YAML reads `$$` as `$` and `${...}` as an interpolation: the program doubles every `$`.
    expect(importProgram([source], "yaml").files["Pulumi.yaml"]).toContain('content: "from $${5} a month"');
  });

  it("the TypeScript program's inputs pass the provider's check() with no failure", async () => {
    const code = importProgram([source], "ts").files["index.ts"] ?? "";
    const args = /new domainapi\.DnsTemplateRecords\("web", (\{[\s\S]*\})\);\n/.exec(code)?.[1];
    expect(args).toBeDefined();
    // The program's object literal, evaluated as the program would evaluate it.
    const inputs = new Function(`return (${args});`)() as Record<string, unknown>;
    expect(inputs.purge).toBe(true);
    // Settings as the engine hands them over; check() sends no request, so no API is needed.
    const settings: Record<string, string> = {
      "domainapi:apiKey": "k",
      "domainapi:baseUrl": "http://127.0.0.1:9",
    };
    provider.configure({
      config: { get: (k: string) => settings[k], require: (k: string) => settings[k] as string },
    });
    const result = await provider.check({}, { __provider: "p", ...inputs });
    expect(result.failures ?? []).toEqual([]);
    expect(Object.keys((result.inputs as { records: object }).records)).toHaveLength(40);
  });
});
