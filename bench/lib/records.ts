/**
 * DnsTemplateRecords driven through its public dynamic provider (`dnsTemplateRecordsProvider`,
 * the methods the engine calls), against a sandbox: what the benchmarks of requests, bytes and
 * planning send and measure.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { RecordType } from "pulumi-domainapi";
import { domainapi, quietly } from "./package.ts";
import type { Sandbox } from "./sandbox.ts";

/** A record as a program declares it. */
export interface RecordArgs {
  name: string;
  type: RecordType;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

const provider = domainapi.dnsTemplateRecordsProvider;

/**
 * Points the provider at `sandbox` (as the engine's `configure` would). Planning alone needs
 * settings too: `check` refuses what `up` would refuse, so a preview fails where `up` would.
 */
export function configureFor(sandbox: Pick<Sandbox, "url">, apiKey: string): void {
  const config = new Map([
    ["domainapi:baseUrl", sandbox.url],
    ["domainapi:apiKey", apiKey],
  ]);
  provider.configure?.({ config } as unknown as pulumi.dynamic.ConfigureRequest);
}

/** The provider's checked inputs for `records` in `templateId` (no safety threshold), failing loudly. */
export async function checked(
  templateId: string,
  records: readonly RecordArgs[],
  olds: Record<string, unknown> = {},
  purge = true,
): Promise<Record<string, unknown>> {
  const result = await quietly(() =>
    provider.check!(olds, { templateId, records, purge, safetyThreshold: false }),
  );
  if (result.failures?.length) throw new Error(`check: ${JSON.stringify(result.failures).slice(0, 500)}`);
  return result.inputs as Record<string, unknown>;
}

/** A resource as the engine holds it after a create or update. */
export interface Held {
  readonly id: string;
  readonly outs: Record<string, unknown>;
}

/** Creates the resource: its records go to the template. */
export async function create(
  templateId: string,
  records: readonly RecordArgs[],
  purge = true,
): Promise<Held> {
  const inputs = await checked(templateId, records, {}, purge);
  const { id, outs } = await quietly(() => provider.create!(inputs));
  return { id, outs: outs as Record<string, unknown> };
}

/** Updates `held` to `records` when the provider's diff says so; returns the new outputs. */
export async function update(held: Held, records: readonly RecordArgs[], purge = true): Promise<Held> {
  const news = await checked(String(held.outs.templateId), records, held.outs, purge);
  const { changes } = await quietly(() => provider.diff!(held.id, held.outs, news));
  if (!changes) return held;
  const { outs } = await quietly(() => provider.update!(held.id, held.outs, news));
  return { id: held.id, outs: outs as Record<string, unknown> };
}

/** The counts a plan summary (`lastPlan`) states: "1 to create, ... (2 requests)". */
export function planCounts(lastPlan: unknown): {
  creates: number;
  updates: number;
  deletes: number;
  requests: number;
} {
  const text = String(lastPlan ?? "");
  const count = (what: string): number => Number(new RegExp(`(\\d+) ${what}`).exec(text)?.[1] ?? 0);
  return {
    creates: count("to create"),
    updates: count("to update"),
    deletes: count("to delete"),
    requests: count("requests?"),
  };
}

/** The record ids a template holds at the sandbox. */
export function idsAt(sandbox: Sandbox, templateId: string): Set<string> {
  return new Set((sandbox.templateRecords(templateId) ?? []).map((r) => r.record_id));
}

/** The template of `n` records of the common types that the scale benchmarks use. */
export function scaleRecord(i: number, variant = 0): RecordArgs {
  const types = ["A", "AAAA", "TXT", "MX"] as const;
  const type = types[i % types.length] as (typeof types)[number];
  const name = `h${i}`;
  switch (type) {
    case "A":
      return { name, type, content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i + variant) & 255}` };
    case "AAAA":
      return {
        name,
        type,
        content: `2001:db8::${(i >> 16).toString(16)}:${((i + variant) & 0xffff).toString(16)}`,
      };
    case "TXT":
      return { name, type, content: `text ${i} ${variant}` };
    default:
      return { name, type, content: `mx${variant}.example.net`, priority: 10 };
  }
}
