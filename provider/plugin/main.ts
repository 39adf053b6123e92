#!/usr/bin/env node
/**
 * `pulumi-resource-domainapi`: the provider plugin's entry point (started by the launcher at the
 * package root, which finds a Node of the version the package needs). The engine starts one such
 * process per provider instance and talks to it over gRPC (the Pulumi SDK's `main()`).
 */
import * as pulumi from "@pulumi/pulumi";
import { main } from "@pulumi/pulumi/provider";
import { installHostOverrides } from "./host";
import { domainApiProvider } from "./provider";
import schemaDocument from "./schema.json";

/** The package version: the plugin's version is the npm package's. */
const { version } = require("../../../package.json") as { version: string };

/** Connects `pulumi.log` to the engine, whose address is the plugin's first argument. */
function attachLogging(args: readonly string[]): void {
  const engine = args.find((a) => !a.startsWith("-"));
  if (engine === undefined || pulumi.runtime.hasEngine()) return;
  try {
    pulumi.runtime.resetOptions("", "", -1, engine, "", false, "");
  } catch {
    // Logging then falls back to the process's output; never fail the plugin over it.
  }
}

const args = process.argv.slice(2);
const provider = domainApiProvider(version, JSON.stringify({ ...schemaDocument, version }));
const diff = provider.diff;
if (diff === undefined) throw new Error("the domainapi provider has no diff");
installHostOverrides((id, urn, olds, news) => diff(id, urn, olds, news));
attachLogging(args);
void main(provider, args);
