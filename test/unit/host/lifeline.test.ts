/**
 * No provider outlives its engine: the watcher asks the engine's gRPC address every half second
 * and says the engine is gone once it cannot be reached; an engine that answers (even
 * UNIMPLEMENTED, an engine without the health service) or answers late is alive. Once gone, a run
 * is stopped before its next request. The engines here are real gRPC servers on loopback.
 *
 * The tests run in order: the engine's absence is process-wide, and the last ones end with it.
 */
import * as grpc from "@grpc/grpc-js";
import { expect, it, vi } from "vitest";
import { DomainApiBaseError } from "../../../provider/errors";
import {
  assertEngineAlive,
  EngineGoneError,
  engineGone,
  WATCH_INTERVAL_MS,
  watchEngine,
} from "../../../provider/host/lifeline";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gRPC server on a loopback port; `health` serves Health/Check, else it has no service. */
async function startEngine(
  health?: grpc.handleUnaryCall<Buffer, Buffer>,
): Promise<{ server: grpc.Server; address: string }> {
  const server = new grpc.Server();
  if (health !== undefined) {
    const identity = (b: Buffer) => b;
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
      { Check: health },
    );
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { server, address: `127.0.0.1:${port}` };
}

it("while its parent is the one it started with and no watcher lost the engine, a run goes on", () => {
  expect(engineGone()).toBe(false);
  expect(() => assertEngineAlive()).not.toThrow();
});

/** Watches an engine whose health check answers after `delayMs` for `forMs`, then stops and shuts it down. */
async function watchSlowEngine(
  delayMs: number,
  forMs: number,
): Promise<{ asked: number; most: number; gone: number }> {
  let inFlight = 0;
  let most = 0;
  let asked = 0;
  const { server, address } = await startEngine((call, callback) => {
    asked++;
    inFlight++;
    most = Math.max(most, inFlight);
    let open = true;
    const close = () => {
      if (open) inFlight--;
      open = false;
    };
    // A check the watcher gave up on (its deadline passed) is no longer in flight.
    call.on("cancelled", close);
    setTimeout(() => {
      close();
      callback(null, Buffer.alloc(0));
    }, delayMs);
  });
  let gone = 0;
  const stop = watchEngine(address, () => gone++);
  try {
    await sleep(forMs);
  } finally {
    stop();
    server.forceShutdown();
  }
  // Stopped before the engine went: three more intervals would have found it gone.
  await sleep(WATCH_INTERVAL_MS * 3);
  return { asked, most, gone };
}

it("an engine slower than the interval is asked one check at a time; a stopped watcher says nothing", async () => {
  // Each answer takes 1.2 intervals: the tick in between finds the last check still waiting.
  const slow = await watchSlowEngine(WATCH_INTERVAL_MS * 1.2, WATCH_INTERVAL_MS * 3.5);
  expect(slow.asked).toBeGreaterThanOrEqual(2);
  expect(slow.most).toBe(1);
  expect(slow.gone).toBe(0);
  expect(engineGone()).toBe(false);
}, 15_000);

it("two checks that find it unavailable in a row make the engine gone; one between answers does not", async () => {
  // The answers of the engine's health service, check by check: unavailable once, then fine, then
  // unavailable from then on.
  let checks = 0;
  const { server, address } = await startEngine((_call, callback) => {
    checks++;
    if (checks === 2) callback(null, Buffer.alloc(0));
    else callback({ code: grpc.status.UNAVAILABLE, details: "shutting down" });
  });
  // A process of its own, as it were: this file's other tests need the engine not gone yet.
  vi.resetModules();
  const fresh = await import("../../../provider/host/lifeline.ts");
  let goneAfter: number | undefined;
  const stop = fresh.watchEngine(address, () => {
    goneAfter = checks;
  });
  try {
    for (let i = 0; i < 60 && goneAfter === undefined; i++) await sleep(100);
    expect(goneAfter).toBe(4);
    expect(fresh.engineGone()).toBe(true);
    expect(engineGone()).toBe(false);
  } finally {
    stop();
    server.forceShutdown();
  }
}, 15_000);

it("an engine that answers is alive; once it is gone, onGone is called once, within a few seconds", async () => {
  const { server: engine, address } = await startEngine();
  let goneAt: number | undefined;
  let calls = 0;
  const stop = watchEngine(address, () => {
    calls++;
    goneAt = Date.now();
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS * 3));
    expect(goneAt).toBeUndefined();
    expect(engineGone()).toBe(false);
    const stoppedAt = Date.now();
    engine.forceShutdown();
    for (let i = 0; i < 60 && goneAt === undefined; i++) await new Promise((r) => setTimeout(r, 100));
    expect(goneAt).toBeDefined();
    expect(goneAt! - stoppedAt).toBeLessThan(WATCH_INTERVAL_MS * 5);
    expect(calls).toBe(1);
  } finally {
    stop();
    engine.forceShutdown();
  }
}, 15_000);

it("once the engine is gone, every run is stopped before its next request, saying why", async () => {
  expect(engineGone()).toBe(true);
  let error: unknown;
  try {
    assertEngineAlive();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(EngineGoneError);
  expect(error).toBeInstanceOf(DomainApiBaseError);
  expect((error as EngineGoneError).code).toBe("DOMAINAPI_ENGINE_GONE");
  expect((error as EngineGoneError).message).toBe(
    "the Pulumi engine that started this provider is gone; nothing more is sent",
  );
  // A second watcher of another engine that goes is not told again: the process is already done.
  let told = 0;
  const stop = watchEngine("127.0.0.1:1", () => told++);
  await sleep(WATCH_INTERVAL_MS * 3);
  stop();
  expect(told).toBe(0);
}, 15_000);
