/**
 * Personalities: the other answers the spec allows where it says "not shown" (maximum per_page,
 * error body, id type, rate-limit headers, what a PATCH does with a bad item...). Each is one
 * option, declared once in {@link PERSONALITY_OPTIONS}: its schema and default, and its line of
 * `domainapi-sandbox --help`; the schema, the resolved type and the command's flags derive from it.
 */
import { z } from "zod";
import { formatIssues } from "./validation";

/** Shapes of an error body; `error` is the sandbox's own `{"error":{"code","message"}}`. */
export const ERROR_SHAPES = ["error", "message", "errors", "problem", "html", "empty"] as const;
/** A shape of error body; see {@link PERSONALITY_OPTIONS}. */
export type ErrorShape = (typeof ERROR_SHAPES)[number];

/** Forms of a Retry-After header. */
export const RETRY_AFTER_FORMS = ["seconds", "date", "fraction"] as const;
/** A form of Retry-After; see {@link PERSONALITY_OPTIONS}. */
export type RetryAfterForm = (typeof RETRY_AFTER_FORMS)[number];

/** How a PATCH is applied. */
export const PATCH_MODES = ["atomic", "itemwise"] as const;
/** A PATCH mode; see {@link PERSONALITY_OPTIONS}. */
export type PatchMode = (typeof PATCH_MODES)[number];

/** How the command line reads an option's value: a boolean flag takes none. */
export type OptionKind = "boolean" | "integer" | "word";

/** One personality option: how its value is read, its schema (with its default) and its help. */
export interface PersonalityOption<S extends z.ZodType = z.ZodType> {
  kind: OptionKind;
  schema: S;
  /** What the flag's value is called in `--help` (`N`, `SHAPE`); none for a boolean. */
  value?: string;
  /** What the option changes, for `--help` (one sentence, the default named). */
  help: string;
}

const flag = z.boolean({ error: "must be true or false" });
function integer(min: number, max: number) {
  const error = `must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}
function oneOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}
function option<S extends z.ZodType>(
  kind: OptionKind,
  schema: S,
  help: string,
  value?: string,
): PersonalityOption<S> {
  return value === undefined ? { kind, schema, help } : { kind, schema, help, value };
}

/**
 * Every personality option, each independent of the others, by name: the one place they are
 * declared. By default each gives the sandbox's own answer (for URL forwards, the spec's).
 */
export const PERSONALITY_OPTIONS = {
  perPageCap: option(
    "integer",
    integer(1, 100_000).optional(),
    "serve per_page above N as N, and say so in the pagination object (default: above 100 is a 400)",
    "N",
  ),
  nullStrings: option(
    "boolean",
    flag.default(false),
    "serve contacts' empty or absent string fields (all but handle) as null",
  ),
  errorBody: option(
    "word",
    oneOf(ERROR_SHAPES).default("error"),
    'error bodies as error (default) {"error":{code,message}}, message {"message"}, errors ' +
      '{"errors":[{"message"}]}, problem (RFC 7807 title and detail), html (a proxy\'s page) or empty',
    "SHAPE",
  ),
  numericIds: option("boolean", flag.default(false), "record ids as numbers in PUT and PATCH answers"),
  urlForwardCreatesRecords: option(
    "boolean",
    flag.default(true),
    "turned off, a URLFWD/URLFWD301/URLCLO record is one record and its add is answered with its " +
      "one id. By default, as the spec says, a forward brings an A and an AAAA record at its name, " +
      "the answer to its add names all three ids (in an order set by --id-order-seed; a PUT answers " +
      "one id per submitted record), and deleting the forward deletes them",
  ),
  idOrderSeed: option(
    "integer",
    integer(0, 2 ** 32 - 1).default(1),
    "seed of the order in which the answer to a URL forward's add names its three ids (default 1)",
    "N",
  ),
  retryAfter: option(
    "word",
    oneOf(RETRY_AFTER_FORMS).default("seconds"),
    "Retry-After as seconds (default), date (an HTTP date) or fraction (1.5)",
    "FORM",
  ),
  cutBodies: option(
    "integer",
    integer(0, 1_000_000).default(0),
    "cut the first N answers that have a body mid-stream (the change is applied)",
    "N",
  ),
  ignoreRange: option(
    "boolean",
    flag.default(false),
    "answer a Range header with the whole body (default: 206, or 416 past the end)",
  ),
  keepAliveIdleMs: option(
    "integer",
    integer(1, 3_600_000).optional(),
    "close idle keep-alive connections after N ms (default Node's 5000)",
    "N",
  ),
  patchApply: option(
    "word",
    oneOf(PATCH_MODES).default("atomic"),
    "atomic (default: a 404 changes nothing) or itemwise (the valid items are applied before the 404)",
    "MODE",
  ),
  dnsLate: option(
    "integer",
    integer(0, 3_600_000).default(0),
    "the DNS server publishes each change of a template N ms after it is made (a propagation delay; default 0)",
    "N",
  ),
  dnsSilent: option("boolean", flag.default(false), "the DNS server answers nothing, over UDP or TCP"),
  contactsGrowth: option(
    "integer",
    integer(0, 1000).default(0),
    "append N new contacts after each contacts list answered (the total grows between pages)",
    "N",
  ),
} as const;

type Options = typeof PERSONALITY_OPTIONS;
/** A personality option's name. */
export type PersonalityKey = keyof Options;

/** Names of the personality options, in declaration order. */
export const PERSONALITY_KEYS = Object.keys(PERSONALITY_OPTIONS) as PersonalityKey[];

/** The personality options as one strict object schema: unknown keys and bad values are refused. */
export const PersonalitySchema = z.strictObject(
  Object.fromEntries(PERSONALITY_KEYS.map((key) => [key, PERSONALITY_OPTIONS[key].schema])) as {
    [K in PersonalityKey]: Options[K]["schema"];
  },
);
/** The personality options as given (each optional); see {@link PERSONALITY_OPTIONS}. */
export type PersonalityOptions = z.input<typeof PersonalitySchema>;
/** A personality with every default filled in. `perPageCap` and `keepAliveIdleMs` stay optional: absent means "as Node/the sandbox does". */
export type Personality = z.output<typeof PersonalitySchema>;

/**
 * Validates the personality options (picked out of wider options) and fills in the defaults.
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
  return result.data;
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
