/**
 * The contact as the sandbox stores and serves it, as a zod schema: the single source of the
 * sandbox's contact type, used to validate fixtures (seed files, `POST /__sandbox/contacts`).
 */
import { z } from "zod";

/** Contact status values the spec names; a contact may hold several. */
export const CONTACT_STATUSES = ["ok", "pending_update", "pending_validation"] as const;
/** A contact status value. */
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** `YYYY-MM-DDThh:mm:ssZ`, the only datetime form the spec uses. */
export const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** True when `value` has the spec's datetime form and is a real instant (no 2024-02-30). */
export function isSpecDatetime(value: string): boolean {
  if (!DATETIME_PATTERN.test(value)) return false;
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === value.replace("Z", ".000Z");
}

const datetime = z
  .string()
  .refine(isSpecDatetime, { error: "must be a datetime of the form YYYY-MM-DDThh:mm:ssZ" });

/**
 * A contact as the API sends it (snake_case). Only `handle` is required, because samples may
 * omit fields; `connections` may be a number or a numeric string (the spec types it both ways);
 * `reference` is stored for the reference filter but not served in list results.
 *
 * @example
 * const c: WireContact = { handle: "C0000001", name: "Ada Lovelace", country: "GB", status: ["ok"], connections: 3 };
 */
export const WireContactSchema = z.strictObject({
  handle: z
    .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
    .min(1, { error: "must not be empty" }),
  company_name: z.string().optional(),
  name: z.string().optional(),
  address_1: z.string().optional(),
  address_2: z.string().optional(),
  postal_code: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: "must be a two-letter ISO 3166-1 code in capitals, e.g. NL" })
    .optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  status: z.array(z.enum(CONTACT_STATUSES)).optional(),
  connections: z
    .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)], {
      error: "must be a non-negative integer or a numeric string",
    })
    .optional(),
  date_created: datetime.optional(),
  date_last_updated: datetime.optional(),
  auto_delete: z.boolean().optional(),
  reference: z.string().optional(),
});
/** A contact as the sandbox stores it. */
export type WireContact = z.infer<typeof WireContactSchema>;
