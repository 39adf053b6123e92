/**
 * Per-process provider session: the configuration handed to `configure()` and the API client built
 * from it. The shims are deserialized in the engine's plugin process, which calls `configure()` once
 * per provider; every resource operation in that process then shares one client (and so one pool of
 * keep-alive connections).
 *
 * The API key travels only through here: stack config (decrypted by the engine) or the
 * environment. It is never captured by a closure, so it never reaches the state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type DomainApiClient, getClient } from "./client/api";
import { type ConfigLookup, resolveConfig } from "./config";

let lookup: ConfigLookup | undefined;

/** Records the stack config of a `configure()` call; settings are resolved at first use. */
export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  const config = req.config;
  lookup = (key) => config.get(`domainapi:${key}`);
}

/**
 * The client for the configured API. Resolving here rather than in `configure()` keeps `check()`
 * and `diff()` (which make no request) working in a preview without credentials.
 */
export function client(): DomainApiClient {
  return getClient(resolveConfig(lookup));
}
