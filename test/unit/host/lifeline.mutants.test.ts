/**
 * The lifeline on Linux, where `/proc/self/stat` names the current parent (field 4, proc(5)): a
 * process whose parent died is re-parented, so its engine is gone even while some process still
 * holds the old parent's id, and a watcher says so at its next tick though the engine's address
 * still answers. A check waits twice the interval for its answer, and the watcher's timer never
 * keeps the process alive. The last test ends with the engine gone, process-wide.
 */
import type * as FS from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { afterEach, expect, it, vi } from "vitest";
import { engineGone, WATCH_INTERVAL_MS, watchEngine } from "../../../provider/host/lifeline";

/** When set, `/proc/self/stat` names this parent instead of the real one. */
let parentShown: number | undefined;
vi.mock("node:fs", async (original) => {
  const real = await original<typeof import("node:fs")>();
  return {
    ...real,
    readFileSync: (file: FS.PathOrFileDescriptor, ...rest: unknown[]) => {
      const text = (real.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
      if (file !== "/proc/self/stat" || parentShown === undefined) return text;
      // Field 2, the name, may hold spaces: the fields after its last ")" start with the state.
      const stat = String(text);
      const cut = stat.lastIndexOf(")") + 2;
      const [state, _parent, ...after] = stat.slice(cut).split(" ");
      return `${stat.slice(0, cut)}${[state, String(parentShown), ...after].join(" ")}`;
    },
  };
});

/** A gRPC server on a loopback port whose Health/Check is `check`; its address. */
async function startEngine(
  check: grpc.handleUnaryCall<Buffer, Buffer>,
): Promise<{ server: grpc.Server; address: string }> {
  const identity = (b: Buffer) => b;
  const server = new grpc.Server();
  server.addService(
    {
      Check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      },
    },
    { Check: check },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { server, address: `127.0.0.1:${port}` };
}

afterEach(() => {
  parentShown = undefined;
  vi.restoreAllMocks();
});

it("a process re-parented (its parent died) serves an engine that is gone, though the old parent's id is still in use", () => {
  expect(engineGone()).toBe(false);
  // Re-parented to the first process of the system; the test's own parent still runs.
  parentShown = 1;
  expect(engineGone()).toBe(true);
  parentShown = process.ppid;
  expect(engineGone()).toBe(false);
});

it("the watcher's timer never keeps the process alive", () => {
  const timers: NodeJS.Timeout[] = [];
  const real = globalThis.setInterval;
  vi.spyOn(globalThis, "setInterval").mockImplementation(((...args: Parameters<typeof setInterval>) => {
    const timer = real(...args);
    timers.push(timer);
    return timer;
  }) as typeof setInterval);
  const stop = watchEngine("127.0.0.1:1", () => {});
  try {
    expect(timers).toHaveLength(1);
    expect(timers[0]!.hasRef()).toBe(false);
  } finally {
    stop();
  }
});

it("a check waits for an engine slower than half an interval: its answer is taken, not cut off", async () => {
  // The deadline of a check is twice the interval: an engine that answers in 0.8 of one is waited for.
  let settle: (how: "answered" | "cut off") => void = () => {};
  const first = new Promise<"answered" | "cut off">((resolve) => {
    settle = resolve;
  });
  const { server, address } = await startEngine((call, callback) => {
    call.on("cancelled", () => settle("cut off"));
    setTimeout(() => {
      callback(null, Buffer.alloc(0));
      settle("answered");
    }, WATCH_INTERVAL_MS * 0.8);
  });
  const stop = watchEngine(address, () => {});
  try {
    expect(await first).toBe("answered");
  } finally {
    stop();
    server.forceShutdown();
  }
});

it("a watcher whose process is re-parented says the engine is gone at its next tick, though the engine answers, and asks no more", async () => {
  let asked = 0;
  const { server, address } = await startEngine((_call, callback) => {
    asked++;
    callback(null, Buffer.alloc(0));
  });
  parentShown = 1;
  let calls = 0;
  const gone = new Promise<void>((resolve) => {
    watchEngine(address, () => {
      calls += 1;
      resolve();
    });
  });
  const late = new Promise<"late">((resolve) =>
    setTimeout(() => resolve("late"), WATCH_INTERVAL_MS * 3).unref(),
  );
  try {
    expect(await Promise.race([gone.then(() => "gone" as const), late])).toBe("gone");
    expect(calls).toBe(1);
    expect(engineGone()).toBe(true);
    // Even were the parent back, a watcher that said so once asks nothing more.
    parentShown = undefined;
    await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS * 1.2));
    expect(asked).toBe(0);
  } finally {
    server.forceShutdown();
  }
});
