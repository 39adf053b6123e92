/**
 * Personalities: the other answers the spec allows where it says "not shown" (maximum per_page,
 * error body, id type, rate-limit headers, what a PATCH does with a bad item...). Each is one
 * option, off by default, so a client can be tested against every reading it must survive.
 */
import { z } from "zod";
import { formatIssues } from "./validation";

/** Shapes of an error body; `error` is the sandbox's own `{"error":{"code","message"}}`. */
export const ERROR_SHAPES = ["error", "message", "errors", "problem", "html", "empty"] as const;
/** A shape of error body; see {@link PersonalitySchema}. */
export type ErrorShape = (typeof ERROR_SHAPES)[number];

/** Forms of a Retry-After header. */
export const RETRY_AFTER_FORMS = ["seconds", "date", "fraction"] as const;
/** A form of Retry-After; see {@link PersonalitySchema}. */
export type RetryAfterForm = (typeof RETRY_AFTER_FORMS)[number];

/** How a PATCH is applied. */
export const PATCH_MODES = ["atomic", "itemwise"] as const;
/** A PATCH mode; see {@link PersonalitySchema}. */
export type PatchMode = (typeof PATCH_MODES)[number];

const flag = z.boolean({ error: "must be true or false" });
function integer(min: number, max: number) {
  return z
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int({ error: `must be an integer from ${min} to ${max}` })
    .min(min, { error: `must be an integer from ${min} to ${max}` })
    .max(max, { error: `must be an integer from ${min} to ${max}` });
}
function oneOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

/**
 * The personality options of a sandbox, each independent of the others:
 * - `perPageCap`: `per_page` above it is served as it (the pagination object says so) instead of a 400.
 * - `nullStrings`: contacts' empty or absent string fields (all but `handle`) are served as `null`.
 * - `errorBody`: shape of /v2 error bodies: `message` `{"message"}`, `errors`
 *   `{"errors":[{"message"}]}`, `problem` RFC 7807 `application/problem+json` with `title` and
 *   `detail`, `html` a proxy's `text/html` page, `empty` no body; default `error`.
 * - `numericIds`: record ids are numbers (`101`) in PUT and PATCH answers; requests name them as strings.
 * - `urlForwardCreatesRecords`: a URLFWD/URLFWD301/URLCLO record, added by PUT or PATCH, brings an
 *   A and an AAAA record at its name, and the answer names all three ids (forward, A, AAAA).
 * - `retryAfter`: Retry-After of 429 answers and of numeric fault `retryAfter`s as whole
 *   `seconds` (default), an HTTP `date`, or a `fraction` of seconds like `1.5`.
 * - `cutBodies`: the first N /v2 answers that have a body are cut: headers with the full
 *   Content-Length, half the body, then the socket is destroyed (the change is applied).
 * - `ignoreRange`: a Range header is ignored (200, whole body) instead of honoured (206, or 416).
 * - `keepAliveIdleMs`: idle keep-alive connections are closed after this many milliseconds.
 * - `patchApply`: `itemwise` applies a PATCH item by item (del, update, add) and answers 404 for
 *   an unknown id only after the valid items were applied; default `atomic` (nothing changes).
 * - `contactsGrowth`: after answering each contacts list, N new contacts are appended (an account
 *   where contacts are created while a client pages), so the total changes between pages.
 */
export const PersonalitySchema = z.strictObject({
  perPageCap: integer(1, 100_000).optional(),
  nullStrings: flag.optional(),
  errorBody: oneOf(ERROR_SHAPES).optional(),
  numericIds: flag.optional(),
  urlForwardCreatesRecords: flag.optional(),
  retryAfter: oneOf(RETRY_AFTER_FORMS).optional(),
  cutBodies: integer(0, 1_000_000).optional(),
  ignoreRange: flag.optional(),
  keepAliveIdleMs: integer(1, 3_600_000).optional(),
  patchApply: oneOf(PATCH_MODES).optional(),
  contactsGrowth: integer(0, 1000).optional(),
});
/** The personality options as given; see {@link PersonalitySchema}. */
export type PersonalityOptions = z.input<typeof PersonalitySchema>;

/** A personality with every default filled in. `perPageCap` and `keepAliveIdleMs` stay optional: absent means "as Node/the sandbox does". */
export interface Personality {
  perPageCap: number | undefined;
  nullStrings: boolean;
  errorBody: ErrorShape;
  numericIds: boolean;
  urlForwardCreatesRecords: boolean;
  retryAfter: RetryAfterForm;
  cutBodies: number;
  ignoreRange: boolean;
  keepAliveIdleMs: number | undefined;
  patchApply: PatchMode;
  contactsGrowth: number;
}

/** Names of the personality options, e.g. to pick them out of wider options. */
export const PERSONALITY_KEYS = Object.keys(PersonalitySchema.shape) as Array<keyof PersonalityOptions>;

/**
 * Validates the personality options and fills in the defaults.
 *
 * @throws TypeError naming the option, e.g. `startSandbox: errorBody: must be one of ...`.
 * @example
 * resolvePersonality({ perPageCap: 25, errorBody: "problem" }).errorBody; // "problem"
 */
export function resolvePersonality(options: PersonalityOptions, source = "startSandbox"): Personality {
  const picked: Record<string, unknown> = {};
  for (const key of PERSONALITY_KEYS) {
    if (options[key] !== undefined) picked[key] = options[key];
  }
  const result = PersonalitySchema.safeParse(picked);
  if (!result.success) throw new TypeError(`${source}: ${formatIssues(result.error)}`);
  const valid = result.data;
  return {
    perPageCap: valid.perPageCap,
    nullStrings: valid.nullStrings ?? false,
    errorBody: valid.errorBody ?? "error",
    numericIds: valid.numericIds ?? false,
    urlForwardCreatesRecords: valid.urlForwardCreatesRecords ?? false,
    retryAfter: valid.retryAfter ?? "seconds",
    cutBodies: valid.cutBodies ?? 0,
    ignoreRange: valid.ignoreRange ?? false,
    keepAliveIdleMs: valid.keepAliveIdleMs,
    patchApply: valid.patchApply ?? "atomic",
    contactsGrowth: valid.contactsGrowth ?? 0,
  };
}

/**
 * Formats a wait of `seconds` as a Retry-After value of the given form. Never earlier than the
 * wait: whole seconds and the date round up, a fraction rounds up to a tenth.
 *
 * @example
 * formatRetryAfter(0.42, "seconds"); // "1"
 * formatRetryAfter(1.42, "fraction"); // "1.5"
 * formatRetryAfter(2, "date", Date.parse("2026-01-01T00:00:00Z")); // "Thu, 01 Jan 2026 00:00:03 GMT"
 */
export function formatRetryAfter(seconds: number, form: RetryAfterForm, now = Date.now()): string {
  switch (form) {
    case "seconds":
      return String(Math.max(1, Math.ceil(seconds)));
    case "fraction":
      return (Math.max(1, Math.ceil(seconds * 10)) / 10).toFixed(1);
    case "date":
      // An HTTP date has whole seconds: the next whole second after the wait, plus one, so that a
      // client subtracting its own (later) clock still waits at least the wait.
      return new Date((Math.ceil((now + seconds * 1000) / 1000) + 1) * 1000).toUTCString();
  }
}
