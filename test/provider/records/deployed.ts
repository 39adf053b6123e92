/**
 * A DnsTemplateRecords resource as the engine drives it through the provider's methods, for tests
 * against the sandbox: inputs as check makes them, and a template created with its records.
 */
import { expect } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER } from "../helpers";

/** Inputs, outputs or state of the resource, as the engine passes them. */
export type Props = Record<string, unknown>;

/** `n` TXT records `h0`..: distinct names and contents. */
export const txt = (n: number): Props[] =>
  Array.from({ length: n }, (_, i) => ({ name: `h${i}`, type: "TXT", content: `value ${i}` }));

/** The inputs check makes of `news` (and `olds`), which must pass it. */
export async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

/** A template created with `declared`, its id, inputs and outputs as the engine keeps them. */
export async function deployed(
  templateId: string,
  declared: Props[],
  purge = false,
): Promise<{ id: string; inputs: Props; outs: Props }> {
  const inputs = await checked({ templateId, records: declared, purge, safetyThreshold: false });
  const created = await records.create(inputs);
  return { id: created.id, inputs, outs: { ...(created.outs as Props), __provider: PROVIDER } };
}
