/**
 * What `importZones` and `importProgram` promise a caller (the `domainapi-import` command or an
 * Automation API program): one template per zone, its id the file's base name unless given; no two
 * zones onto one template and no id the API refuses, each refusal naming the file and the fix; the
 * apex NS and the domain in contents handled as the options say; never a program that would empty a
 * template.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  defaultTemplateId,
  importProgram,
  importZones,
  NothingToImportError,
  ZoneInputError,
} from "../../../provider/import";

const ZONE = [
  "$ORIGIN example.com.",
  "@ 3600 IN SOA ns1.example.net. hostmaster.example.com. 1 7200 3600 1209600 300",
  "@ NS ns1.example.net.",
  "www A 192.0.2.1",
  "@ MX 10 mail.example.com.",
  "",
].join("\n");

function refusal(run: () => unknown): ZoneInputError {
  try {
    run();
  } catch (err) {
    if (err instanceof ZoneInputError) return err;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

describe("the template id of a file", () => {
  it("is the base name without its last extension, for / and \\ paths", () => {
    expect(defaultTemplateId("zones/example.com.zone")).toBe("example.com");
    expect(defaultTemplateId("C:\\zones\\web.zone")).toBe("web");
    expect(defaultTemplateId("web")).toBe("web");
    // A name that only starts with a dot has no extension to drop.
    expect(defaultTemplateId("/tmp/.zone")).toBe(".zone");
  });

  it("names each template, given or not", () => {
    const templates = importZones([
      { text: ZONE, file: "exports/example.com.zone" },
      { text: ZONE, file: "web.zone", templateId: "12345" },
    ]);
    expect(templates.map((t) => [t.file, t.templateId, t.domain])).toEqual([
      ["exports/example.com.zone", "example.com", "example.com."],
      ["web.zone", "12345", "example.com."],
    ]);
  });

  it("refuses two zones onto one template, naming both files", () => {
    const err = refusal(() =>
      importZones([
        { text: ZONE, file: "a/web.zone" },
        { text: ZONE, file: "b.zone", templateId: "other" },
        { text: ZONE, file: "b/web.zone" },
      ]),
    );
    expect(err.message).toBe(
      'b/web.zone: would fill template "web", as a/web.zone does: two zones onto one template would leave only ' +
        "the records of the last (each resource purges the template); give each file its own --template <id>",
    );
  });

  it("refuses a template id the API cannot take, saying why and the fix", () => {
    const err = refusal(() => importZones([{ text: ZONE, file: "my zone.txt" }]));
    expect(err.message).toBe(
      'my zone.txt: cannot be template "my zone": "my zone" cannot be a template id: it must not hold spaces, ' +
        'control characters, "/", "?", "#", "%" or "\\" (or be "." / ".."), e.g. templateId: "12345"; give --template <id>',
    );
  });
});

describe("the options", () => {
  it("by default skips the apex NS and writes the domain in contents as {domainname}", () => {
    const [t] = importZones([{ text: ZONE, file: "z.zone" }]);
    expect(t?.records.map((r) => [r.record.type, r.record.name, r.record.content])).toEqual([
      ["A", "www", "192.0.2.1"],
      ["MX", "@", "mail.{domainname}."],
    ]);
    expect(t?.skipped.map((s) => s.line)).toEqual([2, 3]);
    expect(t?.skipped[1]?.reason).toContain("the apex NS set is the DNS host's own");
  });

  it("keepApexNs keeps the apex NS, keepDomain the domain as written", () => {
    const [t] = importZones([{ text: ZONE, file: "z.zone" }], { keepApexNs: true, keepDomain: true });
    expect(t?.records.map((r) => [r.record.type, r.record.name, r.record.content])).toEqual([
      ["NS", "@", "ns1.example.net."],
      ["A", "www", "192.0.2.1"],
      ["MX", "@", "mail.example.com."],
    ]);
  });

  it("origin names the domain of a zone that does not say it", () => {
    const [t] = importZones([{ text: "www.example.org. 300 IN A 192.0.2.1\n", file: "dig.txt" }], {
      origin: "example.org",
    });
    expect([t?.domain, t?.records.map((r) => r.record.name)]).toEqual(["example.org.", ["www"]]);
  });
});

describe("importProgram", () => {
  it("pins this package's version and names the project dns-templates unless told", () => {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"),
    ) as { version: string };
    const { files } = importProgram([{ text: ZONE, file: "web.zone" }], "ts");
    expect(files["package.json"]).toContain(`"pulumi-domainapi": "${version}"`);
    expect(files["Pulumi.yaml"]).toMatch(/^name: dns-templates\n/);
    expect(files["import-report.md"]).toContain("web.zone");
  });

  it("refuses a template with nothing to import as a NothingToImportError with the report", () => {
    const err = refusal(() =>
      importProgram([{ text: "$ORIGIN example.com.\n@ NS ns1.example.net.\n", file: "e.zone" }], "go"),
    );
    expect(err).toBeInstanceOf(NothingToImportError);
    expect(err.name).toBe("NothingToImportError");
    expect(err.message).toMatch(/^e\.zone: no record of template "e" can be imported \(1 skipped\)/);
  });
});
