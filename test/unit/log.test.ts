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

describe("connecting to the engine, so that messages keep their severity", () => {
  const connect = () => vi.spyOn(pulumi.runtime, "resetOptions").mockImplementation(() => undefined);

  it("attachToEngine points the SDK at the engine's address, once none is set", () => {
    vi.spyOn(pulumi.runtime, "hasEngine").mockReturnValue(false);
    const reset = connect();
    log.attachToEngine("127.0.0.1:40123");
    log.attachToEngine("[::1]:40124");
    expect(reset.mock.calls.map((call) => call[3])).toEqual(["127.0.0.1:40123", "[::1]:40124"]);
    expect(reset.mock.calls[0]?.[2]).toBe(-1);
  });

  it("attachToEngine leaves an engine already set, and ignores what is no host:port", () => {
    const has = vi.spyOn(pulumi.runtime, "hasEngine").mockReturnValue(true);
    const reset = connect();
    log.attachToEngine("127.0.0.1:40123");
    has.mockReturnValue(false);
    for (const engine of [undefined, "", "127.0.0.1", "http://127.0.0.1:40123", "127.0.0.1:port", "a b:1"])
      log.attachToEngine(engine);
    expect(reset).not.toHaveBeenCalled();
  });

  it("attachToEngine never fails the provider when the SDK refuses the address", () => {
    vi.spyOn(pulumi.runtime, "hasEngine").mockReturnValue(false);
    vi.spyOn(pulumi.runtime, "resetOptions").mockImplementation(() => {
      throw new Error("bad address");
    });
    expect(() => log.attachToEngine("127.0.0.1:40123")).not.toThrow();
  });

  it("hasEngine says what the SDK says, and false when it cannot tell", () => {
    const has = vi.spyOn(pulumi.runtime, "hasEngine").mockReturnValue(true);
    expect(log.hasEngine()).toBe(true);
    has.mockReturnValue(false);
    expect(log.hasEngine()).toBe(false);
    has.mockImplementation(() => {
      throw new Error("no runtime");
    });
    expect(log.hasEngine()).toBe(false);
  });

  // The module remembers that it attached: each case loads it afresh.
  const fresh = async () => {
    vi.resetModules();
    return (await import("../../provider/log.ts")) as typeof log;
  };
  const plugin = (engine: string) => [
    "node",
    "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
    engine,
  ];

  it("attachPluginToEngine connects the dynamic-provider plugin to the engine of its argument, once", async () => {
    const sdk = await import("@pulumi/pulumi");
    vi.spyOn(sdk.runtime, "hasEngine").mockReturnValue(false);
    const reset = vi.spyOn(sdk.runtime, "resetOptions").mockImplementation(() => undefined);
    const fresh1 = await fresh();
    fresh1.attachPluginToEngine(plugin("127.0.0.1:40125"));
    fresh1.attachPluginToEngine(plugin("127.0.0.1:40126"));
    expect(reset.mock.calls.map((call) => call[3])).toEqual(["127.0.0.1:40125"]);
  });

  it("attachPluginToEngine does nothing outside the plugin, with an engine set, or without an address", async () => {
    const sdk = await import("@pulumi/pulumi");
    const has = vi.spyOn(sdk.runtime, "hasEngine").mockReturnValue(false);
    const reset = vi.spyOn(sdk.runtime, "resetOptions").mockImplementation(() => undefined);
    (await fresh()).attachPluginToEngine(["node", "/x/program/index.js", "127.0.0.1:40127"]);
    (await fresh()).attachPluginToEngine(plugin("not-an-address"));
    (await fresh()).attachPluginToEngine(["node"]);
    has.mockReturnValue(true);
    (await fresh()).attachPluginToEngine(plugin("127.0.0.1:40128"));
    expect(reset).not.toHaveBeenCalled();
    has.mockImplementation(() => {
      throw new Error("no runtime");
    });
    const last = await fresh();
    expect(() => last.attachPluginToEngine(plugin("127.0.0.1:40129"))).not.toThrow();
  });
});

describe("what the SDK is told, and what delivery leaves behind", () => {
  const fresh = async () => {
    vi.resetModules();
    return (await import("../../provider/log.ts")) as typeof log;
  };
  const plugin = (engine: string) => [
    "node",
    "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
    engine,
  ];
  // resetOptions(project, stack, parallel, engineAddr, monitorAddr, preview, organization): the engine
  // only, the project and stack kept, no monitor (a provider has none), not a preview, no organization.
  const engineOnly = (engine: string) => [pulumi.getProject(), pulumi.getStack(), -1, engine, "", false, ""];

  it("attachToEngine and attachPluginToEngine set the engine and nothing else", async () => {
    const sdk = await import("@pulumi/pulumi");
    vi.spyOn(sdk.runtime, "hasEngine").mockReturnValue(false);
    const reset = vi.spyOn(sdk.runtime, "resetOptions").mockImplementation(() => undefined);
    log.attachToEngine("127.0.0.1:40130");
    (await fresh()).attachPluginToEngine(plugin("127.0.0.1:40131"));
    expect(reset.mock.calls).toEqual([engineOnly("127.0.0.1:40130"), engineOnly("127.0.0.1:40131")]);
  });

  it.each(["http://127.0.0.1:40132", "127.0.0.1:40132/x", "a b:40132", "127.0.0.1:40132 "])(
    "neither attaches to %j, which is no host:port",
    async (engine) => {
      const sdk = await import("@pulumi/pulumi");
      vi.spyOn(sdk.runtime, "hasEngine").mockReturnValue(false);
      const reset = vi.spyOn(sdk.runtime, "resetOptions").mockImplementation(() => undefined);
      log.attachToEngine(engine);
      (await fresh()).attachPluginToEngine(plugin(engine));
      expect(reset).not.toHaveBeenCalled();
    },
  );

  it("a message is attached to the resource of about(), and to none outside it or with an empty URN", async () => {
    const resources: Array<pulumi.Resource | undefined> = [];
    vi.spyOn(pulumi.log, "info").mockImplementation(async (_message, resource) => {
      resources.push(resource);
    });
    const urn = "urn:pulumi:dev::p::domainapi:index:DnsTemplateRecords::site";
    log.info("outside");
    log.about(urn, () => log.info("about the resource"));
    log.about("", () => log.info("empty URN"));
    log.about(undefined, () => log.info("no URN"));
    expect(resources.map((r) => r === undefined)).toEqual([true, false, true, true]);
    expect(await (resources[1]!.urn as unknown as { promise(): Promise<string> }).promise()).toBe(urn);
    expect(log.about(urn, () => 42)).toBe(42);
    expect(log.about("", () => 43)).toBe(43);
  });

  it("with nothing on its way, delivered() waits on nothing; once all arrived, no timer is left", async () => {
    vi.useFakeTimers();
    try {
      await expect(log.delivered()).resolves.toBeUndefined();
      expect(vi.getTimerCount()).toBe(0);
      let answer: (() => void) | undefined;
      vi.spyOn(pulumi.log, "info").mockImplementation(
        () => new Promise<void>((resolve) => (answer = resolve)),
      );
      log.info("on its way");
      const waiting = log.delivered();
      expect(vi.getTimerCount()).toBe(1); // the wait for an engine that does not answer
      answer?.();
      await waiting;
      expect(vi.getTimerCount()).toBe(0);
      const again = log.delivered(); // the message arrived: nothing is pending any more
      expect(vi.getTimerCount()).toBe(0);
      await again;
    } finally {
      vi.useRealTimers();
    }
  });

  it("waiting for an engine that never answers does not keep the process alive", async () => {
    let answer: (() => void) | undefined;
    vi.spyOn(pulumi.log, "info").mockImplementation(() => new Promise<void>((resolve) => (answer = resolve)));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    log.info("never answered, for now");
    const waiting = log.delivered();
    expect(timers()).toBe(before);
    answer?.();
    await waiting;
  });
});
