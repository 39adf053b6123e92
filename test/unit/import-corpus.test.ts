/**
 * The corpus of zone exports as DNS hosts and tools write them (test/fixtures/zones, see its
 * README): each file, read as the command reads it (its bytes), gives exactly the records of its
 * `.expected.json`, skips exactly its listed lines with their reasons, and drops the host settings
 * it lists. The zone's domain is found in the file itself where the file says it, and an
 * `--origin` that agrees changes nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { importZones, ZoneInputError } from "../../provider/import";

const DIR = path.join(__dirname, "..", "fixtures", "zones");

interface Expected {
  origin: string;
  originRequired?: boolean;
  templateId?: string;
  records: Record<string, string | number>[];
  skipped: { line: number; "reason-contains": string }[];
  dropped?: { line: number; "change-contains": string }[];
}

const CORPUS = fs
  .readdirSync(DIR)
  .filter((name) => name.endsWith(".zone"))
  .sort()
  .map((name) => {
    const host = name.slice(0, -".zone".length);
    const expected = JSON.parse(fs.readFileSync(path.join(DIR, `${host}.expected.json`), "utf8")) as Expected;
    return { host, file: name, bytes: fs.readFileSync(path.join(DIR, name)), expected };
  });

function read(bytes: Uint8Array, file: string, origin?: string) {
  const [t] = importZones([{ text: bytes, file, templateId: "t" }], { origin });
  if (!t) throw new Error("no template");
  return t;
}

describe("the corpus of exports as DNS hosts write them", () => {
  it("holds every host and tool the import claims to read", () => {
    expect(CORPUS.map((c) => c.host)).toEqual([
      "azure",
      "bind-full",
      "bind-relative",
      "cloudflare",
      "dig-answer",
      "dig-axfr",
      "godaddy",
      "google-cloud-dns",
      "hand-kept",
      "idn",
      "powerdns",
      "route53-cli53",
      "windows-dns",
    ]);
  });

  for (const { host, file, bytes, expected } of CORPUS) {
    describe(host, () => {
      const origin = expected.originRequired ? expected.origin : undefined;
      // Read in each test, never while tests are collected: a mutation run attributes code run
      // outside a test to every test.
      const imported = () => read(bytes, file, origin);

      it("declares exactly the expected records, in the zone's order", () => {
        expect(imported().records.map((r) => r.record)).toEqual(expected.records);
      });

      it("skips exactly the expected lines, each with its reason", () => {
        const t = imported();
        expect(t.skipped.map((s) => s.line)).toEqual(expected.skipped.map((s) => s.line));
        for (const [i, s] of expected.skipped.entries())
          expect(t.skipped[i]?.reason).toContain(s["reason-contains"]);
      });

      it("drops exactly the expected host settings, each said", () => {
        const dropped = expected.dropped ?? [];
        const t = imported();
        expect(t.dropped.map((d) => d.line)).toEqual(dropped.map((d) => d.line));
        for (const [i, d] of dropped.entries()) expect(t.dropped[i]?.change).toContain(d["change-contains"]);
      });

      it("finds the zone's domain, and an agreeing --origin changes nothing", () => {
        const t = imported();
        expect(t.domain).toBe(`${expected.origin}.`);
        const given = read(bytes, file, expected.origin);
        expect(given.records).toEqual(t.records);
        expect(given.skipped).toEqual(t.skipped);
      });

      if (expected.originRequired) {
        it("asks for --origin when it is not given (the file does not name its domain)", () => {
          expect(() => read(bytes, file)).toThrow(/expected the zone's domain.*give --origin/);
        });
      } else {
        it("refuses a contradicting --origin, naming both domains", () => {
          let error: unknown;
          try {
            read(bytes, file, "other.example");
          } catch (err) {
            error = err;
          }
          expect(error).toBeInstanceOf(ZoneInputError);
          expect((error as Error).message).toContain("--origin other.example.");
          expect((error as Error).message).toContain(`names ${expected.origin}.`);
        });
      }
    });
  }
});
