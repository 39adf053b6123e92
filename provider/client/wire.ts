/**
 * The wire types of the Domain Management API, as zod schemas.
 *
 * These schemas are the single source of the request and response types: every TypeScript type
 * that describes what crosses the wire is `z.infer`red from here. Requests are described strictly
 * (we only ever send what the spec and docs/design.md, "Wire format", allow); responses are parsed liberally (absent
 * optional fields, unknown extra fields, `page` vs `current_page`, `connections` as a numeric
 * string), so that a harmless variation of the API never breaks a deployment, while a body that
 * does not fit at all becomes an error naming the field.
 *
 * This module knows neither HTTP nor Pulumi; the planner imports its types.
 */
import { z } from "zod";

/** Every record type the API accepts, in the order the spec lists them. */
export const RECORD_TYPES = [
  "A",
  "CNAME",
  "TXT",
  "MX",
  "SRV",
  "AAAA",
  "NS",
  "CAA",
  "TLSA",
  "URLFWD",
  "URLFWD301",
  "URLCLO",
] as const;

/**
 * The URL forward types: for each, the spec says, the service creates an A and an AAAA record at
 * its name, and the answer to its add may name their ids too.
 */
export const URL_FORWARD_TYPES: ReadonlySet<string> = new Set<(typeof RECORD_TYPES)[number]>([
  "URLFWD",
  "URLFWD301",
  "URLCLO",
]);

/** A DNS template record type, e.g. `"MX"`. Sent as a single string, never as an array. */
const RecordTypeSchema = z.enum(RECORD_TYPES);
/** A DNS template record type, e.g. `"MX"`. */
export type RecordType = z.infer<typeof RecordTypeSchema>;

const uint16 = z.number().int().min(0).max(65535);

/**
 * A record as sent in a PUT body or a PATCH `add` item. `priority` is present only for MX and SRV,
 * `weight` and `port` only for SRV; none is ever sent as `null`.
 *
 * @example
 * const mx: WireRecord = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
 */
const WireRecordSchema = z.object({
  name: z.string().min(1),
  type: RecordTypeSchema,
  content: z.string(),
  priority: uint16.optional(),
  weight: uint16.optional(),
  port: uint16.optional(),
});
/** A record as sent in a PUT body or a PATCH `add` item. */
export type WireRecord = z.infer<typeof WireRecordSchema>;

/** Body of `PUT /v2/dns/templates/{template_id}/records`: replaces every record of the template. */
export const PutRecordsBodySchema = z.object({ records: z.array(WireRecordSchema) });
/** Body of `PUT /v2/dns/templates/{template_id}/records`. */
export type PutRecordsBody = z.infer<typeof PutRecordsBodySchema>;

/** A PATCH `update` item. `type` is not a field of update: a type change is a `del` plus an `add`. */
export const UpdateItemSchema = z.object({
  record_id: z.string().min(1),
  name: z.string().min(1),
  content: z.string(),
  priority: uint16.optional(),
  weight: uint16.optional(),
  port: uint16.optional(),
});
/** A PATCH `update` item. */
export type UpdateItem = z.infer<typeof UpdateItemSchema>;

/** A PATCH `del` item. */
export const DelItemSchema = z.object({ record_id: z.string().min(1) });
/** A PATCH `del` item. */
export type DelItem = z.infer<typeof DelItemSchema>;

/**
 * Body of `PATCH /v2/dns/templates/{template_id}/records`. The arrays sit at the top level of the
 * body, as the spec's sample sends them, and only non-empty arrays are sent.
 *
 * @example
 * const body: PatchRecordsBody = { del: [{ record_id: "r1" }], add: [{ name: "www", type: "A", content: "192.0.2.1" }] };
 */
export const PatchRecordsBodySchema = z.object({
  add: z.array(WireRecordSchema).min(1).optional(),
  update: z.array(UpdateItemSchema).min(1).optional(),
  del: z.array(DelItemSchema).min(1).optional(),
});
/** Body of `PATCH /v2/dns/templates/{template_id}/records`. */
export type PatchRecordsBody = z.infer<typeof PatchRecordsBodySchema>;

/**
 * A record id as the API answers it: a string per the spec; an API that sends numbers (`101`) is
 * read as if it had sent `"101"`, since requests name ids as strings.
 */
const RecordIdSchema = z.union(
  [
    z.string().min(1),
    z
      .number()
      .int()
      .nonnegative()
      .refine(Number.isSafeInteger, "expected an id no larger than 2^53 - 1")
      .transform(String),
  ],
  { error: "expected string (or a whole number)" },
);

/** The 200 body of a PUT, or of a PATCH that adds: the ids of the created records, as strings. */
export const RecordIdsResponseSchema = z.object({ record_id: z.array(RecordIdSchema) });
/** The 200 body of a PUT, or of a PATCH that adds. */
export type RecordIdsResponse = z.infer<typeof RecordIdsResponseSchema>;

/** Contact status values the spec names. The API may hold several at once. */
export const CONTACT_STATUSES = ["ok", "pending_update", "pending_validation"] as const;
/** A contact status value, e.g. `"ok"`. */
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * `connections` is typed as a string by the spec's field table and carried as a number by its
 * samples: accept both, expose an integer.
 */
const connectionsSchema = z.union(
  [
    z.number().int().nonnegative(),
    z
      .string()
      .regex(/^\d+$/)
      .transform((s) => Number.parseInt(s, 10)),
  ],
  { error: "expected a non-negative integer or a numeric string" },
);

/**
 * A contact as the API sends it (snake_case). Only `handle` is required; an optional field may
 * also come as `null` (as PHP serializes an empty column), read as absent by {@link ContactSchema},
 * never as an error that would fail every listing; unknown fields are ignored.
 */
export const WireContactSchema = z.object({
  handle: z.string().min(1),
  company_name: z.string().nullish(),
  name: z.string().nullish(),
  address_1: z.string().nullish(),
  address_2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  country: z.string().nullish(),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  status: z.array(z.string()).nullish(),
  connections: connectionsSchema.nullish(),
  date_created: z.string().nullish(),
  date_last_updated: z.string().nullish(),
  auto_delete: z.boolean().nullish(),
  reference: z.string().nullish(),
});
/** A contact as the API sends it. */
export type WireContact = z.input<typeof WireContactSchema>;

/**
 * A contact as this package exposes it: camelCase fields, `connections` an integer, datetimes as
 * the strings the API sent, fields the API left out absent. {@link ContactSchema} makes it from
 * what the API sent; the plugin's `domainapi:index:Contact` type is generated from it, so the SDKs
 * describe what getContacts returns.
 */
export const ContactFieldsSchema = z.object({
  handle: z.string().describe("The contact's handle."),
  companyName: z.string().optional().describe("Company name."),
  name: z.string().optional().describe("Name."),
  address1: z.string().optional().describe("First address line."),
  address2: z.string().optional().describe("Second address line."),
  postalCode: z.string().optional().describe("Postal code."),
  city: z.string().optional().describe("City."),
  state: z.string().optional().describe("State or province."),
  country: z.string().optional().describe("Two-letter ISO 3166-1 country code."),
  phone: z.string().optional().describe("Telephone number (e164a)."),
  email: z.string().optional().describe("E-mail address."),
  status: z
    .array(z.string())
    .optional()
    .describe(`Statuses: ${CONTACT_STATUSES.join(", ")}.`),
  connections: z.number().int().optional().describe("Number of domains using the contact."),
  dateCreated: z.string().optional().describe("When the contact was created, as the API sent it."),
  dateLastUpdated: z.string().optional().describe("When the contact was last updated, as the API sent it."),
  autoDelete: z.boolean().optional().describe("Whether the contact is deleted when no longer used."),
  reference: z.string().optional().describe("Your own reference."),
});

/**
 * A contact as the API sent it, made into {@link ContactFieldsSchema}'s shape. Fields the API left
 * out or sent as `null` are absent. One transform per contact rather than one per field: a listing
 * of 10,000 contacts parses 170,000 fields.
 */
export const ContactSchema = WireContactSchema.transform(
  (c): Contact => ({
    handle: c.handle,
    companyName: c.company_name ?? undefined,
    name: c.name ?? undefined,
    address1: c.address_1 ?? undefined,
    address2: c.address_2 ?? undefined,
    postalCode: c.postal_code ?? undefined,
    city: c.city ?? undefined,
    state: c.state ?? undefined,
    country: c.country ?? undefined,
    phone: c.phone ?? undefined,
    email: c.email ?? undefined,
    status: c.status ?? undefined,
    connections: c.connections ?? undefined,
    dateCreated: c.date_created ?? undefined,
    dateLastUpdated: c.date_last_updated ?? undefined,
    autoDelete: c.auto_delete ?? undefined,
    reference: c.reference ?? undefined,
  }),
);
/** A contact as this package exposes it. */
export type Contact = z.output<typeof ContactFieldsSchema>;

/** The pagination object: the samples name the page `page`, the field table `current_page`. */
const PaginationSchema = z
  .object({
    current_page: z.number().int().positive().optional(),
    page: z.number().int().positive().optional(),
    per_page: z.number().int().positive(),
    total_pages: z.number().int().nonnegative(),
    total_results: z.number().int().nonnegative(),
  })
  .refine((p) => p.current_page !== undefined || p.page !== undefined, {
    message: "expected current_page or page",
    path: ["current_page"],
  })
  .transform((p) => ({
    currentPage: (p.current_page ?? p.page) as number,
    perPage: p.per_page,
    totalPages: p.total_pages,
    totalResults: p.total_results,
  }));
/** Pagination of a contacts page, camelCase. */
export type Pagination = z.output<typeof PaginationSchema>;

/** The 200 body of `GET /v2/contacts`. */
export const ContactListResponseSchema = z.object({
  data: z.array(ContactSchema),
  pagination: PaginationSchema,
});
/** One page of `GET /v2/contacts`, parsed. */
export type ContactListPage = z.output<typeof ContactListResponseSchema>;

/**
 * Describes why a value does not fit a schema, naming each field by its property path.
 *
 * @example
 * const r = ContactListResponseSchema.safeParse(body);
 * if (!r.success) describeIssues(r.error); // "pagination.total_pages: expected number, received undefined"
 */
export function describeIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const where = propertyPath(issue.path);
    const what = issue.message.replace(/^Invalid input: /, "");
    return `${where === "" ? "(body)" : where}: ${what}`;
  });
  const more = error.issues.length - limit;
  return more > 0 ? `${lines.join("; ")}; and ${more} more` : lines.join("; ");
}

/** Renders a zod issue path as a property path: `["data", 3, "handle"]` -> `data[3].handle`. */
function propertyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}
