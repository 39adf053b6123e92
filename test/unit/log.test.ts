/**
 * Provider messages reach `pulumi.log` at their severity without the stack trace the SDK records
 * for each (with an engine, every log call records `new Error().stack`; in the plugin process,
 * source-map-support makes that the largest cost of a deployment's logging), and never fail the
 * operation that logs.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as log from "../../provider/log";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("provider messages", () => {
  it("reach pulumi.log at their severity, captured without stack frames, the limit restored after", () => {
    const before = Error.stackTraceLimit;
    const seen: Array<{ severity: string; message: string; frames: number }> = [];
    for (const severity of ["debug", "info", "warn"] as const) {
      vi.spyOn(pulumi.log, severity).mockImplementation(async (message: string) => {
        // What the SDK's debuggablePromise records for the call.
        const frames = (new Error().stack ?? "").split("\n").filter((l) => l.trim().startsWith("at ")).length;
        seen.push({ severity, message, frames });
      });
    }
    log.debug("d");
    log.info("i");
    log.warn("w");
    expect(seen).toEqual([
      { severity: "debug", message: "d", frames: 0 },
      { severity: "info", message: "i", frames: 0 },
      { severity: "warn", message: "w", frames: 0 },
    ]);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("never throw nor reject, and restore the stack limit when the SDK fails", async () => {
    const before = Error.stackTraceLimit;
    vi.spyOn(pulumi.log, "info").mockImplementation(() => {
      throw new Error("no engine");
    });
    vi.spyOn(pulumi.log, "warn").mockRejectedValue(new Error("lost"));
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      expect(() => log.info("x")).not.toThrow();
      expect(() => log.warn("y")).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
      expect(Error.stackTraceLimit).toBe(before);
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });

  it("say when every message sent so far has reached the engine, or failed to, and never reject", async () => {
    const answers: Array<() => void> = [];
    vi.spyOn(pulumi.log, "info").mockImplementation(
      () => new Promise<void>((resolve) => answers.push(resolve)),
    );
    vi.spyOn(pulumi.log, "warn").mockRejectedValue(new Error("engine gone"));
    log.info("first");
    log.warn("lost");
    log.info("second");
    let done = false;
    const waiting = log.delivered().then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toBe(false); // both infos still on their way
    answers[0]?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toBe(false);
    answers[1]?.();
    await waiting;
    expect(done).toBe(true);
    await expect(log.delivered()).resolves.toBeUndefined(); // nothing pending: at once
  });

  it("stop waiting for an engine that never answers after DELIVERY_WAIT_MS", async () => {
    vi.useFakeTimers();
    let answer: (() => void) | undefined;
    try {
      vi.spyOn(pulumi.log, "info").mockImplementation(
        () => new Promise<void>((resolve) => (answer = resolve)),
      );
      log.info("never answered");
      let done = false;
      const waiting = log.delivered().then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(log.DELIVERY_WAIT_MS - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
      answer?.(); // the engine answers after all: nothing stays pending for the next test
    }
  });
});
