#!/usr/bin/env node
/**
 * `domainapi-sandbox`: runs the sandbox as a command until SIGINT or SIGTERM.
 *
 * The first line on stdout is always `domainapi-sandbox listening on <url>` (scripts and tests
 * parse it); a short hint on pointing the provider at it follows. Bad flags exit with status 2.
 * The installed command is bin/domainapi-sandbox.js, which calls {@link main}.
 *
 * @example
 * npx domainapi-sandbox --port 8080 --api-key test-key --contacts 1000
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ADMIN_ROUTES } from "./admin";
import { MAX_GENERATED_CONTACTS } from "./contactGenerator";
import { normalizeDomain } from "./dnsServer";
import { DEFAULT_SEED, parseSeed, type SandboxOptions, startSandbox } from "./index";
import {
  type OptionKind,
  PERSONALITY_KEYS,
  PERSONALITY_OPTIONS,
  type PersonalityKey,
  type PersonalityOptions,
  resolvePersonality,
} from "./personality";

/** Port the command listens on when --port is not given. */
export const DEFAULT_CLI_PORT = 8080;

/** Column where the descriptions of `--help` start, and the width they wrap at. */
const HELP_COLUMN = 28;
const HELP_WIDTH = 100;

/** One line of `--help`: the flag, then its description wrapped under the description column. */
function helpLine(flag: string, text: string): string {
  const words = text.split(" ");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && HELP_COLUMN + line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  const head = `  ${flag}`;
  const first = head.length < HELP_COLUMN ? head.padEnd(HELP_COLUMN) : `${head}\n${" ".repeat(HELP_COLUMN)}`;
  return first + lines.join(`\n${" ".repeat(HELP_COLUMN)}`);
}

/** `perPageCap` -> `per-page-cap`. */
function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** A personality flag: its option, how its value is read, and the value a boolean flag sets. */
interface PersonalityFlag {
  option: PersonalityKey;
  kind: OptionKind;
  /** What the flag sets a boolean option to: `--no-x` turns off an option that is on by default. */
  sets: boolean;
}

/** The personality flags, by flag name, derived from the options; values are checked by their schema. */
const PERSONALITY_FLAGS: Record<string, PersonalityFlag> = Object.fromEntries(
  PERSONALITY_KEYS.map((option) => {
    const { kind, schema } = PERSONALITY_OPTIONS[option];
    const onByDefault = kind === "boolean" && schema.parse(undefined) === true;
    return [onByDefault ? `no-${kebab(option)}` : kebab(option), { option, kind, sets: !onByDefault }];
  }),
);

function personalityHelp(): string {
  return Object.entries(PERSONALITY_FLAGS)
    .map(([name, { option }]) => {
      const { value, help } = PERSONALITY_OPTIONS[option];
      return helpLine(`--${name}${value === undefined ? "" : ` ${value}`}`, help);
    })
    .join("\n");
}

/** Usage text printed by --help: everything a user needs without the README. */
export const USAGE = `Usage: domainapi-sandbox --api-key KEY [options]

Runs an offline Domain Management API on loopback until stopped (Ctrl-C / SIGTERM): every
endpoint of the spec (PUT/PATCH /v2/dns/templates/{template_id}/records, GET /v2/contacts,
POST /v2/domains/{domain}/restore), strict and stateful, with bearer auth. The first line it
prints is "domainapi-sandbox listening on <url>". Bad flags exit with status 2.

Options:
${[
  ["--api-key KEY", "API key the sandbox accepts as Authorization: Bearer KEY (or env DOMAINAPI_API_KEY)"],
  ["--port N", `port to listen on (default ${DEFAULT_CLI_PORT}; 0 picks a free port)`],
  ["--host HOST", "interface to listen on (default 127.0.0.1)"],
  [
    "--seed FILE",
    'JSON seed replacing the default one: {"templates": {"id": [records]}, "domains": {"name": ' +
      '"quarantined"|"active"}, "contacts": [...]}',
  ],
  ["--contacts N", `number of generated contacts, 0-${MAX_GENERATED_CONTACTS} (default 120)`],
  ["--contact-seed N", "seed of the contact generator (default 1): same seed, same contacts"],
  ["--latency-ms N", "delay added to every /v2 request (default 0)"],
  ["--pagination-field NAME", "page (default, as the spec's samples) or current_page"],
  ["--connections-as-string", "serve contact connections as numeric strings"],
  ["--rate-limit N", "allow N requests per second (burst N); beyond, 429 with Retry-After"],
  [
    "--dns-port N",
    "also serve DNS, authoritative, on UDP and TCP port N of the same host (0 picks a free port; printed)",
  ],
  [
    "--domain NAME=TEMPLATE",
    "the DNS server serves domain NAME from template TEMPLATE's records ({domainname} replaced); repeatable",
  ],
  ["-h, --help", "print this text"],
]
  .map(([name, text]) => helpLine(name!, text!))
  .join("\n")}

Default seed: empty templates ${Object.keys(DEFAULT_SEED.templates ?? {}).join(", ")};
domains ${Object.entries(DEFAULT_SEED.domains ?? {})
  .map(([name, status]) => `${name} (${status})`)
  .join(", ")};
120 generated contacts.

Personalities (other answers the spec allows where it says "not shown"; each independent):
${personalityHelp()}

Admin routes (no auth, never logged, never faulted; JSON in and out; GET /__sandbox/ lists them):
${ADMIN_ROUTES.map((route) => `  ${route}`).join("\n")}
  Seed a template: PUT /__sandbox/templates/:id {"records": [...]}; drift: DELETE one record.
  Faults: POST /__sandbox/faults {"method","path" (regex),"nth"|"every"|"times", and one effect:
  "respond":{status,retryAfter?,body?}, "respondAfterApply", "drop":"before"|"after", "cut":true,
  "latencyMs"}. Rate limit: PUT /__sandbox/rate-limit {"perSecond","burst"} or {} (off).

Example:
  domainapi-sandbox --api-key test-key --port 8080 --per-page-cap 25 --error-body problem
  DOMAINAPI_BASE_URL=http://127.0.0.1:8080 DOMAINAPI_API_KEY=test-key pulumi up
  curl -H 'Authorization: Bearer test-key' 'http://127.0.0.1:8080/v2/contacts?country=NL&per_page=3'

In a program's tests: import { startSandbox } from "domainapi-sandbox" (see README.md in this
package for the options, the admin routes and every personality in full).`;

/** A command-line mistake: printed with a hint to --help, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Reads the personality flags into options; a bad value is a UsageError naming the flag. */
function personalityOptions(
  values: Record<string, string | boolean | string[] | undefined>,
): PersonalityOptions {
  const options: Record<string, unknown> = {};
  for (const [name, { option, kind, sets }] of Object.entries(PERSONALITY_FLAGS)) {
    const value = values[name];
    if (value === undefined) continue;
    if (kind === "boolean") options[option] = value === true ? sets : !sets;
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
  let values: Record<string, string | boolean | string[] | undefined>;
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
        "dns-port": { type: "string" },
        domain: { type: "string", multiple: true },
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

  const dnsPort = integerFlag("dns-port", flag("dns-port"), 0, 65535);
  if (dnsPort !== undefined) options.dnsPort = dnsPort;
  const domains = (values.domain as string[] | undefined) ?? [];
  if (domains.length > 0) {
    if (dnsPort === undefined)
      throw new UsageError("--domain: needs --dns-port (the DNS server that serves it)");
    options.dnsDomains = {};
    for (const link of domains) {
      const match = /^([^=\s]+)=(\S+)$/.exec(link);
      if (match === null)
        throw new UsageError(`--domain: expected NAME=TEMPLATE, e.g. shop.example=web, got "${link}"`);
      try {
        options.dnsDomains[normalizeDomain(match[1]!)] = match[2]!;
      } catch (error) {
        throw new UsageError(`--domain: ${(error as Error).message}`);
      }
    }
  }
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
  const dnsLine =
    sandbox.dnsAddress === undefined
      ? ""
      : `DNS (authoritative, UDP and TCP) on ${sandbox.dnsAddress} for ${
          Object.entries(sandbox.linkedDomains())
            .map(([domain, template]) => `${domain} (template ${template})`)
            .join(", ") || "no domain yet (PUT /__sandbox/dns/domains/:name)"
        }\n`;
  process.stdout.write(
    `domainapi-sandbox listening on ${sandbox.url}\n` +
      dnsLine +
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
