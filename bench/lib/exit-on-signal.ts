/**
 * Preloaded (`--import`) into the engine's plugin process when it is profiled: the engine stops
 * plugins with a signal, and a process killed by a signal writes no `--cpu-prof` profile. Exiting
 * on the signal instead lets Node write it.
 */
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => process.exit(0));
}
