/**
 * What the serialized shims (`dynamic.ts`) load at run time, by package name
 * (`require("pulumi-domainapi/impl")`). Everything a provider method needs is reachable from here,
 * and nothing here is ever serialized into the state.
 */
import { attachPluginToEngine } from "./log";

// Loaded first thing in the engine's plugin process: connect its logging to the engine.
attachPluginToEngine();

export * as records from "./records/provider";
export * as restore from "./restore/provider";
