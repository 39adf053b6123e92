/**
 * The order vitest starts test files in: longest first, across every project.
 *
 * The end-to-end project runs in a pool of two workers (the machine has two cores); vitest runs it
 * before the unit and sandbox projects, whose files mostly wait and so take four workers
 * (vitest.config.mts). vitest's own order takes, in a fresh clone (CI, whose `npm ci` removes the
 * cache of earlier runs), the files of a project by size: a long end-to-end file started late ends
 * alone while the other worker idles. Longest first (the classic LPT schedule) ends both workers
 * close together.
 *
 * A file's expected duration comes from test/durations.json, committed so that CI and every
 * checkout run in the same order (refresh it with `node test/durations.mts` after a full run); a
 * file the table does not know gets a guess by project (a new end-to-end file runs early).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import type { Durations } from "./durations.mts";

const root = path.resolve(import.meta.dirname, "..");
/** Seconds assumed for a file the table does not know, by project: an end-to-end file runs an engine. */
const GUESS: Record<string, number> = { e2e: 60 };
const GUESS_OTHER = 2;

/**
 * Starts the files expected to run longest first (see the module comment), so that the two
 * workers finish together instead of one running a long file alone at the end.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = JSON.parse(fs.readFileSync(path.join(root, "test", "durations.json"), "utf8")) as Durations;
    const expected = (spec: TestSpecification): number => {
      const name = path.relative(root, spec.moduleId).split(path.sep).join("/");
      return table[name] ?? GUESS[spec.project.name] ?? GUESS_OTHER;
    };
    const weights = new Map(files.map((spec) => [spec, expected(spec)]));
    return [...files].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  }
}
