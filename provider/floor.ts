/**
 * The engine's floor: a dynamic resource whose provider does no work at all. It exists so that the
 * smoke test can prove the serialized-shim path works under the real engine with nothing else in
 * the way, and so that benchmarks can subtract what the engine itself costs.
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { withoutProvider } from "./engine";

type Props = Record<string, unknown>;

/** Create: echo the inputs under a fresh id. */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  return { id: `floor-${randomUUID()}`, outs: withoutProvider(inputs) };
}

/** Diff: an update whenever an input changed. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const changes = !isDeepStrictEqual(withoutProvider(olds), withoutProvider(news));
  return { changes };
}
