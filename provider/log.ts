/**
 * Where provider messages go. In the engine's plugin process there is no program connection, so
 * `pulumi.log` falls back to the process's own output, which the engine relays; in a program,
 * `pulumi.log` reaches the engine directly. Either way `pulumi up` shows info and warnings without
 * extra flags, and debug lines with `--debug`.
 */
import * as pulumi from "@pulumi/pulumi";

/** Logs at info level (shown by `pulumi up`). */
export function info(message: string): void {
  void pulumi.log.info(message);
}

/** Logs a warning (shown by `pulumi up`). */
export function warn(message: string): void {
  void pulumi.log.warn(message);
}

/** Logs at debug level (shown by `pulumi up --debug`). */
export function debug(message: string): void {
  void pulumi.log.debug(message);
}
