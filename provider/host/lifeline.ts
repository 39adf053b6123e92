/**
 * No provider outlives its engine. A `kill -9` of the Pulumi CLI leaves its plugin processes
 * running (nothing signals them), and a provider that goes on would send requests whose outcome no
 * state will ever hold. Pulumi's own plugins ask the engine's gRPC health service periodically
 * (`rpcutil.Healthcheck` in its Go SDK) and stop when it fails; this does the same, twice a second,
 * and also notices its parent going (the process is re-parented).
 *
 * Knows gRPC only as far as one health call; nothing of the record model.
 */
import { readFileSync } from "node:fs";
import type * as Grpc from "@grpc/grpc-js";
import { DomainApiBaseError } from "../errors";

let gone = false;
/** The parent this process started with (`process.ppid` is read once, at start). */
const parent = process.ppid;

/**
 * Whether the parent this process started with is still its parent: Linux shows the current
 * parent in `/proc/self/stat` (a process whose parent died is re-parented); elsewhere, whether a
 * process of that pid still exists.
 */
function parentAlive(): boolean {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
  } catch {
    try {
      process.kill(parent, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "EPERM";
    }
  }
}

/**
 * Whether the engine this process serves is known to be gone: the watcher found it unreachable, or
 * this process's parent changed since it started. A run checks it before each request it sends.
 */
export function engineGone(): boolean {
  return gone || !parentAlive();
}

/** Thrown before a request that would be sent after the engine went: nothing was sent. */
export class EngineGoneError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.EngineGoneError");

  constructor() {
    super(
      "the Pulumi engine that started this provider is gone; nothing more is sent",
      "DOMAINAPI_ENGINE_GONE",
    );
  }
}

/**
 * Stops a run before a request once the engine is gone.
 *
 * @throws EngineGoneError when {@link engineGone} holds
 */
export function assertEngineAlive(): void {
  if (engineGone()) throw new EngineGoneError();
}

/** How often the engine is asked, and how many connection failures in a row mean it is gone. */
export const WATCH_INTERVAL_MS = 500;
const FAILURES_TO_GO = 2;

/**
 * Watches the engine at `address` (`host:port`, the argument Pulumi starts a plugin with): every
 * {@link WATCH_INTERVAL_MS} one call of `grpc.health.v1.Health/Check`. Only a failure to connect
 * counts (an engine too busy to answer in time is not gone, and one without the health service
 * answers UNIMPLEMENTED, which is an answer); two in a row, or a new parent, call `onGone` once.
 * The timer never keeps the process alive.
 *
 * @returns a function that stops watching
 */
export function watchEngine(address: string, onGone: () => void): () => void {
  // Loaded only where an engine is watched: programs that import the package never need it.
  const grpc = require("@grpc/grpc-js") as typeof Grpc;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let failures = 0;
  let busy = false;
  const stop = () => {
    clearInterval(timer);
    client.close();
  };
  const lost = () => {
    if (gone) return;
    gone = true;
    stop();
    onGone();
  };
  const timer = setInterval(() => {
    if (!parentAlive()) return lost();
    if (busy) return;
    busy = true;
    const deadline = Date.now() + WATCH_INTERVAL_MS * 2;
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      (b: Buffer) => b,
      // Stryker disable next-line ArrowFunction: the answer's content is never read, only whether there was one
      (b: Buffer) => b,
      Buffer.alloc(0),
      { deadline },
      (err) => {
        busy = false;
        failures = err?.code === grpc.status.UNAVAILABLE ? failures + 1 : 0;
        if (failures >= FAILURES_TO_GO) lost();
      },
    );
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return stop;
}
