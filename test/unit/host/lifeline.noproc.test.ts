/**
 * The lifeline where there is no `/proc` (macOS, the BSDs): whether the parent the provider started
 * with is still there is asked with signal 0 (`kill(2)`: ESRCH, no such process; EPERM, one that
 * exists but belongs to another user). The system is stood in for by making `/proc/self/stat`
 * unreadable and by the answers `process.kill` gives.
 */
import type * as fs from "node:fs";
import { afterEach, expect, it, vi } from "vitest";
import { assertEngineAlive, EngineGoneError, engineGone } from "../../../provider/host/lifeline";

vi.mock("node:fs", async (original) => {
  const real = await original<typeof import("node:fs")>();
  return {
    ...real,
    readFileSync: (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (file === "/proc/self/stat") throw Object.assign(new Error("ENOENT: /proc"), { code: "ENOENT" });
      return (real.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

function killAnswers(code: string) {
  return vi.spyOn(process, "kill").mockImplementation(() => {
    throw Object.assign(new Error(`kill: ${code}`), { code });
  });
}

it("a parent that is still there: the engine is not gone", () => {
  const kill = vi.spyOn(process, "kill");
  expect(engineGone()).toBe(false);
  expect(() => assertEngineAlive()).not.toThrow();
  // Signal 0 to the parent the process started with: a question, not a signal.
  expect(kill).toHaveBeenCalledWith(process.ppid, 0);
});

it("a parent that belongs to another user still exists (EPERM): not gone", () => {
  killAnswers("EPERM");
  expect(engineGone()).toBe(false);
});

it("no such process (ESRCH): the engine is gone, and a run stops before its next request", () => {
  killAnswers("ESRCH");
  expect(engineGone()).toBe(true);
  expect(() => assertEngineAlive()).toThrow(EngineGoneError);
});

it("EngineGoneError is known by its brand across copies of the package", () => {
  const copy = Object.defineProperty(new Error("m"), Symbol.for("pulumi-domainapi.EngineGoneError"), {
    value: true,
  });
  expect(copy).toBeInstanceOf(EngineGoneError);
  expect(new Error("m")).not.toBeInstanceOf(EngineGoneError);
});
