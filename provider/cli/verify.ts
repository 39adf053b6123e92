#!/usr/bin/env node
/**
 * `domainapi-verify`: after `pulumi up`, asks the authoritative servers of each domain that uses a
 * template whether it serves the template's records as the stack declares them, and says per
 * domain what is served as declared, missing, different, or extra at a declared name (`purge`).
 * Waits for propagation up to `--wait`. Writes the report as Markdown for a pull request with
 * `--markdown`, every value in code as the plan comment has it.
 *
 * Exit status: 0 every domain serves its template as declared; 1 one does not, or its servers did
 * not answer; 2 the input or the arguments are wrong.
 */
import { readFile, writeFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { type Verdict, verdictPasses } from "../checks/published";
import { DNS_TIMEOUT_MS, DNS_TRIES, DnsReadError } from "../client/resolver";
import { describeRecord, type RecordSpec } from "../dns/model";
import { validateEach } from "../dns/validate";
import { DYNAMIC_TOKENS, TOKENS } from "../manifest";
import { readPublished, readVerifyDomain } from "../records/refreshByDns";
import { type DnsServer, parseDnsServers } from "../settings/dnsServers";
import { isPlainObject } from "../values";
import { fenced, inlineCode, visible } from "./markdown";

/** A template as the stack declares it. */
export interface DeclaredTemplate {
  templateId: string;
  records: RecordSpec[];
  /** Whether the resource owns the whole template (then extras at declared names count). */
  purge: boolean;
}

/** What one domain was found to serve. */
export interface DomainReport {
  domain: string;
  templateId: string;
  /** The comparison, once a server answered. */
  verdict?: Verdict;
  /** The server that answered. */
  server?: string;
  /** Why no server answered (names each server and the wait). */
  error?: string;
  /** True when the domain serves the template as declared. */
  passed: boolean;
}

/** The whole verification: one report per domain. */
export interface VerifyReport {
  domains: DomainReport[];
  passed: boolean;
  /** How long it took, waits included, in milliseconds. */
  elapsedMs: number;
}

/** Options of {@link verifyDomains}. */
export interface VerifyOptions {
  /** What the stack declares: the JSON of `pulumi stack export`, or of `pulumi stack output --json`. */
  declared: unknown;
  /** Each domain and the template id it uses: `{ "shop.example": "web" }`. */
  domains: Readonly<Record<string, string>>;
  /** The servers to ask (`127.0.0.1:5353`); default each domain's own name servers (its NS). */
  servers?: readonly (string | DnsServer)[];
  /** Ask again until this many seconds have passed while a domain does not serve as declared (propagation). Default 0. */
  waitSeconds?: number;
  /** Per try of a query, in milliseconds; default 2000. */
  timeoutMs?: number;
  /** Tries per query; default 2. */
  tries?: number;
}

/** The input is not what `domainapi-verify` reads: the message says what and how to fix it. */
export class VerifyInputError extends Error {
  override name = "VerifyInputError";
}

const RECORD_TOKENS = new Set<string>([TOKENS.records, DYNAMIC_TOKENS.records]);

/** The key and value that mark a secret in a stack export (the engine's `SecretV1`). */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A secret as `pulumi stack export` (ciphertext) or `pulumi stack output --json` (`[secret]`) writes it. */
function isSecretValue(value: unknown): boolean {
  return value === "[secret]" || (isPlainObject(value) && ("ciphertext" in value || SECRET_SIG_KEY in value));
}

/**
 * `value` with every secret that carries its plaintext replaced by that value: `pulumi stack export
 * --show-secrets` writes a secret as `{ <sig>: <secret sig>, plaintext: <its JSON> }`. A secret
 * without its plaintext (ciphertext) stays as it is.
 */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (!isPlainObject(value)) return value;
  if (value[SECRET_SIG_KEY] === SECRET_SIG && typeof value.plaintext === "string") {
    try {
      return revealed(JSON.parse(value.plaintext));
    } catch {
      // Not JSON: the secret stays as it is, copied below as any object is (its values are strings).
    }
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revealed(v)]));
}

/** One template from a resource's outputs (`templateId`, `records` as a list or keyed, `purge`). */
function templateOf(shown: Record<string, unknown>, where: string): DeclaredTemplate {
  const outputs = revealed(shown) as Record<string, unknown>;
  const templateId = String(outputs.templateId);
  if (isSecretValue(outputs.records)) {
    throw new VerifyInputError(
      `${where}: the records of template "${templateId}" are secret in this file: export them with \`pulumi stack export --show-secrets\` (or \`pulumi stack output --json --show-secrets\`)`,
    );
  }
  const raw = Array.isArray(outputs.records)
    ? outputs.records
    : isPlainObject(outputs.records)
      ? Object.values(outputs.records)
      : undefined;
  // A record read back carries its ids; the check of a record takes only its fields.
  const fields = raw?.map((r) => {
    if (!isPlainObject(r)) return r;
    const { recordId: _id, recordIds: _ids, ...rest } = r;
    return rest;
  });
  const { valid, issues } = validateEach(fields ?? outputs.records, `${where}.records`);
  if (issues.length > 0) {
    throw new VerifyInputError(issues.map((i) => `${i.property}: ${i.reason}`).join("; "));
  }
  return { templateId, records: valid.map((v) => v.record), purge: outputs.purge !== false };
}

/**
 * The templates a stack declares, from `pulumi stack export` (its DnsTemplateRecords resources) or
 * `pulumi stack output --json` (each output that is a DnsTemplateRecords resource, or holds
 * `templateId` and `records`).
 *
 * @throws VerifyInputError when none is found, or records cannot be read (named)
 */
export function declaredTemplates(json: unknown): DeclaredTemplate[] {
  const found: DeclaredTemplate[] = [];
  const deployment = isPlainObject(json) && isPlainObject(json.deployment) ? json.deployment : undefined;
  if (deployment !== undefined) {
    if (Array.isArray(deployment.resources)) {
      deployment.resources.forEach((r, i) => {
        if (!isPlainObject(r) || !RECORD_TOKENS.has(String(r.type)) || !isPlainObject(r.outputs)) return;
        found.push(templateOf(r.outputs, `deployment.resources[${i}].outputs`));
      });
    }
  } else if (isPlainObject(json)) {
    for (const [name, value] of Object.entries(json)) {
      const candidates = Array.isArray(value) ? value : [value];
      candidates.forEach((c, i) => {
        if (isPlainObject(c) && typeof c.templateId === "string" && "records" in c) {
          found.push(templateOf(c, Array.isArray(value) ? `${name}[${i}]` : name));
        }
      });
    }
  }
  if (found.length === 0) {
    throw new VerifyInputError(
      "found no DnsTemplateRecords in the input: give the JSON of `pulumi stack export`, or of " +
        "`pulumi stack output --json` with each resource exported (e.g. `export const web = records;`)",
    );
  }
  return found;
}

/** The records of every resource of one template: several resources may share it (`purge: false`). */
function templatesById(templates: readonly DeclaredTemplate[]): Map<string, DeclaredTemplate> {
  const byId = new Map<string, DeclaredTemplate>();
  for (const t of templates) {
    const known = byId.get(t.templateId);
    byId.set(
      t.templateId,
      known === undefined
        ? { ...t }
        : {
            templateId: t.templateId,
            records: [...known.records, ...t.records],
            purge: known.purge && t.purge,
          },
    );
  }
  return byId;
}

/** The servers named, each checked; none (the domain's own name servers are asked) when none is. */
function serversOf(list: VerifyOptions["servers"]): DnsServer[] {
  const servers: DnsServer[] = [];
  for (const item of list ?? []) {
    if (typeof item !== "string") servers.push(item);
    else {
      const { servers: parsed, problems } = parseDnsServers(item);
      if (problems.length > 0) throw new VerifyInputError(`--server: ${problems.join("; ")}`);
      servers.push(...parsed);
    }
  }
  return servers;
}

/**
 * Verifies that each domain serves the records its template declares, asking its authoritative
 * servers; with `waitSeconds`, asks again (every second) until every domain does or the time is up.
 *
 * @throws VerifyInputError for input that is not a stack's declaration, an unknown template, a
 *   malformed domain or server
 * @example
 * const report = await verifyDomains({ declared: JSON.parse(exported), domains: { "shop.example": "web" }, servers: ["127.0.0.1:5353"] });
 * report.passed; // true when every domain serves its template as declared
 */
export async function verifyDomains(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const templates = templatesById(declaredTemplates(options.declared));
  const servers = serversOf(options.servers);
  const read = {
    timeoutMs: options.timeoutMs ?? DNS_TIMEOUT_MS,
    tries: options.tries ?? DNS_TRIES,
  };
  const targets = Object.entries(options.domains).map(([name, templateId]) => {
    const { domain, issues } = readVerifyDomain(name);
    if (domain === undefined)
      throw new VerifyInputError(`--domain ${name}: ${issues[0]?.reason ?? "not a domain"}`);
    const template = templates.get(templateId);
    if (template === undefined) {
      throw new VerifyInputError(
        `--domain ${name}=${templateId}: the stack declares no template "${templateId}" (it declares ${[...templates.keys()].map((t) => `"${t}"`).join(", ")})`,
      );
    }
    return { domain, template };
  });
  if (targets.length === 0)
    throw new VerifyInputError("name the domains to verify: --domain shop.example=<templateId>");
  const deadline = started + (options.waitSeconds ?? 0) * 1000;
  const reports = new Map<string, DomainReport>();
  for (;;) {
    for (const { domain, template } of targets) {
      if (reports.get(domain)?.passed) continue;
      try {
        const { verdict, server } = await readPublished(
          template.records,
          domain,
          template.purge,
          servers,
          read,
        );
        reports.set(domain, {
          domain,
          templateId: template.templateId,
          verdict,
          server,
          passed: verdictPasses(verdict),
        });
      } catch (error) {
        if (!(error instanceof DnsReadError)) throw error;
        reports.set(domain, { domain, templateId: template.templateId, error: error.message, passed: false });
      }
    }
    const passed = targets.every(({ domain }) => reports.get(domain)?.passed);
    const left = deadline - performance.now();
    // Stryker disable next-line EqualityOperator: one more try at exactly the deadline; a try takes time, so no run is left exactly 0 ms
    if (passed || left <= 0) {
      const domains = targets.map(({ domain }) => reports.get(domain)!);
      return { domains, passed, elapsedMs: Math.round(performance.now() - started) };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, left)));
  }
}

/** The lines of one domain's findings, without its heading. */
function findingLines(report: DomainReport): string[] {
  if (report.error !== undefined) return [`no answer: ${report.error}`];
  const v = report.verdict!;
  return [
    ...v.missing.map((r) => `missing: ${describeRecord(r)}`),
    ...v.different.map(
      (d) => `different: ${describeRecord(d.declared)} is published as ${describeRecord(d.published)}`,
    ),
    ...v.extra.map((r) => `extra: ${describeRecord(r)} (published at a declared name, not declared)`),
    ...v.unchecked.map((u) => `not checked: ${describeRecord(u.record)} (${u.reason})`),
  ];
}

function headline(report: DomainReport): string {
  if (report.error !== undefined) return "not verified";
  const served = report.verdict!.served.length;
  return `${report.passed ? "served as declared" : "NOT served as declared"}: ${served} record${served === 1 ? "" : "s"} as declared`;
}

/**
 * The report as text, a paragraph per domain.
 *
 * @example
 * verifyText(report); // "shop.example (template web, server 127.0.0.1:5353): served as declared: 5 records as declared\n"
 */
export function verifyText(report: VerifyReport): string {
  return `${report.domains
    .map((d) => {
      const server = d.server ? `, server ${d.server}` : "";
      const head = `${d.domain} (template ${d.templateId}${server}): ${headline(d)}`;
      return [head, ...findingLines(d).map((l) => `  ${l}`)].map(visible).join("\n");
    })
    .join("\n")}\n`;
}

/** The heading of the Markdown report. */
export const VERIFY_HEADING = "### DNS verification";

/**
 * The report as Markdown for a pull request: every value from the stack or from DNS in code, so
 * nothing published can add a line, a link or a mention.
 */
export function verifyMarkdown(report: VerifyReport): string {
  const sections = report.domains.map((d) => {
    const server = d.server ? `, server ${inlineCode(d.server)}` : "";
    const title = `**${inlineCode(d.domain)}** (template ${inlineCode(d.templateId)}${server}): ${headline(d)}`;
    const lines = findingLines(d).map(visible);
    return lines.length === 0 ? title : [title, "", ...fenced("text", lines)].join("\n");
  });
  const verdict = report.passed
    ? "Every domain serves its template as declared."
    : "**Some domains do not serve their template as declared.**";
  return `${[VERIFY_HEADING, verdict, ...sections].join("\n\n")}\n`;
}

const USAGE = `Usage: domainapi-verify --domain <domain>=<templateId> [--domain ...] [--server <ip[:port]>]...
                        [--wait <seconds>] [--timeout <ms>] [--markdown <file>] [stack.json]

Asks the authoritative DNS servers of each domain whether it serves the records its template
declares in the stack, and says per domain what is served as declared, missing, different, or
(for a resource with purge: true) extra at a declared name. Reads the JSON of \`pulumi stack
export\` or of \`pulumi stack output --json\` (from the file, or from stdin):

  pulumi stack export --show-secrets > stack.json
  domainapi-verify --domain shop.example=web --domain other.example=web --wait 120 stack.json

--server  the servers to ask (repeatable, or comma-separated; an IP address with an optional
          port). Default: the domain's own name servers (its NS), asked directly: never a
          recursive resolver, whose cache would hide a change.
--wait    ask again every second, up to this many seconds, while a domain does not serve as
          declared (propagation). Default 0.
--timeout how long one try of a query waits, in milliseconds (default ${DNS_TIMEOUT_MS}; ${DNS_TRIES} tries).
--markdown also write the report as Markdown (for a pull request) to this file.

Exit status: 0 every domain serves its template as declared; 1 one does not, or its servers did
not answer; 2 the input or the arguments are wrong.`;

/** Where the command reads and writes; the real process's streams by default. */
export interface VerifyCommandIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  domain: { type: "string", multiple: true },
  server: { type: "string", multiple: true },
  wait: { type: "string" },
  timeout: { type: "string" },
  markdown: { type: "string" },
} as const;

function numberFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new VerifyInputError(
      `--${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

/**
 * Runs `domainapi-verify` with `args` (without `node` and the script) and returns the exit status.
 *
 * @example
 * await runVerifyCommand(["--domain", "shop.example=web", "--server", "127.0.0.1:5353", "stack.json"]); // 0
 */
export async function runVerifyCommand(
  args: readonly string[],
  io: VerifyCommandIo = process,
): Promise<number> {
  let options: VerifyOptions;
  let markdown: string | undefined;
  try {
    const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: OPTIONS });
    if (values.help) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length > 1)
      throw new VerifyInputError(`one stack file at most, got ${positionals.length}`);
    const domains: Record<string, string> = {};
    for (const link of values.domain ?? []) {
      const match = /^([^=\s]+)=(\S+)$/.exec(link);
      if (match === null) {
        throw new VerifyInputError(
          `--domain: expected <domain>=<templateId>, e.g. shop.example=web; got ${JSON.stringify(link)}`,
        );
      }
      domains[match[1]!] = match[2]!;
    }
    if (Object.keys(domains).length === 0)
      throw new VerifyInputError("--domain <domain>=<templateId> is required");
    const file = positionals[0];
    if (file === undefined && io.stdin.isTTY)
      throw new VerifyInputError("give the stack's JSON as a file or on stdin");
    const declared = parseJson(
      await readInput(file, io),
      file === undefined || file === "-" ? "stdin" : file,
    );
    const waitSeconds = numberFlag("wait", values.wait, 0, 86_400);
    const timeoutMs = numberFlag("timeout", values.timeout, 1, 60_000);
    // An option not given is undefined, which verifyDomains reads as its default.
    options = { declared, domains, servers: values.server, waitSeconds, timeoutMs };
    markdown = values.markdown;
  } catch (err) {
    io.stderr.write(`domainapi-verify: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const report = await verifyDomains(options);
    io.stdout.write(verifyText(report));
    if (markdown !== undefined) await writeFile(markdown, verifyMarkdown(report));
    return report.passed ? 0 : 1;
  } catch (err) {
    io.stderr.write(`domainapi-verify: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof VerifyInputError ? 2 : 1;
  }
}

function parseJson(content: string, where: string): unknown {
  try {
    return JSON.parse(content);
  } catch (err) {
    throw new VerifyInputError(
      `${where} is not JSON (${(err as Error).message}): give the output of \`pulumi stack export\``,
    );
  }
}

async function readInput(file: string | undefined, io: VerifyCommandIo): Promise<string> {
  if (file === undefined || file === "-") return text(io.stdin);
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(err);
    throw new VerifyInputError(`cannot read ${file}: ${reason}`);
  }
}

/** What {@link runAsCommand} needs of the process: its arguments, its streams, its exit status. */
export interface VerifyProcess extends VerifyCommandIo {
  readonly argv: readonly string[];
  exitCode: number | string | null | undefined;
}

/**
 * `domainapi-verify` as its binary runs it: the arguments after `node` and the script, the exit
 * status the command returns (1, said, for a failure it did not foresee).
 */
export async function runAsCommand(proc: VerifyProcess = process): Promise<void> {
  try {
    proc.exitCode = await runVerifyCommand(proc.argv.slice(2), proc);
  } catch (err) {
    proc.stderr.write(`domainapi-verify: ${err instanceof Error ? err.message : String(err)}\n`);
    proc.exitCode = 1;
  }
}

if (require.main === module) void runAsCommand();
