#!/usr/bin/env node
/**
 * `domainapi-sandbox`: runs the sandbox as a command until SIGINT or SIGTERM.
 *
 * The first line on stdout is always `domainapi-sandbox listening on <url>` (scripts and tests
 * parse it); a short hint on pointing the provider at it follows. Bad flags exit with status 2.
 *
 * @example
 * npx domainapi-sandbox --port 8080 --api-key test-key --contacts 1000
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MAX_GENERATED_CONTACTS } from "./contactGenerator";
import { parseSeed, type SandboxOptions, startSandbox } from "./index";
import { type PersonalityOptions, resolvePersonality } from "./personality";

/** Port the command listens on when --port is not given. */
export const DEFAULT_CLI_PORT = 8080;

/** Usage text printed by --help. */
export const USAGE = `Usage: domainapi-sandbox --api-key KEY [options]

Runs the embedded Domain API on loopback until stopped (Ctrl-C / SIGTERM).

Options:
  --api-key KEY             API key the sandbox accepts (or env DOMAINAPI_API_KEY)
  --port N                  port to listen on (default ${DEFAULT_CLI_PORT}; 0 picks a free port)
  --host HOST               interface to listen on (default 127.0.0.1)
  --seed FILE               JSON seed: {"templates": {...}, "domains": {...}, "contacts": [...]}
  --contacts N              number of generated contacts, 0-${MAX_GENERATED_CONTACTS} (default 120)
  --contact-seed N          seed of the contact generator (default 1)
  --latency-ms N            delay added to every /v2 request (default 0)
  --pagination-field NAME   page (default, as the spec's samples) or current_page
  --connections-as-string   serve contact connections as numeric strings
  --rate-limit N            allow N requests per second (burst N); 429 with Retry-After beyond
  --help                    print this text

Personalities (answers the spec leaves open; see sandbox/README.md):
  --per-page-cap N          serve per_page above N as N (default: above 100 is a 400)
  --null-strings            serve empty or absent contact string fields as null
  --error-body SHAPE        error bodies as error (default) {"error":{code,message}}, message
                            {"message"}, errors {"errors":[{"message"}]}, problem (RFC 7807),
                            html (a proxy's page) or empty
  --numeric-ids             record ids as numbers in PUT and PATCH answers
  --url-forward-creates-records
                            a URLFWD/URLFWD301/URLCLO record brings an A and an AAAA record;
                            the answer names all three ids
  --retry-after FORM        Retry-After as seconds (default), date (HTTP date) or fraction (1.5)
  --cut-bodies N            cut the body of the first N answers mid-stream
  --ignore-range            answer a Range header with the whole body (default: 206 or 416)
  --keep-alive-idle-ms N    close idle keep-alive connections after N ms
  --patch-apply MODE        atomic (default) or itemwise: valid items applied before a 404
  --contacts-growth N       append N new contacts after each contacts list answered

Admin routes (no auth): GET /__sandbox/ lists them.`;

/** A command-line mistake: printed with a hint to --help, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A personality flag: its option and how its value is read (boolean flags take none). */
interface PersonalityFlag {
  option: keyof PersonalityOptions;
  kind: "boolean" | "integer" | "word";
}

/** The personality flags, by flag name; values are checked by the personality schema. */
const PERSONALITY_FLAGS: Record<string, PersonalityFlag> = {
  "per-page-cap": { option: "perPageCap", kind: "integer" },
  "null-strings": { option: "nullStrings", kind: "boolean" },
  "error-body": { option: "errorBody", kind: "word" },
  "numeric-ids": { option: "numericIds", kind: "boolean" },
  "url-forward-creates-records": { option: "urlForwardCreatesRecords", kind: "boolean" },
  "retry-after": { option: "retryAfter", kind: "word" },
  "cut-bodies": { option: "cutBodies", kind: "integer" },
  "ignore-range": { option: "ignoreRange", kind: "boolean" },
  "keep-alive-idle-ms": { option: "keepAliveIdleMs", kind: "integer" },
  "patch-apply": { option: "patchApply", kind: "word" },
  "contacts-growth": { option: "contactsGrowth", kind: "integer" },
};

/** Reads the personality flags into options; a bad value is a UsageError naming the flag. */
function personalityOptions(values: Record<string, string | boolean | undefined>): PersonalityOptions {
  const options: Record<string, unknown> = {};
  for (const [name, { option, kind }] of Object.entries(PERSONALITY_FLAGS)) {
    const value = values[name];
    if (value === undefined) continue;
    if (kind === "boolean") options[option] = value === true;
    else if (kind === "integer") {
      if (typeof value !== "string" || !/^\d+$/.test(value)) {
        throw new UsageError(`--${name}: expected an integer, got "${String(value)}"`);
      }
      options[option] = Number(value);
    } else options[option] = value;
    try {
      resolvePersonality(options as PersonalityOptions, "");
    } catch (error) {
      // The schema names the option (e.g. "perPageCap: must be ..."): name the flag instead.
      const reason = (error as Error).message.replace(/^: [^:]+: /, "");
      throw new UsageError(`--${name}: ${reason}, got "${String(value)}"`);
    }
  }
  return options as PersonalityOptions;
}

/** What the command line asks for. */
export type CliCommand = { help: true } | { help: false; options: SandboxOptions; keyFromEnv: boolean };

function integerFlag(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag}: expected an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/**
 * Parses the command line (without `node` and the script) and the environment.
 *
 * @throws UsageError naming the flag when a flag is unknown, lacks its value or has a bad one.
 */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        "api-key": { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        seed: { type: "string" },
        contacts: { type: "string" },
        "contact-seed": { type: "string" },
        "latency-ms": { type: "string" },
        "pagination-field": { type: "string" },
        "connections-as-string": { type: "boolean" },
        "rate-limit": { type: "string" },
        ...Object.fromEntries(
          Object.entries(PERSONALITY_FLAGS).map(([name, { kind }]) => [
            name,
            { type: kind === "boolean" ? ("boolean" as const) : ("string" as const) },
          ]),
        ),
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return { help: true };
  const flag = (name: string): string | undefined => values[name] as string | undefined;

  const keyFromEnv = flag("api-key") === undefined;
  const apiKey = flag("api-key") ?? env.DOMAINAPI_API_KEY;
  if (apiKey === undefined || apiKey === "") {
    throw new UsageError(
      "--api-key: required (or set DOMAINAPI_API_KEY); clients must send it as Bearer token",
    );
  }
  if (/\s/.test(apiKey)) throw new UsageError("--api-key: must not contain whitespace");

  const paginationField = flag("pagination-field");
  if (paginationField !== undefined && paginationField !== "page" && paginationField !== "current_page") {
    throw new UsageError(`--pagination-field: expected page or current_page, got "${paginationField}"`);
  }
  const host = flag("host");
  if (host === "") throw new UsageError("--host: must not be empty");

  const options: SandboxOptions = {
    ...personalityOptions(values),
    apiKey,
    port: integerFlag("port", flag("port"), 0, 65535) ?? DEFAULT_CLI_PORT,
  };
  if (host !== undefined) options.host = host;
  const contacts = integerFlag("contacts", flag("contacts"), 0, MAX_GENERATED_CONTACTS);
  if (contacts !== undefined) options.contacts = contacts;
  const contactSeed = integerFlag("contact-seed", flag("contact-seed"), 0, 2 ** 32 - 1);
  if (contactSeed !== undefined) options.contactSeed = contactSeed;
  const latencyMs = integerFlag("latency-ms", flag("latency-ms"), 0, 3_600_000);
  if (latencyMs !== undefined) options.latencyMs = latencyMs;
  if (paginationField !== undefined) options.paginationField = paginationField;
  if (values["connections-as-string"] === true) options.connectionsAsString = true;
  const rate = integerFlag("rate-limit", flag("rate-limit"), 1, 1_000_000);
  if (rate !== undefined) options.rateLimit = { perSecond: rate, burst: rate };

  const seedFile = flag("seed");
  if (seedFile !== undefined) options.seed = readSeedFile(seedFile);
  return { help: false, options, keyFromEnv };
}

function readSeedFile(file: string): SandboxOptions["seed"] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--seed: cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--seed: ${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseSeed(json, `--seed ${file}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs the command; resolves with the exit status once the sandbox stopped (or failed to start). */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCommandLine(argv, env);
  } catch (error) {
    process.stderr.write(
      `domainapi-sandbox: ${(error as Error).message}\nRun domainapi-sandbox --help for usage.\n`,
    );
    return 2;
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(command.options);
  } catch (error) {
    process.stderr.write(`domainapi-sandbox: cannot start: ${(error as Error).message}\n`);
    return 1;
  }
  // Handle signals before printing the URL: stdout to a pipe is written synchronously, so a parent
  // that stops us as soon as it reads the line must find the handlers already in place.
  const stopped = new Promise<number>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      sandbox.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  // An env-supplied key may be a real one: never echo it.
  const key = command.keyFromEnv ? "$DOMAINAPI_API_KEY" : command.options.apiKey;
  process.stdout.write(
    `domainapi-sandbox listening on ${sandbox.url}\n` +
      "Point the provider at it:\n" +
      `  DOMAINAPI_BASE_URL=${sandbox.url} DOMAINAPI_API_KEY=${key} pulumi up\n` +
      `Admin routes: ${sandbox.url}/__sandbox/  (Ctrl-C to stop)\n`,
  );
  return stopped;
}

if (require.main === module) {
  main(process.argv.slice(2), process.env).then((code) => {
    process.exitCode = code;
  });
}
