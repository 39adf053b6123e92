#!/usr/bin/env node
/**
 * `pulumi-resource-domainapi`: the provider plugin's entry point. The engine starts one such
 * process per provider instance with its own address as the argument, reads the port printed on
 * stdout and calls the gRPC service (server.ts) there. No dynamic require: it bundles into one file.
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { watchEngine } from "../host/lifeline";
import { attachToEngine } from "../log";
import schema from "./schema.json";
import { resourceProviderServer } from "./server";

const engine = process.argv.slice(2).find((a) => !a.startsWith("-"));
attachToEngine(engine);
// No provider outlives its engine: a request in flight when it goes stays in the intent journal.
if (engine !== undefined) {
  watchEngine(engine, () => {
    console.error("pulumi-resource-domainapi: the Pulumi engine is gone; exiting without sending more");
    process.exit(1);
  });
}
const server = new grpc.Server({ "grpc.max_receive_message_length": 400 << 20 }); // large templates
// The plugin's version is the package's, written into the schema when it is generated.
server.addService(
  ResourceProviderService,
  resourceProviderServer(schema.version, JSON.stringify(schema), attachToEngine),
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`pulumi-resource-domainapi: cannot listen on 127.0.0.1: ${err.message}`);
    process.exit(1);
  }
  console.log(String(port)); // the engine reads the port from the first line
});
