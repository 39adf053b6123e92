/**
 * Works around a Pulumi Node SDK leak that makes a later Automation API inline run in the same
 * process fail at once with `14 UNAVAILABLE: No connection established. Last error: null`.
 *
 * Each inline run opens gRPC clients to that run's engine and never closes them (in the SDK's
 * per-run store, `disconnect()` only closes its module-level clients). grpc-js shares connections
 * ("subchannels") between clients by address, across the whole process. Once a run's CLI has
 * exited, a late call on its leaked client fails and leaves the shared subchannel for that address
 * backing off. If the operating system later gives the same loopback port to another run's engine,
 * that run's new client is handed the backing-off subchannel, and its first call fails without
 * even trying to connect (reproduced with grpc-js alone in test/e2e/inline-host.test.ts). A client
 * with its own subchannel pool is not affected, so every client the SDK makes from now on gets one.
 *
 * @param {NodeJS.Require} requireFromProgram a require that resolves `@pulumi/pulumi` the way the
 *   program does (the SDK instance whose runtime runs the inline programs)
 */
function isolateInlineProgramChannels(requireFromProgram) {
  const settings = requireFromProgram("@pulumi/pulumi/runtime/settings");
  settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;
}

module.exports = { isolateInlineProgramChannels };
