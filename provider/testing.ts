/**
 * Helpers for testing stacks that use this package. Not needed by ordinary programs.
 */
import * as pulumi from "@pulumi/pulumi";
import { engineFloorProvider } from "./dynamic";

/** Inputs of {@link EngineFloor}: any values; a change is an update. */
export interface EngineFloorArgs {
  [key: string]: pulumi.Input<unknown>;
}

/**
 * A dynamic resource that does nothing: its provider echoes its inputs. Use it to measure what the
 * Pulumi engine itself costs, or to check that dynamic providers work in an environment.
 *
 * @example
 * new EngineFloor("probe", { value: 1 });
 */
export class EngineFloor extends pulumi.dynamic.Resource {
  constructor(name: string, args: EngineFloorArgs, opts?: pulumi.CustomResourceOptions) {
    super(engineFloorProvider, name, { ...args }, opts, "domainapi", "EngineFloor");
  }
}
