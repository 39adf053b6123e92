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
});
