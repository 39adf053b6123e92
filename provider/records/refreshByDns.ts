/**
 * Refresh by DNS: a DnsTemplateRecords resource with a witness domain (`verifyDomain`, a domain
 * that uses the template) is refreshed from what that domain publishes, read from its
 * authoritative servers, with no request to the API. A record changed outside Pulumi shows changed
 * in the refreshed state (same id), a vanished one leaves it, and with `purge` a value at a
 * declared name that no record accounts for is held as an untracked record, so the next `up`
 * rewrites the template. The same read serves `domainapi-verify` ({@link readPublished}).
 */
import type * as pulumi from "@pulumi/pulumi";
import { comparePublished, questionsFor, type Verdict } from "../checks/published";
import {
  DNS_READ,
  DnsReadError,
  type DnsReadOptions,
  nameServersOf,
  type RRset,
  readRRset,
} from "../client/resolver";
import type { InputIssue } from "../dns/issues";
import {
  asciiForm,
  describeRecord,
  idnaProblem,
  NUMERIC_END,
  normalizeRecord,
  type RecordSpec,
} from "../dns/model";
import * as log from "../log";
import type { DnsServer } from "../settings/dnsServers";
import type { HeldRecord } from "./corrections";
import { maskText, secretRecordsProperty, secretsOf } from "./masking";
import { decodeOutputs, encodeInputs, encodeOutputs } from "./state";

/** The input that names the witness domain. */
export const VERIFY_DOMAIN_INPUT = "verifyDomain";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Reads `verifyDomain`: absent, or a domain name (lower case, no trailing dot, `xn--` form).
 *
 * @example
 * readVerifyDomain("Shop.Example."); // { domain: "shop.example", issues: [] }
 */
export function readVerifyDomain(raw: unknown): { domain?: string; issues: InputIssue[] } {
  if (raw === undefined || raw === null || raw === "") return { issues: [] };
  const refused = (reason: string) => ({ issues: [{ property: VERIFY_DOMAIN_INPUT, reason }] });
  // "" for what is no domain (and for ""), which the pattern refuses; the final dot dropped once
  // mapped, so that "shop.example。" reads as "shop.example." does.
  const ascii = asciiForm(typeof raw === "string" ? raw.trim() : "").replace(/\.$/, "");
  // Read by the URL host parser as an IPv4 address, and no top-level label is all digits: refused,
  // never read as another name.
  if (NUMERIC_END.test(ascii)) {
    return refused(
      `a domain's last label is never a number (${JSON.stringify(raw)} would be read as an IP address); write the domain that uses this template, e.g. "shop.example"`,
    );
  }
  if (!DOMAIN.test(ascii)) {
    return refused(
      `expected a domain that uses this template, e.g. "shop.example" (refresh reads its published records); got ${JSON.stringify(raw)}`,
    );
  }
  const idna = idnaProblem(ascii);
  if (idna === undefined) return { domain: ascii, issues: [] };
  return refused(`${VERIFY_DOMAIN_INPUT} ${JSON.stringify(raw)} is not a name a registrar takes: ${idna}`);
}

/** What a domain publishes for a template's records, and which server said so. */
export interface PublishedRead<R extends RecordSpec> {
  verdict: Verdict<R>;
  /** The server that answered (`127.0.0.1:5353`). */
  server: string;
}

/** Questions in flight at once to one server: a few, so that a large template is read quickly without flooding it. */
const IN_FLIGHT = 8;

async function answersFrom(
  server: DnsServer,
  records: readonly RecordSpec[],
  domain: string,
  options: DnsReadOptions,
): Promise<RRset[]> {
  const questions = questionsFor(records, domain);
  // Filled by index, in the order of the questions, whatever the order of the answers.
  const answers: RRset[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < questions.length) {
      const at = next++;
      const q = questions[at]!;
      answers[at] = await readRRset(server, q.name, q.type, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, questions.length) }, worker));
  return answers;
}

/**
 * Reads what `domain` publishes for `records` and compares it with them: from the first of
 * `servers` that answers every question (default: the domain's own name servers).
 *
 * @throws DnsReadError when no server answers, naming each and why
 * @example
 * const { verdict, server } = await readPublished(records, "shop.example", true, [server]);
 */
export async function readPublished<R extends RecordSpec>(
  records: readonly R[],
  domain: string,
  purge: boolean,
  servers?: readonly DnsServer[],
  options: DnsReadOptions = DNS_READ,
): Promise<PublishedRead<R>> {
  const asked = servers !== undefined && servers.length > 0 ? servers : await nameServersOf(domain);
  const failures: DnsReadError[] = [];
  for (const server of asked) {
    try {
      const answers = await answersFrom(server, records, domain, options);
      return { verdict: comparePublished(records, domain, answers, purge), server: server.address };
    } catch (error) {
      if (!(error instanceof DnsReadError)) throw error;
      failures.push(error);
    }
  }
  const why = failures.map((f) => f.message).join("; ");
  throw new DnsReadError(
    `no DNS server answered for ${domain}: ${why}`,
    failures.map((f) => f.server).join(", "),
  );
}

/** The witness domain stored with a resource's outputs, if any. */
export function witnessOf(props: Record<string, unknown>): string | undefined {
  return readVerifyDomain(props[VERIFY_DOMAIN_INPUT]).domain;
}

/**
 * `pulumi refresh` of a resource with a witness: its held records as the witness publishes them.
 * Nothing is sent to the API; a server that does not answer fails the refresh, naming it.
 */
export async function refreshByDns(
  id: string,
  props: Record<string, unknown>,
  domain: string,
  servers: readonly DnsServer[] | undefined,
): Promise<pulumi.dynamic.ReadResult<Record<string, unknown>>> {
  const holding = decodeOutputs(props);
  const { settings } = holding;
  const secrets = secretsOf(props);
  const { verdict, server } = await readPublished(holding.held, domain, settings.purge, servers);
  const changedTo = new Map<HeldRecord, RecordSpec>();
  for (const { declared, published } of verdict.different) {
    // Another type in its place (a CNAME at its name) means the record itself is gone.
    if (published.type === declared.type) changedTo.set(declared, published);
  }
  const gone = new Set<HeldRecord>([
    ...verdict.missing,
    ...verdict.different.filter((d) => !changedTo.has(d.declared)).map((d) => d.declared),
  ]);
  const held: HeldRecord[] = holding.held.flatMap((r) => {
    if (gone.has(r)) return [];
    const to = changedTo.get(r);
    if (to === undefined) return [r];
    // Only a URL forward owns made ids, and DNS shows a forward served or missing, never changed.
    return [{ ...normalizeRecord({ ...to, name: r.name }), key: r.key, recordId: r.recordId }];
  });
  const extras = verdict.extra.map((r) => `${describeRecord(r)} (published at ${domain}, not declared)`);
  const untracked = [...new Set([...holding.untracked, ...extras])];
  const said = [
    ...[...changedTo].map(
      ([from, to]) => `changed: ${describeRecord(from)} is published as ${describeRecord(to)}`,
    ),
    ...[...gone].map((r) => `gone: ${describeRecord(r)} is not published`),
    ...verdict.extra.map((r) => `extra: ${describeRecord(r)} is published at a declared name`),
  ];
  const head = `template "${settings.templateId}": refreshed from DNS of ${domain} (server ${server}; nothing sent to the API)`;
  if (said.length === 0) {
    log.info(maskText(`${head}: every held record is published as held`, secrets));
    return { id, props };
  }
  log.warn(
    maskText(
      `${head}: ${said.join("; ")}. The next \`pulumi up\` sets the template back as declared.`,
      secrets,
    ),
  );
  const witness = { [VERIFY_DOMAIN_INPUT]: props[VERIFY_DOMAIN_INPUT] };
  const outputs = encodeOutputs(settings, held, String(props.lastPlan ?? ""), untracked);
  const inputs = { ...encodeInputs(settings, held), ...witness, ...secretRecordsProperty(held, secrets) };
  return { id, props: { ...props, ...outputs, ...witness }, inputs };
}
