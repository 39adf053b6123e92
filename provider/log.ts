/**
 * Where provider messages go.
 *
 * In a program, `pulumi.log` reaches the engine directly. The engine's dynamic-provider plugin
 * process, where our providers run, is started with the engine's address as its argument but never
 * connects to it for logging, so `pulumi.log` there falls back to the process's stdout, which the
 * engine shows as info whatever the severity, and drops debug lines. {@link attachPluginToEngine}
 * connects the plugin to the engine (through `pulumi.runtime.resetOptions`, the SDK's public way
 * to set the engine address), so info and warnings show in `pulumi up` with their severity, and
 * debug lines (every HTTP request) only with `pulumi up --debug`.
 */
import * as pulumi from "@pulumi/pulumi";

let attached = false;

/**
 * When running inside the engine's dynamic-provider plugin process, points the Pulumi SDK at the
 * engine so that `pulumi.log` reaches it. Does nothing anywhere else, and only once.
 */
export function attachPluginToEngine(argv: readonly string[] = process.argv): void {
  if (attached) return;
  attached = true;
  const script = argv[1] ?? "";
  const engine = argv[2] ?? "";
  if (!/dynamic-provider/.test(script) || !/^[\w.[\]:-]+:\d+$/.test(engine)) return;
  try {
    if (pulumi.runtime.hasEngine()) return;
    // Keep the project and stack the plugin already had (dynamic config keys rely on the project).
    pulumi.runtime.resetOptions(pulumi.getProject(), pulumi.getStack(), -1, engine, "", false, "");
  } catch {
    // Logging falls back to the process's output; never fail a provider over it.
  }
}

/** Logs at info level (shown by `pulumi up`). */
export function info(message: string): void {
  void pulumi.log.info(message).catch(() => undefined);
}

/** Logs a warning (shown by `pulumi up`). */
export function warn(message: string): void {
  void pulumi.log.warn(message).catch(() => undefined);
}

/** Logs at debug level (shown by `pulumi up --debug`). */
export function debug(message: string): void {
  void pulumi.log.debug(message).catch(() => undefined);
}
