/**
 * Shared pieces of the DnsTemplateRecords end-to-end tests: a program over mutable desired records,
 * the stack against a sandbox, and the convergence check (sandbox == desired == state).
 */

import type { Sandbox } from "domainapi-sandbox";
import { expect } from "vitest";
import { createTestStack, domainapi, type TestStack, typeToken } from "./harness";

/** The API key every e2e sandbox uses; tests assert it never leaks. */
export const API_KEY = "e2e-secret-key-3f9c1a7d";

/** A record as a test declares it. */
export interface DesiredRecord {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** Options of {@link programFor}. */
export interface ProgramOptions {
  purge?: boolean;
  safetyThreshold?: () => undefined | false | { maxChangePercent?: number; minExistingRecords?: number };
  name?: string;
}

/** An inline program with one DnsTemplateRecords whose records are read at each run. */
export function programFor(templateId: string, records: () => DesiredRecord[], options: ProgramOptions = {}) {
  return async () => {
    const { DnsTemplateRecords } = domainapi();
    const threshold = options.safetyThreshold?.();
    const r = new DnsTemplateRecords(options.name ?? "records", {
      templateId,
      records: records() as never,
      ...(options.purge === undefined ? {} : { purge: options.purge }),
      ...(threshold === undefined ? {} : { safetyThreshold: threshold }),
    });
    return { recordIds: r.recordIds, records: r.records, lastPlan: r.lastPlan };
  };
}

/** A stack whose provider is configured (stack config, key as a secret) for the sandbox. */
export function recordsStack(
  sandbox: Sandbox,
  program: () => Promise<Record<string, unknown>>,
  config: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<TestStack> {
  return createTestStack({
    program,
    env,
    config: {
      "domainapi:baseUrl": sandbox.url,
      "domainapi:apiKey": { value: API_KEY, secret: true },
      ...config,
    },
  });
}

/** The id the sandbox gave the record of `name` and `type` in a template (for deleting it behind our back). */
export function recordIdOf(sandbox: Sandbox, templateId: string, name: string, type: string): string {
  const r = (sandbox.templateRecords(templateId) ?? []).find((x) => x.name === name && x.type === type);
  if (!r) throw new Error(`no ${name} ${type} in ${templateId}`);
  return r.record_id;
}

/** The /v2 requests that change something (PUT, PATCH, POST), in order. */
export function mutating(sandbox: Sandbox) {
  return sandbox.requests.filter((r) => r.method !== "GET");
}

function canonical(r: DesiredRecord): DesiredRecord {
  const out: DesiredRecord = { name: r.name.toLowerCase(), type: r.type.toUpperCase(), content: r.content };
  if (r.priority !== undefined) out.priority = r.priority;
  if (r.weight !== undefined) out.weight = r.weight;
  if (r.port !== undefined) out.port = r.port;
  return out;
}

/** Records without ids, canonical, sorted: for comparing sets. */
export function sortRecords(records: DesiredRecord[]): DesiredRecord[] {
  return records.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/**
 * The template holds exactly the desired records (no duplicate, no loss), and the Pulumi state
 * holds exactly the template's records with the ids the API has.
 */
export async function expectConverged(
  s: TestStack,
  sandbox: Sandbox,
  templateId: string,
  desired: DesiredRecord[],
): Promise<void> {
  const held = sandbox.templateRecords(templateId) ?? [];
  expect(sortRecords(held)).toEqual(sortRecords(desired));
  const [resource] = (await s.resources(typeToken("DnsTemplateRecords"))).filter(
    (r) => r.outputs?.templateId === templateId,
  );
  const outputs = resource?.outputs as {
    records: Record<string, DesiredRecord>;
    ids: Record<string, string>;
  };
  const stateById = Object.entries(outputs.ids)
    .map(([key, id]) => ({ id, ...canonical(outputs.records[key] as DesiredRecord) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const apiById = held
    .map((r) => ({ id: r.record_id, ...canonical(r as DesiredRecord) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  expect(stateById).toEqual(apiById);
}
