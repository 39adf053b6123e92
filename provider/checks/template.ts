/**
 * The template checks across records: the mistakes that pass a record-by-record check and break a
 * domain's mail or certificates (two SPF records at a name, an SPF record over its lookup limit, a
 * DMARC record a receiver cannot parse, an MX aimed at a CNAME, a CNAME loop, a malformed CAA).
 * Each finding names the record's path, the rule, its RFC section and the fix; docs/design.md,
 * "Template checks", says which fail the preview and which warn. `{domainname}` counts as the
 * domain: `mail.{domainname}.` is the template's record `mail`.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { DOMAIN_PLACEHOLDER, describeRecord, type RecordSpec } from "../dns/model";
import { CAA_CRITICAL, CAA_TAGS, readCaa } from "./caa";
import { readDmarc } from "./dmarc";
import { type Finding, RULES, type RuleName } from "./rules";
import { isSpfRecord, passingAll, readSpf, SPF_LOOKUP_LIMIT } from "./spf";

/** A record to check and its path in the inputs (`records[3]`), which every finding names. */
export interface PathedRecord {
  readonly path: string;
  readonly record: RecordSpec;
}

function finding(rule: RuleName, at: PathedRecord, field: string, problem: string, fix: string): Finding {
  return {
    rule,
    severity: RULES[rule].severity,
    path: `${at.path}.${field}`,
    record: describeRecord(at.record),
    problem,
    fix,
  };
}

/**
 * The template's own record a host-name content points at: `{domainname}` and `{domainname}.` are
 * `@`, `mail.{domainname}.` is `mail`; a name outside the placeholder is not the template's.
 *
 * @example
 * templateNameOf("mail.{domainname}."); // "mail"
 */
export function templateNameOf(content: string): string | undefined {
  const host = content.toLowerCase().replace(/\.$/, "");
  if (host === DOMAIN_PLACEHOLDER) return "@";
  const suffix = `.${DOMAIN_PLACEHOLDER}`;
  if (!host.endsWith(suffix)) return undefined;
  const name = host.slice(0, -suffix.length);
  return name === "" || name.includes(DOMAIN_PLACEHOLDER) ? undefined : name;
}

function spfFindings(records: readonly PathedRecord[]): Finding[] {
  const findings: Finding[] = [];
  const spf = records.filter((r) => r.record.type === "TXT" && isSpfRecord(r.record.content));
  for (const group of Map.groupBy(spf, (r) => r.record.name).values()) {
    const [first, ...later] = group;
    for (const other of later) {
      findings.push(
        finding(
          "spf-single-record",
          other,
          "content",
          `a second v=spf1 record at "${other.record.name}" (the first is ${first!.path}); receivers then treat the name as having no SPF record at all (a permanent error)`,
          `merge the two into one record and remove ${other.path}, e.g. "v=spf1 include:a.example include:b.example -all"`,
        ),
      );
    }
  }
  for (const at of spf) {
    const reading = readSpf(at.record.content);
    for (const { problem, fix } of reading.problems) {
      findings.push(finding("spf-syntax", at, "content", `${problem}, a permanent error for receivers`, fix));
    }
    const all = passingAll(reading);
    if (all !== undefined) {
      findings.push(
        finding(
          "spf-pass-all",
          at,
          "content",
          `"${all.text}" authorises every host on the Internet to send mail as "${at.record.name}": "all" matches any sender, ` +
            'and its qualifier "+" (the default when none is written) means pass, so receivers accept forged mail',
          'end the record with "-all" (or "~all" while you test) after the senders it lists, e.g. "v=spf1 include:_spf.example.net -all"',
        ),
      );
    }
    if (reading.lookups.length > SPF_LOOKUP_LIMIT) {
      findings.push(
        finding(
          "spf-lookup-limit",
          at,
          "content",
          `the record itself needs ${reading.lookups.length} DNS lookups (${reading.lookups.join(", ")}), more than the ${SPF_LOOKUP_LIMIT} receivers allow: they fail it (a permanent error), before counting what each include needs further`,
          `bring it to ${SPF_LOOKUP_LIMIT} or fewer: replace a, mx or include terms by the ip4:/ip6: ranges they stand for, or move some senders to a subdomain's own SPF record`,
        ),
      );
    }
  }
  return findings;
}

function isDmarcName(name: string): boolean {
  return name === "_dmarc" || name.startsWith("_dmarc.");
}

function dmarcFindings(records: readonly PathedRecord[]): Finding[] {
  const findings: Finding[] = [];
  const dmarc = records.filter((r) => r.record.type === "TXT" && isDmarcName(r.record.name));
  for (const group of Map.groupBy(dmarc, (r) => r.record.name).values()) {
    const [first, ...later] = group;
    for (const other of later) {
      findings.push(
        finding(
          "dmarc-single-record",
          other,
          "content",
          `a second TXT record at "${other.record.name}" (the first is ${first!.path}); with more than one, receivers apply no DMARC policy at all`,
          `keep one DMARC record at "${other.record.name}" and remove ${other.path}`,
        ),
      );
    }
  }
  for (const at of dmarc) {
    for (const { problem, fix } of readDmarc(at.record.content).problems) {
      findings.push(
        finding(
          "dmarc-syntax",
          at,
          "content",
          `${problem}, so receivers cannot parse this DMARC record`,
          fix,
        ),
      );
    }
  }
  return findings;
}

/** MX, SRV and NS targets must be a host's own name, never an alias (RFC 2181 §10.3, RFC 2782). */
function targetFindings(
  records: readonly PathedRecord[],
  cnames: ReadonlyMap<string, PathedRecord>,
): Finding[] {
  const findings: Finding[] = [];
  for (const at of records) {
    const { type, content } = at.record;
    if (type !== "MX" && type !== "SRV" && type !== "NS") continue;
    const target = templateNameOf(content);
    const alias = target === undefined ? undefined : cnames.get(target);
    if (alias === undefined) continue;
    findings.push(
      finding(
        "target-is-cname",
        at,
        "content",
        `the ${type} target "${content}" is the CNAME ${alias.path} of this template (${describeRecord(alias.record)}); ${type} targets must be a host's own name, and many mail servers refuse to deliver to an alias`,
        `point the ${type} record at the CNAME's target "${alias.record.content}", or give "${alias.record.name}" A/AAAA records instead of the CNAME`,
      ),
    );
  }
  return findings;
}

/** CNAME chains that come back to a name they passed: one finding per loop, at its first record. */
function loopFindings(cnames: ReadonlyMap<string, PathedRecord>): Finding[] {
  const findings: Finding[] = [];
  const done = new Set<string>();
  // A start already done walks no step (the loop below stops at once) and finds nothing.
  for (const start of cnames.keys()) {
    // Stryker disable next-line ArrayDeclaration: a record name holds no space, so none equals the text put in
    const trail: string[] = [];
    let name: string | undefined = start;
    while (name !== undefined && cnames.has(name) && !done.has(name) && !trail.includes(name)) {
      trail.push(name);
      name = templateNameOf(cnames.get(name)!.record.content);
    }
    if (name !== undefined && trail.includes(name)) {
      const loop = trail.slice(trail.indexOf(name));
      const members = loop.map((n) => cnames.get(n)!);
      const first = members.reduce((a, b) =>
        // Stryker disable next-line EqualityOperator: two records never share a path, so no two compare equal
        a.path.localeCompare(b.path, "en", { numeric: true }) <= 0 ? a : b,
      );
      findings.push(
        finding(
          "cname-loop",
          first,
          "content",
          `the CNAME chain ${[...loop, name].map((n) => `"${n}"`).join(" -> ")} loops (${members.map((m) => m.path).join(", ")}): resolvers give up on every name in it`,
          `point one of these CNAMEs at a name outside the loop, or replace it by A/AAAA records`,
        ),
      );
    }
    for (const n of trail) done.add(n);
  }
  return findings;
}

function caaFindings(records: readonly PathedRecord[]): Finding[] {
  const findings: Finding[] = [];
  for (const at of records) {
    if (at.record.type !== "CAA") continue;
    const reading = readCaa(at.record.content);
    for (const { problem, fix } of reading.problems) {
      findings.push(
        finding(
          "caa-syntax",
          at,
          "content",
          `${problem}, and a CA that cannot parse a CAA set issues no certificate`,
          fix,
        ),
      );
    }
    if (!reading.known && reading.tag !== "") {
      const critical =
        (reading.flags & CAA_CRITICAL) !== 0
          ? "; with the critical flag (128) set, no CA will issue a certificate for the domain"
          : "; CAs ignore it";
      findings.push(
        finding(
          "caa-unknown-tag",
          at,
          "content",
          `the CAA tag "${reading.tag}" is not in the IANA registry (almost always a typo)${critical}`,
          `use one of ${CAA_TAGS.join(", ")}`,
        ),
      );
    }
  }
  return findings;
}

/**
 * Every finding of the template checks on `records`, errors and warnings alike, in rule order
 * then record order. Records are expected valid one by one (the record validation ran first).
 *
 * @example
 * checkTemplate([
 *   { path: "records[0]", record: { name: "@", type: "TXT", content: "v=spf1 mx -all" } },
 *   { path: "records[1]", record: { name: "@", type: "TXT", content: "v=spf1 include:_spf.example.net -all" } },
 * ]); // [{ rule: "spf-single-record", path: "records[1].content", ... }]
 */
export function checkTemplate(records: readonly PathedRecord[]): Finding[] {
  const cnames = new Map<string, PathedRecord>();
  for (const r of records)
    if (r.record.type === "CNAME" && !cnames.has(r.record.name)) cnames.set(r.record.name, r);
  return [
    ...spfFindings(records),
    ...dmarcFindings(records),
    ...loopFindings(cnames),
    ...caaFindings(records),
    ...targetFindings(records, cnames),
  ];
}
