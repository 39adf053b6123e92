/**
 * Where provider messages go: the one module that hands them to `pulumi.log`.
 *
 * In a program, `pulumi.log` reaches the engine directly. The engine's dynamic-provider plugin
 * process, where our providers run, is started with the engine's address as its argument but never
 * connects to it for logging, so `pulumi.log` there falls back to the process's stdout, which the
 * engine shows as info whatever the severity, and drops debug lines. {@link attachPluginToEngine}
 * connects the plugin to the engine (through `pulumi.runtime.resetOptions`, the SDK's public way
 * to set the engine address), so info and warnings show in `pulumi up` with their severity, and
 * debug lines (every HTTP request) only with `pulumi up --debug`.
 *
 * The SDK is loaded at the first message, not with this module: the client (which logs every
 * request) is also used by plain scripts, such as the plan CLI, that never talk to an engine.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as Pulumi from "@pulumi/pulumi";

/** The Pulumi SDK, loaded at first use; undefined where it cannot be loaded (a script without it). */
export function pulumiSdk(): typeof Pulumi | undefined {
  try {
    return require("@pulumi/pulumi") as typeof Pulumi;
  } catch {
    // A script without the SDK: there is nothing to log to.
  }
  return undefined;
}

let attached = false;

/**
 * When running inside the engine's dynamic-provider plugin process, points the Pulumi SDK at the
 * engine so that `pulumi.log` reaches it. Does nothing anywhere else, and only once.
 */
export function attachPluginToEngine(argv: readonly string[] = process.argv): void {
  if (attached) return;
  attached = true;
  // Stryker disable next-line StringLiteral: an absent argument matches neither pattern below, whatever stands for it
  const script = argv[1] ?? "";
  // Stryker disable next-line StringLiteral: as above
  const engine = argv[2] ?? "";
  if (!/dynamic-provider/.test(script) || !/^[\w.[\]:-]+:\d+$/.test(engine)) return;
  try {
    const pulumi = pulumiSdk();
    if (pulumi === undefined || pulumi.runtime.hasEngine()) return;
    // Keep the project and stack the plugin already had (dynamic config keys rely on the project).
    pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engine, "", false, "");
  } catch {
    // Logging falls back to the process's output; never fail a provider over it.
  }
}

/**
 * Points the Pulumi SDK at the engine at `engine` (`host:port`), so that `pulumi.log` reaches it
 * with its severity: the provider plugin's start (its argument) and its Attach. Does nothing when
 * an engine is already set; never throws.
 */
export function attachToEngine(engine: string | undefined): void {
  if (engine === undefined || !/^[\w.[\]:-]+:\d+$/.test(engine)) return;
  try {
    const pulumi = pulumiSdk();
    if (pulumi === undefined || pulumi.runtime.hasEngine()) return;
    pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engine, "", false, "");
  } catch {
    // Logging falls back to the process's output; never fail a provider over it.
  }
}

/** Whether `pulumi.log` reaches an engine here (else the SDK prints info and drops debug lines). */
export function hasEngine(): boolean {
  try {
    return pulumiSdk()?.runtime.hasEngine() === true; // no SDK, no engine
  } catch {
    return false;
  }
}

/** The severities the provider logs at. */
export type Severity = "debug" | "info" | "warn";

/**
 * Hands `message` to `pulumi.log` at `severity`; never throws, never rejects.
 *
 * With an engine, the SDK wraps each log call in a promise that records `new Error().stack`, for
 * its report of promises leaked at exit. In the engine's plugin process, whose source-map-support
 * formats every stack through the SDK's source maps, that stack cost about half a megabyte of
 * allocations per message, held while the message waits its turn behind the others: measured
 * under the engine, 111 MiB of the 277 MiB the plugin allocated for a destroy of 100 templates
 * (two messages each), which doubled its young generation; the plugin's peak RSS above the engine
 * floor's went from about 105 to about 32 MiB without it. A log call's stack says nothing (it
 * always ends here), so it is captured empty.
 */
export function toEngine(severity: Severity, message: string): void {
  const pulumi = pulumiSdk();
  if (pulumi === undefined) return;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const sent = pulumi.log[severity](message, aboutResource()).then(
      () => undefined,
      () => undefined,
    );
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
  } catch {
    // A message that cannot be delivered must not fail the operation that told it.
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The URN of the resource the current provider call is about (the plugin's RPCs set it). */
const currentUrn = new AsyncLocalStorage<string>();

/**
 * Runs `work` with every message it logs (however deep, until its promise settles) attached to
 * the resource `urn`, so that the engine shows the message under that resource instead of the
 * stack. An empty URN attaches nothing.
 *
 * @example
 * return about(req.getUrn(), () => ops.create(props));
 */
export function about<T>(urn: string | undefined, work: () => T): T {
  return urn === undefined || urn === "" ? work() : currentUrn.run(urn, work);
}

/**
 * The resource the SDK's log call attaches a message to: the SDK reads only its `urn` (an output
 * it awaits), and the plugin knows the URN, not a resource object.
 */
function aboutResource(): Pulumi.Resource | undefined {
  const urn = currentUrn.getStore();
  if (urn === undefined) return undefined;
  return { urn: { promise: () => Promise.resolve(urn) } } as unknown as Pulumi.Resource;
}

/**
 * Messages handed to the SDK whose delivery to the engine has not ended yet.
 *
 * Bound: each leaves the set when its delivery ends, delivered or failed: the messages in flight.
 */
const pending = new Set<Promise<void>>();

/** How long {@link delivered} waits for an engine that does not answer a message. */
export const DELIVERY_WAIT_MS = 5_000;

/**
 * Resolves once every message logged so far has reached the engine (or failed to), or after
 * {@link DELIVERY_WAIT_MS}; never rejects. A provider call awaits it before it answers: the engine
 * ends a deployment, and its plugin processes, once the last call has answered, so a message still
 * on its way then (the last delete's "removed 10 records") would be lost.
 */
export async function delivered(): Promise<void> {
  if (pending.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DELIVERY_WAIT_MS);
    timer.unref();
  });
  await Promise.race([Promise.all(pending), waited]);
  clearTimeout(timer);
}

/** Logs at info level (shown by `pulumi up`). */
export function info(message: string): void {
  toEngine("info", message);
}

/** Logs a warning (shown by `pulumi up`). */
export function warn(message: string): void {
  toEngine("warn", message);
}

/** Logs at debug level (shown by `pulumi up --debug`). */
export function debug(message: string): void {
  toEngine("debug", message);
}
