/**
 * The run's order (test/sequencer.mts): longest first across every project, from the committed table
 * of durations; a file the table does not know runs early if it is an end-to-end file, late if not
 * (so a file added or moved since the table was made costs at most its place in the order).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { durationsFromResults } from "../durations.mts";
import LongestFirstSequencer from "../sequencer.mts";

const root = path.resolve(__dirname, "..", "..");
const table = JSON.parse(fs.readFileSync(path.join(root, "test", "durations.json"), "utf8")) as Record<
  string,
  number
>;

/** What the sequencer reads of a specification: its file and its project's name. */
function spec(file: string, project: string): TestSpecification {
  return { moduleId: path.join(root, file), project: { name: project } } as unknown as TestSpecification;
}

async function order(specs: TestSpecification[]): Promise<string[]> {
  const sorted = await new LongestFirstSequencer({} as Vitest).sort(specs);
  return sorted.map((s) => path.relative(root, s.moduleId));
}

describe("the order of a run", () => {
  it("starts the longest files first, whatever their project, and a new end-to-end file early", async () => {
    const known = Object.entries(table).sort(([, a], [, b]) => b - a);
    const [longest, second] = known as [[string, number], [string, number]];
    const short = known.find(
      ([file, seconds]) => file.startsWith("test/unit/") && seconds >= 3 && seconds < 30,
    );
    expect(short).toBeDefined();
    const files = [
      spec(short?.[0] ?? "", "unit"),
      spec("test/e2e/not-in-the-table.test.ts", "e2e"),
      spec("test/unit/not-in-the-table.test.ts", "unit"),
      spec(second[0], "e2e"),
      spec(longest[0], "e2e"),
    ];
    const sorted = await order(files);
    expect(sorted.slice(0, 2)).toEqual([longest[0], second[0]]);
    // 60 s guessed for a new end-to-end file: before the short unit file, after the long ones.
    expect(sorted.indexOf("test/e2e/not-in-the-table.test.ts")).toBeLessThan(
      sorted.indexOf(short?.[0] ?? ""),
    );
    expect(sorted.at(-1)).toBe("test/unit/not-in-the-table.test.ts");
  });

  it("reads the table from a report made in any checkout, by the files' paths from its root", () => {
    const report = {
      testResults: [
        { name: "/ci/run/test/e2e/a.test.ts", startTime: 1_000, endTime: 91_400 },
        { name: "/ci/run/sandbox/test/b.test.ts", startTime: 0, endTime: 200 },
      ],
    };
    expect(durationsFromResults(report)).toEqual({ "sandbox/test/b.test.ts": 1, "test/e2e/a.test.ts": 90 });
  });
});
