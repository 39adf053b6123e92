/**
 * No provider outlives its engine: the watcher asks the engine's gRPC address every second and
 * says the engine is gone once it cannot be reached; an engine that answers (even UNIMPLEMENTED,
 * an engine without the health service) is alive.
 */
import * as grpc from "@grpc/grpc-js";
import { expect, it } from "vitest";
import { WATCH_INTERVAL_MS, watchEngine } from "../../../provider/host/lifeline";

it("an engine that answers is alive; once it is gone, onGone is called within a few seconds", async () => {
  const engine = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  let goneAt: number | undefined;
  const stop = watchEngine(`127.0.0.1:${port}`, () => {
    goneAt = Date.now();
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS * 3));
    expect(goneAt).toBeUndefined();
    const stoppedAt = Date.now();
    engine.forceShutdown();
    for (let i = 0; i < 60 && goneAt === undefined; i++) await new Promise((r) => setTimeout(r, 100));
    expect(goneAt).toBeDefined();
    expect(goneAt! - stoppedAt).toBeLessThan(WATCH_INTERVAL_MS * 5);
  } finally {
    stop();
    engine.forceShutdown();
  }
}, 15_000);
