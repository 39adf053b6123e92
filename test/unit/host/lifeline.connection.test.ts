/**
 * What the engine sees of a watcher: each health check carries its deadline (twice the interval),
 * so a check the engine never answers is given up and the engine asked again; and a watcher that
 * stops closes its connection rather than holding a socket to the engine for the process's life.
 */
import * as net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { expect, it } from "vitest";
import { WATCH_INTERVAL_MS, watchEngine } from "../../../provider/host/lifeline";

/** A gRPC server on a loopback port whose Health/Check is `check`; its port. */
async function startEngine(
  check: grpc.handleUnaryCall<Buffer, Buffer>,
): Promise<{ server: grpc.Server; port: number }> {
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
  return { server, port };
}

/** Resolves with `value` after `ms`, or with what `promise` gives first. */
const within = <T, U>(promise: Promise<T>, ms: number, value: U) =>
  Promise.race([promise, new Promise<U>((resolve) => setTimeout(() => resolve(value), ms).unref())]);

it("a check tells the engine it waits at most twice the interval for the answer", async () => {
  let seen: (deadline: number) => void = () => {};
  const asked = new Promise<number>((resolve) => {
    seen = resolve;
  });
  const { server, port } = await startEngine((call, callback) => {
    const deadline = call.getDeadline();
    seen(deadline instanceof Date ? deadline.getTime() : deadline);
    callback(null, Buffer.alloc(0));
  });
  const stop = watchEngine(`127.0.0.1:${port}`, () => {});
  try {
    const deadline = await asked;
    // Without one, the engine reads Infinity: a check it never answers would leave the watcher waiting forever.
    // A few milliseconds over for the header's rounding (gRPC sends the time left, in whole units).
    expect(deadline).toBeLessThanOrEqual(Date.now() + WATCH_INTERVAL_MS * 2 + 10);
  } finally {
    stop();
    server.forceShutdown();
  }
});

it("a watcher that stops closes its connection to the engine", async () => {
  let answered: () => void = () => {};
  const checked = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const { server, port } = await startEngine((_call, callback) => {
    callback(null, Buffer.alloc(0));
    answered();
  });
  // A relay in front of the engine, to see the watcher's connection end.
  const closed: Promise<"closed">[] = [];
  const relay = net.createServer((socket) => {
    const upstream = net.connect(port, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
    closed.push(new Promise((resolve) => socket.on("end", () => resolve("closed"))));
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const stop = watchEngine(`127.0.0.1:${(relay.address() as net.AddressInfo).port}`, () => {});
  try {
    await checked;
    expect(closed).toHaveLength(1);
    // Stopped between two checks, once the answer is in: a channel closed with a call in flight
    // keeps its connection until grpc-js sweeps unused ones (every 10 s).
    await new Promise((resolve) => setTimeout(resolve, WATCH_INTERVAL_MS * 0.4));
    stop();
    expect(await within(closed[0]!, WATCH_INTERVAL_MS * 2, "still open")).toBe("closed");
  } finally {
    stop();
    relay.close();
    server.forceShutdown();
  }
});
