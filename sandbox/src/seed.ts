/**
 * What a sandbox starts with (and returns to on reset): templates, domains and contact fixtures.
 */
import { z } from "zod";
import { generateContacts } from "./contactGenerator";
import { type WireContact, WireContactSchema } from "./contactSchema";
import { type DomainStatus, DomainStatusSchema, domainKey } from "./domains";
import type { SandboxRecord, TemplateStore } from "./templates";
import { formatIssues } from "./validation";

/** A record in a seed; validated like a PUT item when the seed is applied. */
export interface SeedRecord {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/**
 * The initial data of a sandbox. Contact fixtures are appended after the generated contacts.
 *
 * @example
 * const seed: SandboxSeed = {
 *   templates: { web: [{ name: "www", type: "A", content: "192.0.2.10" }] },
 *   domains: { "shop.example": "quarantined" },
 * };
 */
export interface SandboxSeed {
  templates?: Record<string, SeedRecord[]>;
  domains?: Record<string, DomainStatus>;
  contacts?: WireContact[];
}

/** The seed used when none is given: seven empty templates and three domains. */
export const DEFAULT_SEED: SandboxSeed = {
  templates: { "tpl-1": [], "tpl-2": [], "tpl-3": [], "tpl-4": [], "tpl-5": [], web: [], mail: [] },
  domains: { "shop.example": "quarantined", "old.example": "quarantined", "live.example": "active" },
};

/** Shape check of a seed file (records are checked against the record rules when applied). */
const SandboxSeedSchema = z.strictObject({
  templates: z.record(z.string().min(1), z.array(z.unknown())).optional(),
  domains: z.record(z.string().min(1), DomainStatusSchema).optional(),
  contacts: z.array(WireContactSchema).optional(),
});

/**
 * Checks that `value` is a seed; throws an Error naming the field (e.g. `contacts[3].country: ...`).
 */
export function parseSeed(value: unknown, source = "seed"): SandboxSeed {
  const result = SandboxSeedSchema.safeParse(value);
  if (!result.success) throw new Error(`${source}: ${formatIssues(result.error)}`);
  return result.data as SandboxSeed;
}

/** The live state of a sandbox. The maps and the array keep their identity across resets. */
export interface SandboxState {
  /** Records by template id. */
  templates: Map<string, SandboxRecord[]>;
  /** Domain status by lower-case domain name. */
  domains: Map<string, DomainStatus>;
  /** Generated contacts followed by fixtures, in the order served when no sort is given. */
  contacts: WireContact[];
}

/** How generated contacts are made. */
export interface ContactGeneration {
  count: number;
  seed: number;
}

/**
 * Empties `state` and fills it from `seed`.
 *
 * @throws Error naming the field when a template record or a contact fixture is invalid.
 */
export function applySeed(
  state: SandboxState,
  store: TemplateStore,
  seed: SandboxSeed,
  generation: ContactGeneration,
): void {
  const valid = parseSeed(seed);
  store.clear();
  for (const [templateId, records] of Object.entries(valid.templates ?? {})) {
    try {
      store.seed(templateId, records);
    } catch (error) {
      throw new Error(`seed.templates.${templateId}: ${(error as Error).message}`);
    }
  }
  state.domains.clear();
  for (const [name, status] of Object.entries(valid.domains ?? {})) {
    state.domains.set(domainKey(name), status);
  }
  state.contacts.length = 0;
  // A loop, not push(...spread): 100,000 arguments would overflow the call stack.
  for (const contact of generateContacts(generation.count, generation.seed)) state.contacts.push(contact);
  for (const fixture of valid.contacts ?? []) state.contacts.push({ ...fixture });
}
